// @ts-check
// The screen's words: the page's gettext catalogue (/jsi18n/, loaded before the modules)
// and the names the page carries (nicknames, role names, the engine's refusal templates).
// Every user-facing string of the screen is here or in a `_()` call beside its control.
/** @import { HostPage, HostTable, NightStep, NightWaiting, Morning, CheckDict, Reason, Vote, Refusal, TallyDict, Consequence } from "./table.js" */
/** @import { TapEvent } from "./queue.js" */

const django = globalThis.django;
const gettext = django ? django.gettext : (/** @type {string} */ text) => text;
const interpolate = django ? django.interpolate : (/** @type {string} */ text) => text;

/**
 * A message in the page's language, with its %(name)s values filled in.
 * @param {string} text
 * @param {Record<string, unknown>} [values]
 * @returns {string}
 */
export function _(text, values) {
  return values ? interpolate(gettext(text), values, true) : gettext(text);
}

/**
 * Points with their sign, as the page's language writes them: «+0,10», «−0,50»; «±0,00»
 * for a sum that comes to nothing.
 * @param {number} points
 */
export function signedPoints(points) {
  const shown = Math.abs(points).toLocaleString(pageLang(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const sign = Math.round(Math.abs(points) * 100) === 0 ? "±" : points < 0 ? "−" : "+";
  return `${sign}${shown}`;
}

// The refusals' parameters that are moments (ISO 8601), as games/rules/errors.py's MOMENTS:
// the host reads them as times of day in the club's zone.
const MOMENTS = new Set(["start", "end"]);

/**
 * A moment as a time of day where the club plays («04:41:42»), in the page's language.
 * @param {string | number} moment ISO 8601, or ms since the epoch
 * @param {string | undefined} zone the club's time zone (IANA); the phone's when unknown (a
 *   page kept from before the page carried it)
 * @param {string} [lang]
 */
export function timeOfDay(moment, zone, lang) {
  const format = { timeZone: zone || undefined, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" };
  return new Intl.DateTimeFormat(lang, /** @type {Intl.DateTimeFormatOptions} */ (format)).format(new Date(moment));
}

/** The page's language, for dates and numbers ("ru", "en"); undefined outside a page. */
function pageLang() {
  return globalThis.document?.documentElement.lang || undefined;
}

/** @type {Record<string, () => string>} */
const WAKE = {
  "check:boss": () => _("The boss checks: is it the commissar?"),
  "check:commissar": () => _("The commissar checks"),
  "kill:mafia": () => _("The mafia shoot"),
  heal: () => _("The doctor heals"),
};
/** @type {Record<Reason, () => string>} */
const REASONS = {
  voted: () => _("voted out"),
  car_crash: () => _("both voted out"),
  fouls: () => _("three fouls"),
  killed: () => _("killed"),
  kamikaze: () => _("taken by the kamikaze"),
  swindler: () => _("taken by the swindler"),
  disqualified: () => _("disqualified"),
};
/** @type {Record<string, () => string>} */
const CHECKS = {
  red: () => _("red"),
  black: () => _("black"),
  commissar: () => _("the commissar"),
  not_commissar: () => _("not the commissar"),
};
/** @type {Record<string, () => string>} */
const OUTCOMES = {
  no_candidates: () => _("Nobody got a vote: nobody leaves."),
  nesostrel: () => _("More than four candidates: nobody leaves."),
  first_day_kept: () => _("The table keeps everyone today."),
  both_kept: () => _("Both stay."),
  runoff_tie: () => _("A tie: nobody leaves."),
  candidates_left: () => _("Too few candidates left: nobody leaves."),
};

// The rules' refusal of a speech that starts before the one before it ended
// (games/rules/club/day.py): its clock's start cannot be recorded, and the screen offers
// to restart it.
const SPEECH_OVERLAP = "This speech starts at %(start)s, before the one before it ended (%(end)s).";

/** The words that need the page's names: seats, roles, the engine's templates. */
export class Words {
  /** @param {Pick<HostPage, "nicks" | "roleNames" | "messages"> & Partial<Pick<HostPage, "guests" | "zone">>} page */
  constructor(page) {
    this.page = page;
  }

  /** @param {string} code */
  role(code) {
    return this.page.roleNames[code] || code;
  }

  /** @param {number} seat */
  nick(seat) {
    return this.page.nicks[String(seat)] || "";
  }

  /**
   * Whether a guest (no member) sits in the seat, named on the screen: the seat says so,
   * so the guest is not taken for a member of a like name. A page kept from before the
   * page carried `guests` marks none.
   * @param {number} seat
   */
  guest(seat) {
    return (this.page.guests || []).includes(seat);
  }

  /** @param {number} seat */
  seat(seat) {
    return _("%(seat)s %(nick)s", { seat, nick: this.nick(seat) }).trim();
  }

  /**
   * The phone's engine refuses in English templates; the page carries their translations.
   * A moment (a speech's start) reads as a time of day in the club's zone.
   * @param {Refusal} refusal
   */
  refusal(refusal) {
    /** @type {Record<string, unknown>} */
    const params = {};
    for (const [name, value] of Object.entries(refusal.params || {})) {
      if (typeof value === "string" && MOMENTS.has(name) && !Number.isNaN(Date.parse(value))) params[name] = this.time(value);
      else params[name] = typeof value === "string" && this.page.messages[value] ? this.page.messages[value] : value;
    }
    return interpolate(this.page.messages[refusal.template] || refusal.template, params, true);
  }

  /**
   * A moment as the host reads it: the time of day in the club's zone.
   * @param {string | number} moment ISO 8601, or ms since the epoch
   */
  time(moment) {
    return timeOfDay(moment, this.page.zone, pageLang());
  }

  /**
   * Whether a refusal is the rules' «this speech starts before the one before it ended»:
   * by its code (`speech_overlap`, from the phone's engine and from the server's tap door,
   * which answers with the rule's own code), or by its words for a refusal a device kept
   * from before the doors carried the rule's code (they answered `invalid`).
   * @param {string | undefined} code
   * @param {string} message
   */
  speechOverlap(code, message) {
    if (code === "speech_overlap") return true;
    const template = this.page.messages[SPEECH_OVERLAP] || SPEECH_OVERLAP;
    const words = template.split(/%\(\w+\)s/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    return new RegExp(words.join(".+?")).test(message);
  }

  /** @param {NightStep} night */
  wake(night) {
    const known = WAKE[night.slot];
    if (known) return known();
    if (night.kind === "kill") return _("%(role)s shoots", { role: this.role(night.role) });
    if (night.kind === "check") return _("%(role)s checks", { role: this.role(night.role) });
    // Never the actor's seat: the line is on the screen for anyone to glance at.
    return _("%(role)s acts", { role: this.role(night.role) });
  }

  /** @param {string | null} winner */
  winner(winner) {
    if (winner === "red") return _("The red (town) win");
    if (winner === "black") return _("The black (mafia) win");
    return _("%(role)s wins", { role: this.role(String(winner)) });
  }

  /** @param {HostTable} table */
  phase(table) {
    if (table.over) return this.winner(table.winner);
    if (table.phase === "setup") return _("Before day 1");
    if (table.phase === "day") return _("Day %(n)s", { n: table.n });
    return _("Night %(n)s", { n: table.n });
  }

  /** @param {string | null} outcome */
  outcome(outcome) {
    return outcome && OUTCOMES[outcome] ? OUTCOMES[outcome]() : "";
  }

  /** @param {Reason} reason */
  reason(reason) {
    return (REASONS[reason] || (() => reason))();
  }

  /** @param {CheckDict} check */
  check(check) {
    const result = (CHECKS[check.result] || (() => check.result))();
    return _("Check %(by)s → %(target)s: %(result)s", { by: check.by, target: check.target, result });
  }

  /**
   * The morning summary. A check's answer names two roles (the checker's seat and the
   * answer), so the checks are in it only while the cards are shown (👁 held, or the end);
   * otherwise one line, the same every morning, says where they are.
   * @param {Morning} morning
   * @param {boolean} cards
   */
  morning(morning, cards) {
    const lines = [];
    for (const shot of morning.shots) {
      const saved = morning.healed.includes(shot.target);
      lines.push(
        saved
          ? _("%(by)s shot %(seat)s, the doctor saved them", { by: this.role(shot.by), seat: this.seat(shot.target) })
          : _("%(by)s shot %(seat)s", { by: this.role(shot.by), seat: this.seat(shot.target) }),
      );
    }
    if (!morning.shots.length) lines.push(_("Nobody was shot."));
    if (cards) for (const check of morning.checks) lines.push(this.check(check));
    else lines.push(_("The checks: hold 👁."));
    const left = morning.left.map((out) => this.seat(out.seat));
    lines.push(left.length ? _("Leaves: %(seats)s", { seats: left.join(", ") }) : _("Nobody leaves."));
    return lines;
  }

  /**
   * What the show of hands decides: the runoff says its round and who dropped out, the
   * questions name the candidates they are about.
   * @param {Vote} vote
   */
  voteTitle(vote) {
    const about = vote.about.map((seat) => this.seat(seat)).join(", ");
    if (vote.type === "votes") return _("Votes on the nominees");
    if (vote.type === "first_day_expel") return _("Expel anyone of %(seats)s at all?", { seats: about });
    if (vote.type === "expel_both") return _("Expel both: %(seats)s?", { seats: about });
    if (vote.round > 1) {
      const dropped = vote.dropped.map((seat) => this.seat(seat)).join(", ");
      return dropped
        ? _("Hands again, round %(round)s; out of the runoff: %(seats)s", { round: vote.round, seats: dropped })
        : _("Hands again, round %(round)s", { round: vote.round });
    }
    return _("Hands to expel");
  }

  /**
   * The day's last vote as recorded, and what it did: the host sees the count the engine
   * took, not only what follows from it. A preliminary count names who speaks in defence;
   * a runoff, who is out of it (still in the game: «выбывает» would read as leaving it).
   * @param {TallyDict} tally
   */
  tally(tally) {
    const parts = [];
    if (tally.counts) {
      const counts = Object.entries(tally.counts).map(([seat, count]) => _("%(seat)s: %(count)s", { seat, count }));
      parts.push(_("Counted: %(counts)s.", { counts: counts.join(", ") }));
    }
    if (tally.for !== null) parts.push(_("Hands for: %(count)s.", { count: tally.for }));
    /** @param {number[]} seats */
    const named = (seats) => seats.map((seat) => this.seat(seat)).join(", ");
    if (tally.dropped.length) parts.push(_("Out of the runoff, still in the game: %(seats)s.", { seats: named(tally.dropped) }));
    if (tally.defence.length) parts.push(_("To the defence: %(seats)s.", { seats: named(tally.defence) }));
    if (tally.expelled.length) {
      parts.push(_("Leaves: %(seats)s.", { seats: named(tally.expelled) }));
    } else if (tally.outcome && OUTCOMES[tally.outcome]) {
      parts.push(OUTCOMES[tally.outcome]());
    }
    return parts.join(" ");
  }

  /**
   * The best move as named so far: «ЛХ 6 Лиса: 1, 2, 9», or what to do when none is.
   * @param {{ by: number, targets: number[] }} form
   */
  bestMove(form) {
    const by = this.seat(form.by);
    if (!form.targets.length) return _("Best move of %(seat)s: tap up to three seats", { seat: by });
    return _("Best move of %(seat)s: %(seats)s", { seat: by, seats: form.targets.join(", ") });
  }

  /**
   * The best move as recorded: «ЛХ 6 Лиса: 1, 2, 9», or that its giver named none.
   * @param {{ by: number, targets: number[] }} given
   */
  bestMoveGiven(given) {
    if (!given.targets.length) return _("No best move from %(seat)s", { seat: this.seat(given.by) });
    return this.bestMove(given);
  }

  /**
   * Extra points (or a penalty) as given: «+0,15 — 1 Лиса: лидер стола».
   * @param {{ seat: number, points: number, reason: string }} bonus
   */
  bonus(bonus) {
    return _("%(points)s — %(seat)s: %(reason)s", { points: signedPoints(bonus.points), seat: this.seat(bonus.seat), reason: this.reasonText(bonus.reason) });
  }

  /**
   * A host's reason as the host reads it: each seat it names by reference ({seat:4},
   * games/reasons.py) as «4 Лиса» (the host sees every name at their table).
   * @param {string} text
   */
  reasonText(text) {
    return text.replace(/\{seat:(\d{1,2})\}/g, (_ref, seat) => this.seat(Number(seat)));
  }

  /**
   * The hint that confirms extra points (or a penalty) once the screen has taken them.
   * @param {{ seat: number, points: number, reason: string }} bonus
   */
  bonusGiven(bonus) {
    const values = { points: signedPoints(bonus.points), seat: this.seat(bonus.seat), reason: this.reasonText(bonus.reason) };
    return bonus.points < 0
      ? _("Penalty given: %(points)s to %(seat)s (%(reason)s)", values)
      : _("Given: %(points)s to %(seat)s (%(reason)s)", values);
  }

  /**
   * ☰'s line in place of «Допы или штраф…» once the window for them has closed: when, in
   * the club's zone and the page's language.
   * @param {HostPage["bonusWindow"]} window
   */
  bonusWindowClosed(window) {
    if (window.closes === null) return _("Extra points: the window closed at the game's end");
    const when = new Date(window.closes).toLocaleString(pageLang(), { dateStyle: "short", timeStyle: "short", timeZone: this.page.zone });
    return _("Extra points: the window closed on %(when)s", { when });
  }

  /**
   * What ↶ asks before it takes back extra points or the best move; null for any other
   * tap (taken back at once, as always).
   * @param {TapEvent | null} event the event ↶ would take back
   * @returns {string | null}
   */
  undoQuestion(event) {
    if (!event) return null;
    if (event.type === "bonus") {
      const values = { points: signedPoints(event.points), seat: this.seat(event.seat) };
      return event.points < 0
        ? _("Undo the penalty %(points)s of seat %(seat)s?", values)
        : _("Undo the extra points %(points)s of seat %(seat)s?", values);
    }
    if (event.type === "best_move") {
      const seat = this.seat(event.by);
      const named = event.targets.join(", ");
      return named ? _("Undo the best move of %(seat)s: %(seats)s?", { seat, seats: named }) : _("Undo \"no best move\" of %(seat)s?", { seat });
    }
    return null;
  }

  /**
   * Who aims at a seat tonight, by the night's slot ("kill:mafia", "heal", "check:boss"…).
   * @param {string} slot
   * @param {(seat: number) => string} roleOf the role code of a seat, for an action's slot
   */
  slot(slot, roleOf) {
    const [kind, who] = slot.split(":");
    if (kind === "kill") return who === "mafia" ? _("The mafia's shot") : _("%(role)s's shot", { role: this.role(who) });
    if (kind === "heal") return _("The doctor's heal");
    if (kind === "check") return _("%(role)s's check", { role: this.role(who) });
    return _("%(role)s's action", { role: this.role(roleOf(Number(who))) });
  }

  /**
   * A waiting role of the night, by its code ("mafia" for the joint kill).
   * @param {NightWaiting} waiting
   */
  waiting(waiting) {
    return waiting.role === "mafia" ? _("the mafia") : this.role(waiting.role);
  }

  /**
   * A waiting tap, for the host to review.
   * @param {Record<string, unknown>} event
   */
  tap(event) {
    /** @param {string} key */
    const seat = (key) => (event[key] === null || event[key] === undefined ? _("nobody") : String(event[key]));
    /** @type {Record<string, () => string>} */
    const words = {
      speech: () => _("speech of %(seat)s", { seat: seat("seat") }),
      nominate: () => _("%(by)s nominates %(target)s", { by: seat("by"), target: seat("target") }),
      foul: () => _("foul: %(seat)s", { seat: seat("seat") }),
      undo: () => _("undo"),
    };
    return (words[String(event.type)] || (() => `${event.type} ${seat("target")}`))();
  }

  /**
   * The question before a tap that removes a player or ends the game, or a morning before
   * every role has acted: it says who leaves and why, and who has not acted.
   * @param {Partial<Consequence> & { reopens?: boolean, error?: string }} outcome
   */
  consequence(outcome) {
    if (outcome.reopens) {
      return _("This reopens the finished game: its result and analysis are withdrawn until it ends again. Undo?");
    }
    // The server's own question, for what only it knows of (↶ of what the host gave after
    // the end, when this device's log is behind): its words, in the host's language.
    if (outcome.reopens === false && outcome.error) return outcome.error;
    const parts = [];
    if (outcome.waiting && outcome.waiting.length) {
      parts.push(_("Not acted tonight: %(roles)s.", { roles: outcome.waiting.map((each) => this.waiting(each)).join(", ") }));
    }
    for (const seat of outcome.removes || []) {
      const reason = outcome.reasons ? outcome.reasons[String(seat)] : undefined;
      parts.push(
        reason
          ? _("%(seat)s leaves the table: %(why)s.", { seat: this.seat(seat), why: this.reason(reason) })
          : _("Leaves the table: %(seats)s.", { seats: this.seat(seat) }),
      );
    }
    if (outcome.winner) parts.push(_("The game ends: %(winner)s.", { winner: this.winner(outcome.winner) }));
    parts.push(_("Record it?"));
    return parts.join(" ");
  }

  /**
   * The buttons of consequence()'s question, when not «Да, записать» and «Отмена»: ↶ on the
   * end screen says what each does (the undo reopens the game; the other keeps its result),
   * and so does ↶ of what was given after the end, asked by the server.
   * @param {Partial<Consequence> & { reopens?: boolean, error?: string }} outcome
   * @returns {[yes: string, no: string] | []}
   */
  consequenceButtons(outcome) {
    if (outcome.reopens) return [_("Undo and reopen"), _("Keep the result")];
    if (outcome.reopens === false && outcome.error) return [_("Yes, undo it"), _("Keep it")];
    return [];
  }
}

/**
 * A tap in words, for the host to review (the waiting taps, what another device recorded,
 * a tap that was not recorded): «речь 5», «фол: 7», «5 выставляет 8», «Мафия стреляет в 3».
 * A night's check or action is named by the role that made it, never by its seat, so the
 * words give no card away.
 * @param {TapEvent} tap
 * @param {Words} words
 * @param {Record<string, string>} [seats] seat → role code, to name a seat's night action by its role
 * @returns {string}
 */
export function describeTap(tap, words, seats = {}) {
  // Read field by field whatever the kind (a field its kind lacks reads as missing).
  /** @type {Record<string, unknown>} */
  const event = { ...tap };
  /** @param {string} key */
  const seat = (key) => (event[key] === null || event[key] === undefined ? _("nobody") : String(event[key]));
  /** @param {string} key */
  const roleOf = (key) => words.role(seats[String(event[key])] || "");
  /** @param {unknown} given {seat: count} or {voter: seat} */
  const tally = (given, byVoter = false) => {
    /** @type {Record<string, number>} */
    const counts = {};
    for (const [key, value] of Object.entries(/** @type {Record<string, unknown>} */ (given || {}))) {
      if (byVoter) counts[String(value)] = (counts[String(value)] || 0) + 1;
      else counts[key] = Number(value);
    }
    return Object.entries(counts)
      .map(([target, count]) => `${target}: ${count}`)
      .join(", ");
  };
  const counted = () => (event.voters ? tally(event.voters, true) : tally(event.counts));
  const target = event.target;
  const missed = target === null || target === undefined;
  /** @type {Record<string, () => string>} */
  const known = {
    day: () => _("day %(n)s", { n: event.n }),
    night: () => _("night %(n)s", { n: event.n }),
    speech: () => _("speech of %(seat)s", { seat: seat("seat") }),
    last_word: () => _("last word of %(seat)s", { seat: seat("seat") }),
    nominate: () => _("%(by)s nominates %(target)s", { by: seat("by"), target: seat("target") }),
    foul: () => _("foul: %(seat)s", { seat: seat("seat") }),
    disqualify: () => _("disqualified: %(seat)s", { seat: seat("seat") }),
    extension: () => _("+30 s: %(seat)s", { seat: seat("seat") }),
    votes: () => _("votes: %(counts)s", { counts: counted() }),
    hands: () => _("hands: %(counts)s", { counts: counted() }),
    first_day_expel: () => _("hands to expel anyone: %(count)s", { count: event.for }),
    expel_both: () => _("hands to expel both: %(count)s", { count: event.for }),
    kill: () => {
      if (event.by === "mafia") return missed ? _("the mafia: a miss") : _("the mafia shoots %(target)s", { target });
      const who = words.role(String(event.by));
      return missed ? _("%(who)s: a miss", { who }) : _("%(who)s shoots %(target)s", { who, target });
    },
    check: () =>
      missed ? _("%(role)s checks nobody", { role: roleOf("by") }) : _("%(role)s checks %(target)s", { role: roleOf("by"), target }),
    heal: () => (missed ? _("the doctor heals nobody") : _("the doctor heals %(target)s", { target })),
    action: () => _("%(role)s acts on %(target)s", { role: roleOf("by"), target: seat("target") }),
    best_move: () => {
      const named = Array.isArray(event.targets) ? event.targets.join(", ") : "";
      return named ? _("best move of %(by)s: %(seats)s", { by: seat("by"), seats: named }) : _("no best move: %(by)s", { by: seat("by") });
    },
    bonus: () => {
      const points = Number(event.points);
      const shown = `${points < 0 ? "−" : "+"}${Math.abs(points)}`;
      return points < 0
        ? _("penalty %(points)s: %(seat)s", { points: shown, seat: seat("seat") })
        : _("extra points %(points)s: %(seat)s", { points: shown, seat: seat("seat") });
    },
    undo: () => _("undo"),
  };
  return (known[String(event.type)] || (() => String(event.type)))();
}
