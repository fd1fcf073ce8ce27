// The screen and the server without a tap (static/games/host/sync.js): the header's line
// says «rules loading» while the screen needs the phone's engine and it has not loaded,
// and the beat sends waiting taps or asks for the log's head.
import "./django.js";

import assert from "node:assert/strict";
import test from "node:test";

import { beat, netLine } from "../../static/games/host/sync.js";

test("the header says the rules are loading while the screen needs the engine, the count of waiting taps, or offline", () => {
  const line = (state) => netLine({ online: true, waiting: 0, unjudged: 0, engine: "ready", ...state });
  assert.equal(line({}), "");
  assert.equal(line({ engine: "loading" }), "", "online with nothing waiting: the server judges the taps");
  assert.equal(line({ online: false, engine: "loading" }), "rules loading");
  assert.equal(line({ online: false, engine: "loading", waiting: 3, unjudged: 3 }), "rules loading · 3");
  assert.equal(line({ engine: "loading", waiting: 2, unjudged: 2 }), "rules loading · 2");
  assert.equal(line({ online: false, waiting: 3 }), "offline, 3 taps waiting");
  assert.equal(line({ online: false, engine: "failed", waiting: 1, unjudged: 1 }), "offline, 1 taps waiting");
  assert.equal(line({ online: false }), "offline");
  assert.equal(line({ waiting: 2 }), "sending 2…");
});

test("the beat sends waiting taps when nothing is under way, else asks for the head while the game runs, only when visible", () => {
  const calls = [];
  const queue = (state) => ({
    taps: [],
    sending: false,
    retry: null,
    stopped: false,
    table: { over: false },
    kick: () => calls.push("kick"),
    poll: async () => calls.push("poll"),
    ...state,
  });
  beat(queue({}), true);
  beat(queue({}), false);
  beat(queue({ table: { over: true } }), true);
  beat(queue({ taps: [1] }), true);
  beat(queue({ taps: [1], sending: true }), true);
  beat(queue({ taps: [1], retry: 7 }), true);
  beat(queue({ taps: [1], stopped: true }), true);
  assert.deepEqual(calls, ["poll", "kick"]);
});
