// The host screen's seat gestures (static/games/host/gestures.js): a short tap and a long
// press, as the browser's pointer, touch and click events reach them, with the clock in
// the test's hand. A redraw under the finger is modelled as what it does to these events:
// the press's end and its click arrive on another node (or another seat, or no seat).
import assert from "node:assert/strict";
import test from "node:test";

import { GUARD_MS, LONG_PRESS_MS, MOVE_PX, SeatGestures } from "../../static/games/host/gestures.js";

function fakeTimers() {
  const pending = new Map();
  let next = 0;
  let now = 0;
  return {
    now: () => now,
    setTimeout(run, ms) {
      next += 1;
      pending.set(next, { run, at: now + ms, ms });
      return next;
    },
    clearTimeout(id) {
      pending.delete(id);
    },
    waits: () => [...pending.values()].map((timer) => timer.ms),
    /** Time passes: the timers due by then run. */
    pass(ms) {
      now += ms;
      for (const [id, timer] of [...pending]) {
        if (timer.at <= now) {
          pending.delete(id);
          timer.run();
        }
      }
    },
  };
}

function gesture() {
  const timers = fakeTimers();
  const done = [];
  const one = new SeatGestures({ tap: (seat) => done.push(`tap ${seat}`), hold: (seat) => done.push(`foul ${seat}`), timers });
  return { one, timers, done };
}

test("a short press is one tap, taken at the lift; its click adds nothing", () => {
  const { one, timers, done } = gesture();
  one.down(1, 5, 100, 100, "touch");
  assert.deepEqual(timers.waits(), [LONG_PRESS_MS]);
  timers.pass(120);
  one.up(1);
  assert.equal(one.click(5, true), true, "the press's own click is swallowed");
  one.touchEnd(); // touchend follows pointerup in Chromium: nothing more
  timers.pass(LONG_PRESS_MS);
  assert.deepEqual(done, ["tap 5"]);
});

for (const ms of [600, 1300]) {
  test(`a long press of ${ms} ms is one foul; its click, wherever it lands, taps nothing`, () => {
    const { one, timers, done } = gesture();
    one.down(1, 5, 100, 100, "touch");
    timers.pass(ms);
    // The foul was recorded and the seats redrawn under the finger: the lift and its click
    // arrive on the fresh node of the same seat, or on another control that moved there.
    one.up(1);
    assert.equal(one.click(5, true), true);
    assert.deepEqual(done, ["foul 5"]);
  });
}

test("a long press whose click lands off the seats (a dialog's button, the bar) swallows it", () => {
  const { one, timers, done } = gesture();
  one.down(1, 5, 100, 100, "touch");
  timers.pass(1300); // the third foul: «Записать?» opened under the finger
  one.up(1);
  assert.equal(one.click(null, true), true, "the click on «Да» is the press's, not the host's answer");
  assert.equal(one.click(null, true), false, "the next click is a deliberate one");
  assert.deepEqual(done, ["foul 5"]);
});

test("a press's click that never comes does not swallow a later deliberate tap", () => {
  const { one, timers, done } = gesture();
  one.down(1, 5, 100, 100, "touch");
  timers.pass(600);
  one.up(1); // no click: the node the press began on was removed
  timers.pass(GUARD_MS + 1);
  assert.equal(one.click(null, true), false, "a bar button's click, later, goes through");
  one.down(2, 6, 10, 10, "touch");
  one.elsewhere(); // or a new press anywhere ends the guard at once
  assert.equal(one.click(null, true), false);
  assert.deepEqual(done, ["foul 5"]);
});

test("a tap during a redraw is exactly one tap of the seat pressed", () => {
  const { one, timers, done } = gesture();
  one.down(1, 5, 100, 100, "touch");
  timers.pass(80); // the server's answer to the previous tap redraws the seats now
  one.up(1); // the lift reaches the fresh node (same seat, by number)
  assert.equal(one.click(null, true), true, "a click on the common ancestor, or none");
  one.touchEnd(); // and the touch's own end on the removed node
  assert.deepEqual(done, ["tap 5"]);
});

test("a press whose pointer end was lost ends with its touch on the removed node", () => {
  const { one, timers, done } = gesture();
  one.down(1, 5, 100, 100, "touch");
  timers.pass(100);
  one.touchEnd();
  timers.pass(LONG_PRESS_MS);
  assert.deepEqual(done, ["tap 5"], "a tap, never a foul after the finger lifted");
});

test("a finger that slides off, or a cancelled touch, does nothing", () => {
  const { one, timers, done } = gesture();
  one.down(1, 5, 100, 100, "touch");
  one.move(1, 100 + MOVE_PX + 1, 100);
  timers.pass(LONG_PRESS_MS);
  one.up(1);
  one.down(2, 6, 0, 0, "touch");
  one.touchCancel();
  timers.pass(LONG_PRESS_MS);
  one.down(3, 7, 0, 0, "mouse");
  one.cancel(3);
  timers.pass(LONG_PRESS_MS);
  assert.deepEqual(done, []);
});

test("a small tremble is still a press", () => {
  const { one, timers, done } = gesture();
  one.down(1, 5, 100, 100, "touch");
  one.move(1, 100 + MOVE_PX - 2, 100);
  timers.pass(LONG_PRESS_MS);
  one.up(1);
  assert.deepEqual(done, ["foul 5"]);
});

test("a second finger abandons the first press; only its own lift counts", () => {
  const { one, timers, done } = gesture();
  one.down(1, 5, 100, 100, "touch");
  one.down(2, 6, 200, 100, "touch");
  one.up(1);
  timers.pass(100);
  one.up(2);
  assert.deepEqual(done, ["tap 6"]);
});

test("the keyboard's click on a seat is a tap; a pointer's click on a seat never is", () => {
  const { one, done } = gesture();
  assert.equal(one.click(5, false), true);
  assert.equal(one.click(null, false), false, "a keyboard click elsewhere is not the seats'");
  assert.equal(one.click(6, true), true, "a pointer's click with no press of its own taps nothing");
  assert.deepEqual(done, ["tap 5"]);
});

test("after a long press the next short press taps again", () => {
  const { one, timers, done } = gesture();
  one.down(1, 5, 0, 0, "touch");
  timers.pass(LONG_PRESS_MS);
  one.up(1);
  one.click(5, true);
  one.down(2, 5, 0, 0, "touch");
  timers.pass(50);
  one.up(2);
  one.click(5, true);
  assert.deepEqual(done, ["foul 5", "tap 5"]);
});
