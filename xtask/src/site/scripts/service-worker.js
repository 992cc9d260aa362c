// The site's one service worker (scope "/"). It keeps the Triplex pages, bundle and languages in a
// cache named after their content (so a new build replaces it), serves pages from the network when
// it answers and from the cache when not (every `/triplex/<n>` is the level page), and assets from
// the cache first; the API is never cached (records need the server). It also shows the "your
// move" notifications the server pushes (Web Push, api/_lib/notify/), and a click on one focuses an
// open tab of that room or opens one. The build writes in `TABULA_CACHE` (the cache's name) and
// `TABULA_PRECACHE` (the URLs it keeps).
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
// A push's payload: {title, body, url, tag}. Only this site's own addresses are opened.
const roomAddress = (data) => {
  const url = new URL((data && data.url) || "/", location.origin);
  return url.origin === location.origin ? url.href : location.origin + "/";
};
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (_) {}
  event.waitUntil(self.registration.showNotification(data.title || "Tabula", {
    body: data.body || "",
    tag: data.tag,
    icon: "/favicon.svg",
    data: { url: roomAddress(data) },
  }));
});
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = roomAddress(event.notification.data);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((tabs) => {
    const open = tabs.find((tab) => new URL(tab.url).pathname === new URL(target).pathname);
    return open ? open.focus() : self.clients.openWindow(target);
  }));
});
