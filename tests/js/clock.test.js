// The host screen's clocks (static/games/host/clock.js): keys from the engine's table, the
// start kept under each, and what an undo brings back.
import assert from "node:assert/strict";
import test from "node:test";

import { Clocks, face, span, timerKey } from "../../static/games/host/clock.js";

/** A day's table with a speaker's clock, as games/rules/table.py sends it (the parts read). */
function speaking(seat, turn, seconds = 30) {
  return { n: 2, balagan: null, last_words: [], timer: { kind: "speech", seat, seconds, turn } };
}

function clocks(kept = { timers: {}, balaganDone: [] }) {
  let now = 1_000;
  const saved = [];
  const all = new Clocks(kept, (name, value) => saved.push([name, structuredClone(value)]), () => now);
  return { all, saved, at: (ms) => (now = ms) };
}

test("a clock's key is its speech: kind, seat, day and the speeches before it", () => {
  assert.equal(timerKey({ kind: "defence", seat: 7, seconds: 30, turn: 12 }, 1), "defence:7:1:12");
});

test("a clock starts the first time it is shown and keeps its start on the device", () => {
  const { all, saved, at } = clocks();
  assert.equal(all.current(speaking(4, 3)).started, 1_000);
  at(5_000);
  assert.equal(all.current(speaking(4, 3)).started, 1_000, "a redraw does not restart it");
  assert.equal(all.current(speaking(4, 3, 60)).started, 1_000, "«под фол» lengthens, not restarts");
  assert.deepEqual(saved, [["timers", { "speech:4:2:3": 1_000 }]]);
});

test("undoing a speech brings back the clock it ended, with its start", () => {
  const { all, at } = clocks();
  all.current(speaking(4, 3));
  at(31_000);
  const next = all.current(speaking(5, 4)); // «Дальше»: seat 5 speaks
  assert.equal(next.started, 31_000);
  at(40_000);
  const undone = all.current(speaking(4, 3)); // ↶: the engine's table is seat 4's again
  assert.equal(undone.key, "speech:4:2:3");
  assert.equal(undone.started, 1_000);
});

test("the balagan runs until the host starts the round, and stays ended", () => {
  const { all, saved } = clocks({ timers: {}, balaganDone: [] });
  const day = { n: 1, balagan: 60, last_words: [], timer: { kind: "speech", seat: 1, seconds: 30, turn: 0 } };
  assert.equal(all.current(day).kind, "balagan");
  all.endBalagan(1);
  assert.deepEqual(saved.at(-1), ["balagan", ["balagan:1"]]);
  assert.equal(all.current(day).kind, "speech");
  const later = clocks({ timers: {}, balaganDone: ["balagan:1"] }); // a reload
  assert.equal(later.all.current(day).kind, "speech");
});

test("the night's last words come before the balagan", () => {
  const { all } = clocks();
  const morning = { n: 2, balagan: 120, last_words: [6], timer: { kind: "last_word", seat: 6, seconds: 60, turn: 0 } };
  assert.equal(all.current(morning).kind, "last_word");
});

test("the face counts down to 0:00 and turns over; a recorded span never ends before it starts", () => {
  assert.deepEqual(face(1_000, 30, 1_000), { text: "0:30", over: false });
  assert.deepEqual(face(1_000, 90, 2_500), { text: "1:29", over: false });
  assert.deepEqual(face(1_000, 30, 40_000), { text: "0:00", over: true });
  assert.deepEqual(face(0, 45, 40_000), { text: "0:45", over: false });
  const started = Date.parse("2026-12-06T15:00:00Z");
  const clock = { key: "k", kind: "speech", seconds: 30, seat: 1, started };
  assert.deepEqual(span(clock, started + 31_000), { start: "2026-12-06T15:00:00.000Z", end: "2026-12-06T15:00:31.000Z" });
  assert.equal(span({ ...clock, started: started + 5_000 }, started).start, "2026-12-06T15:00:00.000Z");
});
