// The taps' queue (static/games/host/queue.js): every tap reaches the server once, in
// order, as the entry after the last one the phone knows; taps wait while the server
// cannot be reached and go again by themselves (backoff, a new tap, the network's
// return), from the same tap; a tap made before the phone's engine has loaded waits
// unjudged and is judged when it has; a second phone follows the log's head. The server,
// the phone's engine, the dialogs and the timers are fakes here.
import "./django.js";

import assert from "node:assert/strict";
import test from "node:test";

import { RETRY_MS, TapQueue, restore, retryDelay } from "../../static/games/host/queue.js";
import { Words, describeTap } from "../../static/games/host/words.js";

/**
 * A round of speeches, as the engine judges it: seat 1 speaks first, then 2, …; a speech
 * by any other seat is out of turn. The server and the phone's engine share it.
 */
function speakerAfter(log) {
  const effective = [];
  for (const entry of log) {
    if (entry.type === "undo") effective.pop();
    else effective.push(entry);
  }
  return 1 + effective.filter((entry) => entry.type === "speech").length;
}
const OUT_OF_TURN = "It is %(speaker)s's turn to speak.";
const OVERLAP = "This speech starts at %(start)s, before the one before it ended (%(end)s).";
const OVERLAP_RU = "Эта речь начинается в %(start)s, раньше, чем закончилась предыдущая (%(end)s).";

/** A server holding one game's log: it records a tap that follows its last entry. */
function fakeServer() {
  const server = {
    log: [],
    bodies: [], // every post
    taken: [], // the posts it recorded
    down: false, // every post fails as a network error would
    status: 0, // every post is answered with this status (503: a proxy without its server)
    dropOnce: -1, // the post made when the log has this many entries fails, once
    confirmFirst: new Set(), // event types answered 428 until confirmed
    overlap: false, // every speech is refused as starting before the one before it ended
    heads: 0,
    async post(body) {
      server.bodies.push(structuredClone(body));
      if (server.down || server.dropOnce === server.log.length) {
        server.dropOnce = -1;
        throw new TypeError("Failed to fetch");
      }
      if (server.status) return { ok: false, status: server.status, answer: { error: "The server did not answer; try again." } };
      const earlier = server.taken.find((taken) => taken.client_id === body.client_id);
      if (earlier) return { ok: true, status: 200, answer: { seq: server.log.length, entry: earlier.event, created: false, table: server.table() } };
      if (body.seq !== server.log.length + 1) {
        const seq = server.log.length;
        return { ok: false, status: 409, answer: { error: "stale", code: "stale", seq, log: [...server.log], table: server.table() } };
      }
      if (body.event.type === "speech" && server.overlap) {
        // As games/taps.py answers it today: the rules' words, the code `invalid`.
        const error = "Эта речь начинается в 07:41:42, раньше, чем закончилась предыдущая (07:41:48).";
        return { ok: false, status: 422, answer: { error, code: "invalid" } };
      }
      if (body.event.type === "speech" && body.event.seat !== speakerAfter(server.log)) {
        return { ok: false, status: 422, answer: { error: `Seat ${speakerAfter(server.log)} speaks now.`, code: "invalid" } };
      }
      if (server.confirmFirst.has(body.event.type) && !body.confirmed) {
        return { ok: false, status: 428, answer: { error: "sure?", code: "confirm", removes: [9], winner: null } };
      }
      server.log.push(body.event);
      server.taken.push(structuredClone(body));
      const seq = server.log.length;
      return { ok: true, status: 201, answer: { seq, entry: body.event, created: true, table: server.table() } };
    },
    async head(seq) {
      server.heads += 1;
      if (server.down) throw new TypeError("Failed to fetch");
      if (seq === server.log.length) return null;
      return { seq: server.log.length, log: [...server.log], table: server.table() };
    },
    table: () => ({ shows: server.log.length, speaker: speakerAfter(server.log), checks: [] }),
  };
  return server;
}

/** The phone's engine, once loaded: the same round of speeches. */
async function engine(log, event) {
  const speaker = speakerAfter(log);
  if (event.type === "speech" && event.seat !== speaker) {
    return { ok: false, refusal: { code: "speech_order", template: OUT_OF_TURN, params: { speaker } } };
  }
  const after = [...log, event];
  return { ok: true, table: { shows: `phone ${after.length}`, speaker: speakerAfter(after) }, consequence: event.type === "foul" ? { removes: [9], winner: null } : null };
}

const words = new Words({ nicks: {}, roleNames: { commissar: "Комиссар" }, zone: "Europe/Moscow", messages: { [OUT_OF_TURN]: "Сейчас говорит %(speaker)s.", [OVERLAP]: OVERLAP_RU, "There is no seat %(seat)s.": "Места %(seat)s нет." } });

function fakeUi({ confirm = true, choice = "discard" } = {}) {
  const ui = {
    said: [],
    stuck: [], // what was said with the offer to restart the speech's clock
    asked: [],
    conflicts: [],
    redraws: 0,
    redraw: () => (ui.redraws += 1),
    say: (message, kind = "error") => ui.said.push([kind, message]),
    confirm: async (outcome) => (ui.asked.push(outcome), confirm),
    accepted: () => {},
    conflict: async (answer, waiting, recorded) => (
      ui.conflicts.push([answer.code, waiting.map((tap) => tap.event.type), recorded.map((entry) => describeTap(entry, words))]), choice
    ),
    describe: (event) => describeTap(event, words),
    tapping: () => {},
    unrecordable: (message) => ui.stuck.push(message),
  };
  return ui;
}

/** Timers the test runs by hand: `due()` runs what is scheduled, oldest first. */
function fakeTimers() {
  const timers = {
    pending: new Map(),
    next: 0,
    set(run, ms) {
      timers.next += 1;
      timers.pending.set(timers.next, { run, ms });
      return timers.next;
    },
    clear(handle) {
      timers.pending.delete(handle);
    },
    delays: () => [...timers.pending.values()].map((timer) => timer.ms),
    due() {
      const [handle, timer] = [...timers.pending.entries()][0];
      timers.pending.delete(handle);
      timer.run();
      return timer.ms;
    },
  };
  return timers;
}

function queueOn(server, { online = true, judge = async () => null, ui = fakeUi(), start = {}, timers = fakeTimers() } = {}) {
  const saved = [];
  const io = { post: server.post, head: server.head, judge: (log, event) => judge(log, event), save: async (snapshot) => saved.push(structuredClone(snapshot)) };
  const queue = new TapQueue({ log: [], seq: 0, table: { shows: 0 }, queue: [], ...start }, online, io, ui, words, timers);
  return { queue, ui, saved, timers, io };
}

const types = (events) => events.map((event) => event.type);
const waitingTypes = (queue) => types(queue.taps.map((tap) => tap.event));

test("online, each tap goes at once, as the entry after the last one, the next after its answer", async () => {
  const server = fakeServer();
  const { queue } = queueOn(server);
  queue.send({ type: "day", n: 1 });
  await queue.send({ type: "speech", seat: 1 }); // tapped before the first was answered
  assert.deepEqual(server.bodies.map((body) => [body.seq, body.event.type]), [[1, "day"], [2, "speech"]]);
  assert.equal(new Set(server.bodies.map((body) => body.client_id)).size, 2);
  assert.ok(server.bodies.every((body) => body.event.at && body.confirmed === false));
  assert.deepEqual([queue.seq, queue.table.shows, types(queue.log)], [2, 2, ["day", "speech"]]);
});

test("a tap the host was already asked about goes confirmed: no second question", async () => {
  const server = fakeServer();
  server.confirmFirst.add("undo");
  const { queue, ui } = queueOn(server);
  await queue.send({ type: "bonus", seat: 3, points: 0.1, reason: "лидер" });
  await queue.send({ type: "undo" }, true);
  assert.deepEqual(server.bodies.map((body) => [body.event.type, body.confirmed]), [["bonus", false], ["undo", true]]);
  assert.deepEqual(ui.asked, []);
});

test("a tap the network drops waits, every later tap waits behind it, and all go when the network returns", async () => {
  const server = fakeServer();
  const { queue, saved } = queueOn(server, { judge: engine });
  server.down = true;
  await queue.send({ type: "day", n: 1 });
  assert.equal(queue.online, false);
  await queue.send({ type: "nominate", by: 1, target: 5 });
  await queue.send({ type: "speech", seat: 1 });
  await settled(queue);
  assert.deepEqual(waitingTypes(queue), ["day", "nominate", "speech"]);
  assert.ok(queue.taps.every((tap) => tap.confirmed && tap.judged), "the phone's engine judged each");
  assert.equal(queue.table.speaker, 2, "the screen follows the game");
  assert.equal(saved.at(-1).queue.length, 3, "kept on the device");

  server.down = false;
  queue.setOnline(true);
  await settled(queue);
  assert.deepEqual(types(server.log), ["day", "nominate", "speech"]);
  assert.deepEqual(server.taken.map((body) => body.seq), [1, 2, 3]);
  assert.equal(server.taken[0].client_id, server.bodies[0].client_id, "the dropped tap, not a copy");
  assert.equal(queue.online, true);
});

test("one failed send never stops the sending: it retries with a backoff of 1, 2, then 4 s", async () => {
  assert.deepEqual(RETRY_MS, [1000, 2000, 4000]);
  assert.deepEqual([1, 2, 3, 4, 9].map(retryDelay), [1000, 2000, 4000, 4000, 4000]);
  const server = fakeServer();
  const { queue, timers } = queueOn(server, { judge: engine });
  server.down = true;
  await queue.send({ type: "day", n: 1 });
  await settled(queue);
  const waits = [];
  for (let attempt = 0; attempt < 4; attempt += 1) {
    waits.push(timers.due()); // the retry fires: the server is still away
    await settled(queue);
  }
  assert.deepEqual(waits, [1000, 2000, 4000, 4000]);
  assert.equal(server.log.length, 0);
  server.down = false; // the server is back: the next retry, at most 4 s later, takes the taps
  assert.deepEqual(timers.delays(), [4000]);
  timers.due();
  await settled(queue);
  assert.deepEqual([types(server.log), queue.taps.length, queue.online], [["day"], 0, true]);
  assert.deepEqual(timers.delays(), [], "nothing waits: no more retries");
});

test("a server that answers 5xx while the browser says online is not reached: the taps wait and go on its return", async () => {
  const server = fakeServer();
  const { queue, timers } = queueOn(server, { judge: engine });
  server.status = 503;
  await queue.send({ type: "day", n: 1 });
  await queue.send({ type: "speech", seat: 1 });
  await settled(queue);
  assert.deepEqual([waitingTypes(queue), queue.online, server.log.length], [["day", "speech"], false, 0]);
  assert.ok(!queue.dropped.length && !queue.ui.said.length, "nothing is dropped or refused");
  server.status = 0;
  timers.due();
  await settled(queue);
  assert.deepEqual(types(server.log), ["day", "speech"]);
  assert.equal(new Set(server.taken.map((body) => body.client_id)).size, 2, "each once");
});

test("every new tap tries the server again at once, before the backoff's wait", async () => {
  const server = fakeServer();
  const { queue, timers } = queueOn(server, { judge: engine });
  server.down = true;
  await queue.send({ type: "day", n: 1 });
  await settled(queue);
  server.down = false;
  await queue.send({ type: "speech", seat: 1 });
  await settled(queue);
  assert.deepEqual(types(server.log), ["day", "speech"]);
  assert.deepEqual(timers.delays(), []);
});

test("when a send fails mid-way the rest wait from the same tap and go when the network returns", async () => {
  const server = fakeServer();
  server.dropOnce = 1;
  const taps = ["day", "nominate", "night"].map((type, i) => ({ client_id: `c${i}`, event: { type }, confirmed: true }));
  const { queue } = queueOn(server, { start: { queue: taps } });
  await queue.flush();
  await settled(queue);
  assert.deepEqual(waitingTypes(queue), ["nominate", "night"]);
  queue.setOnline(true);
  await settled(queue);
  assert.deepEqual(types(server.log), ["day", "nominate", "night"]);
  assert.deepEqual(server.taken.map((body) => [body.seq, body.client_id]), [[1, "c0"], [2, "c1"], [3, "c2"]]);
  assert.ok(server.bodies.filter((body) => body.client_id === "c1").length >= 2, "c1 went again");
});

test("a tap recorded whose answer was lost goes again and is recognised, never doubled", async () => {
  const server = fakeServer();
  const post = server.post;
  let lose = true;
  const { queue, timers, io } = queueOn(server, { judge: engine });
  io.post = async (body) => {
    const sent = await post(body);
    if (lose) {
      lose = false;
      throw new TypeError("the answer was lost");
    }
    return sent;
  };
  await queue.send({ type: "day", n: 1 });
  await settled(queue);
  assert.equal(queue.taps.length, 1);
  timers.due();
  await settled(queue);
  assert.deepEqual([types(server.log), queue.taps.length, queue.seq], [["day"], 0, 1]);
});

test("before the phone's engine loads a tap waits unjudged: the screen guesses nothing, and the engine judges the taps in order when ready", async () => {
  const server = fakeServer();
  server.log.push({ type: "day", n: 1 });
  let loaded = false;
  const judge = (log, event) => (loaded ? engine(log, event) : null);
  const start = { log: [{ type: "day", n: 1 }], seq: 1, table: { shows: "last known", speaker: 1 } };
  const { queue, ui } = queueOn(server, { online: false, judge, start });
  server.down = true;
  for (let tap = 0; tap < 3; tap += 1) await queue.send({ type: "speech", seat: queue.table.speaker }); // «Дальше» ×3
  await settled(queue);
  assert.deepEqual([queue.taps.length, queue.unjudged, queue.table.shows], [3, 3, "last known"], "the same state: nothing applied as a guess");
  assert.ok(queue.taps.every((tap) => tap.event.seat === 1 && tap.confirmed === false));

  loaded = true;
  await queue.engineReady();
  assert.deepEqual(queue.taps.map((tap) => [tap.event.seat, tap.judged]), [[1, true]], "one speech; the repeats refused");
  assert.equal(queue.table.speaker, 2);
  assert.deepEqual(ui.said, [["error", "Not recorded: speech of 1 — Сейчас говорит 2 × 2"]], "two repeats refused alike, said once, counted");

  server.down = false;
  queue.setOnline(true);
  await settled(queue);
  assert.deepEqual(server.log.map((entry) => entry.type + (entry.seat || "")), ["day", "speech1"]);
});

test("unjudged taps that reach the server first are judged there: one speech, the repeats refused in words, no dialog", async () => {
  const server = fakeServer();
  server.log.push({ type: "day", n: 1 });
  const start = { log: [{ type: "day", n: 1 }], seq: 1, table: { shows: "last known", speaker: 1 } };
  const { queue, ui } = queueOn(server, { online: false, start });
  server.down = true;
  for (let tap = 0; tap < 3; tap += 1) await queue.send({ type: "speech", seat: 1 });
  await settled(queue);
  server.down = false;
  queue.setOnline(true);
  await settled(queue);
  assert.deepEqual(server.log.map((entry) => entry.type + (entry.seat || "")), ["day", "speech1"]);
  assert.deepEqual([queue.taps.length, queue.seq, queue.table.speaker], [0, 2, 2]);
  assert.deepEqual(ui.conflicts, []);
  assert.deepEqual(ui.said, [["error", "Not recorded: speech of 1 — Seat 2 speaks now × 2"]], "two repeats refused alike, said once, counted");
});

test("the engine that loads while the first unjudged tap is on its way judges the rest after the server's answer", async () => {
  const server = fakeServer();
  server.log.push({ type: "day", n: 1 });
  let loaded = false;
  const judge = (log, event) => (loaded ? engine(log, event) : null);
  const start = { log: [{ type: "day", n: 1 }], seq: 1, table: { shows: "last known", speaker: 1 } };
  const { queue, io, ui } = queueOn(server, { online: false, judge, start });
  server.down = true;
  for (let tap = 0; tap < 3; tap += 1) await queue.send({ type: "speech", seat: 1 });
  await settled(queue);
  server.down = false;
  const post = io.post;
  io.post = async (body) => {
    if (!loaded) {
      loaded = true;
      queue.engineReady(); // it waits: the tap on its way is the server's to judge
    }
    return post(body);
  };
  queue.setOnline(true);
  await settled(queue);
  assert.deepEqual(server.log.map((entry) => entry.type + (entry.seat || "")), ["day", "speech1"]);
  assert.deepEqual([queue.taps.length, queue.table.speaker], [0, 2]);
  assert.deepEqual(ui.said, [["error", "Not recorded: speech of 1 — Сейчас говорит 2 × 2"]], "two repeats refused alike, said once, counted");
  assert.equal(server.bodies.length, 4, "the phone's engine dropped the repeats: they were not sent");
});

test("a server that refuses this session the record keeps the taps and stops until the next tap", async () => {
  const server = fakeServer();
  const taps = [{ client_id: "a", event: { type: "day", n: 1 }, confirmed: true, judged: true }];
  const { queue, ui, io } = queueOn(server, { start: { queue: taps } });
  const post = io.post;
  io.post = async () => ({ ok: false, status: 403, answer: { error: "Only the game's host records it.", code: "forbidden" } });
  await queue.flush();
  await settled(queue);
  assert.deepEqual([queue.taps.length, queue.stopped, queue.retry], [1, true, null]);
  assert.deepEqual(ui.said, [["error", "Only the game's host records it."]]);
  io.post = post;
  queue.kick();
  await settled(queue);
  assert.deepEqual([types(server.log), queue.stopped], [["day"], false]);
});

test("an unjudged tap that would remove a player is asked before the server records it", async () => {
  const server = fakeServer();
  server.confirmFirst.add("foul");
  const { queue, ui } = queueOn(server, { online: false });
  server.down = true;
  await queue.send({ type: "foul", seat: 9 });
  await settled(queue);
  server.down = false;
  queue.setOnline(true);
  await settled(queue);
  assert.deepEqual(server.bodies.slice(1).map((body) => body.confirmed), [false, true]);
  assert.equal(ui.asked.length, 1);
  assert.deepEqual(types(server.log), ["foul"]);
});

test("taps another device overtook: the dialog says what it recorded, and the host sends again or discards", async () => {
  const server = fakeServer();
  server.log.push({ type: "day", n: 1 }, { type: "speech", seat: 1 }, { type: "foul", seat: 7 }); // the other phone
  const taps = [{ client_id: "a", event: { type: "day", n: 1 }, confirmed: true, judged: true }];
  const discard = queueOn(server, { start: { queue: taps }, ui: fakeUi({ choice: "discard" }) });
  await discard.queue.flush();
  await settled(discard.queue);
  assert.deepEqual(discard.ui.conflicts, [["stale", ["day"], ["day 1", "speech of 1", "foul: 7"]]]);
  assert.deepEqual([discard.queue.seq, types(discard.queue.log)], [3, ["day", "speech", "foul"]], "the server's log is shown");
  assert.equal(discard.queue.taps.length, 0);
  assert.equal(discard.saved.at(-1).queue.length, 0);

  const mine = [{ client_id: "b", event: { type: "foul", seat: 3 }, confirmed: true, judged: true }];
  const send = queueOn(server, { start: { queue: mine }, ui: fakeUi({ choice: "send" }), judge: engine });
  await send.queue.flush();
  await settled(send.queue);
  assert.deepEqual(types(server.log), ["day", "speech", "foul", "foul"], "judged again on top of the other device's taps");
  assert.deepEqual(send.ui.asked, [{ removes: [9], winner: null }], "asked again on the new log");
});

test("a waiting tap the server refuses is dropped and said; the taps after it still go", async () => {
  const server = fakeServer();
  const taps = [
    { client_id: "a", event: { type: "speech", seat: 4 }, confirmed: true, judged: true },
    { client_id: "b", event: { type: "nominate", by: 1, target: 5 }, confirmed: true, judged: true },
  ];
  const { queue, ui } = queueOn(server, { start: { queue: taps } });
  await queue.flush();
  await settled(queue);
  assert.deepEqual(types(server.log), ["nominate"]);
  assert.deepEqual(ui.said, [["error", "Not recorded: speech of 4 — Seat 1 speaks now"]]);
  assert.deepEqual(ui.conflicts, []);
});

test("a speech whose clock cannot be recorded says so and offers to restart it, from the server, the engine or the waiting taps", async () => {
  const server = fakeServer();
  server.overlap = true;
  const online = queueOn(server);
  await online.queue.send({ type: "speech", seat: 1, start: "2026-12-06T04:41:42Z", end: "2026-12-06T04:42:12Z" });
  assert.deepEqual(online.ui.stuck, ["Эта речь начинается в 07:41:42, раньше, чем закончилась предыдущая (07:41:48)."]);
  assert.deepEqual(online.ui.said, []);
  await online.queue.send({ type: "nominate", by: 1, target: 99 }); // any other refusal is only said
  server.overlap = false;
  await online.queue.send({ type: "speech", seat: 5 });
  assert.deepEqual([online.ui.stuck.length, online.ui.said], [1, [["error", "Seat 1 speaks now."]]]);

  const overlap = { code: "speech_overlap", template: OVERLAP, params: { start: "2026-12-06T01:41:42.250000+00:00", end: "2026-12-06T01:41:48+00:00" } };
  const judge = async () => ({ ok: false, refusal: overlap });
  const offline = queueOn(server, { online: false, judge });
  server.down = true;
  await offline.queue.send({ type: "speech", seat: 1 });
  assert.deepEqual(offline.ui.stuck, ["Эта речь начинается в 04:41:42, раньше, чем закончилась предыдущая (04:41:48)."]);

  const waiting = queueOn(server, { online: false, judge, start: { queue: [{ client_id: "a", event: { type: "speech", seat: 1 }, confirmed: false, judged: false }] } });
  await waiting.queue.engineReady();
  assert.equal(waiting.queue.taps.length, 0);
  assert.deepEqual(waiting.ui.stuck, ["Not recorded: speech of 1 — Эта речь начинается в 04:41:42, раньше, чем закончилась предыдущая (04:41:48)"]);
  assert.deepEqual(waiting.ui.said, []);
});

test("offline, the phone's engine judges each tap: a refusal is said and nothing waits", async () => {
  const server = fakeServer();
  const judge = async (log, event) =>
    event.target === 99
      ? { ok: false, refusal: { code: "no_such_seat", template: "There is no seat %(seat)s.", params: { seat: 99 } } }
      : { ok: true, table: { shows: `after ${log.length + 1}` }, consequence: event.type === "foul" ? { removes: [9], winner: null } : null };
  const ui = fakeUi({ confirm: false });
  const { queue } = queueOn(server, { online: false, judge, ui });
  server.down = true;
  await queue.send({ type: "nominate", by: 1, target: 99 });
  assert.deepEqual(ui.said, [["error", "Места 99 нет."]]);
  await queue.send({ type: "foul", seat: 9 }); // the third: the host is asked, and says no
  assert.deepEqual(ui.asked, [{ removes: [9], winner: null }]);
  await queue.send({ type: "nominate", by: 1, target: 5 });
  await settled(queue);
  assert.deepEqual([queue.taps.length, queue.table], [1, { shows: "after 1" }]);
  assert.ok(server.bodies.every((body) => body.event.target === 5), "only the kept tap was tried");
});

test("a tap the server would have remove a player is sent again once the host confirms", async () => {
  const server = fakeServer();
  server.confirmFirst.add("foul");
  const { queue, ui } = queueOn(server);
  await queue.send({ type: "foul", seat: 9 });
  assert.deepEqual(server.bodies.map((body) => body.confirmed), [false, true]);
  assert.equal(server.bodies[0].client_id, server.bodies[1].client_id);
  assert.equal(ui.asked[0].code, "confirm");
  assert.deepEqual(types(server.log), ["foul"]);
});

test("a direct tap another device overtook says what it recorded, and the screen catches up", async () => {
  const server = fakeServer();
  server.log.push({ type: "day", n: 1 });
  const { queue, ui } = queueOn(server);
  await queue.send({ type: "speech", seat: 1 });
  assert.equal(queue.seq, 1);
  assert.match(ui.said[0][1], /^Another device recorded first: day 1\./);
});

test("a second phone follows the log's head without a tap; a head older than what the phone did meanwhile is ignored", async () => {
  const server = fakeServer();
  const { queue } = queueOn(server);
  await queue.poll();
  assert.deepEqual([server.heads, queue.seq], [1, 0], "nothing moved: nothing taken");
  server.log.push({ type: "day", n: 1 }, { type: "speech", seat: 1 }); // the first phone
  await queue.poll();
  assert.deepEqual([queue.seq, types(queue.log), queue.table.speaker], [2, ["day", "speech"], 2]);

  server.log.push({ type: "speech", seat: 2 });
  queue.io.head = async (seq) => {
    const answer = await server.head(seq);
    queue.seq = 5; // this phone recorded meanwhile
    return answer;
  };
  await queue.poll();
  assert.equal(queue.log.length, 2, "the older head was not taken");
});

test("the head is not asked while taps wait; a failed head says offline, the next answer online", async () => {
  const server = fakeServer();
  const taps = [{ client_id: "a", event: { type: "day", n: 1 }, confirmed: true, judged: true }];
  const waiting = queueOn(server, { start: { queue: taps } });
  await waiting.queue.poll();
  assert.equal(server.heads, 0);

  const { queue } = queueOn(server);
  server.down = true;
  await queue.poll();
  assert.equal(queue.online, false);
  server.down = false;
  await queue.poll();
  assert.equal(queue.online, true);
});

test("a reload starts from the page unless the device knew more or still holds taps", () => {
  const page = { log: [1, 2], seq: 2, table: "page" };
  assert.deepEqual(restore(page, undefined), { log: [1, 2], seq: 2, table: "page", queue: [] });
  assert.equal(restore(page, { log: [1], seq: 1, table: "old", queue: [] }).table, "page");
  assert.equal(restore(page, { log: [1, 2, 3], seq: 3, table: "newer", queue: [] }).table, "newer");
  const waiting = restore(page, { log: [1], seq: 1, table: "device", queue: ["tap"] });
  assert.deepEqual([waiting.table, waiting.queue], ["device", ["tap"]]);
});

/** Until the queue's lane, its sending and its pending promises are done. */
async function settled(queue) {
  for (let turn = 0; turn < 2000; turn += 1) {
    await queue.lane;
    await new Promise((resolve) => setImmediate(resolve));
    if (!queue.sending && !queue.polling) {
      await queue.lane;
      await new Promise((resolve) => setImmediate(resolve));
      if (!queue.sending && !queue.polling) return;
    }
  }
  assert.fail("the queue did not settle");
}
