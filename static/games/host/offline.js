// @ts-check
// A reload without network: the service worker (/sw.js, static/games/sw.js) keeps the game
// pages a host opened, the site's scripts and styles and the phone's engine. The first
// visit loads before the worker controls the page, so the page puts itself, its modules
// and the engine into the worker's cache: the small files at once, Pyodide's once the
// engine has loaded it (its own download is then in the browser's cache, and the two do
// not compete for the phone's first seconds).
/** @import { HostPage } from "./table.js" */

// The service worker's cache (static/games/sw.js names it too).
export const CACHE = "mafia-host-v2";
// Every module of the screen (tests/js/offline.test.js checks the list against the folder).
export const MODULES = [
  "clock.js",
  "dialogs.js",
  "disqualify.js",
  "draw.js",
  "engine.js",
  "gestures.js",
  "main.js",
  "offline.js",
  "queue.js",
  "store.js",
  "sync.js",
  "vote.js",
  "words.js",
];
// What the engine's worker loads: Pyodide without its stock library (engine_stdlib.zip
// replaces it; tools/engine-stdlib.mjs).
export const PYODIDE = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "engine_stdlib.zip", "pyodide-lock.json"];

/**
 * @param {Pick<HostPage, "workerUrl" | "engineUrl" | "pyodideUrl">} page
 * @param {Promise<unknown>} engineSettled the engine has loaded (or could not)
 */
export function keepOffline(page, engineSettled) {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => keepForOffline(page, engineSettled), () => {});
  }
}

/**
 * @param {Pick<HostPage, "workerUrl" | "engineUrl" | "pyodideUrl">} page
 * @param {Promise<unknown>} engineSettled
 */
async function keepForOffline(page, engineSettled) {
  const cache = await caches.open(CACHE);
  const small = [
    location.pathname,
    ...[...document.querySelectorAll("script[src], link[href]")].map((node) => node.getAttribute("src") || node.getAttribute("href")),
    ...MODULES.map((name) => new URL(name, import.meta.url).pathname),
    page.workerUrl,
    page.engineUrl,
  ];
  await keep(cache, small);
  await engineSettled;
  await keep(cache, PYODIDE.map((name) => page.pyodideUrl + name));
}

/**
 * @param {Cache} cache
 * @param {(string | null)[]} urls
 */
async function keep(cache, urls) {
  for (const url of new Set(urls)) {
    if (url && !(await cache.match(url, { ignoreVary: true }))) await cache.add(url).catch(() => {});
  }
}
