// @ts-check
// Drawing the screen from what it shows now: the header, the prompt (clock, what happens,
// the morning, the vote's chips), the seats and the bar. Nothing here keeps state: each
// control calls what `Controls` says, and the main module redraws after every change.
/** @import { HostTable, Morning, TableSeat, Vote } from "./table.js" */
/** @import { Clock } from "./clock.js" */
/** @import { VoteForm, Target } from "./vote.js" */
/** @import { TapEvent } from "./queue.js" */
/** @import { Words } from "./words.js" */
import { span } from "./clock.js";
import { bindPress } from "./gestures.js";
import { VoteForm as Form } from "./vote.js";
import { _ } from "./words.js";

/**
 * @typedef {object} View what the screen shows now
 * @property {HostTable} table
 * @property {number} number the game's number
 * @property {number} seq the server's last entry this phone knows
 * @property {number} waiting taps waiting for the server
 * @property {boolean} online
 * @property {boolean} engineReady the phone's engine has loaded
 * @property {Clock | null} clock
 * @property {VoteForm | null} vote
 * @property {boolean} foulNext «Фол…» armed: the next seat tapped gets a foul
 */
/**
 * @typedef {object} Controls what the screen's controls do
 * @property {(event: TapEvent) => unknown} send
 * @property {(seat: TableSeat) => unknown} seatTap
 * @property {(seat: TableSeat) => unknown} seatHold
 * @property {(target: Target) => void} choose a candidate whose hands are tapped
 * @property {(target: Target, count: number) => void} count
 * @property {(target: Target) => void} restTo
 * @property {() => void} toggleCounts
 * @property {() => void} toggleFoul
 * @property {() => void} startRound
 */

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

/**
 * @param {View} view
 * @param {Controls} act
 * @param {Words} words
 */
export function draw(view, act, words) {
  const table = view.table;
  $("host-title").textContent = `${_("Game %(number)s", { number: view.number })} · ${words.phase(table)}`;
  /** @type {HTMLButtonElement} */ ($("host-undo")).disabled = !table.undo;
  $("host").classList.toggle("over", table.over);
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
  drawSeats(view, act, words);
  drawBar(view, act);
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
  if (table.over) {
    prompt.append(el("p", { class: "host-line host-winner" }, words.winner(table.winner)));
    if (table.morning) prompt.append(morningBlock(table.morning, words));
    return;
  }
  const line = el("div", { class: "host-line" });
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
  if (table.morning && table.phase === "day") prompt.append(morningBlock(table.morning, words));
  if (view.vote && table.vote) prompt.append(voteStrip(view.vote, table.vote, table.majority, act, words));
}

/**
 * @param {View} view
 * @param {Words} words
 */
function promptText({ table, clock, vote }, words) {
  if (table.phase === "setup") return _("Seats taken: start day 1 when the table is ready.");
  if (table.phase === "night") {
    return table.night ? words.wake(table.night) : _("The night's actions are done: morning.");
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
 * @param {Morning} morning
 * @param {Words} words
 */
function morningBlock(morning, words) {
  const lines = words.morning(morning).map((line) => el("li", {}, line));
  return el("ul", { class: "host-morning", "aria-label": _("Morning after night %(n)s", { n: morning.night }) }, lines);
}

/**
 * The candidates' chips with their hands, and the typed counts when the host counts.
 * @param {VoteForm} form
 * @param {Vote} vote
 * @param {number} majority
 * @param {Controls} act
 * @param {Words} words
 */
function voteStrip(form, vote, majority, act, words) {
  const strip = el("div", { class: "host-vote" });
  for (const target of Form.targets(vote)) {
    const label = target === "for" ? _("For: %(count)s", { count: form.handsFor("for") }) : `${words.seat(target)} · ${form.handsFor(target)}`;
    const chosen = form.current === target;
    strip.append(button(label, () => act.choose(target), { class: `host-chip${chosen ? "" : " outline"}`, "aria-pressed": String(chosen), "data-target": target }));
  }
  const left = form.handsLeft(vote);
  strip.append(
    el("span", { class: "host-left" }, vote.among.length ? _("hands left: %(count)s", { count: left }) : _("majority: %(count)s", { count: majority })),
  );
  if (form.counts) strip.append(countPad(form.counts, vote, act));
  return strip;
}

/**
 * Typed counts, as chips: the fallback when the hands were counted, not tapped.
 * @param {Record<string, number>} counts
 * @param {Vote} vote
 * @param {Controls} act
 */
function countPad(counts, vote, act) {
  const pad = el("div", { class: "host-counts" });
  for (const target of Form.targets(vote)) {
    const row = el("div", { class: "host-count-row", "data-target": target }, el("span", {}, target === "for" ? _("For") : String(target)));
    for (let count = 0; count <= vote.voters.length; count += 1) {
      const chosen = counts[target] === count;
      row.append(button(String(count), () => act.count(target, count), { class: `host-count${chosen ? "" : " outline secondary"}`, "aria-pressed": String(chosen), "aria-label": `${target}: ${count}` }));
    }
    pad.append(row);
  }
  return pad;
}

/**
 * @param {View} view
 * @param {Controls} act
 * @param {Words} words
 */
function drawSeats({ table, vote }, act, words) {
  const grid = $("host-seats");
  grid.replaceChildren();
  grid.dataset.count = String(table.seats.length);
  for (const seat of table.seats) {
    const marks = [];
    if (seat.immune) marks.push("🛡");
    if (seat.fouls) marks.push("●".repeat(seat.fouls));
    const hand = vote ? vote.hands[seat.no] : undefined;
    const classes = ["host-seat", `team-${seat.team}`];
    if (!seat.alive) classes.push("out");
    if (seat.nominated) classes.push("nominated");
    if (seat.candidate) classes.push("candidate");
    if (seat.speaking) classes.push("speaking");
    if (hand !== undefined) classes.push("hand");
    const status = [];
    if (seat.out) status.push(words.reason(seat.out));
    if (seat.nominated) status.push(_("nominated"));
    if (hand !== undefined) status.push(hand === "for" ? _("hand up") : _("hand for %(seat)s", { seat: hand }));
    const node = el(
      "button",
      {
        type: "button",
        class: classes.join(" "),
        "data-seat": seat.no,
        disabled: !seat.alive && !table.over,
      },
      el("span", { class: "no" }, String(seat.no)),
      el("span", { class: "nick" }, words.nick(seat.no)),
      el("span", { class: "role" }, words.role(seat.role)),
      el("span", { class: "marks" }, marks.join(" "), hand !== undefined ? ` ✋${hand === "for" ? "" : "→" + hand}` : "", seat.nominates.length ? ` →${seat.nominates.join(",")}` : ""),
      status.length ? el("span", { class: "visually-hidden" }, `, ${status.join(", ")}`) : null,
    );
    bindPress(node, { tap: () => act.seatTap(seat), hold: () => act.seatHold(seat) });
    grid.append(node);
  }
}

/**
 * The bar: only what the rules allow now, the main action wide and blue.
 * @param {View} view
 * @param {Controls} act
 */
function drawBar({ table, clock, vote, foulNext }, act) {
  const bar = $("host-actions");
  bar.replaceChildren();
  /**
   * @param {string} label
   * @param {() => unknown} onclick
   * @param {boolean} [primary]
   * @param {Record<string, unknown>} [attrs]
   */
  const add = (label, onclick, primary = false, attrs = {}) => bar.append(button(label, onclick, { class: primary ? "" : "secondary", ...attrs }));
  if (table.over) {
    bar.append(el("a", { role: "button", class: "secondary", href: `${location.pathname}?public=1` }, _("Public page")));
    return;
  }
  if (table.phase === "setup") return add(_("Start day 1"), () => act.send({ type: "day", n: 1 }), true);
  if (clock && clock.kind === "balagan") return add(_("Start the round"), act.startRound, true);
  if (clock && clock.kind === "last_word") {
    return add(_("Last word over"), () => act.send({ type: "last_word", seat: clock.seat, ...span(clock) }), true);
  }
  if (table.phase === "night") {
    const night = table.night;
    if (night) add(night.kind === "kill" ? _("Miss") : _("Nobody"), () => act.send({ ...night.event, target: null }));
    add(_("Morning"), () => act.send({ type: "day", n: table.n + 1 }), !night);
    return undefined;
  }
  if (clock && (clock.kind === "speech" || clock.kind === "defence")) {
    add(_("+30 s under a foul"), () => act.send({ type: "extension", seat: clock.seat }));
    add(foulNext ? _("Tap the seat") : _("Foul…"), act.toggleFoul, false, { "aria-pressed": String(foulNext) });
    add(_("Next"), () => act.send({ type: "speech", seat: clock.seat, limit: clock.seconds, ...span(clock) }), true);
    return undefined;
  }
  if (vote && table.vote) {
    const shown = table.vote;
    if (shown.among.length && !vote.counts) {
      const last = vote.current;
      add(_("Rest → %(seat)s", { seat: last }), () => act.restTo(last));
    }
    add(vote.counts ? _("Tap hands") : _("Counts"), act.toggleCounts);
    add(_("Record"), () => act.send(vote.event(shown)), true);
    return undefined;
  }
  if (table.legal.includes("night")) add(_("Night falls"), () => act.send({ type: "night", n: table.n }), true);
  return undefined;
}
