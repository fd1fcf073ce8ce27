// @ts-check
// The rules engine on the phone: games/rules (the server's own module, zipped by
// /games/engine.zip) under Pyodide, for the host's screen while the network is down.
// Served by a view with its own Content-Security-Policy, which allows WebAssembly here only.
//
// What makes it start fast (docs/benchmarks.md, bench/phone_engine.py): the page starts
// this worker before anything else; Pyodide runs on engine_stdlib.zip, the part of the
// standard library the engine and Pyodide's own start import, precompiled to bytecode
// (tools/engine-stdlib.mjs; the stock library is sources, compiled again at every start),
// with the engine's own bytecode beside it; the engine's zip is fetched while Pyodide starts.
//
// Its messages: the page's (static/games/host/engine.js) `{init, pyodideUrl, engineUrl}`
// once, then `{id, fn, args}` for each call; its own `{ready, figures}` or `{failed}`
// once, then `{id, result}` for each call.
/** @import { PyodideAPI } from "pyodide" */
/**
 * Pyodide, and the one private field read for the figures: the WebAssembly heap.
 * @typedef {PyodideAPI & { _module: { HEAPU8: Uint8Array } }} Pyodide
 */
/** @typedef {{ init: true, pyodideUrl: string, engineUrl: string }} Start */
/** @typedef {{ init?: undefined, id: number, fn: string, args: unknown[] }} Call */

/** @type {Pyodide | null} */
let engine = null;

// games.rules from the server's zip (/engine), its bytecode from engine_stdlib.zip's
// pycache/ (checked by hash against each source: a module whose source differs is compiled).
const IMPORT_THE_ENGINE = `
import json, sys, zipfile
sys.pycache_prefix = "/pycache"
with zipfile.ZipFile(next(path for path in sys.path if path.endswith(".zip"))) as stdlib:
    stdlib.extractall("/", [name for name in stdlib.namelist() if name.startswith("pycache/")])
sys.path.insert(0, "/engine")
from games.rules import table
`;

/** @param {Start} message */
async function start({ pyodideUrl, engineUrl }) {
  const began = performance.now();
  const archive = fetch(engineUrl).then((response) => {
    if (!response.ok) throw new Error(`${engineUrl}: ${response.status}`);
    return response.arrayBuffer();
  });
  archive.catch(() => {}); // awaited below; a failure is reported there
  /** @type {{ loadPyodide: typeof import("pyodide").loadPyodide }} */
  const { loadPyodide } = await import(`${pyodideUrl}pyodide.mjs`);
  const pyodide = /** @type {Pyodide} */ (await loadPyodide({ indexURL: pyodideUrl, stdLibURL: `${pyodideUrl}engine_stdlib.zip` }));
  const loaded = performance.now();
  pyodide.unpackArchive(await archive, "zip", { extractDir: "/engine" });
  pyodide.runPython(IMPORT_THE_ENGINE);
  const ready = performance.now();
  engine = pyodide;
  const figures = {
    load_ms: Math.round(loaded - began),
    engine_ms: Math.round(ready - loaded),
    first_ms: Math.round(ready - began),
    wasm_heap_mb: Math.round((pyodide._module.HEAPU8.length / 1048576) * 10) / 10,
  };
  self.postMessage({ ready: true, figures });
}

/**
 * A function of games.rules.table on JSON arguments, its JSON answer.
 * @param {string} fn
 * @param {unknown[]} args
 * @returns {unknown}
 */
function call(fn, args) {
  if (!engine) throw new Error("the engine has not loaded yet"); // answered as a refusal
  engine.globals.set("engine_args", JSON.stringify(args));
  engine.globals.set("engine_fn", fn);
  const out = engine.runPython("json.dumps(getattr(table, engine_fn)(*json.loads(engine_args)))");
  return JSON.parse(out);
}

self.addEventListener("message", /** @param {MessageEvent<Start | Call>} event */ async ({ data }) => {
  if (data.init) {
    try {
      await start(data);
    } catch (error) {
      self.postMessage({ failed: String(error) });
    }
    return;
  }
  let result;
  try {
    result = call(data.fn, data.args);
  } catch (error) {
    result = { ok: false, refusal: { code: "engine", template: String(error), params: {} } };
  }
  self.postMessage({ id: data.id, result });
});
