// @ts-check
// Drawing the screen from what it shows now: the header, the prompt (clock, what happens,
// the morning, the vote's chips and keypad), the seats and the bar. Nothing here keeps the
// game's state: each control calls what `Controls` says, and the main module redraws after
// every change. The one thing kept between draws is the seats' gesture, bound once to their
// container (a press outlives the redraws it causes: gestures.js).
//
// Secrecy: nothing drawn differs by role unless the cards are shown (👁 held, or the game
// is over). A seat's role, team colour and the checks' answers are not even in the page
// otherwise, so no style of the site can set one seat apart from another.
/** @import { HostPage, HostTable, Morning, TableSeat, Vote, CheckDict, BestMoveDict } from "./table.js" */
/** @import { Clock } from "./clock.js" */
/** @import { VoteForm, Target } from "./vote.js" */
/** @import { TapEvent } from "./queue.js" */
/** @import { Words } from "./words.js" */
/** @import { SeatGestures } from "./gestures.js" */
import { span } from "./clock.js";
import { bindSeatGestures, watchTouchEnd } from "./gestures.js";
import { VoteForm as Form } from "./vote.js";
import { _, signedPoints } from "./words.js";

/**
 * @typedef {object} View what the screen shows now
 * @property {HostTable} table
 * @property {number} number the game's number
 * @property {number | null} tableNo its table, when the evening has two
 * @property {number | null} round a tournament's game: its round
 * @property {number} seq the server's last entry this phone knows
 * @property {number} waiting taps waiting for the server
 * @property {boolean} online
 * @property {boolean} engineReady the phone's engine has loaded
 * @property {Clock | null} clock
 * @property {VoteForm | null} vote
 * @property {boolean} foulNext «Фол…» armed: the next seat tapped gets a foul
 * @property {boolean} cards 👁 is held: the cards and the checks' answers show
 * @property {BestMoveForm | null} bestMove the best move being named, while it is offered
 * @property {HostPage["bonusWindow"]} bonusWindow the club's window for extra points after the end
 * @property {boolean} bonusOpen extra points are taken now (the game runs, or the window is open)
 */
/**
 * The best move (ЛХ) being named: who gives it and the seats tapped so far, in order.
 * @typedef {{ by: number, targets: number[] }} BestMoveForm
 */
/**
 * @typedef {object} Controls what the screen's controls do
 * @property {(event: TapEvent) => unknown} send
 * @property {(seat: TableSeat) => unknown} seatTap
 * @property {(seat: TableSeat) => unknown} seatHold
 * @property {(target: Target) => void} choose a candidate whose hands are tapped or counted
 * @property {(target: Target, count: number) => void} count a key of the keypad
 * @property {(target: Target) => void} restTo
 * @property {() => void} toggleCounts
 * @property {() => void} toggleFoul
 * @property {() => void} startRound
 * @property {(seat: number) => void} giver who of the night's victims gives the best move
 * @property {() => void} recordBestMove «Записать ЛХ»: the seats tapped
 * @property {() => void} skipBestMove «без ЛХ»: none
 */

// What a night's slot leaves on the seat it aims at (words.slot says it in words).
/** @type {Record<string, string>} */
const SLOT_MARKS = { kill: "🎯", heal: "✚", check: "🔍", action: "✦" };
const MOST_COLUMNS = 5;
const TIGHT_SEAT_PX = 56; // below this a seat shows its number and marks, not the nickname

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs] `class`, `on<event>` listeners, attributes
 * @param {...unknown} children nodes or text; null, undefined and false are left out
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "class") node.className = String(value);
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return node;
}

/**
 * @param {string} label
 * @param {() => unknown} onclick
 * @param {Record<string, unknown>} [attrs]
 */
function button(label, onclick, attrs = {}) {
  return el("button", { type: "button", ...attrs, onclick }, label);
}

/** @type {{ table: HostTable, act: Controls } | null} the last draw's, for the seats' gesture */
let drawn = null;
/** @type {SeatGestures | null} */
let gestures = null;

/** The seats' gesture, bound once: it finds the seat by number in the table drawn last. */
function seatGestures() {
  if (!gestures) {
    /** @param {number} no */
    const seat = (no) => (drawn ? drawn.table.seats.find((each) => each.no === no) : undefined);
    gestures = bindSeatGestures($("host-seats"), {
      tap(no) {
        const found = seat(no);
        if (found && drawn) drawn.act.seatTap(found);
      },
      hold(no) {
        const found = seat(no);
        if (found && drawn) drawn.act.seatHold(found);
      },
    });
  }
  return gestures;
}

/**
 * @param {View} view
 * @param {Controls} act
 * @param {Words} words
 */
export function draw(view, act, words) {
  const table = view.table;
  drawn = { table, act };
  const game =
    (view.tableNo
      ? _("Game %(number)s, table %(table)s", { number: view.number, table: view.tableNo })
      : _("Game %(number)s", { number: view.number })) +
    (view.round ? `, ${_("round %(round)s", { round: view.round })}` : "");
  $("host-title").textContent = `${game} · ${words.phase(table)}`;
  /** @type {HTMLButtonElement} */ ($("host-undo")).disabled = !table.undo;
  $("host").classList.toggle("over", table.over);
  $("host").classList.toggle("show-cards", view.cards);
  const net = $("host-net");
  net.textContent = view.online
    ? view.waiting
      ? _("sending %(count)s…", { count: view.waiting })
      : ""
    : view.waiting
      ? _("offline, %(count)s taps waiting", { count: view.waiting })
      : _("offline");
  net.classList.toggle("offline", !view.online);
  // For the browser tests and the benchmark: what the screen has taken so far.
  document.documentElement.dataset.seq = String(view.seq);
  document.documentElement.dataset.queued = String(view.waiting);
  drawPrompt(view, act, words);
  drawSeats(view, words);
  drawBar(view, act);
  drawNightMenu(view, words);
  drawBonusMenu(view, words);
  // ☰ «Дисквалифицировать…» while the rules take it (host/disqualify.js opens the dialog).
  $("host-disqualify-item").hidden = !table.legal.includes("disqualify");
  fitSeats();
}

/**
 * @param {View} view
 * @param {Controls} act
 * @param {Words} words
 */
function drawPrompt(view, act, words) {
  const { table, clock } = view;
  const prompt = $("host-prompt");
  prompt.replaceChildren();
  if (!view.engineReady && !view.online && view.waiting) {
    prompt.append(el("p", { class: "host-note" }, _("The screen shows the last state it knew; the taps are kept and sent when the network returns.")));
  }
  const given = bestMoveShown(table);
  if (table.over) {
    prompt.append(el("p", { class: "host-line host-winner" }, words.winner(table.winner)));
    if (view.bestMove && table.best_move) prompt.append(bestMoveBlock(view.bestMove, table.best_move.by, act, words));
    if (given) prompt.append(bestMoveGiven(given, words));
    if (table.morning) prompt.append(morningBlock(table.morning, true, words));
    return;
  }
  const line = el("div", { class: clock ? "host-line" : "host-line compact" });
  if (clock) {
    line.append(
      el("output", {
        class: "host-clock",
        "data-key": clock.key,
        "data-seconds": clock.seconds,
        "data-started": clock.started || "",
        "aria-label": _("Time left"),
      }),
    );
  }
  line.append(el("span", { class: "host-what" }, promptText(view, words)));
  prompt.append(line);
  if (view.bestMove && table.best_move) prompt.append(bestMoveBlock(view.bestMove, table.best_move.by, act, words));
  // A vote's chips and keypad need the room: the seats keep the best move's ★ meanwhile.
  if (given && !(view.vote && table.vote)) prompt.append(bestMoveGiven(given, words));
  if (table.morning && table.phase === "day") prompt.append(morningBlock(table.morning, view.cards, words));
  if (table.phase === "night") {
    const checks = tonightsChecks(table);
    if (checks.length) prompt.append(checksBlock(checks, view.cards, words));
  }
  if (view.vote && table.vote) prompt.append(voteStrip(view.vote, table.vote, table.majority, act, words));
  else if (table.tally && table.phase === "day") prompt.append(el("p", { class: "host-tally" }, words.tally(table.tally)));
}

/**
 * @param {View} view
 * @param {Words} words
 */
function promptText({ table, clock, vote }, words) {
  if (table.phase === "setup") return _("Seats taken: start day 1 when the table is ready.");
  if (table.phase === "night") {
    return table.night ? words.wake(table.night) : _("Every role has acted or passed: morning.");
  }
  if (clock && clock.kind === "balagan") return _("Free talk");
  const seat = clock && clock.seat !== undefined ? words.seat(clock.seat) : "";
  if (clock && clock.kind === "last_word") return _("Last word: %(seat)s", { seat });
  if (clock && clock.kind === "defence") return _("Defence: %(seat)s", { seat });
  if (clock && clock.kind === "speech") return _("Speaks: %(seat)s", { seat });
  if (vote && table.vote) return words.voteTitle(table.vote);
  return words.outcome(table.outcome) || _("The day's talk is over: night falls.");
}

/**
 * The checks made tonight: the last ones of the game, as many as the seats' marks of a
 * check's slot (a check's answer stays until the morning, shown only under 👁).
 * @param {HostTable} table
 * @returns {CheckDict[]}
 */
export function tonightsChecks(table) {
  const made = table.seats.reduce((sum, seat) => sum + seat.targeted.filter((slot) => slot.startsWith("check:")).length, 0);
  return made ? table.checks.slice(-made) : [];
}

/**
 * @param {CheckDict[]} checks
 * @param {boolean} cards
 * @param {Words} words
 */
function checksBlock(checks, cards, words) {
  if (!cards) return el("p", { class: "host-note host-secret" }, _("The check's answer: hold 👁."));
  return el("ul", { class: "host-morning host-secret" }, checks.map((check) => el("li", {}, words.check(check))));
}

/**
 * The best move being named: who gives it (a chip each when the night took two), and the
 * seats tapped so far; the bar records it («Записать ЛХ») or skips it («без ЛХ»).
 * @param {BestMoveForm} form
 * @param {number[]} givers
 * @param {Controls} act
 * @param {Words} words
 */
function bestMoveBlock(form, givers, act, words) {
  const line = el("div", { class: "host-best-move", "data-by": form.by });
  if (givers.length > 1) {
    // The chips are bare seat numbers: the caption says what choosing one means.
    line.append(el("span", { class: "host-best-move-givers" }, _("Who names the best move:")));
    for (const seat of givers) {
      const chosen = seat === form.by;
      line.append(
        button(String(seat), () => act.giver(seat), {
          class: `host-chip${chosen ? "" : " outline"}`,
          "aria-pressed": String(chosen),
          "aria-label": _("Best move of %(seat)s", { seat: words.seat(seat) }),
          "data-giver": seat,
        }),
      );
    }
  }
  line.append(el("span", {}, words.bestMove(form)));
  return line;
}

/**
 * The best move as recorded, while the screen still shows it: from the morning it was
 * named until the next day starts (the day and the night after its giver's night), and
 * after the end. Null otherwise, or while none is recorded.
 * @param {HostTable} table
 * @returns {BestMoveDict | null}
 */
export function bestMoveShown(table) {
  const given = table.best_move_given;
  if (!given) return null;
  if (table.over) return given;
  const night = table.eliminated.find((out) => out.seat === given.by && out.phase === "night");
  return night && table.n === night.n + 1 ? given : null;
}

/**
 * @param {BestMoveDict} given
 * @param {Words} words
 */
function bestMoveGiven(given, words) {
  return el("p", { class: "host-best-move-given" }, words.bestMoveGiven(given));
}

/**
 * @param {Morning} morning
 * @param {boolean} cards
 * @param {Words} words
 */
function morningBlock(morning, cards, words) {
  const lines = words.morning(morning, cards).map((line) => el("li", {}, line));
  return el("ul", { class: "host-morning", "aria-label": _("Morning after night %(n)s", { n: morning.night }) }, lines);
}

/**
 * The candidates' chips with their hands (tapped) or their numbers (counted), and with
 * counts one keypad for the chosen candidate: 0 … the voters, whatever the candidates.
 * @param {VoteForm} form
 * @param {Vote} vote
 * @param {number} majority
 * @param {Controls} act
 * @param {Words} words
 */
function voteStrip(form, vote, majority, act, words) {
  const strip = el("div", { class: "host-vote" });
  const chips = el("div", { class: "host-chips" });
  for (const target of Form.targets(vote)) {
    const count = form.counts ? form.countFor(target) : form.handsFor(target);
    const shown = count === undefined ? "?" : String(count);
    const name = target === "for" ? _("For") : String(target);
    const chosen = form.current === target;
    chips.append(
      el(
        "button",
        {
          type: "button",
          class: `host-chip${chosen ? "" : " outline"}`,
          "aria-pressed": String(chosen),
          "data-target": target,
          onclick: () => act.choose(target),
        },
        el("b", {}, name),
        // The nickname for a screen reader: the chip's name holds what it shows.
        target === "for" ? null : el("span", { class: "visually-hidden", translate: "no" }, ` ${words.nick(target)}`),
        el("span", { class: "host-chip-count" }, form.counts ? `=${shown}` : `✋${shown}`),
      ),
    );
  }
  const left = form.left(vote);
  chips.append(
    el(
      "span",
      { class: `host-left${left < 0 ? " over" : ""}` },
      vote.among.length ? _("hands left: %(count)s", { count: left }) : _("majority: %(count)s", { count: majority }),
    ),
  );
  strip.append(chips);
  if (form.counts) strip.append(keypad(form, vote, act, words));
  return strip;
}

/**
 * One keypad, 0 … the voters, for the chosen candidate.
 * @param {VoteForm} form
 * @param {Vote} vote
 * @param {Controls} act
 * @param {Words} words
 */
function keypad(form, vote, act, words) {
  const target = form.current;
  const typed = form.countFor(target);
  const name = target === "for" ? _("Hands for") : _("Hands for %(seat)s", { seat: words.seat(target) });
  // A fieldset names the keys' group for a screen reader (Pico draws a role="group" as one
  // joined bar of buttons).
  const pad = el("fieldset", { class: "host-keypad", "data-target": target }, el("legend", { class: "visually-hidden" }, name));
  for (let count = 0; count <= vote.voters.length; count += 1) {
    const chosen = typed === count;
    pad.append(
      button(String(count), () => act.count(target, count), {
        class: `host-key${chosen ? "" : " outline secondary"}`,
        "aria-pressed": String(chosen),
        "data-count": count,
      }),
    );
  }
  return pad;
}

/**
 * The seats: the same for every role unless the cards are shown.
 * @param {View} view
 * @param {Words} words
 */
function drawSeats({ table, vote, cards, bestMove }, words) {
  const grid = $("host-seats");
  const press = seatGestures();
  const shown = cards || table.over;
  const given = bestMoveShown(table);
  /** @param {number} no */
  const roleOf = (no) => table.seats.find((seat) => seat.no === no)?.role || "";
  grid.replaceChildren();
  grid.dataset.count = String(table.seats.length);
  for (const seat of table.seats) {
    /** @type {(string | HTMLElement)[]} */
    const marks = [];
    const status = [];
    if (seat.immune) marks.push("🛡");
    if (seat.fouls) {
      marks.push("●".repeat(seat.fouls));
      status.push(_("fouls: %(count)s", { count: seat.fouls }));
    }
    // A nomination is an arrow to the seat nominated; a hand is a raised hand: never the same mark.
    if (seat.nominates.length) {
      marks.push(seat.nominates.map((target) => `→${target}`).join(" "));
      status.push(_("nominates %(seats)s", { seats: seat.nominates.join(", ") }));
    }
    const hand = vote && !vote.counts ? vote.hands[seat.no] : undefined;
    // With counts a candidate's seat shows the number typed for it, and chooses it.
    const counting = Boolean(vote && vote.counts && table.vote && table.vote.among.includes(seat.no));
    const counted = counting && vote ? vote.countFor(seat.no) : undefined;
    const chosen = counting && vote !== null && vote.current === seat.no;
    if (counting) marks.push(`=${counted === undefined ? "?" : counted}`);
    if (hand !== undefined) {
      marks.push(hand === "for" ? "✋" : `✋${hand}`);
      status.push(hand === "for" ? _("hand up") : _("hand for %(seat)s", { seat: hand }));
    }
    const named = bestMove ? bestMove.targets.indexOf(seat.no) : -1;
    const recorded = given ? given.targets.indexOf(seat.no) : -1;
    if (named >= 0 || recorded >= 0) {
      marks.push(`★${Math.max(named, recorded) + 1}`);
      status.push(_("named in the best move"));
    }
    // Extra points and penalties given to the seat, summed: «+0,15».
    const bonuses = table.bonuses.filter((bonus) => bonus.seat === seat.no);
    if (bonuses.length) {
      const sum = signedPoints(bonuses.reduce((total, bonus) => total + bonus.points, 0));
      marks.push(el("span", { class: "bonus" }, sum));
      status.push(_("extra points: %(points)s", { points: sum }));
    }
    for (const slot of seat.targeted) {
      const kind = slot.split(":")[0];
      marks.push(el("span", { class: `slot slot-${kind}` }, SLOT_MARKS[kind] || "•"));
      status.push(words.slot(slot, roleOf));
    }
    const guest = words.guest(seat.no);
    if (guest) status.unshift(_("guest"));
    const classes = ["host-seat"];
    if (shown) classes.push(`card-${seat.team}`);
    if (!seat.alive) classes.push("out");
    if (seat.nominated) classes.push("nominated");
    if (seat.candidate) classes.push("candidate");
    if (seat.speaking) classes.push("speaking");
    if (seat.targeted.length) classes.push("targeted");
    if (hand !== undefined) classes.push("hand");
    if (chosen) classes.push("chosen");
    if (named >= 0) classes.push("best");
    if (seat.out) status.unshift(words.reason(seat.out));
    if (seat.nominated) status.unshift(_("nominated"));
    const node = el(
      "button",
      {
        type: "button",
        class: classes.join(" "),
        "data-seat": seat.no,
        disabled: !seat.alive && !table.over,
      },
      el("span", { class: "no" }, String(seat.no)),
      guest ? el("span", { class: "guest", "aria-hidden": "true" }, _("guest")) : null,
      el("span", { class: "nick", translate: "no" }, words.nick(seat.no)),
      shown ? el("span", { class: "role" }, words.role(seat.role)) : null,
      el("span", { class: "marks", "aria-hidden": "true" }, marks.flatMap((mark, at) => (at ? [" ", mark] : [mark]))),
      status.length ? el("span", { class: "visually-hidden" }, `, ${status.join(", ")}`) : null,
    );
    watchTouchEnd(node, press);
    grid.append(node);
  }
}

/**
 * The seats fit beside the prompt, every one a 48 px target, and nothing scrolls: as many
 * columns as they need (3 when there is room, up to 5 when a vote's keypad takes the
 * space); with counts over very many nominees the chips fold away (each candidate's seat
 * shows its number and chooses it); a seat too short for its nickname shows its number
 * and marks (the nickname stays for a screen reader).
 */
function fitSeats() {
  const grid = $("host-seats");
  const prompt = $("host-prompt");
  const seat = /** @type {HTMLElement | null} */ (grid.querySelector(".host-seat"));
  const fits = () => grid.scrollHeight <= grid.clientHeight + 1;
  const roomy = () => !seat || seat.offsetHeight >= TIGHT_SEAT_PX;
  // The fewest columns whose seats keep their nicknames; else the fewest that fit at all.
  const widen = () => {
    for (const wanted of [() => fits() && roomy(), fits]) {
      for (let columns = 3; columns <= MOST_COLUMNS; columns += 1) {
        grid.style.setProperty("--columns", String(columns));
        if (wanted()) return true;
      }
    }
    return false;
  };
  prompt.classList.remove("folded");
  grid.classList.remove("tight");
  if (!widen() && prompt.querySelector(".host-keypad")) {
    prompt.classList.add("folded");
    widen();
  }
  grid.classList.toggle("tight", !roomy());
}

/**
 * The ☰ menu's list of the night's marks: who aims at whom tonight (not the answers).
 * @param {View} view
 * @param {Words} words
 */
function drawNightMenu({ table }, words) {
  const item = document.getElementById("host-night-marks");
  if (!item) return;
  /** @param {number} no */
  const roleOf = (no) => table.seats.find((seat) => seat.no === no)?.role || "";
  const aimed = table.phase === "night" ? table.seats.filter((seat) => seat.targeted.length) : [];
  item.hidden = table.phase !== "night";
  const list = aimed.map((seat) => el("li", {}, `${words.seat(seat.no)}: ${seat.targeted.map((slot) => words.slot(slot, roleOf)).join(", ")}`));
  item.replaceChildren(
    el("strong", {}, _("Tonight")),
    list.length ? el("ul", {}, list) : el("p", {}, _("Nobody is aimed at yet.")),
  );
}

/**
 * The ☰ menu's extra points: the dialog's item while they are taken (else when the window
 * closed), and the list of those given, with their reasons.
 * @param {View} view
 * @param {Words} words
 */
function drawBonusMenu({ table, bonusWindow, bonusOpen }, words) {
  // «Допы или штраф…» while they are taken; once the window has closed, when it did.
  $("host-bonus-item").hidden = !bonusOpen;
  const closed = $("host-bonus-closed");
  closed.hidden = bonusOpen;
  closed.textContent = bonusOpen ? "" : words.bonusWindowClosed(bonusWindow);
  const item = document.getElementById("host-bonuses");
  if (!item) return;
  item.hidden = !table.bonuses.length;
  item.replaceChildren(
    el("strong", {}, _("Extra points given")),
    el("ul", {}, table.bonuses.map((bonus) => el("li", {}, words.bonus(bonus)))),
  );
}

/**
 * The bar: only what the rules allow now, the main action wide and blue. Each button says
 * what it does in `data-act` too (the browser tests drive it in either language).
 * @param {View} view
 * @param {Controls} act
 */
function drawBar({ table, clock, vote, foulNext, bestMove }, act) {
  const bar = $("host-actions");
  bar.replaceChildren();
  /**
   * @param {string} name
   * @param {string} label
   * @param {() => unknown} onclick
   * @param {boolean} [primary]
   * @param {Record<string, unknown>} [attrs]
   */
  const add = (name, label, onclick, primary = false, attrs = {}) =>
    bar.append(button(label, onclick, { class: primary ? "" : "secondary", "data-act": name, ...attrs }));
  // The best move is named in its giver's last word (or after the end): recorded or
  // skipped before the last word ends, so the game's record always says which.
  if (bestMove && table.best_move && (table.over || (clock && clock.kind === "last_word"))) {
    add("best-move-skip", _("No best move"), act.skipBestMove);
    add("best-move", _("Record the best move"), act.recordBestMove, true, { disabled: !bestMove.targets.length });
    return undefined;
  }
  if (table.over) {
    bar.append(el("a", { role: "button", class: "secondary", "data-act": "public", href: `${location.pathname}?public=1` }, _("Public page")));
    return;
  }
  if (table.phase === "setup") return add("day", _("Start day 1"), () => act.send({ type: "day", n: 1 }), true);
  if (clock && clock.kind === "balagan") return add("round", _("Start the round"), act.startRound, true);
  if (clock && clock.kind === "last_word") {
    return add("last-word", _("Last word over"), () => act.send({ type: "last_word", seat: clock.seat, ...span(clock) }), true);
  }
  if (table.phase === "night") {
    // «Утро» only once every living role has acted or been passed: a pass is one tap here.
    const night = table.night;
    if (night) {
      const miss = night.kind === "kill";
      add(miss ? "miss" : "nobody", miss ? _("Miss") : _("Nobody"), () => act.send({ ...night.event, target: null }));
    } else add("morning", _("Morning"), () => act.send({ type: "day", n: table.n + 1 }), true);
    return undefined;
  }
  if (clock && (clock.kind === "speech" || clock.kind === "defence")) {
    add("extension", _("+30 s under a foul"), () => act.send({ type: "extension", seat: clock.seat }));
    add("foul", foulNext ? _("Tap the seat") : _("Foul…"), act.toggleFoul, false, { "aria-pressed": String(foulNext) });
    add("next", _("Next"), () => act.send({ type: "speech", seat: clock.seat, limit: clock.seconds, ...span(clock) }), true);
    return undefined;
  }
  if (vote && table.vote) {
    const shown = table.vote;
    if (shown.among.length && !vote.counts) {
      const last = vote.current;
      add("rest", _("Rest → %(seat)s", { seat: last }), () => act.restTo(last));
    }
    add("mode", vote.counts ? _("Tap hands") : _("Counts"), act.toggleCounts);
    add("record", _("Record"), () => act.send(vote.event(shown)), true);
    return undefined;
  }
  if (table.legal.includes("night")) add("night", _("Night falls"), () => act.send({ type: "night", n: table.n }), true);
  return undefined;
}
