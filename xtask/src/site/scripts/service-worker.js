// The service worker of the Triplex pages: it keeps their pages, bundle and languages in a cache
// named after their content (so a new build replaces it), serves pages from the network when it
// answers and from the cache when not (every `/triplex/<n>` is the level page), and assets from the
// cache first. The API is never cached: records need the server. The build writes in
// `TABULA_CACHE` (the cache's name) and `TABULA_PRECACHE` (the URLs it keeps).
const CACHE = TABULA_CACHE;
const PRECACHE = TABULA_PRECACHE;
self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  if (event.request.mode === "navigate") {
    const page = /^\/triplex\/\d+$/.test(url.pathname) ? "/triplex/level" : url.pathname;
    event.respondWith(fetch(event.request).catch(() => caches.match(page).then((found) => found || Response.error())));
    return;
  }
  event.respondWith(caches.match(event.request).then((found) => found || fetch(event.request)));
});
