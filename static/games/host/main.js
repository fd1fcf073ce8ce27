// @ts-check
// The host's table screen (templates/games/host.html). It draws games/rules/table.py's
// JSON and turns taps into the protocol events that JSON names; it holds no rule of its
// own. This module wires the others (docs/host-screen.md, «The code»): the record and its
// queue (queue.js), the clocks (clock.js), the vote form (vote.js), drawing (draw.js), the
// dialogs (dialogs.js), the phone's engine (engine.js), the offline copy (offline.js) and
// the talk with the server without a tap (sync.js). The engine's worker starts first of
// all: the screen is drawn meanwhile, from the page or the device (the last known state).
// What it keeps itself is only the screen's own: the vote form, the best move being
// named, and «Фол…» armed.
/** @import { HostPage, HostTable, TableSeat } from "./table.js" */
/** @import { Engine, EngineState } from "./engine.js" */
/** @import { BestMoveForm, Controls } from "./draw.js" */
/** @import { Io, TapEvent, Ui } from "./queue.js" */
import { Clocks, tick } from "./clock.js";
import { ask, bonusDialog, bonusWindowOpen, conflict, hideError, say } from "./dialogs.js";
import { disqualifyDialog } from "./disqualify.js";
import { draw } from "./draw.js";
import { startEngine } from "./engine.js";
import { keepOffline } from "./offline.js";
import { TapQueue, headTransport, restore, serverTransport } from "./queue.js";
import { openStore } from "./store.js";
import { netLine, startSync } from "./sync.js";
import { VoteForm } from "./vote.js";
import { Words, _, describeTap } from "./words.js";

const page = /** @type {HostPage} */ (JSON.parse(/** @type {HTMLElement} */ (document.getElementById("host-data")).textContent || ""));
/** @type {Engine | null} the phone's engine, once Pyodide has loaded */
let engine = null;
/** @type {{ state: EngineState }} the phone's engine: loading, ready or failed */
const phone = { state: "loading" };
/** @type {TapQueue | undefined} */
let waitingForEngine; // the queue, once it exists: the engine judges its unjudged taps
const engineSettled = startEngine(
  page,
  (loaded) => {
    engine = loaded;
    phone.state = "ready";
    if (waitingForEngine) waitingForEngine.engineReady().then(() => engineShown() && render());
  },
  () => {
    phone.state = "failed";
    if (engineShown()) render();
  },
);
const words = new Words(page);
const store = await openStore(page.game);
const VOTES_BY = "mafia-host-votes"; // how the host enters hands (tapped seats or counts) lasts
/** @type {VoteForm | null} the show of hands being entered */
let vote = null;
let foulNext = false; // the bar's «Фол…» arms one foul on the next seat tapped
/** @type {BestMoveForm | null} the best move being named (a tap per seat), while offered */
let bestMove = null;
let cards = false; // 👁 held: the cards and the checks' answers are drawn

/** @type {Io} */
const io = {
  post: serverTransport(page.tapUrl),
  head: headTransport(page.headUrl),
  judge: async (log, event) => (engine ? engine.offlineTap(log, event) : null),
  save: (snapshot) => store.put("snapshot", snapshot),
};
/** @type {Ui} */
const ui = {
  redraw: render,
  say,
  confirm: (outcome) => ask(words.consequence(outcome), ...words.consequenceButtons(outcome)),
  accepted() {
    hideError(); // the next tap went through; a check's answer stays in sight under 👁
  },
  conflict: (answer, waiting, recorded) => conflict(answer, waiting, recorded, describe),
  describe,
  tapping() {
    foulNext = false;
  },
  unrecordable: restartClock,
};
const saved = await store.get("snapshot");
const clocks = new Clocks(
  { timers: (await store.get("timers")) || {}, balaganDone: (await store.get("balagan")) || [] },
  (name, value) => store.put(name, value),
);
const queue = new TapQueue(restore(page, saved), navigator.onLine, io, ui, words);
waitingForEngine = queue;
if (phone.state === "ready") queue.engineReady();

/** @type {Controls} */
const controls = {
  send: (event) => queue.send(event),
  seatTap,
  seatHold,
  choose(target) {
    if (!vote) return;
    vote.current = target;
    render();
  },
  count(target, count) {
    const [form, shown] = [vote, queue.table.vote];
    if (!form || !shown) return;
    const complete = form.setCount(shown, target, count);
    render();
    // The vote is recorded as soon as every candidate has its number (undo takes it
    // back; a removal still asks first). Correcting a number waits for «Записать».
    if (complete) queue.send(form.event(shown));
  },
  restTo(target) {
    if (!vote || !queue.table.vote) return;
    vote.restTo(queue.table.vote, target);
    render();
  },
  toggleCounts() {
    if (!vote) return;
    localStorage.setItem(VOTES_BY, vote.toggleCounts() ? "counts" : "hands");
    render();
  },
  toggleFoul() {
    foulNext = !foulNext;
    render();
  },
  startRound() {
    clocks.endBalagan(queue.table.n);
    render();
  },
  giver(seat) {
    if (!bestMove || bestMove.by === seat) return;
    bestMove = { by: seat, targets: bestMove.targets.filter((each) => each !== seat) };
    render();
  },
  recordBestMove() {
    if (bestMove) queue.send({ type: "best_move", by: bestMove.by, targets: [...bestMove.targets] });
  },
  skipBestMove() {
    if (bestMove) queue.send({ type: "best_move", by: bestMove.by, targets: [] });
  },
};

/**
 * The best move being named follows the table: offered, it starts with the first who may
 * give it and no seat; once recorded (or no longer offered) it is gone.
 * @param {BestMoveForm | null} form
 * @param {HostTable} table
 * @returns {BestMoveForm | null}
 */
function followBestMove(form, table) {
  const offer = table.best_move;
  // After the end, only within the club's window (the server refuses it after).
  if (!offer || !bonusWindowOpen(page.bonusWindow, table.over, Date.now())) return null;
  if (form && offer.by.includes(form.by)) return form;
  return { by: offer.by[0], targets: [] };
}

/**
 * A tap names a seat in the best move, or takes it back; three at most, never the giver's.
 * @param {TableSeat} seat
 */
function nameInBestMove(seat) {
  const offer = queue.table.best_move;
  if (!bestMove || !offer) return undefined;
  if (seat.no === bestMove.by) return say(_("A player does not name their own seat."), "info");
  const named = bestMove.targets;
  if (named.includes(seat.no)) bestMove = { ...bestMove, targets: named.filter((each) => each !== seat.no) };
  else if (named.length >= offer.most) return say(_("Three seats at most: tap one again to take it back."), "info");
  else bestMove = { ...bestMove, targets: [...named, seat.no] };
  return render();
}

function render() {
  const table = queue.table;
  vote = VoteForm.follow(vote, table, queue.entries, () => localStorage.getItem(VOTES_BY) === "counts");
  bestMove = followBestMove(bestMove, table);
  const view = {
    table,
    number: page.number,
    tableNo: page.tableNo,
    round: page.round,
    seq: queue.seq,
    waiting: queue.taps.length,
    online: queue.online,
    engineReady: phone.state === "ready",
    clock: clocks.current(table),
    vote,
    foulNext,
    cards,
    bestMove,
    bonusWindow: page.bonusWindow,
    bonusOpen: bonusWindowOpen(page.bonusWindow, table.over, Date.now()),
  };
  draw(view, controls, words);
  const net = /** @type {HTMLElement} */ (document.getElementById("host-net"));
  net.textContent = netLine({ online: queue.online, waiting: queue.taps.length, unjudged: queue.unjudged, engine: phone.state });
  tick();
}

/**
 * Whether the screen says anything of the phone's engine now (the header's «правила
 * загружаются», the note over the last known state): only then does its loading redraw
 * the screen (a redraw under a finger is never needed).
 */
function engineShown() {
  return waitingForEngine !== undefined && (!waitingForEngine.online || waitingForEngine.taps.length > 0);
}

/**
 * The event ↶ takes back: the table's, or the last waiting tap while the phone's engine has
 * not judged it (a tap other than an undo at the end of the log is the one that stands last).
 * @returns {TapEvent | null}
 */
function undoing() {
  const last = queue.taps.at(-1);
  if (queue.unjudged && last && last.event.type !== "undo") return last.event;
  return queue.table.undoes || null;
}

/**
 * A speech whose clock cannot be recorded (it starts before the speech before it ended):
 * the host reads why and may start the clock again from now, so the next «Дальше» is
 * recorded whatever start the device held.
 * @param {string} why the refusal
 */
async function restartClock(why) {
  const clock = clocks.current(queue.table);
  if (!clock || clock.kind === "balagan") return say(why);
  const question = _("%(why)s Start this speech's clock again from now?", { why });
  if (!(await ask(question, _("Restart the clock"), _("Keep the clock")))) return undefined;
  clocks.restart(clock.key, clock.after);
  return render();
}

/** @param {TapEvent} event */
function describe(event) {
  return describeTap(event, words, page.seats);
}

/**
 * A short tap on a seat: what the table says it means now.
 * @param {TableSeat} seat
 */
function seatTap(seat) {
  const table = queue.table;
  const what = table.tap;
  // The best move names seats in the last word, and after the end any seat of the table.
  if (what && what.kind === "best_move" && !foulNext) return nameInBestMove(seat);
  if (!seat.alive || table.over) return undefined;
  if (foulNext) {
    foulNext = false;
    return queue.send({ type: "foul", seat: seat.no });
  }
  if (!what) return say(_("A tap on a seat does nothing now; hold it for a foul."), "info");
  if (what.kind === "nominate") return queue.send({ type: "nominate", by: what.by, target: seat.no });
  if (what.kind === "night") return queue.send({ ...what.event, target: seat.no });
  if (what.kind === "hand" && vote && queue.table.vote) {
    if (vote.tapSeat(queue.table.vote, seat.no) === "ignored") {
      return say(_("Counting: type the number on the keypad, or switch to tapped hands."), "info");
    }
    return render();
  }
  return undefined;
}

/**
 * A long press on a seat: a foul, at any time of the game.
 * @param {TableSeat} seat
 */
function seatHold(seat) {
  if (!seat.alive || queue.table.over) return;
  if (navigator.vibrate) navigator.vibrate(40);
  queue.send({ type: "foul", seat: seat.no });
}

function bindHeader() {
  /** @param {string} id */
  const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  $("host-undo").addEventListener("click", async () => {
    // Extra points and the best move are named before they are taken back (nothing else
    // on the screen shows them going); any other tap is taken back at once.
    const question = words.undoQuestion(undoing());
    // After the end they are taken back within the club's window only (the server refuses).
    if (question && !bonusWindowOpen(page.bonusWindow, queue.table.over, Date.now())) return say(words.bonusWindowClosed(page.bonusWindow));
    if (question && !(await ask(question, _("Yes, undo it"), _("Keep it")))) return;
    queue.send({ type: "undo" }, question !== null);
  });
  const eye = $("host-eye");
  /** @param {boolean} on */
  const show = (on) => {
    if (cards === on) return;
    cards = on; // drawn only while held: a glance at the phone shows nothing of the cards
    render();
  };
  eye.addEventListener("pointerdown", () => show(true));
  for (const end of ["pointerup", "pointerleave", "pointercancel", "blur"]) eye.addEventListener(end, () => show(false));
  eye.addEventListener("keydown", (event) => event.key === " " && show(true));
  eye.addEventListener("keyup", () => show(false));
  eye.addEventListener("contextmenu", (event) => event.preventDefault());
  // The window may have closed while the screen lay open: ☰ says so when it opens.
  $("host-bonus-open").closest("details")?.addEventListener("toggle", (event) => {
    if (/** @type {HTMLDetailsElement} */ (event.target).open) render();
  });
  $("host-bonus-open").addEventListener("click", async (event) => {
    event.preventDefault();
    /** @type {HTMLDetailsElement} */ ($("host-bonus-open").closest("details")).open = false;
    const given = await bonusDialog(page, words);
    if (!given) return;
    const before = queue.pendingLog().length;
    await queue.send({ type: "bonus", ...given });
    // Said once the screen has taken them (the server, or the phone's engine offline): a
    // new entry, not an earlier one alike; a refusal has said why not instead.
    const log = queue.pendingLog();
    const last = log.at(-1);
    if (log.length > before && last && last.type === "bonus" && last.seat === given.seat && last.points === given.points) say(words.bonusGiven(given), "info");
  });
  // ☰ → «Дисквалифицировать…»: the seat and the reason; the removal is asked before it is kept.
  $("host-disqualify-open").addEventListener("click", async (event) => {
    event.preventDefault();
    /** @type {HTMLDetailsElement} */ ($("host-disqualify-open").closest("details")).open = false;
    const chosen = await disqualifyDialog(queue.table, words);
    if (chosen) await queue.send({ type: "disqualify", ...chosen });
  });
}

async function keepAwake() {
  // The screen stays on while the game runs (Wake Lock API, where the phone has it).
  if (!("wakeLock" in navigator) || queue.table.over) return;
  try {
    await navigator.wakeLock.request("screen");
  } catch (error) {
    /* refused (battery saver, not visible): the game goes on without it */
  }
}

document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && keepAwake());

bindHeader();
render();
performance.mark("host-drawn");
setInterval(tick, 250);
keepAwake();
keepOffline(page, engineSettled);
startSync(queue);
// For the browser tests and the benchmark: the table the screen shows (read-only), the
// taps waiting and the answers awaited (a refused tap waits in neither once it is said), and
// a redraw (a tap must stay one tap whatever is redrawn under the finger).
window.hostScreen = { table: () => structuredClone(queue.table), queued: () => queue.taps.length, asking: () => queue.asking, redraw: render };
document.documentElement.dataset.hostReady = "1";
