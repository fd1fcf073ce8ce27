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

// --- «Дальше», ↶, «Дальше» (#37): the redone turn's clock is a fresh one ----------------

/**
 * A day's round as the engine folds it (games/rules/table.py, day.py): the effective log
 * (an undo takes back the entry before it), the clock's turn (the speeches before it) and
 * `after` (when the last of them ended), and the rules' refusal of a speech that starts
 * before the one before it ended.
 */
function round(log) {
  const effective = [];
  for (const entry of log) {
    if (entry.type === "undo") effective.pop();
    else effective.push(entry);
  }
  const last = effective.at(-1);
  const seat = effective.length + 1;
  return { n: 1, balagan: null, last_words: [], timer: { kind: "speech", seat, seconds: 30, turn: effective.length, after: last ? last.end : null } };
}

function recorded(log, event) {
  const after = round(log).timer.after;
  if (after && Date.parse(event.start) < Date.parse(after)) return "speech_overlap";
  log.push(event);
  return null;
}

/** «Дальше» as the bar makes it: the speech of the clock shown, from its start to now. */
function next(all, log, now) {
  const clock = all.current(round(log));
  return recorded(log, { type: "speech", seat: clock.seat, limit: clock.seconds, ...span(clock, now) });
}

const T = Date.parse("2026-12-06T04:41:00Z");

test("«Дальше», ↶, «Дальше»: the next speaker's clock starts afresh and every later «Дальше» is recorded", () => {
  const { all, at } = clocks();
  const log = [];
  at(T);
  for (let seat = 1; seat <= 3; seat += 1) {
    all.current(round(log)); // drawn: the speaker's clock starts
    at(T + seat * 10_000);
    assert.equal(next(all, log, T + seat * 10_000), null);
  }
  at(T + 35_000);
  assert.equal(all.current(round(log)).seat, 4);
  at(T + 42_000); // «Дальше» for seat 4: seat 5's clock starts
  assert.equal(next(all, log, T + 42_000), null);
  assert.equal(all.current(round(log)).started, T + 42_000);
  at(T + 45_000);
  log.push({ type: "undo" }); // ↶: seat 4 speaks again, from the start its clock kept
  const back = all.current(round(log));
  assert.equal(back.seat, 4);
  assert.equal(back.started, T + 35_000, "seat 4's own start stands");
  assert.equal(Object.keys(all.timers).some((key) => key.startsWith("speech:5:")), false, "the undone clock is forgotten");
  at(T + 48_000); // «Дальше» again
  assert.equal(next(all, log, T + 48_000), null);
  const redone = all.current(round(log));
  assert.equal(redone.seat, 5);
  assert.equal(redone.started, T + 48_000, "seat 5's clock starts at the redone tap, not the undone one");
  assert.deepEqual(face(redone.started, 30, T + 48_000), { text: "0:30", over: false });
  for (let seat = 5; seat <= 10; seat += 1) {
    at(T + 48_000 + (seat - 4) * 20_000);
    assert.equal(next(all, log, T + 48_000 + (seat - 4) * 20_000), null, `seat ${seat}'s «Дальше» is recorded`);
  }
});

test("a device that kept the undone tap's start (before this fix) still goes on: that start is no start", () => {
  // What the phone held after «Дальше», ↶, «Дальше» before: seat 5's start at the undone tap.
  const log = [{ type: "speech", seat: 1, start: "2026-12-06T04:41:00.000Z", end: "2026-12-06T04:41:48.000Z" }];
  const { all, at } = clocks({ timers: { "speech:2:1:1": Date.parse("2026-12-06T04:41:42.000Z") }, balaganDone: [] });
  at(Date.parse("2026-12-06T04:42:00.000Z")); // a reload
  const clock = all.current(round(log));
  assert.equal(clock.started, Date.parse("2026-12-06T04:42:00.000Z"));
  assert.equal(next(all, log, Date.parse("2026-12-06T04:42:20.000Z")), null);
  assert.equal(next(all, log, Date.parse("2026-12-06T04:42:50.000Z")), null);
});

test("a speech is never recorded as starting before the one before it ended, whatever the phone's clock", () => {
  // Another phone, 5 s ahead, recorded the speech before: this one's now is before its end.
  const log = [{ type: "speech", seat: 1, start: "2026-12-06T04:41:00.000Z", end: "2026-12-06T04:41:30.000Z" }];
  const { all, at } = clocks();
  at(Date.parse("2026-12-06T04:41:25.000Z"));
  const clock = all.current(round(log));
  assert.equal(clock.started, Date.parse("2026-12-06T04:41:30.000Z"));
  assert.equal(face(clock.started, 30, Date.parse("2026-12-06T04:41:25.000Z")).text, "0:30");
  const { start, end } = span(clock, Date.parse("2026-12-06T04:41:27.000Z"));
  assert.deepEqual([start, end], ["2026-12-06T04:41:30.000Z", "2026-12-06T04:41:30.000Z"]);
  assert.equal(next(all, log, Date.parse("2026-12-06T04:41:28.000Z")), null);
});

test("a restarted clock starts from now, never before the speech before it ended", () => {
  const { all, at } = clocks();
  const table = speaking(4, 3);
  all.current(table);
  at(9_000);
  assert.equal(all.restart("speech:4:2:3", 0), 9_000);
  assert.equal(all.current(table).started, 9_000);
  assert.equal(all.restart("speech:4:2:3", 12_000), 12_000);
});
