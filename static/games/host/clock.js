// @ts-check
// The clocks: the balagan's and each speech's, their keys and starts. A clock's key names
// one speech (or last word) of the game; its start is kept on the device under that key,
// so a redraw, a reload or an undo that brings the same speech back finds its start.
// The key comes from the engine's table (`timer.turn`), never from a count of our own.
/** @import { HostTable, Timer } from "./table.js" */

/**
 * The balagan's clock (no seat: the free talk is everyone's), or a speech's, a defence's or
 * a last word's, which names its seat.
 * @typedef {{ key: string, kind: "balagan", seconds: number, started: number }
 *   | { key: string, kind: Timer["kind"], seconds: number, seat: number, started: number }} Clock
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
   * When the clock of `key` started: now, the first time it is asked for.
   * @param {string} key
   */
  start(key) {
    if (!(key in this.timers)) {
      this.timers[key] = this.now();
      this.save("timers", this.timers);
    }
    return this.timers[key];
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
    return { key, started: this.start(key), ...table.timer };
  }

  /** @param {number} n the day whose balagan the host ended */
  endBalagan(n) {
    this.balaganDone.add(balaganKey(n));
    this.save("balagan", [...this.balaganDone]);
  }
}

/**
 * A recorded speech's start and end: from its clock's start (never later than now) to now.
 * @param {Clock} clock
 * @param {number} [now]
 */
export function span(clock, now = Date.now()) {
  const end = new Date(now);
  const start = clock.started ? new Date(Math.min(clock.started, end.getTime())) : end;
  return { start: start.toISOString(), end: end.toISOString() };
}

/**
 * What a clock's face shows: the time left (never below 0:00) and whether it ran out.
 * @param {number} started 0 when it has not started
 * @param {number} limit seconds
 * @param {number} now
 */
export function face(started, limit, now) {
  const left = started ? Math.ceil(limit - (now - started) / 1000) : limit;
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
