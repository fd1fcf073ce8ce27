// @ts-check
// The service worker of the host's table screen: it keeps the game pages a host opened,
// the site's scripts and styles, and the phone's engine (Pyodide and games/rules), so the
// screen opens and follows the game without network. Nothing else of the site is kept.
const CACHE = "mafia-host-v2"; // static/games/host/offline.js names it too
const KEPT = [/^\/games\/\d+\/$/, /^\/static\//, /^\/games\/engine/, /^\/jsi18n\//, /^\/manifest\.webmanifest$/];
// Pyodide's own files, 12 MB that never change under one name: from the cache first. Not
// engine_stdlib.zip, rebuilt with games/rules (tools/engine-stdlib.mjs): it follows the
// engine's zip, from the network first.
const BIG = /^\/static\/vendor\/pyodide\/(?!engine_stdlib\.zip$)/;
const NETWORK_WAIT_MS = 4000;
// `self`, as the service worker it is here (the worker library types it as any worker).
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener("install", () => worker.skipWaiting());
worker.addEventListener("activate", (event) => event.waitUntil(dropOldCaches().then(() => worker.clients.claim())));

// An earlier version's cache (v1 kept Pyodide's stock library, 2.5 MB the engine no longer loads).
async function dropOldCaches() {
  for (const name of await caches.keys()) {
    if (name.startsWith("mafia-host-") && name !== CACHE) await caches.delete(name);
  }
}

/**
 * @param {Request} request
 * @returns {Promise<Response>}
 */
function fromNetwork(request) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("slow network")), NETWORK_WAIT_MS);
    fetch(request).then(
      (response) => {
        clearTimeout(timer);
        resolve(response);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * @param {Request} request
 * @param {string} path
 * @returns {Promise<Response>}
 */
async function answer(request, path) {
  const cache = await caches.open(CACHE);
  // Pages vary by cookie and language; the phone that kept them is the one asking.
  const kept = () => cache.match(request, { ignoreVary: true });
  if (BIG.test(path)) {
    const big = await kept();
    if (big) return big;
  }
  try {
    const response = await fromNetwork(request);
    if (response.ok && response.type === "basic") await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const copy = await kept();
    if (copy) return copy;
    throw error;
  }
}

worker.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== worker.location.origin) return;
  if (!KEPT.some((pattern) => pattern.test(url.pathname))) return;
  event.respondWith(answer(event.request, url.pathname));
});
