// The host screen's words (static/games/host/words.js) with a stand-in for Django's
// catalogue (the English source strings): what the host reads after a vote, before a
// removal or an early morning, and what stays hidden unless the cards are shown.
import assert from "node:assert/strict";
import test from "node:test";

globalThis.django = {
  gettext: (text) => text,
  interpolate: (format, values) => format.replace(/%\((\w+)\)s/g, (_match, name) => String(values[name])),
};
const { Words, timeOfDay } = await import("../../static/games/host/words.js");
const { tonightsChecks, bestMoveShown } = await import("../../static/games/host/draw.js");

const words = new Words({
  nicks: { 3: "Ворон", 5: "Сова", 7: "Тень", 9: "Лис" },
  roleNames: { commissar: "Commissar", boss: "Boss", maniac: "Maniac", doctor: "Doctor" },
  messages: {},
});

const vote = (fields) => ({ type: "hands", among: [], voters: [1, 2, 3], about: [], round: 1, dropped: [], ...fields });

test("the questions name the candidates they are about; the runoff its round and who dropped", () => {
  assert.equal(words.voteTitle(vote({ type: "expel_both", about: [3, 7] })), "Expel both: 3 Ворон, 7 Тень?");
  assert.equal(words.voteTitle(vote({ type: "first_day_expel", about: [5, 9] })), "Expel anyone of 5 Сова, 9 Лис at all?");
  assert.equal(words.voteTitle(vote({ among: [3, 5, 7] })), "Hands to expel");
  assert.equal(words.voteTitle(vote({ among: [3, 5], round: 2, dropped: [7] })), "Hands again, round 2; out of the runoff: 7 Тень");
});

test("after «Записать» the host reads the count taken and what it did", () => {
  // A runoff's fewest hands leave the runoff, not the table: never «выбывает».
  const runoff = { type: "hands", counts: { 3: 4, 5: 3, 7: 1 }, for: null, dropped: [7], expelled: [], defence: [], outcome: null };
  assert.equal(words.tally(runoff), "Counted: 3: 4, 5: 3, 7: 1. Out of the runoff, still in the game: 7 Тень.");
  // The preliminary count says who speaks in defence.
  const count = { type: "votes", counts: { 3: 4, 5: 4, 7: 2, 9: 1 }, for: null, dropped: [], expelled: [], defence: [3, 5, 7], outcome: null };
  assert.equal(words.tally(count), "Counted: 3: 4, 5: 4, 7: 2, 9: 1. To the defence: 3 Ворон, 5 Сова, 7 Тень.");
  const one = { type: "votes", counts: { 3: 6, 5: 1 }, for: null, dropped: [], expelled: [3], defence: [], outcome: "voted" };
  assert.equal(words.tally(one), "Counted: 3: 6, 5: 1. Leaves: 3 Ворон.");
  const out = { type: "expel_both", counts: null, for: 8, dropped: [], expelled: [3, 5], defence: [], outcome: "car_crash" };
  assert.equal(words.tally(out), "Hands for: 8. Leaves: 3 Ворон, 5 Сова.");
  const kept = { type: "first_day_expel", counts: null, for: 2, dropped: [], expelled: [], defence: [], outcome: "first_day_kept" };
  assert.equal(words.tally(kept), "Hands for: 2. The table keeps everyone today.");
});

test("↶ on the end screen asks with buttons that say what they do; any other question keeps «Да, записать»", () => {
  assert.deepEqual(words.consequenceButtons({ removes: [], winner: null, reasons: {}, reopens: true }), ["Undo and reopen", "Keep the result"]);
  assert.deepEqual(words.consequenceButtons({ removes: [5], winner: null, reasons: { 5: "fouls" } }), []);
  assert.deepEqual(words.consequenceButtons({ removes: [5], winner: null, reasons: {}, reopens: false }), []);
});

test("the server's own question (↶ of what was given after the end) is shown in its words, with undo's buttons", () => {
  const asked = { removes: [], winner: null, reopens: false, error: "Это отменит допы 5. Отменить?", code: "confirm" };
  assert.equal(words.consequence(asked), "Это отменит допы 5. Отменить?");
  assert.deepEqual(words.consequenceButtons(asked), ["Yes, undo it", "Keep it"]);
});

test("a message the toast shows now is not said again, only kept longer", async () => {
  const { showing } = await import("../../static/games/host/dialogs.js");
  const shown = { hidden: false, text: "Seat 2 speaks now.", kind: "error" };
  assert.equal(showing(shown, "Seat 2 speaks now.", "error"), true);
  assert.equal(showing({ ...shown, hidden: true }, "Seat 2 speaks now.", "error"), false, "gone: said again");
  assert.equal(showing(shown, "Seat 3 speaks now.", "error"), false);
  assert.equal(showing(shown, "Seat 2 speaks now.", "info"), false);
});

test("a removal's question says why the player leaves; an early morning, who has not acted", () => {
  assert.equal(
    words.consequence({ removes: [5], winner: null, reasons: { 5: "fouls" } }),
    "5 Сова leaves the table: three fouls. Record it?",
  );
  assert.equal(
    words.consequence({ removes: [], winner: null, reasons: {}, waiting: [{ slot: "kill:mafia", role: "mafia" }, { slot: "heal", role: "doctor" }] }),
    "Not acted tonight: the mafia, Doctor. Record it?",
  );
  assert.match(words.consequence({ removes: [9], winner: "red", reasons: { 9: "voted" } }), /9 Лис leaves the table: voted out\. The game ends: .*\. Record it\?/);
  assert.match(words.consequence({ removes: [], winner: null, reopens: true }), /reopens the finished game.*Undo\?$/);
});

test("the morning names no check's answer unless the cards are shown", () => {
  const morning = { night: 1, shots: [{ by: "mafia", target: 3 }], healed: [3], checks: [{ by: 7, target: 5, result: "commissar" }], left: [] };
  const hidden = words.morning(morning, false);
  assert.ok(!hidden.some((line) => line.includes("7") || line.includes("commissar")), hidden.join(" | "));
  assert.ok(hidden.includes("The checks: hold 👁."));
  assert.ok(words.morning(morning, true).includes("Check 7 → 5: the commissar"));
  const quiet = words.morning({ ...morning, checks: [] }, false);
  assert.equal(quiet.length, hidden.length, "the same lines whether or not anyone checked");
});

test("a night's mark says whose it is in words", () => {
  const roleOf = () => "maniac";
  assert.equal(words.slot("kill:mafia", roleOf), "The mafia's shot");
  assert.equal(words.slot("kill:maniac", roleOf), "Maniac's shot");
  assert.equal(words.slot("check:boss", roleOf), "Boss's check");
  assert.equal(words.slot("heal", roleOf), "The doctor's heal");
  assert.equal(words.slot("action:4", roleOf), "Maniac's action");
});

test("tonight's checks are the game's last ones, as many as the seats' check marks", () => {
  const seat = (targeted) => ({ targeted });
  const checks = [{ by: 1, target: 2, result: "red" }, { by: 4, target: 5, result: "commissar" }, { by: 1, target: 6, result: "black" }];
  assert.deepEqual(tonightsChecks({ seats: [seat([]), seat(["kill:mafia"])], checks }), []);
  assert.deepEqual(tonightsChecks({ seats: [seat(["check:boss", "heal"]), seat(["check:commissar"])], checks }), checks.slice(1));
});

test("a night's wake line names the role, never the seat that wakes", () => {
  const step = { slot: "action:9", kind: "action", role: "instigator", actor: 9, event: { type: "action", by: 9, kind: "instigator" } };
  assert.equal(words.wake(step), "instigator acts");
  assert.equal(words.wake({ ...step, slot: "check:boss", kind: "check", role: "boss", actor: 2 }), "The boss checks: is it the commissar?");
});

test("the best move as it is named: the giver, then the seats in the order tapped", () => {
  assert.equal(words.bestMove({ by: 9, targets: [] }), "Best move of 9 Лис: tap up to three seats");
  assert.equal(words.bestMove({ by: 9, targets: [5, 3, 7] }), "Best move of 9 Лис: 5, 3, 7");
});

test("the best move recorded stays in sight from its morning until the next day starts", () => {
  const given = { by: 9, targets: [5, 3] };
  const shot = { seat: 9, phase: "night", n: 1, reason: "killed", revealed: false, last_word: true };
  const at = (phase, n, over = false) => ({ phase, n, over, best_move_given: given, eliminated: [shot] });
  assert.deepEqual(bestMoveShown(at("day", 2)), given);
  assert.deepEqual(bestMoveShown(at("night", 2)), given);
  assert.equal(bestMoveShown(at("day", 3)), null);
  assert.deepEqual(bestMoveShown(at("over", 5, true)), given, "after the end, with the result");
  assert.equal(bestMoveShown({ ...at("day", 2), best_move_given: null }), null);
  assert.equal(words.bestMoveGiven(given), "Best move of 9 Лис: 5, 3");
  assert.equal(words.bestMoveGiven({ by: 9, targets: [] }), "No best move from 9 Лис");
});

test("extra points are confirmed, listed and named before ↶ takes them back, as is the best move", async () => {
  const { signedPoints } = await import("../../static/games/host/words.js");
  assert.deepEqual([signedPoints(0.15), signedPoints(-0.2), signedPoints(0.15 - 0.2), signedPoints(0.1 - 0.1)], ["+0.15", "−0.20", "−0.05", "±0.00"]);
  const bonus = { type: "bonus", seat: 3, points: 0.15, reason: "лидер" };
  assert.equal(words.bonusGiven(bonus), "Given: +0.15 to 3 Ворон (лидер)");
  assert.equal(words.bonusGiven({ ...bonus, points: -0.5 }), "Penalty given: −0.50 to 3 Ворон (лидер)");
  assert.equal(words.bonus(bonus), "+0.15 — 3 Ворон: лидер");
  // A seat the reason names by reference reads as the seat and its name to the host.
  assert.equal(words.bonus({ ...bonus, reason: "раскусил {seat:9}" }), "+0.15 — 3 Ворон: раскусил 9 Лис");
  assert.equal(words.bonusGiven({ ...bonus, reason: "{seat:3} вёл" }), "Given: +0.15 to 3 Ворон (3 Ворон вёл)");
  assert.equal(words.undoQuestion(bonus), "Undo the extra points +0.15 of seat 3 Ворон?");
  assert.equal(words.undoQuestion({ ...bonus, points: -0.2 }), "Undo the penalty −0.20 of seat 3 Ворон?");
  assert.equal(words.undoQuestion({ type: "best_move", by: 9, targets: [5, 3, 7] }), "Undo the best move of 9 Лис: 5, 3, 7?");
  assert.equal(words.undoQuestion({ type: "best_move", by: 9, targets: [] }), 'Undo "no best move" of 9 Лис?');
  assert.equal(words.undoQuestion({ type: "foul", seat: 3 }), null, "any other tap is taken back at once");
  assert.equal(words.undoQuestion(null), null);
});

test("extra points are taken while the game runs, and after the end within the club's window", async () => {
  const { bonusWindowOpen } = await import("../../static/games/host/dialogs.js");
  const closes = "2026-12-08T21:00:00+03:00";
  const at = Date.parse(closes);
  assert.equal(bonusWindowOpen({ days: 3, closes }, false, at + 1), true, "a game reopened by an undo runs");
  assert.equal(bonusWindowOpen({ days: 3, closes }, true, at - 1), true);
  assert.equal(bonusWindowOpen({ days: 3, closes }, true, at + 1), false);
  // Ended on this screen: the window runs from now, unless the club gives none.
  assert.equal(bonusWindowOpen({ days: 3, closes: null }, true, at), true);
  assert.equal(bonusWindowOpen({ days: 0, closes: null }, true, at), false);
  assert.equal(words.bonusWindowClosed({ days: 0, closes: null }), "Extra points: the window closed at the game's end");
  assert.match(words.bonusWindowClosed({ days: 3, closes }), /^Extra points: the window closed on \S/);
});

test("a time in the host's messages is the club's time of day, not UTC nor the phone's", () => {
    const refused = {
    code: "speech_overlap",
    template: "This speech starts at %(start)s, before the one before it ended (%(end)s).",
    // The engine's moments: the phone's start in UTC, the server's end with its own offset.
    params: { start: "2026-12-06T01:41:42.250000+00:00", end: "2026-12-06T05:41:48+04:00" },
  };
  const ru = "Эта речь начинается в %(start)s, раньше, чем закончилась предыдущая (%(end)s).";
  const moscow = new Words({ nicks: {}, roleNames: {}, messages: { [refused.template]: ru }, zone: "Europe/Moscow" });
  assert.equal(moscow.refusal(refused), "Эта речь начинается в 04:41:42, раньше, чем закончилась предыдущая (04:41:48).");
  const vladivostok = new Words({ nicks: {}, roleNames: {}, messages: {}, zone: "Asia/Vladivostok" });
  assert.equal(vladivostok.refusal(refused), "This speech starts at 11:41:42, before the one before it ended (11:41:48).");
  // Words of another kind stay as they are, and so does a start that is not a moment.
  const seat = { code: "no_such_seat", template: "There is no seat %(seat)s.", params: { seat: 99 } };
  assert.equal(moscow.refusal(seat), "There is no seat 99.");
  assert.equal(moscow.refusal({ ...refused, params: { start: "now", end: "later" } }), "Эта речь начинается в now, раньше, чем закончилась предыдущая (later).");
  // 24-hour, two digits, in either language; a moment past midnight in the club is the next day's.
  assert.equal(timeOfDay("2026-12-06T21:05:09Z", "Europe/Moscow", "en"), "00:05:09");
  assert.equal(timeOfDay("2026-12-06T21:05:09Z", "Europe/Moscow", "ru"), "00:05:09");
  assert.equal(timeOfDay(Date.parse("2026-12-06T21:05:09Z"), "America/New_York", "en"), "16:05:09");
});

test("the window for extra points closed at the club's time", () => {
  const closes = "2026-12-08T20:30:00+00:00"; // 23:30 in Moscow, 06:30 the next day in Vladivostok
  const moscow = new Words({ nicks: {}, roleNames: {}, messages: {}, zone: "Europe/Moscow" });
  const vladivostok = new Words({ nicks: {}, roleNames: {}, messages: {}, zone: "Asia/Vladivostok" });
  assert.match(moscow.bonusWindowClosed({ days: 2, closes }), /12\/8\/26,? 11:30\sPM$/);
  assert.match(vladivostok.bonusWindowClosed({ days: 2, closes }), /12\/9\/26,? 6:30\sAM$/);
});

test("extra points are offered in steps of 0.05 within the scheme's bounds, never zero", async () => {
  const { bonusSteps } = await import("../../static/games/host/dialogs.js");
  const steps = bonusSteps({ min: -1, max: 1 });
  assert.equal(steps.length, 40);
  assert.deepEqual([steps[0], steps[18], steps[19], steps[20], steps[39]], [1, 0.1, 0.05, -0.05, -1]);
  assert.deepEqual(bonusSteps({ min: 0, max: 0.2 }), [0.2, 0.15, 0.1, 0.05]);
});
