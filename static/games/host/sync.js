// @ts-check
// The screen and the server without a tap: the header's network line, and what makes the
// queue (queue.js) try the server by itself — the browser's `online`, the screen shown
// again, and a beat every few seconds that asks for the log's head (a second phone
// follows the first) or, if taps wait and nothing is under way, sends them.
/** @import { TapQueue } from "./queue.js" */
/** @import { EngineState } from "./engine.js" */
import { _ } from "./words.js";

/** How often a visible screen asks for the log's head while the game runs. */
export const BEAT_MS = 3000;

/**
 * The header's network line. «правила загружаются» while the phone's engine loads and the
 * screen needs it (the server cannot be reached, or taps wait that it has not judged).
 * @param {{ online: boolean, waiting: number, unjudged: number, engine: EngineState }} state
 * @returns {string}
 */
export function netLine({ online, waiting, unjudged, engine }) {
  if (engine === "loading" && (!online || unjudged > 0)) {
    // Short: the header holds about 24 characters beside its buttons at 360 px.
    return waiting ? _("rules loading · %(count)s", { count: waiting }) : _("rules loading");
  }
  if (!online) return waiting ? _("offline, %(count)s taps waiting", { count: waiting }) : _("offline");
  return waiting ? _("sending %(count)s…", { count: waiting }) : "";
}

/**
 * The beat's one step: taps that wait go (when nothing is under way: a retry may be
 * scheduled already; not after the server refused this session), else the log's head is
 * asked for while the game runs.
 * @param {Pick<TapQueue, "taps" | "sending" | "retry" | "stopped" | "kick" | "poll"> & { table: { over: boolean } }} queue
 * @param {boolean} visible
 */
export function beat(queue, visible) {
  if (!visible) return;
  if (queue.taps.length) {
    if (!queue.sending && !queue.retry && !queue.stopped) queue.kick();
  } else if (!queue.table.over) {
    void queue.poll();
  }
}

/** @param {TapQueue} queue */
export function startSync(queue) {
  const visible = () => document.visibilityState === "visible";
  window.addEventListener("online", () => queue.setOnline(true));
  window.addEventListener("offline", () => queue.setOnline(false));
  document.addEventListener("visibilitychange", () => visible() && queue.kick());
  setInterval(() => beat(queue, visible()), BEAT_MS);
  queue.kick();
}
