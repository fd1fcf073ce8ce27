// The service worker of the host's table screen: it keeps the game pages a host opened,
// the site's scripts and styles, and the phone's engine (Pyodide and games/rules), so the
// screen opens and follows the game without network. Nothing else of the site is kept.
const CACHE = "mafia-host-v1";
const KEPT = [/^\/games\/\d+\/$/, /^\/static\//, /^\/games\/engine/, /^\/jsi18n\//, /^\/manifest\.webmanifest$/];
const BIG = /^\/static\/vendor\/pyodide\//; // 13 MB that never change under one name
const NETWORK_WAIT_MS = 4000;

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

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

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (!KEPT.some((pattern) => pattern.test(url.pathname))) return;
  event.respondWith(answer(event.request, url.pathname));
});
