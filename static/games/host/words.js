// @ts-check
// The screen's words: the page's gettext catalogue (/jsi18n/, loaded before the modules)
// and the names the page carries (nicknames, role names, the engine's refusal templates).
// Every user-facing string of the screen is here or in a `_()` call beside its control.
/** @import { HostPage, HostTable, NightStep, Morning, CheckDict, Reason, Vote, Refusal } from "./table.js" */

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

/** The words that need the page's names: seats, roles, the engine's templates. */
export class Words {
  /** @param {Pick<HostPage, "nicks" | "roleNames" | "messages">} page */
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

  /** @param {number} seat */
  seat(seat) {
    return _("%(seat)s %(nick)s", { seat, nick: this.nick(seat) }).trim();
  }

  /**
   * The phone's engine refuses in English templates; the page carries their translations.
   * @param {Refusal} refusal
   */
  refusal(refusal) {
    /** @type {Record<string, unknown>} */
    const params = {};
    for (const [name, value] of Object.entries(refusal.params || {})) {
      params[name] = typeof value === "string" && this.page.messages[value] ? this.page.messages[value] : value;
    }
    return interpolate(this.page.messages[refusal.template] || refusal.template, params, true);
  }

  /** @param {NightStep} night */
  wake(night) {
    const known = WAKE[night.slot];
    if (known) return known();
    if (night.kind === "kill") return _("%(role)s shoots", { role: this.role(night.role) });
    if (night.kind === "check") return _("%(role)s checks", { role: this.role(night.role) });
    return _("%(role)s (seat %(seat)s) acts", { role: this.role(night.role), seat: night.actor });
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

  /** @param {Morning} morning */
  morning(morning) {
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
    for (const check of morning.checks) lines.push(this.check(check));
    const left = morning.left.map((out) => this.seat(out.seat));
    lines.push(left.length ? _("Leaves: %(seats)s", { seats: left.join(", ") }) : _("Nobody leaves."));
    return lines;
  }

  /** @param {Vote} vote */
  voteTitle(vote) {
    if (vote.type === "votes") return _("Votes on the nominees");
    if (vote.type === "hands") return _("Hands to expel");
    if (vote.type === "first_day_expel") return _("Expel anyone at all?");
    return _("Expel both?");
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
   * The question before a tap that removes a player or ends the game.
   * @param {{ removes?: number[], winner?: string | null }} outcome
   */
  consequence(outcome) {
    const parts = [];
    if (outcome.removes && outcome.removes.length) {
      parts.push(_("Leaves the table: %(seats)s.", { seats: outcome.removes.map((seat) => this.seat(seat)).join(", ") }));
    }
    if (outcome.winner) parts.push(_("The game ends: %(winner)s.", { winner: this.winner(outcome.winner) }));
    parts.push(_("Record it?"));
    return parts.join(" ");
  }
}
