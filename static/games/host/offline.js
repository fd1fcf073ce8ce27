// @ts-check
// A reload without network: the service worker (/sw.js, static/games/sw.js) keeps the game
// pages a host opened, the site's scripts and styles and the phone's engine. The first
// visit loads before the worker controls the page, so the page puts itself, its modules
// and the engine into the worker's cache at once.
/** @import { HostPage } from "./table.js" */

// Every module of the screen (tests/js/offline.test.js checks the list against the folder).
export const MODULES = [
  "clock.js",
  "dialogs.js",
  "draw.js",
  "engine.js",
  "gestures.js",
  "main.js",
  "offline.js",
  "queue.js",
  "store.js",
  "vote.js",
  "words.js",
];
const PYODIDE = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];

/** @param {Pick<HostPage, "workerUrl" | "engineUrl" | "pyodideUrl">} page */
export function keepOffline(page) {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => keepForOffline(page), () => {});
  }
}

/** @param {Pick<HostPage, "workerUrl" | "engineUrl" | "pyodideUrl">} page */
async function keepForOffline(page) {
  const cache = await caches.open("mafia-host-v1");
  const urls = [
    location.pathname,
    ...[...document.querySelectorAll("script[src], link[href]")].map((node) => node.getAttribute("src") || node.getAttribute("href")),
    ...MODULES.map((name) => new URL(name, import.meta.url).pathname),
    page.workerUrl,
    page.engineUrl,
    ...PYODIDE.map((name) => page.pyodideUrl + name),
  ];
  for (const url of new Set(urls)) {
    if (url && !(await cache.match(url, { ignoreVary: true }))) await cache.add(url).catch(() => {});
  }
}
