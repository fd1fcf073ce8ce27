// The vote form's state (static/games/host/vote.js): hands, counts and the event they make.
import assert from "node:assert/strict";
import test from "node:test";

import { VoteForm } from "../../static/games/host/vote.js";

const votes = { type: "votes", among: [6, 7], voters: [1, 2, 3, 4, 5] };
const table = (vote = votes) => ({ n: 1, vote });

test("the form lasts while the vote and the record stay, and starts afresh after any tap", () => {
  const form = VoteForm.follow(null, table(), 10, () => false);
  form.toggleHand(1);
  assert.equal(VoteForm.follow(form, table(), 10, () => false), form);
  const after = VoteForm.follow(form, table(), 11, () => false);
  assert.notEqual(after, form);
  assert.deepEqual(after.hands, {});
  assert.equal(VoteForm.follow(form, { n: 1, vote: null }, 11, () => false), null);
  assert.deepEqual(VoteForm.follow(null, table(), 1, () => true).counts, {}, "the host's preference");
});

test("tapped hands go to the chosen candidate, a second tap lowers one, the rest go at once", () => {
  const form = VoteForm.follow(null, table(), 1, () => false);
  assert.equal(form.current, 6);
  form.toggleHand(1);
  form.toggleHand(2);
  form.toggleHand(2);
  form.current = 7;
  form.toggleHand(3);
  form.restTo(votes, 7);
  assert.deepEqual([form.handsFor(6), form.handsFor(7), form.handsLeft(votes)], [1, 4, 0]);
  assert.deepEqual(form.event(votes), { type: "votes", voters: { 1: 6, 2: 7, 3: 7, 4: 7, 5: 7 } });
});

test("counts record the vote when the last candidate gets its number, corrections wait", () => {
  const form = VoteForm.follow(null, table(), 1, () => true);
  assert.equal(form.setCount(votes, 6, 3), false);
  assert.equal(form.setCount(votes, 7, 2), true);
  assert.equal(form.setCount(votes, 7, 1), false);
  assert.deepEqual(form.event(votes), { type: "votes", counts: { 6: 3, 7: 1 } });
});

test("a yes/no question counts the hands for", () => {
  const question = { type: "expel_both", among: [], voters: [1, 2, 3] };
  const form = VoteForm.follow(null, table(question), 1, () => false);
  assert.equal(form.current, "for");
  form.toggleHand(2);
  assert.deepEqual(form.event(question), { type: "expel_both", for: 1 });
  assert.equal(form.toggleCounts(), true);
  assert.deepEqual(form.event(question), { type: "expel_both", for: 0 });
});

const four = { type: "hands", among: [3, 7, 9, 12], voters: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], about: [], round: 1, dropped: [] };

test("one keypad: each key types the chosen candidate's number and moves on to the next without one", () => {
  const form = VoteForm.follow(null, table(four), 1, () => true);
  assert.equal(form.current, 3, "the first candidate is chosen at once");
  assert.equal(form.type(four, 5), false);
  assert.equal(form.current, 7);
  form.current = 12; // a tap on the chip of 12
  assert.equal(form.type(four, 2), false);
  assert.equal(form.current, 7, "on to the next still without a number, from the start again");
  assert.equal(form.type(four, 4), false);
  assert.equal(form.current, 9);
  assert.equal(form.type(four, 3), true, "the last number records the vote");
  assert.equal(form.current, 12, "every one has a number: on to the next, for a correction");
  assert.deepEqual([form.countFor(3), form.countFor(7), form.countFor(9), form.countFor(12)], [5, 4, 3, 2]);
  assert.equal(form.left(four), 1);
  form.current = 3;
  assert.equal(form.type(four, 6), false, "a correction waits for «Записать»");
  assert.equal(form.current, 7);
  assert.deepEqual(form.event(four), { type: "hands", counts: { 3: 6, 7: 4, 9: 3, 12: 2 } });
});

test("with counts a candidate's seat chooses it for the keypad and no other seat does anything", () => {
  const form = VoteForm.follow(null, table(four), 1, () => true);
  assert.equal(form.tapSeat(four, 9), "chose");
  assert.equal(form.current, 9);
  assert.equal(form.tapSeat(four, 1), "ignored");
  assert.deepEqual(form.hands, {}, "no hand was raised");
  assert.notEqual(form.counts, null, "still counting");
  assert.equal(form.toggleCounts(), false, "the remembered mode switches back");
  assert.equal(form.tapSeat(four, 1), "hand");
  assert.deepEqual(form.hands, { 1: 9 });
  assert.equal(form.left(four), 14);
});

test("more numbers than voters are shown as a negative rest (the engine refuses them)", () => {
  const form = VoteForm.follow(null, table(four), 1, () => true);
  for (const count of [15, 15, 0, 0]) form.type(four, count);
  assert.equal(form.left(four), -15);
});
