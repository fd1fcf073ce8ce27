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
