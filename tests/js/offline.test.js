// The offline copy (static/games/host/offline.js) names every module of the screen, so a
// reload without network finds each in the service worker's cache.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import test from "node:test";

import { MODULES } from "../../static/games/host/offline.js";

test("every module of the screen is kept for a reload without network", () => {
  const folder = new URL("../../static/games/host/", import.meta.url);
  const modules = readdirSync(folder).filter((name) => name.endsWith(".js")).sort();
  assert.deepEqual([...MODULES].sort(), modules);
});
