// @ts-check
// The seats' gestures: a short tap does what the phase means; a long press is a foul (the
// screen follows the game, so nothing is a sticky mode). One press is ONE gesture that
// records ONE event, whatever is redrawn while the finger is down.
//
// Why it is more than a click handler: every tap redraws the seats, and the server's answer
// to a tap (or a foul) may arrive while the finger is still down. The button under the
// finger is then a fresh node, and the browser's click that ends the press lands on it (or
// on whatever moved under the finger, or nowhere): a click handler would see a new tap.
// So a seat's tap is taken from the pointer's own down and up (by seat number, never by
// node), and every click a pointer makes on the screen while a seat's press is under way,
// or just after it ended, is swallowed in the capture phase, wherever it lands. Clicks
// without a pointer (Enter or Space on a focused seat) are taps.
//
// `SeatGestures` is the gesture without the DOM (tests/js/gestures.test.js);
// `bindSeatGestures` wires it to the seats' container and the window.

export const LONG_PRESS_MS = 550;
// A finger that slides this far is not pressing a seat.
export const MOVE_PX = 12;
// A press's click follows its end at once; this bounds how long the guard waits for one
// (a press whose click never comes must not swallow a later, deliberate tap).
export const GUARD_MS = 700;

/**
 * @typedef {object} Timers
 * @property {(run: () => void, ms: number) => unknown} setTimeout
 * @property {(id: any) => void} clearTimeout
 * @property {() => number} now
 */

/** @type {Timers} */
const realTimers = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (id) => clearTimeout(id),
  now: () => Date.now(),
};

/**
 * @typedef {object} Press a seat being pressed
 * @property {number} pointer the pointer's id
 * @property {string} kind "touch", "mouse", "pen" ("" when unknown)
 * @property {number} seat
 * @property {number} x
 * @property {number} y
 * @property {unknown} timer
 * @property {boolean} held the long press has fired
 * @property {boolean} moved
 */

export class SeatGestures {
  /**
   * @param {{ tap: (seat: number) => void, hold: (seat: number) => void, wait?: number, timers?: Timers }} options
   */
  constructor({ tap, hold, wait = LONG_PRESS_MS, timers = realTimers }) {
    this.onTap = tap;
    this.onHold = hold;
    this.wait = wait;
    this.timers = timers;
    /** @type {Press | null} */
    this.press = null;
    // Clicks made by a pointer are swallowed while a press is under way and until this
    // moment after it ended (or until the next press begins, or one click is swallowed).
    this.guardUntil = -Infinity;
  }

  /**
   * A pointer went down on a seat: the press begins, and its guard with it.
   * @param {number} pointer
   * @param {number} seat
   * @param {number} x
   * @param {number} y
   * @param {string} [kind]
   */
  down(pointer, seat, x, y, kind = "") {
    this.drop(); // a second finger abandons the first press: neither a tap nor a foul
    /** @type {Press} */
    const press = { pointer, kind, seat, x, y, timer: null, held: false, moved: false };
    press.timer = this.timers.setTimeout(() => {
      if (this.press !== press) return;
      press.held = true;
      this.onHold(seat);
    }, this.wait);
    this.press = press;
    this.guardUntil = Infinity;
  }

  /** A pointer went down anywhere but on a seat: a new gesture, which no guard concerns. */
  elsewhere() {
    this.drop();
    this.guardUntil = -Infinity;
  }

  /**
   * @param {number} pointer
   * @param {number} x
   * @param {number} y
   */
  move(pointer, x, y) {
    const press = this.press;
    if (!press || press.pointer !== pointer || press.moved) return;
    if (Math.hypot(x - press.x, y - press.y) > MOVE_PX) {
      press.moved = true;
      this.timers.clearTimeout(press.timer);
    }
  }

  /**
   * The pointer lifted: a tap when it was short and stayed; a long press already did its
   * foul. Either way the click that follows is the guard's.
   * @param {number} pointer
   */
  up(pointer) {
    const press = this.press;
    if (!press || press.pointer !== pointer) return;
    this.end();
    if (!press.held && !press.moved) this.onTap(press.seat);
  }

  /**
   * A touch ended on the node where it began (touch events keep that node as their target,
   * even once a redraw removed it): the press ends, if its pointer's own end was lost.
   */
  touchEnd() {
    const press = this.press;
    if (press && press.kind === "touch") this.up(press.pointer);
  }

  /** The touch was cancelled on the node where it began: nothing happens. */
  touchCancel() {
    const press = this.press;
    if (press && press.kind === "touch") this.cancel(press.pointer);
  }

  /**
   * The browser took the pointer (a scroll, a system gesture): nothing happens.
   * @param {number} pointer
   */
  cancel(pointer) {
    if (this.press && this.press.pointer === pointer) this.end();
  }

  /**
   * A click reached the screen. Returns whether it is swallowed: a click made by a pointer
   * while a seat's press is under way or has just ended belongs to that press, wherever it
   * landed; a pointer's click on a seat is never a tap of its own (the press was). A click
   * without a pointer (the keyboard) on a seat is a tap.
   * @param {number | null} seat the seat it landed on, if any
   * @param {boolean} byPointer made by a pointer (a click's `detail` is then at least 1)
   */
  click(seat, byPointer) {
    if (!byPointer) {
      if (seat !== null) this.onTap(seat);
      return seat !== null;
    }
    const guarded = this.press !== null || this.timers.now() <= this.guardUntil;
    if (guarded && !this.press) this.guardUntil = -Infinity; // one click per press
    return guarded || seat !== null;
  }

  /** @returns {boolean} whether a press is under way */
  get pressing() {
    return this.press !== null;
  }

  end() {
    this.drop();
    this.guardUntil = this.timers.now() + GUARD_MS;
  }

  drop() {
    if (this.press) this.timers.clearTimeout(this.press.timer);
    this.press = null;
  }
}

/**
 * @param {EventTarget | null} target
 * @returns {number | null}
 */
function seatOf(target) {
  const node = target instanceof Element ? target.closest("[data-seat]") : null;
  return node ? Number(/** @type {HTMLElement} */ (node).dataset.seat) : null;
}

/**
 * The seats' gestures on their container, which the redraws keep (only its children are
 * replaced): the press starts on a seat; its end, moves and clicks are watched on the
 * window, where they arrive wherever the finger is by then.
 * @param {HTMLElement} seats
 * @param {{ tap: (seat: number) => void, hold: (seat: number) => void }} actions
 */
export function bindSeatGestures(seats, actions) {
  const gestures = new SeatGestures(actions);
  const options = { capture: true };
  window.addEventListener(
    "pointerdown",
    (event) => {
      const seat = seats.contains(/** @type {Node} */ (event.target)) ? seatOf(event.target) : null;
      if (seat === null || event.button > 0) return gestures.elsewhere();
      const node = /** @type {HTMLButtonElement} */ (/** @type {Element} */ (event.target).closest("[data-seat]"));
      if (node.disabled) return gestures.elsewhere();
      gestures.down(event.pointerId, seat, event.clientX, event.clientY, event.pointerType);
      return undefined;
    },
    options,
  );
  window.addEventListener("pointermove", (event) => gestures.move(event.pointerId, event.clientX, event.clientY), options);
  window.addEventListener("pointerup", (event) => gestures.up(event.pointerId), options);
  window.addEventListener("pointercancel", (event) => gestures.cancel(event.pointerId), options);
  window.addEventListener(
    "click",
    (event) => {
      const seat = seats.contains(/** @type {Node} */ (event.target)) ? seatOf(event.target) : null;
      if (gestures.click(seat, event.detail > 0)) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    },
    options,
  );
  // A long press opens no menu: not on the seats, nor wherever it ends.
  window.addEventListener(
    "contextmenu",
    (event) => {
      if (gestures.pressing || seats.contains(/** @type {Node} */ (event.target))) event.preventDefault();
    },
    options,
  );
  return gestures;
}

/**
 * A seat's own node ends its touch too: a touch's events keep going to the node where it
 * began, even after a redraw took that node out of the page (then nothing else hears them).
 * @param {HTMLElement} node
 * @param {SeatGestures} gestures
 */
export function watchTouchEnd(node, gestures) {
  node.addEventListener("touchend", () => gestures.touchEnd());
  node.addEventListener("touchcancel", () => gestures.touchCancel());
}
