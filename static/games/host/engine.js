// @ts-check
// The phone's engine: games/rules under Pyodide in a Web Worker (/games/engine-worker.js),
// the same module the server answers with. Pyodide is large (docs/host-screen.md has the
// figures): it loads in the background and the service worker keeps it, so the phone has
// its engine when the network goes.
/** @import { HostPage, OfflineTap } from "./table.js" */
/** @import { LogEntry, TapEvent } from "./queue.js" */

/**
 * @typedef {object} Engine
 * @property {(log: LogEntry[], event: TapEvent) => Promise<OfflineTap>} offlineTap games.rules.table.offline_tap
 * @property {Record<string, number>} figures how long it took to load, and its heap
 */

/**
 * Starts the worker; `ready` is called once the engine has loaded.
 * @param {Pick<HostPage, "workerUrl" | "pyodideUrl" | "engineUrl" | "seats" | "options" | "immune">} page
 * @param {(engine: Engine) => void} ready
 */
export function startEngine(page, ready) {
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
  worker.addEventListener("message", ({ data }) => {
    if (data.ready) {
      ready({
        offlineTap: (log, event) => call("offline_tap", [page.seats, page.options, page.immune, log, event]),
        figures: data.figures,
      });
      window.hostEngineFigures = data.figures;
      document.documentElement.dataset.engine = "ready";
      return;
    }
    if (data.failed) {
      document.documentElement.dataset.engine = "failed";
      return;
    }
    const pending = waiting.get(data.id);
    waiting.delete(data.id);
    if (pending) pending(data.result);
  });
  worker.postMessage({ init: true, pyodideUrl: page.pyodideUrl, engineUrl: page.engineUrl });
}
