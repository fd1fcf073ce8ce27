// The offline copy (static/games/host/offline.js) names every module of the screen, so a
// reload without network finds each in the service worker's cache, and the engine's files
// as its worker loads them (Pyodide on the precompiled engine_stdlib.zip).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import test from "node:test";

import { CACHE, MODULES, PYODIDE } from "../../static/games/host/offline.js";

test("every module of the screen is kept for a reload without network", () => {
  const folder = new URL("../../static/games/host/", import.meta.url);
  const modules = readdirSync(folder).filter((name) => name.endsWith(".js")).sort();
  assert.deepEqual([...MODULES].sort(), modules);
});

test("the engine's files are kept as its worker loads them, in the service worker's cache", () => {
  const worker = readFileSync(new URL("../../static/games/engine-worker.js", import.meta.url), "utf8");
  assert.match(worker, /stdLibURL: `\$\{pyodideUrl\}engine_stdlib\.zip`/);
  assert.ok(PYODIDE.includes("engine_stdlib.zip") && !PYODIDE.includes("python_stdlib.zip"));
  const serviceWorker = readFileSync(new URL("../../static/games/sw.js", import.meta.url), "utf8");
  assert.match(serviceWorker, new RegExp(`const CACHE = "${CACHE}"`));
});
