// The host's table screen. It draws games/rules/table.py's JSON and turns taps into the
// protocol events that JSON names; it holds no rule of its own. Every tap goes to the
// server in order with its seq and client_id; while the network is down the taps wait in
// IndexedDB and the phone's own copy of the engine (Pyodide, engine-worker.js) keeps the
// screen following the game. A reload without network restores the screen from the device.
import { openStore } from "./host-store.js";

const gettext = window.django ? window.django.gettext : (text) => text;
const interpolate = window.django ? window.django.interpolate : (text) => text;
const _ = (text, values) => (values ? interpolate(gettext(text), values, true) : gettext(text));

const page = JSON.parse(document.getElementById("host-data").textContent);
const $ = (id) => document.getElementById(id);
const LONG_PRESS_MS = 550;

const state = {
  log: page.log, // the server's log as this phone knows it (undos included)
  seq: page.seq, // the server's last entry number
  table: page.table, // what the screen shows: the server's answer or the phone's engine
  queue: [], // taps made offline, not yet taken by the server: {client_id, event, confirmed}
  online: navigator.onLine,
  sending: false,
  engine: null, // the phone's engine, once Pyodide has loaded
  vote: null, // the show of hands being tapped: {key, current, hands: {voter: target}, counts}
  foulNext: false, // the bar's «Фол» arms one foul on the next seat tapped
  balaganDone: new Set(),
  timers: {}, // timer key → the moment it started (ms)
};
const store = await openStore(page.game);

// --- words -------------------------------------------------------------------------

function roleName(code) {
  return page.roleNames[code] || code;
}
function nick(seat) {
  return page.nicks[String(seat)] || "";
}
function seatLabel(seat) {
  return _("%(seat)s %(nick)s", { seat, nick: nick(seat) }).trim();
}
function engineWords(refusal) {
  // The phone's engine refuses in English templates; the page carries their translations.
  const params = {};
  for (const [name, value] of Object.entries(refusal.params || {})) {
    params[name] = typeof value === "string" && page.messages[value] ? page.messages[value] : value;
  }
  return interpolate(page.messages[refusal.template] || refusal.template, params, true);
}
const WAKE = {
  "check:boss": () => _("The boss checks: is it the commissar?"),
  "check:commissar": () => _("The commissar checks"),
  "kill:mafia": () => _("The mafia shoot"),
  heal: () => _("The doctor heals"),
};
function nightPrompt(night) {
  const known = WAKE[night.slot];
  if (known) return known();
  if (night.kind === "kill") return _("%(role)s shoots", { role: roleName(night.role) });
  if (night.kind === "check") return _("%(role)s checks", { role: roleName(night.role) });
  return _("%(role)s (seat %(seat)s) acts", { role: roleName(night.role), seat: night.actor });
}
const REASONS = {
  voted: () => _("voted out"),
  car_crash: () => _("both voted out"),
  fouls: () => _("three fouls"),
  killed: () => _("killed"),
  kamikaze: () => _("taken by the kamikaze"),
  swindler: () => _("taken by the swindler"),
};
const CHECKS = {
  red: () => _("red"),
  black: () => _("black"),
  commissar: () => _("the commissar"),
  not_commissar: () => _("not the commissar"),
};
function winnerWords(winner) {
  if (winner === "red") return _("The red (town) win");
  if (winner === "black") return _("The black (mafia) win");
  return _("%(role)s wins", { role: roleName(winner) });
}

// --- the log and the timers ----------------------------------------------------------

function effective(log) {
  const events = [];
  for (const entry of log) {
    if (entry.type === "undo") events.pop();
    else events.push(entry);
  }
  return events;
}
function pendingLog() {
  return [...state.log, ...state.queue.map((tap) => tap.event)];
}
function timerKey(timer) {
  // A timer is the same speech while no speech or last word has been recorded since it
  // started: «под фол» lengthens it, it does not restart it.
  const spoken = effective(pendingLog()).filter((e) => e.type === "speech" || e.type === "last_word");
  return `${timer.kind}:${timer.seat}:${state.table.n}:${spoken.length}`;
}
function balaganKey() {
  return `balagan:${state.table.n}`;
}
function timerStart(key, autostart) {
  if (!(key in state.timers) && autostart) {
    state.timers[key] = Date.now();
    store.put("timers", state.timers);
  }
  return state.timers[key];
}

let ticking = null;
let beeped = "";
function beep() {
  if (navigator.vibrate) navigator.vibrate([300, 100, 300]);
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    tone.frequency.value = 880;
    tone.connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch (error) {
    /* no sound on this phone: the vibration and the red clock remain */
  }
}
function tick() {
  const clock = document.querySelector(".host-clock");
  if (!clock) return;
  const started = Number(clock.dataset.started || 0);
  const limit = Number(clock.dataset.seconds);
  const left = started ? Math.ceil(limit - (Date.now() - started) / 1000) : limit;
  const shown = Math.max(left, 0);
  clock.textContent = `${Math.floor(shown / 60)}:${String(shown % 60).padStart(2, "0")}`;
  clock.classList.toggle("over", started > 0 && left <= 0);
  if (started && left <= 0 && beeped !== clock.dataset.key) {
    beeped = clock.dataset.key;
    beep();
  }
}

// --- drawing ---------------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return node;
}
function button(label, onclick, attrs = {}) {
  return el("button", { type: "button", ...attrs, onclick }, label);
}

function phaseTitle(table) {
  if (table.over) return winnerWords(table.winner);
  if (table.phase === "setup") return _("Before day 1");
  if (table.phase === "day") return _("Day %(n)s", { n: table.n });
  return _("Night %(n)s", { n: table.n });
}

function render() {
  const table = state.table;
  $("host-title").textContent = `${_("Game %(number)s", { number: page.number })} · ${phaseTitle(table)}`;
  $("host-undo").disabled = !table.undo;
  $("host").classList.toggle("over", table.over);
  const waiting = state.queue.length;
  const net = $("host-net");
  net.textContent = state.online
    ? waiting
      ? _("sending %(count)s…", { count: waiting })
      : ""
    : waiting
      ? _("offline, %(count)s taps waiting", { count: waiting })
      : _("offline");
  net.classList.toggle("offline", !state.online);
  // For the browser tests and the benchmark: what the screen has taken so far.
  document.documentElement.dataset.seq = String(state.seq);
  document.documentElement.dataset.queued = String(state.queue.length);
  syncVote(table);
  renderPrompt(table);
  renderSeats(table);
  renderActions(table);
  tick();
}

function renderPrompt(table) {
  const prompt = $("host-prompt");
  prompt.replaceChildren();
  if (!state.engine && !state.online && state.queue.length) {
    prompt.append(el("p", { class: "host-note" }, _("The screen shows the last state it knew; the taps are kept and sent when the network returns.")));
  }
  if (table.over) {
    prompt.append(el("p", { class: "host-line host-winner" }, winnerWords(table.winner)));
    if (table.morning) prompt.append(morningBlock(table.morning));
    return;
  }
  const clock = currentClock(table);
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
  line.append(el("span", { class: "host-what" }, promptText(table, clock)));
  prompt.append(line);
  if (table.morning && table.phase === "day") prompt.append(morningBlock(table.morning));
  if (state.vote) prompt.append(voteStrip(table));
}

function currentClock(table) {
  if (table.balagan && !state.balaganDone.has(balaganKey()) && !table.last_words.length) {
    const key = balaganKey();
    return { key, seconds: table.balagan, started: timerStart(key, true), kind: "balagan" };
  }
  if (!table.timer) return null;
  const key = timerKey(table.timer);
  return { key, seconds: table.timer.seconds, started: timerStart(key, true), ...table.timer };
}

function promptText(table, clock) {
  if (table.phase === "setup") return _("Seats taken: start day 1 when the table is ready.");
  if (table.phase === "night") {
    return table.night ? nightPrompt(table.night) : _("The night's actions are done: morning.");
  }
  if (clock && clock.kind === "balagan") return _("Free talk");
  if (clock && clock.kind === "last_word") return _("Last word: %(seat)s", { seat: seatLabel(clock.seat) });
  if (clock && clock.kind === "defence") return _("Defence: %(seat)s", { seat: seatLabel(clock.seat) });
  if (clock && clock.kind === "speech") return _("Speaks: %(seat)s", { seat: seatLabel(clock.seat) });
  if (state.vote) return voteTitle(table.vote);
  return outcomeWords(table.outcome) || _("The day's talk is over: night falls.");
}

function outcomeWords(outcome) {
  const words = {
    no_candidates: () => _("Nobody got a vote: nobody leaves."),
    nesostrel: () => _("More than four candidates: nobody leaves."),
    first_day_kept: () => _("The table keeps everyone today."),
    both_kept: () => _("Both stay."),
    runoff_tie: () => _("A tie: nobody leaves."),
    candidates_left: () => _("Too few candidates left: nobody leaves."),
  };
  return words[outcome] ? words[outcome]() : "";
}

function morningBlock(morning) {
  const lines = [];
  for (const shot of morning.shots) {
    const saved = morning.healed.includes(shot.target);
    lines.push(
      saved
        ? _("%(by)s shot %(seat)s, the doctor saved them", { by: roleName(shot.by), seat: seatLabel(shot.target) })
        : _("%(by)s shot %(seat)s", { by: roleName(shot.by), seat: seatLabel(shot.target) }),
    );
  }
  if (!morning.shots.length) lines.push(_("Nobody was shot."));
  for (const check of morning.checks) {
    lines.push(_("Check %(by)s → %(target)s: %(result)s", { by: check.by, target: check.target, result: (CHECKS[check.result] || (() => check.result))() }));
  }
  const left = morning.left.map((out) => seatLabel(out.seat));
  lines.push(left.length ? _("Leaves: %(seats)s", { seats: left.join(", ") }) : _("Nobody leaves."));
  return el("ul", { class: "host-morning", "aria-label": _("Morning after night %(n)s", { n: morning.night }) }, lines.map((line) => el("li", {}, line)));
}

function voteTitle(vote) {
  if (vote.type === "votes") return _("Votes on the nominees");
  if (vote.type === "hands") return _("Hands to expel");
  if (vote.type === "first_day_expel") return _("Expel anyone at all?");
  return _("Expel both?");
}

// --- the show of hands ---------------------------------------------------------------

function syncVote(table) {
  const vote = table.vote;
  if (!vote) {
    state.vote = null;
    return;
  }
  const key = `${vote.type}:${table.n}:${vote.among.join(",")}:${state.log.length + state.queue.length}`;
  if (state.vote && state.vote.key === key) return;
  // How the host enters hands (tapped seats or counts) is a preference that lasts.
  const counting = localStorage.getItem("mafia-host-votes") === "counts";
  state.vote = { key, current: vote.among[0] ?? "for", hands: {}, counts: counting ? {} : null };
}
function handsFor(target) {
  return Object.values(state.vote.hands).filter((to) => to === target).length;
}
function handsLeft(table) {
  return table.vote.voters.length - Object.keys(state.vote.hands).length;
}
function voteStrip(table) {
  const vote = table.vote;
  const strip = el("div", { class: "host-vote" });
  const targets = vote.among.length ? vote.among : ["for"];
  for (const target of targets) {
    const label = target === "for" ? _("For: %(count)s", { count: handsFor("for") }) : `${seatLabel(target)} · ${handsFor(target)}`;
    strip.append(
      button(label, () => {
        state.vote.current = target;
        render();
      }, { class: `host-chip${state.vote.current === target ? "" : " outline"}`, "aria-pressed": String(state.vote.current === target), "data-target": target }),
    );
  }
  const left = handsLeft(table);
  strip.append(
    el("span", { class: "host-left" }, vote.among.length ? _("hands left: %(count)s", { count: left }) : _("majority: %(count)s", { count: table.majority })),
  );
  if (state.vote.counts) strip.append(countPad(table));
  return strip;
}
function countPad(table) {
  // Typed counts, as chips: the fallback when the hands were counted, not tapped.
  const pad = el("div", { class: "host-counts" });
  const targets = table.vote.among.length ? table.vote.among : ["for"];
  for (const target of targets) {
    const row = el("div", { class: "host-count-row", "data-target": target }, el("span", {}, target === "for" ? _("For") : String(target)));
    for (let count = 0; count <= table.vote.voters.length; count += 1) {
      const chosen = state.vote.counts[target] === count;
      row.append(button(String(count), () => {
        const complete = () => targets.every((each) => each in state.vote.counts);
        const first = !complete();
        state.vote.counts[target] = count;
        render();
        // The vote is recorded as soon as every candidate has its number (undo takes it
        // back; a removal still asks first). Correcting a number waits for «Записать».
        if (first && complete()) send(voteEvent(table));
      }, { class: `host-count${chosen ? "" : " outline secondary"}`, "aria-pressed": String(chosen), "aria-label": `${target}: ${count}` }));
    }
    pad.append(row);
  }
  return pad;
}
function voteEvent(table) {
  const vote = table.vote;
  if (state.vote.counts) {
    if (!vote.among.length) return { type: vote.type, for: state.vote.counts.for ?? 0 };
    const counts = {};
    for (const target of vote.among) counts[String(target)] = state.vote.counts[target] ?? 0;
    return { type: vote.type, counts };
  }
  if (!vote.among.length) return { type: vote.type, for: handsFor("for") };
  const voters = {};
  for (const [voter, target] of Object.entries(state.vote.hands)) voters[voter] = target;
  return { type: vote.type, voters };
}

// --- the seats ---------------------------------------------------------------------------

function renderSeats(table) {
  const grid = $("host-seats");
  grid.replaceChildren();
  grid.dataset.count = String(table.seats.length);
  for (const seat of table.seats) {
    const marks = [];
    if (seat.immune) marks.push("🛡");
    if (seat.fouls) marks.push("●".repeat(seat.fouls));
    const hand = state.vote ? state.vote.hands[seat.no] : undefined;
    const classes = ["host-seat", `team-${seat.team}`];
    if (!seat.alive) classes.push("out");
    if (seat.nominated) classes.push("nominated");
    if (seat.candidate) classes.push("candidate");
    if (seat.speaking) classes.push("speaking");
    if (hand !== undefined) classes.push("hand");
    const status = [];
    if (seat.out) status.push((REASONS[seat.out] || (() => seat.out))());
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
      el("span", { class: "nick" }, nick(seat.no)),
      el("span", { class: "role" }, roleName(seat.role)),
      el("span", { class: "marks" }, marks.join(" "), hand !== undefined ? ` ✋${hand === "for" ? "" : "→" + hand}` : "", seat.nominates.length ? ` →${seat.nominates.join(",")}` : ""),
      status.length ? el("span", { class: "visually-hidden" }, `, ${status.join(", ")}`) : null,
    );
    bindPress(node, () => seatTap(seat), () => seatHold(seat));
    grid.append(node);
  }
}

function bindPress(node, tap, hold) {
  // A short tap does what the phase means; a long press is a foul (the screen follows the
  // game, so nothing is a sticky mode).
  let timer = null;
  let held = false;
  node.addEventListener("pointerdown", () => {
    held = false;
    timer = setTimeout(() => {
      held = true;
      hold();
    }, LONG_PRESS_MS);
  });
  const cancel = () => clearTimeout(timer);
  node.addEventListener("pointerup", cancel);
  node.addEventListener("pointerleave", cancel);
  node.addEventListener("pointercancel", cancel);
  node.addEventListener("contextmenu", (event) => event.preventDefault());
  node.addEventListener("click", () => {
    if (held) return;
    tap();
  });
}

function seatTap(seat) {
  const table = state.table;
  if (!seat.alive || table.over) return;
  if (state.foulNext) {
    state.foulNext = false;
    return send({ type: "foul", seat: seat.no });
  }
  const what = table.tap;
  if (!what) return say(_("A tap on a seat does nothing now; hold it for a foul."), "info");
  if (what.kind === "nominate") return send({ type: "nominate", by: what.by, target: seat.no });
  if (what.kind === "night") return send({ ...what.event, target: seat.no });
  if (what.kind === "hand") {
    const vote = state.vote;
    if (vote.hands[seat.no] === vote.current) delete vote.hands[seat.no];
    else vote.hands[seat.no] = vote.current;
    vote.counts = null;
    return render();
  }
  return undefined;
}
function seatHold(seat) {
  if (!seat.alive || state.table.over) return;
  if (navigator.vibrate) navigator.vibrate(40);
  send({ type: "foul", seat: seat.no });
}

// --- the bar -------------------------------------------------------------------------------

function renderActions(table) {
  const bar = $("host-actions");
  bar.replaceChildren();
  const add = (label, onclick, primary = false, attrs = {}) =>
    bar.append(button(label, onclick, { class: primary ? "" : "secondary", ...attrs }));
  if (table.over) {
    bar.append(el("a", { role: "button", class: "secondary", href: `${location.pathname}?public=1` }, _("Public page")));
    return;
  }
  if (table.phase === "setup") return add(_("Start day 1"), () => send({ type: "day", n: 1 }), true);
  const clock = currentClock(table);
  if (clock && clock.kind === "balagan") {
    return add(_("Start the round"), () => {
      state.balaganDone.add(balaganKey());
      store.put("balagan", [...state.balaganDone]);
      render();
    }, true);
  }
  if (clock && clock.kind === "last_word") {
    return add(_("Last word over"), () => send({ type: "last_word", seat: clock.seat, ...span(clock) }), true);
  }
  if (table.phase === "night") {
    if (table.night) add(table.night.kind === "kill" ? _("Miss") : _("Nobody"), () => send({ ...table.night.event, target: null }));
    add(_("Morning"), () => send({ type: "day", n: table.n + 1 }), !table.night);
    return undefined;
  }
  if (clock && (clock.kind === "speech" || clock.kind === "defence")) {
    add(_("+30 s under a foul"), () => send({ type: "extension", seat: clock.seat }));
    add(state.foulNext ? _("Tap the seat") : _("Foul…"), () => {
      state.foulNext = !state.foulNext;
      render();
    }, false, { "aria-pressed": String(state.foulNext) });
    add(_("Next"), () => send({ type: "speech", seat: clock.seat, limit: clock.seconds, ...span(clock) }), true);
    return undefined;
  }
  if (state.vote) {
    const vote = state.vote;
    if (table.vote.among.length && !vote.counts) {
      const last = vote.current;
      add(_("Rest → %(seat)s", { seat: last }), () => {
        for (const voter of table.vote.voters) if (!(voter in vote.hands)) vote.hands[voter] = last;
        render();
      });
    }
    add(vote.counts ? _("Tap hands") : _("Counts"), () => {
      vote.counts = vote.counts ? null : {};
      localStorage.setItem("mafia-host-votes", vote.counts ? "counts" : "hands");
      render();
    });
    add(_("Record"), () => send(voteEvent(table)), true);
    return undefined;
  }
  if (table.legal.includes("night")) add(_("Night falls"), () => send({ type: "night", n: table.n }), true);
  return undefined;
}

function span(clock) {
  const end = new Date();
  const start = clock.started ? new Date(Math.min(clock.started, end.getTime())) : end;
  return { start: start.toISOString(), end: end.toISOString() };
}

// --- answers -----------------------------------------------------------------------------

let toastTimer = null;
function say(message, kind = "error") {
  const toast = $("host-toast");
  toast.textContent = message;
  toast.className = `host-toast ${kind}`;
  toast.hidden = false;
  if (kind === "error" && navigator.vibrate) navigator.vibrate(200);
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (toast.hidden = true), kind === "error" ? 8000 : 3000);
}

function ask(message) {
  const dialog = $("host-confirm");
  $("host-confirm-text").textContent = message;
  return new Promise((resolve) => {
    const answer = (event) => {
      const value = event.target.closest("button")?.value;
      if (!value) return;
      dialog.removeEventListener("click", answer);
      dialog.close();
      resolve(value === "yes");
    };
    dialog.addEventListener("click", answer);
    dialog.showModal();
  });
}
function consequenceWords(outcome) {
  const parts = [];
  if (outcome.removes && outcome.removes.length) {
    parts.push(_("Leaves the table: %(seats)s.", { seats: outcome.removes.map(seatLabel).join(", ") }));
  }
  if (outcome.winner) parts.push(_("The game ends: %(winner)s.", { winner: winnerWords(outcome.winner) }));
  parts.push(_("Record it?"));
  return parts.join(" ");
}

function newClientId() {
  return crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
}

// One tap at a time: a second tap waits until the first is judged and drawn, so a double
// tap never judges two events against the same state.
let lane = Promise.resolve();
function send(event) {
  lane = lane.then(() => sendNow(event)).catch((error) => say(String(error)));
  return lane;
}

async function sendNow(event) {
  if (!event.at) event.at = new Date().toISOString();
  state.foulNext = false;
  const tap = { client_id: newClientId(), event, confirmed: false };
  if (!state.online || state.queue.length) return keepOffline(tap);
  try {
    await post(tap);
  } catch (error) {
    if (error instanceof TypeError) {
      setOnline(false);
      return keepOffline(tap);
    }
    throw error;
  }
  return undefined;
}

// One tap to the server, as the entry after the last one this phone knows.
async function sendTap(tap) {
  const response = await fetch(page.tapUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify({ seq: state.seq + 1, ...tap }),
    credentials: "same-origin",
  });
  const answer = await response.json().catch(() => ({ error: _("The server did not answer; try again.") }));
  return { ok: response.ok, answer };
}

async function post(tap) {
  const { ok, answer } = await sendTap(tap);
  if (ok) {
    accept(answer);
    return true;
  }
  if (answer.code === "confirm") {
    if (await ask(consequenceWords(answer))) return post({ ...tap, confirmed: true });
    return false;
  }
  if (answer.code === "stale" && answer.log) {
    resync(answer);
    say(_("Another device recorded this game first; the screen now shows its taps. Make your tap again if it is still needed."));
    return false;
  }
  say(answer.error || _("The tap was not recorded."));
  return false;
}

function accept(answer) {
  const toast = $("host-toast");
  if (toast.classList.contains("error")) toast.hidden = true; // the next tap went through
  state.log = [...state.log, answer.entry];
  state.seq = answer.seq;
  state.table = answer.table;
  if (answer.entry.type === "check") {
    const check = answer.table.checks.at(-1);
    if (check) say(_("Check %(by)s → %(target)s: %(result)s", { by: check.by, target: check.target, result: (CHECKS[check.result] || (() => check.result))() }), "info");
  }
  save();
  render();
}
function resync(answer) {
  state.log = answer.log;
  state.seq = answer.seq;
  state.table = answer.table;
  save();
  render();
}

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

// --- offline -------------------------------------------------------------------------------

async function keepOffline(tap) {
  if (state.engine) {
    const result = await state.engine.call("offline_tap", [page.seats, page.options, page.immune, pendingLog(), tap.event]);
    if (!result.ok) return say(engineWords(result.refusal));
    if (result.consequence && !(await ask(consequenceWords(result.consequence)))) return undefined;
    state.table = result.table;
  }
  // Without the engine the tap is kept as it is; the server judges it on reconnect.
  state.queue.push({ ...tap, confirmed: true });
  render(); // drawn before it is stored: the next tap sees the state after this one
  await save();
  return undefined;
}

async function flush() {
  if (state.sending || !state.queue.length || !state.online) return;
  state.sending = true;
  render();
  try {
    while (state.queue.length) {
      const { ok, answer } = await sendTap(state.queue[0]);
      if (ok) {
        state.queue.shift();
        accept(answer);
        continue;
      }
      conflict(answer);
      return;
    }
  } catch (error) {
    setOnline(false);
  } finally {
    state.sending = false;
    await save();
    render();
  }
}

function describeTap(event) {
  const seat = (key) => (event[key] === null || event[key] === undefined ? _("nobody") : String(event[key]));
  const words = {
    speech: () => _("speech of %(seat)s", { seat: seat("seat") }),
    nominate: () => _("%(by)s nominates %(target)s", { by: seat("by"), target: seat("target") }),
    foul: () => _("foul: %(seat)s", { seat: seat("seat") }),
    undo: () => _("undo"),
  };
  return (words[event.type] || (() => `${event.type} ${seat("target")}`))();
}

function conflict(answer) {
  // The server took another device's taps first (stale) or refuses a waiting tap: the
  // host chooses, plainly, what happens to the taps still waiting.
  if (answer.log) {
    state.log = answer.log;
    state.seq = answer.seq;
    state.table = answer.table;
  }
  const dialog = $("host-conflict");
  $("host-conflict-text").textContent =
    answer.code === "stale"
      ? _("While this phone was offline another device recorded taps. %(count)s of your taps are still waiting.", { count: state.queue.length })
      : _("The server refused a waiting tap: %(error)s %(count)s taps are waiting.", { error: answer.error || "", count: state.queue.length });
  const list = $("host-conflict-taps");
  list.replaceChildren(...state.queue.map((tap) => el("li", {}, describeTap(tap.event))));
  list.hidden = true;
  const choose = async (event) => {
    const value = event.target.closest("button")?.value;
    if (!value) return;
    if (value === "review") {
      list.hidden = !list.hidden;
      return;
    }
    dialog.removeEventListener("click", choose);
    dialog.close();
    if (value === "discard") {
      state.queue = [];
      await save();
      render();
    } else {
      flush();
    }
  };
  dialog.addEventListener("click", choose);
  if (!dialog.open) dialog.showModal();
}

function setOnline(online) {
  state.online = online;
  render();
  if (online) flush();
}
window.addEventListener("online", () => setOnline(true));
window.addEventListener("offline", () => setOnline(false));

async function save() {
  await store.put("snapshot", { log: state.log, seq: state.seq, table: state.table, queue: state.queue });
}

// --- starting -------------------------------------------------------------------------------

async function restore() {
  const saved = await store.get("snapshot");
  state.timers = (await store.get("timers")) || {};
  state.balaganDone = new Set((await store.get("balagan")) || []);
  if (!saved) return;
  state.queue = saved.queue || [];
  // The page is the server's latest when it came from the network; the device's copy
  // when it came from the service worker's cache and is older than what the phone knew.
  if (saved.seq > state.seq || state.queue.length) {
    state.log = saved.log;
    state.seq = saved.seq;
    state.table = saved.table;
  }
}

function bindHeader() {
  $("host-undo").addEventListener("click", () => send({ type: "undo" }));
  const eye = $("host-eye");
  const show = (on) => $("host").classList.toggle("show-cards", on);
  eye.addEventListener("pointerdown", () => show(true));
  for (const end of ["pointerup", "pointerleave", "pointercancel", "blur"]) eye.addEventListener(end, () => show(false));
  eye.addEventListener("keydown", (event) => event.key === " " && show(true));
  eye.addEventListener("keyup", () => show(false));
  eye.addEventListener("contextmenu", (event) => event.preventDefault());
}

async function keepAwake() {
  // The screen stays on while the game runs (Wake Lock API, where the phone has it).
  if (!("wakeLock" in navigator) || state.table.over) return;
  try {
    await navigator.wakeLock.request("screen");
  } catch (error) {
    /* refused (battery saver, not visible): the game goes on without it */
  }
}
document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && keepAwake());

async function keepForOffline() {
  // The first visit loads before the service worker controls the page: keep this page
  // and what it loaded in the worker's cache now, so a reload without network opens it.
  const cache = await caches.open("mafia-host-v1");
  const pyodide = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
  const urls = [
    location.pathname,
    ...[...document.querySelectorAll("script[src], link[href]")].map((node) => node.getAttribute("src") || node.getAttribute("href")),
    new URL("host-store.js", import.meta.url).pathname,
    page.workerUrl,
    page.engineUrl,
    ...pyodide.map((name) => page.pyodideUrl + name),
  ];
  for (const url of new Set(urls)) {
    if (!(await cache.match(url, { ignoreVary: true }))) await cache.add(url).catch(() => {});
  }
}

function startEngine() {
  // Pyodide is large (docs/host-screen.md has the figures): it loads in the background
  // and the service worker keeps it, so the phone has its engine when the network goes.
  const worker = new Worker(page.workerUrl, { type: "module" });
  let next = 0;
  const waiting = new Map();
  worker.addEventListener("message", ({ data }) => {
    if (data.ready) {
      state.engine = { call, figures: data.figures };
      window.hostEngineFigures = data.figures;
      document.documentElement.dataset.engine = "ready";
      if (!state.online) render();
      return;
    }
    if (data.failed) {
      document.documentElement.dataset.engine = "failed";
      return;
    }
    const pending = waiting.get(data.id);
    waiting.delete(data.id);
    if (pending) pending(data.result);
  });
  function call(fn, args) {
    next += 1;
    const id = next;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      worker.postMessage({ id, fn, args });
    });
  }
  worker.postMessage({ init: true, pyodideUrl: page.pyodideUrl, engineUrl: page.engineUrl });
}

await restore();
bindHeader();
render();
ticking = setInterval(tick, 250);
keepAwake();
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(keepForOffline, () => {});
}
startEngine();
if (state.online) flush();
// Read-only, for the browser tests and the benchmark: the table the screen shows.
window.hostScreen = { table: () => structuredClone(state.table), queued: () => state.queue.length };
document.documentElement.dataset.hostReady = "1";
