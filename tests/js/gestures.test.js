// The host screen's gestures (static/games/host/gestures.js): a short tap and a long press
// on a seat, with the wait's clock in the test's hand.
import assert from "node:assert/strict";
import test from "node:test";

import { LONG_PRESS_MS, press } from "../../static/games/host/gestures.js";

function fakeTimers() {
  const pending = new Map();
  let next = 0;
  return {
    setTimeout(run, ms) {
      next += 1;
      pending.set(next, { run, ms });
      return next;
    },
    clearTimeout(id) {
      pending.delete(id);
    },
    waits: () => [...pending.values()].map((timer) => timer.ms),
    runOut() {
      for (const [id, timer] of [...pending]) {
        pending.delete(id);
        timer.run();
      }
    },
  };
}

function gesture() {
  const timers = fakeTimers();
  const done = [];
  const one = press({ tap: () => done.push("tap"), hold: () => done.push("hold"), timers });
  return { one, timers, done };
}

test("a short press is one tap and no foul", () => {
  const { one, timers, done } = gesture();
  one.down();
  assert.deepEqual(timers.waits(), [LONG_PRESS_MS]);
  one.cancel(); // the finger lifts before the wait is over
  one.click();
  timers.runOut();
  assert.deepEqual(done, ["tap"]);
});

test("a long press is one foul and the click that ends it taps nothing", () => {
  const { one, timers, done } = gesture();
  one.down();
  timers.runOut();
  one.cancel();
  one.click();
  assert.deepEqual(done, ["hold"]);
});

test("a press that leaves the seat before the wait never becomes a foul", () => {
  const { one, timers, done } = gesture();
  one.down();
  one.cancel(); // pointerleave or pointercancel
  timers.runOut();
  assert.deepEqual(done, []);
});

test("after a long press the next short press taps again", () => {
  const { one, timers, done } = gesture();
  one.down();
  timers.runOut();
  one.click();
  one.down();
  one.cancel();
  one.click();
  assert.deepEqual(done, ["hold", "tap"]);
});
