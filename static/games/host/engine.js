// @ts-check
// The phone's engine: games/rules under Pyodide in a Web Worker (/games/engine-worker.js),
// the same module the server answers with. It is started first thing on the page (the
// screen is drawn meanwhile from the page or the device) and the service worker keeps it,
// so the phone has its engine when the network goes. Until it is ready the screen says
// «правила загружаются» and a tap waits unjudged (queue.js).
/** @import { HostPage, OfflineTap } from "./table.js" */
/** @import { LogEntry, TapEvent } from "./queue.js" */

/**
 * @typedef {object} Engine
 * @property {(log: LogEntry[], event: TapEvent) => Promise<OfflineTap>} offlineTap games.rules.table.offline_tap
 * @property {Record<string, number>} figures how long it took to load, and its heap
 */
/** @typedef {"loading" | "ready" | "failed"} EngineState */

/**
 * Starts the worker. The promise settles once the engine has loaded (or could not):
 * `ready` has been called with it by then.
 * @param {Pick<HostPage, "workerUrl" | "pyodideUrl" | "engineUrl" | "seats" | "options" | "immune">} page
 * @param {(engine: Engine) => void} ready
 * @param {(reason: string) => void} failed
 * @returns {Promise<void>}
 */
export function startEngine(page, ready, failed) {
  performance.mark("host-engine-start");
  const worker = new Worker(page.workerUrl, { type: "module" });
  let next = 0;
  /** @type {Map<number, (result: any) => void>} */
  const waiting = new Map();
  /**
   * @param {string} fn a function of games.rules.table
   * @param {unknown[]} args
   * @returns {Promise<any>}
   */
  function call(fn, args) {
    next += 1;
    const id = next;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      worker.postMessage({ id, fn, args });
    });
  }
  return new Promise((settled) => {
    /** @param {string} reason */
    const fail = (reason) => {
      document.documentElement.dataset.engine = "failed";
      failed(reason);
      settled();
    };
    worker.addEventListener("error", (event) => fail(event.message || "the engine's worker did not start"));
    worker.addEventListener("message", ({ data }) => {
      if (data.ready) {
        window.hostEngineFigures = data.figures;
        performance.mark("host-engine-ready");
        document.documentElement.dataset.engine = "ready";
        ready({
          offlineTap: (log, event) => call("offline_tap", [page.seats, page.options, page.immune, log, event]),
          figures: data.figures,
        });
        settled();
        return;
      }
      if (data.failed) return fail(data.failed);
      const pending = waiting.get(data.id);
      waiting.delete(data.id);
      if (pending) pending(data.result);
    });
    document.documentElement.dataset.engine = "loading";
    worker.postMessage({ init: true, pyodideUrl: page.pyodideUrl, engineUrl: page.engineUrl });
  });
}
