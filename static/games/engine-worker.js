// The rules engine on the phone: games/rules (the server's own module, zipped by
// /games/engine.zip) under Pyodide, for the host's screen while the network is down.
// Served by a view with its own Content-Security-Policy, which allows WebAssembly here only.
let engine = null;

async function start({ pyodideUrl, engineUrl }) {
  const began = performance.now();
  const { loadPyodide } = await import(`${pyodideUrl}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL: pyodideUrl });
  const loaded = performance.now();
  const archive = await (await fetch(engineUrl)).arrayBuffer();
  pyodide.unpackArchive(archive, "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys, json; sys.path.insert(0, '/engine'); from games.rules import table");
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

function call(fn, args) {
  engine.globals.set("engine_args", JSON.stringify(args));
  engine.globals.set("engine_fn", fn);
  const out = engine.runPython("json.dumps(getattr(table, engine_fn)(*json.loads(engine_args)))");
  return JSON.parse(out);
}

self.addEventListener("message", async ({ data }) => {
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
