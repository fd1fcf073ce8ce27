// @ts-check
// The clocks: the balagan's and each speech's, their keys and starts. A clock's key names
// one speech (or last word) of the game; its start is kept on the device under that key,
// so a redraw, a reload or an undo that brings the same speech back finds its start.
// The key comes from the engine's table (`timer.turn`), never from a count of our own.
//
// The key of the speech after an undone one comes back when the turn is redone («Дальше»,
// ↶, «Дальше»), so a start kept under it is the undone tap's, not this speech's: it was
// read as the speech's start, which then began before the speech before it ended, and the
// rules refused every «Дальше» after it, for good (the start stayed on the device). So a
// clock an undo took back is forgotten (a key of a later turn than the table's), and a
// kept start before the end of the speech before it (`timer.after`) is no start: the clock
// starts afresh, never before that end.
/** @import { HostTable, Timer } from "./table.js" */

/**
 * The balagan's clock (no seat: the free talk is everyone's), or a speech's, a defence's or
 * a last word's, which names its seat.
 * A speech's carries `after`: the end of the speech before it (ms; 0 when not known), the
 * earliest start the rules take.
 * @typedef {{ key: string, kind: "balagan", seconds: number, started: number }
 *   | { key: string, kind: Timer["kind"], seconds: number, seat: number, started: number, after: number }} Clock
 */

/**
 * A timer is the same speech while no speech or last word has been recorded since it
 * started: «под фол» lengthens it, it does not restart it.
 * @param {Timer} timer
 * @param {number} n the day
 */
export function timerKey(timer, n) {
  return `${timer.kind}:${timer.seat}:${n}:${timer.turn}`;
}

/** @param {number} n the day */
export function balaganKey(n) {
  return `balagan:${n}`;
}

export class Clocks {
  /**
   * @param {object} kept what the device holds
   * @param {Record<string, number>} kept.timers clock key → the moment it started (ms)
   * @param {string[]} kept.balaganDone the balagans the host ended
   * @param {(name: "timers" | "balagan", value: unknown) => unknown} save
   * @param {() => number} [now]
   */
  constructor({ timers, balaganDone }, save, now = Date.now) {
    this.timers = timers;
    this.balaganDone = new Set(balaganDone);
    this.save = save;
    this.now = now;
  }

  /**
   * When the clock of `key` started: now, the first time it is asked for, and again when
   * the start kept is before `after` (it cannot be this speech's); never before `after`
   * (a phone whose clock is behind the one that recorded the speech before).
   * @param {string} key
   * @param {number} [after] the earliest start the rules take (ms)
   */
  start(key, after = 0) {
    const kept = this.timers[key];
    if (kept === undefined || kept < after) {
      this.timers[key] = Math.max(this.now(), after);
      this.save("timers", this.timers);
    }
    return this.timers[key];
  }

  /**
   * Starts the clock of `key` again from now (the host asked: the speech could not be
   * recorded with the start kept).
   * @param {string} key
   * @param {number} [after]
   */
  restart(key, after = 0) {
    delete this.timers[key];
    return this.start(key, after);
  }

  /**
   * Forgets the clocks of the turns after `turn`: the table is back at `turn`, so an undo
   * took them back, and a turn redone is a new speech with a clock of its own.
   * @param {number} turn
   */
  forgetAfter(turn) {
    const later = Object.keys(this.timers).filter((key) => Number(key.split(":").at(-1)) > turn);
    if (!later.length) return;
    for (const key of later) delete this.timers[key];
    this.save("timers", this.timers);
  }

  /**
   * The clock the table runs now, if any: the balagan until the host starts the round.
   * @param {HostTable} table
   * @returns {Clock | null}
   */
  current(table) {
    const balagan = balaganKey(table.n);
    if (table.balagan && !this.balaganDone.has(balagan) && !table.last_words.length) {
      return { key: balagan, seconds: table.balagan, started: this.start(balagan), kind: "balagan" };
    }
    if (!table.timer) return null;
    const key = timerKey(table.timer, table.n);
    this.forgetAfter(table.timer.turn);
    const after = table.timer.after ? Date.parse(table.timer.after) : 0;
    return { ...table.timer, key, started: this.start(key, after), after };
  }

  /** @param {number} n the day whose balagan the host ended */
  endBalagan(n) {
    this.balaganDone.add(balaganKey(n));
    this.save("balagan", [...this.balaganDone]);
  }
}

/**
 * A recorded speech's start and end: from its clock's start (never later than now) to now;
 * never before the speech before it ended, and never ending before it starts (a phone whose
 * clock is behind the one that recorded the speech before records a speech the rules take).
 * @param {Clock} clock
 * @param {number} [now]
 */
export function span(clock, now = Date.now()) {
  const after = "after" in clock ? clock.after : 0;
  const begun = clock.started ? Math.min(clock.started, now) : now;
  const start = Math.max(begun, after);
  return { start: new Date(start).toISOString(), end: new Date(Math.max(now, start)).toISOString() };
}

/**
 * What a clock's face shows: the time left (never below 0:00) and whether it ran out.
 * @param {number} started 0 when it has not started
 * @param {number} limit seconds
 * @param {number} now
 */
export function face(started, limit, now) {
  // A clock that starts a moment from now (see Clocks.start) shows its whole limit.
  const left = started ? Math.min(Math.ceil(limit - (now - started) / 1000), limit) : limit;
  const shown = Math.max(left, 0);
  return { text: `${Math.floor(shown / 60)}:${String(shown % 60).padStart(2, "0")}`, over: started > 0 && left <= 0 };
}

let beeped = "";

/** The clock on the screen, redrawn four times a second; it beeps once when it runs out. */
export function tick() {
  /** @type {HTMLElement | null} */
  const clock = document.querySelector(".host-clock");
  if (!clock) return;
  const started = Number(clock.dataset.started || 0);
  const { text, over } = face(started, Number(clock.dataset.seconds), Date.now());
  clock.textContent = text;
  clock.classList.toggle("over", over);
  if (over && beeped !== clock.dataset.key) {
    beeped = clock.dataset.key || "";
    beep();
  }
}

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
