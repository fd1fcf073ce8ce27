// A tap in words (static/games/host/words.js, describeTap): the review of waiting taps and
// what another phone recorded read as the host speaks, never as raw event types, and a
// night's check names the role, not the seat.
import "./django.js";

import assert from "node:assert/strict";
import test from "node:test";

import { Words, describeTap } from "../../static/games/host/words.js";

const words = new Words({ nicks: {}, roleNames: { commissar: "Commissar", boss: "Boss", maniac: "Maniac", doctor: "Doctor" }, messages: {} });
const seats = { 4: "commissar", 6: "boss" };
const say = (event) => describeTap(event, words, seats);

test("every event of the club's protocol in words", () => {
  assert.deepEqual(
    [
      { type: "day", n: 2 },
      { type: "night", n: 1 },
      { type: "speech", seat: 5, start: "…", end: "…", limit: 60 },
      { type: "last_word", seat: 3 },
      { type: "nominate", by: 5, target: 8 },
      { type: "foul", seat: 7 },
      { type: "extension", seat: 5 },
      { type: "votes", counts: { 3: 4, 8: 6 } },
      { type: "hands", voters: { 1: 3, 2: 3, 5: 8 } },
      { type: "first_day_expel", for: 7 },
      { type: "expel_both", for: 4 },
      { type: "kill", by: "mafia", target: 3 },
      { type: "kill", by: "maniac", target: null },
      { type: "check", by: 4, target: 2 },
      { type: "check", by: 6, target: null },
      { type: "heal", target: 3 },
      { type: "heal", target: null },
      { type: "best_move", by: 6, targets: [1, 2, 9] },
      { type: "best_move", by: 6, targets: [] },
      { type: "bonus", seat: 4, points: 0.3, reason: "вёл город" },
      { type: "bonus", seat: 2, points: -0.5, reason: "грубость" },
      { type: "undo" },
    ].map(say),
    [
      "day 2",
      "night 1",
      "speech of 5",
      "last word of 3",
      "5 nominates 8",
      "foul: 7",
      "+30 s: 5",
      "votes: 3: 4, 8: 6",
      "hands: 3: 2, 8: 1",
      "hands to expel anyone: 7",
      "hands to expel both: 4",
      "the mafia shoots 3",
      "Maniac: a miss",
      "Commissar checks 2",
      "Boss checks nobody",
      "the doctor heals 3",
      "the doctor heals nobody",
      "best move of 6: 1, 2, 9",
      "no best move: 6",
      "extra points +0.3: 4",
      "penalty −0.5: 2",
      "undo",
    ],
  );
});

test("no word names a checker's seat", () => {
  assert.doesNotMatch(say({ type: "check", by: 4, target: 2 }), /4/);
});
