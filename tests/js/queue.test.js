// The taps' queue (static/games/host/queue.js): every tap reaches the server once, in
// order, as the entry after the last one the phone knows; taps wait while the network is
// down or the server refuses, and go again, from the same tap, when it returns. The server,
// the phone's engine and the dialogs are fakes here.
import assert from "node:assert/strict";
import test from "node:test";

import { TapQueue, restore } from "../../static/games/host/queue.js";
import { Words } from "../../static/games/host/words.js";

/** A server holding one game's log: it records a tap that follows its last entry. */
function fakeServer() {
  const server = {
    log: [],
    bodies: [], // every post
    taken: [], // the posts it recorded
    down: false, // every post fails as a network error would
    dropOnce: -1, // the post made when the log has this many entries fails, once
    confirmFirst: new Set(), // event types answered 428 until confirmed
    async post(body) {
      server.bodies.push(structuredClone(body));
      if (server.down || server.dropOnce === server.log.length) {
        server.dropOnce = -1;
        throw new TypeError("Failed to fetch");
      }
      if (body.seq !== server.log.length + 1) {
        const seq = server.log.length;
        return { ok: false, answer: { error: "stale", code: "stale", seq, log: [...server.log], table: { shows: seq } } };
      }
      if (server.confirmFirst.has(body.event.type) && !body.confirmed) {
        return { ok: false, answer: { error: "sure?", code: "confirm", removes: [9], winner: null } };
      }
      server.log.push(body.event);
      server.taken.push(structuredClone(body));
      const seq = server.log.length;
      return { ok: true, answer: { seq, entry: body.event, created: true, table: { shows: seq, checks: [] } } };
    },
  };
  return server;
}

function fakeUi({ confirm = true, choice = "discard" } = {}) {
  const ui = {
    said: [],
    asked: [],
    conflicts: [],
    redraws: 0,
    redraw: () => (ui.redraws += 1),
    say: (message, kind = "error") => ui.said.push([kind, message]),
    confirm: async (outcome) => (ui.asked.push(outcome), confirm),
    accepted: () => {},
    conflict: async (answer, waiting) => (ui.conflicts.push([answer.code, waiting.map((tap) => tap.event.type)]), choice),
    tapping: () => {},
  };
  return ui;
}

function queueOn(server, { online = true, judge = async () => null, ui = fakeUi(), start = {} } = {}) {
  const saved = [];
  const io = { post: server.post, judge, save: async (snapshot) => saved.push(structuredClone(snapshot)) };
  const words = new Words({ nicks: {}, roleNames: {}, messages: { "There is no seat %(seat)s.": "Места %(seat)s нет." } });
  const queue = new TapQueue({ log: [], seq: 0, table: { shows: 0 }, queue: [], ...start }, online, io, ui, words);
  return { queue, ui, saved };
}

const types = (events) => events.map((event) => event.type);

test("online, each tap goes at once, as the entry after the last one, the next after its answer", async () => {
  const server = fakeServer();
  const { queue } = queueOn(server);
  queue.send({ type: "day", n: 1 });
  await queue.send({ type: "speech", seat: 1 }); // tapped before the first was answered
  assert.deepEqual(server.bodies.map((body) => [body.seq, body.event.type]), [[1, "day"], [2, "speech"]]);
  assert.equal(new Set(server.bodies.map((body) => body.client_id)).size, 2);
  assert.ok(server.bodies.every((body) => body.event.at && body.confirmed === false));
  assert.deepEqual([queue.seq, queue.table, types(queue.log)], [2, { shows: 2, checks: [] }, ["day", "speech"]]);
});

test("a tap the network drops waits, and every later tap waits behind it, in order", async () => {
  const server = fakeServer();
  const { queue, saved } = queueOn(server);
  server.down = true;
  await queue.send({ type: "day", n: 1 });
  assert.equal(queue.online, false);
  await queue.send({ type: "nominate", by: 1, target: 5 });
  await queue.send({ type: "speech", seat: 1 });
  assert.deepEqual(types(queue.taps.map((tap) => tap.event)), ["day", "nominate", "speech"]);
  assert.ok(queue.taps.every((tap) => tap.confirmed), "the host saw each, so the server need not ask");
  assert.equal(saved.at(-1).queue.length, 3, "kept on the device");

  server.down = false;
  queue.setOnline(true);
  await waitFor(() => !queue.sending && queue.taps.length === 0);
  assert.deepEqual(types(server.log), ["day", "nominate", "speech"]);
  assert.deepEqual(server.taken.map((body) => body.seq), [1, 2, 3]);
  assert.equal(server.taken[0].client_id, server.bodies[0].client_id, "the dropped tap, not a copy");
});

test("when a send fails mid-way the rest wait from the same tap and go when the network returns", async () => {
  const server = fakeServer();
  server.dropOnce = 1;
  const taps = ["day", "nominate", "speech"].map((type, i) => ({ client_id: `c${i}`, event: { type }, confirmed: true }));
  const { queue } = queueOn(server, { start: { queue: taps } });
  await queue.flush();
  assert.deepEqual(types(queue.taps.map((tap) => tap.event)), ["nominate", "speech"]);
  queue.setOnline(true);
  await waitFor(() => !queue.sending && queue.taps.length === 0);
  assert.deepEqual(types(server.log), ["day", "nominate", "speech"]);
  assert.deepEqual(server.taken.map((body) => [body.seq, body.client_id]), [[1, "c0"], [2, "c1"], [3, "c2"]]);
  assert.ok(server.bodies.filter((body) => body.client_id === "c1").length >= 2, "c1 went again");
});

test("taps another device overtook are the host's to send again or discard", async () => {
  const server = fakeServer();
  server.log.push({ type: "day", n: 1 }); // the other phone recorded first
  const taps = [{ client_id: "a", event: { type: "speech", seat: 1 }, confirmed: true }];
  const discard = queueOn(server, { start: { queue: taps }, ui: fakeUi({ choice: "discard" }) });
  await discard.queue.flush();
  assert.deepEqual(discard.ui.conflicts, [["stale", ["speech"]]]);
  assert.deepEqual([discard.queue.seq, types(discard.queue.log)], [1, ["day"]], "the server's log is shown");
  await waitFor(() => discard.queue.taps.length === 0);
  assert.equal(discard.saved.at(-1).queue.length, 0);

  const send = queueOn(server, { start: { queue: taps.map((tap) => ({ ...tap })) }, ui: fakeUi({ choice: "send" }) });
  await send.queue.flush();
  await waitFor(() => send.queue.taps.length === 0);
  assert.deepEqual(types(server.log), ["day", "speech"], "judged again on top of the other device's taps");
});

test("offline, the phone's engine judges each tap: a refusal is said and nothing waits", async () => {
  const server = fakeServer();
  const judge = async (log, event) =>
    event.target === 99
      ? { ok: false, refusal: { code: "no_such_seat", template: "There is no seat %(seat)s.", params: { seat: 99 } } }
      : { ok: true, table: { shows: `after ${log.length + 1}` }, consequence: event.type === "foul" ? { removes: [9], winner: null } : null };
  const ui = fakeUi({ confirm: false });
  const { queue } = queueOn(server, { online: false, judge, ui });
  await queue.send({ type: "nominate", by: 1, target: 99 });
  assert.deepEqual(ui.said, [["error", "Места %(seat)s нет."]]);
  await queue.send({ type: "foul", seat: 9 }); // the third: the host is asked, and says no
  assert.deepEqual(ui.asked, [{ removes: [9], winner: null }]);
  await queue.send({ type: "nominate", by: 1, target: 5 });
  assert.deepEqual([queue.taps.length, queue.table], [1, { shows: "after 1" }]);
  assert.equal(server.bodies.length, 0);
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

test("a reload starts from the page unless the device knew more or still holds taps", () => {
  const page = { log: [1, 2], seq: 2, table: "page" };
  assert.deepEqual(restore(page, undefined), { log: [1, 2], seq: 2, table: "page", queue: [] });
  assert.equal(restore(page, { log: [1], seq: 1, table: "old", queue: [] }).table, "page");
  assert.equal(restore(page, { log: [1, 2, 3], seq: 3, table: "newer", queue: [] }).table, "newer");
  const waiting = restore(page, { log: [1], seq: 1, table: "device", queue: ["tap"] });
  assert.deepEqual([waiting.table, waiting.queue], ["device", ["tap"]]);
});

async function waitFor(condition) {
  for (let turn = 0; turn < 1000 && !condition(); turn += 1) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(condition(), "the queue did not settle");
}
