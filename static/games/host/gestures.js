// @ts-check
// A short tap and a long press on one control. A short tap does what the phase means; a
// long press is a foul (the screen follows the game, so nothing is a sticky mode).
// `press` is the gesture without the DOM (tests/js/gestures.test.js); `bindPress` wires
// it to a button's pointer events.

export const LONG_PRESS_MS = 550;

/**
 * @typedef {object} Timers
 * @property {(run: () => void, ms: number) => unknown} setTimeout
 * @property {(id: any) => void} clearTimeout
 */

/**
 * The gesture on one control: pointer down starts the wait; when it runs out the press is
 * long (`hold`), and the click that ends it does nothing more; an earlier click is a tap.
 * Lifting, leaving or cancelling the pointer stops the wait.
 * @param {{ tap: () => void, hold: () => void, wait?: number, timers?: Timers }} options
 */
export function press({ tap, hold, wait = LONG_PRESS_MS, timers = globalThis }) {
  /** @type {unknown} */
  let timer = null;
  let held = false;
  return {
    down() {
      held = false;
      timer = timers.setTimeout(() => {
        held = true;
        hold();
      }, wait);
    },
    cancel() {
      timers.clearTimeout(timer);
    },
    click() {
      if (held) return;
      tap();
    },
  };
}

/**
 * @param {HTMLElement} node
 * @param {{ tap: () => void, hold: () => void }} actions
 */
export function bindPress(node, actions) {
  const gesture = press(actions);
  node.addEventListener("pointerdown", gesture.down);
  for (const end of ["pointerup", "pointerleave", "pointercancel"]) node.addEventListener(end, gesture.cancel);
  node.addEventListener("contextmenu", (event) => event.preventDefault());
  node.addEventListener("click", gesture.click);
}
