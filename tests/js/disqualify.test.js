// The judge's disqualification in the host screen's words (static/games/host/words.js): the
// question before it is kept says why the player leaves, and the tap reads as what it is.
import assert from "node:assert/strict";
import test from "node:test";

globalThis.django = {
  gettext: (text) => text,
  interpolate: (format, values) => format.replace(/%\((\w+)\)s/g, (_match, name) => String(values[name])),
};
const { Words, describeTap } = await import("../../static/games/host/words.js");

const words = new Words({ nicks: { 5: "Сова" }, roleNames: {}, messages: {} });

test("the question before a disqualification names it, not three fouls", () => {
  assert.equal(
    words.consequence({ removes: [5], winner: null, reasons: { 5: "disqualified" } }),
    "5 Сова leaves the table: disqualified. Record it?",
  );
});

test("a waiting disqualification reads as one", () => {
  assert.equal(describeTap({ type: "disqualify", seat: 5, reason: "оскорбление" }, words), "disqualified: 5");
});
