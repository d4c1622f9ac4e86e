{% autoescape off %}// The service worker of the site (served at /sw.js: its scope is the whole site).
// - Static files with a hashed name are taken from the cache first (their content never changes).
// - Pages always come from the network (never stale); with no connection, a page the worker cannot fetch
//   shows the copy a page asked to keep for that case (a score sheet and its deal form, in the
//   "kept-pages" cache, refreshed each time they are opened online), else the offline page in the
//   player's language (the language of the last page they saw).
// - Background Sync ("hand-deals"): the deals a score sheet keeps on the phone are sent (below).
// - Pushes show a notification; tapping it opens the game. The app icon's badge follows the count.
const VERSION = {{ version }};
const CACHE = "hand-" + VERSION;
const OFFLINE = {{ offline }};
const PRECACHE = {{ precache }};
const DEFAULT_LANGUAGE = {{ default_language }};
const STATIC = {{ static_prefix }};
const ICON = {{ icon }};
const BADGE_ICON = {{ badge_icon }};
const LANGUAGE_KEY = "/sw/language";
const KEPT = "kept-pages";
const HASHED = /\.[0-9a-f]{12}\.[a-z0-9]+$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll([...Object.values(OFFLINE), ...PRECACHE])).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("hand-") && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

async function rememberLanguage(response) {
  const language = (response.headers.get("Content-Language") || "").split("-")[0];
  if (language && OFFLINE[language]) {
    const cache = await caches.open(CACHE);
    await cache.put(LANGUAGE_KEY, new Response(language));
  }
}

async function offlinePage() {
  const cache = await caches.open(CACHE);
  const saved = await cache.match(LANGUAGE_KEY);
  const language = saved ? await saved.text() : DEFAULT_LANGUAGE;
  return (await cache.match(OFFLINE[language] || OFFLINE[DEFAULT_LANGUAGE])) || Response.error();
}

async function refreshKept(request, response) {
  if (!response.ok || response.redirected) return;
  const cache = await caches.open(KEPT);
  if (await cache.match(request.url)) await cache.put(request.url, response);
}

async function keptOrOffline(request) {
  const kept = await (await caches.open(KEPT)).match(request.url);
  return kept || offlinePage();
}

async function fromCacheFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function fromNetworkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(request);
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC)) {
    event.respondWith(HASHED.test(url.pathname) ? fromCacheFirst(request) : fromNetworkFirst(request));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request)
        .then((response) => {
          event.waitUntil(Promise.all([rememberLanguage(response.clone()), refreshKept(request, response.clone())]));
          return response;
        })
        .catch(() => keptOrOffline(request)),
    );
  }
});

// Background Sync ("hand-deals"): deals a score sheet kept on the phone (IndexedDB "hand-scores", see
// scoring/static/scoring/offline.js). An open sheet sends them itself (it is asked to); with none open,
// the worker posts each, in order, as the deal form would, and lets go of those that arrived: the
// sheet then lists the deal's id (data-deal-key). Anything else (a refusal, a page it cannot read) is
// left waiting for the sheet to send again and show why; the server saves an id once.
function keptDeals() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open("hand-scores", 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore("deals", { keyPath: "id" });
      store.createIndex("sheet", "sheet");
    };
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      const all = db.transaction("deals").objectStore("deals").getAll();
      all.onsuccess = () => resolve({ db, deals: all.result.sort((a, b) => a.order - b.order) });
      all.onerror = () => reject(all.error);
    };
  });
}

function letGo(db, id) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction("deals", "readwrite");
    tx.objectStore("deals").delete(id);
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
}

async function sheetPage(sheet) {
  const response = await fetch(sheet, { credentials: "same-origin", cache: "no-store" });
  if (!response.ok || response.redirected) throw new Error("the sheet did not answer");
  const html = await response.text();
  const token = /"X-CSRFToken": "([^"]+)"/.exec(html);
  return { html, token: token ? token[1] : "" };
}

async function sendKeptDeals() {
  const { db, deals } = await keptDeals();
  const stopped = new Set();
  for (const deal of deals) {
    if (stopped.has(deal.sheet)) continue;
    if (deal.state === "refused") {
      stopped.add(deal.sheet);
      continue;
    }
    const page = await sheetPage(deal.sheet); // no connection: thrown, and the browser tries again later
    if (!page.html.includes(`data-deal-key="${deal.id}"`)) {
      const body = new URLSearchParams(deal.fields);
      body.set("csrfmiddlewaretoken", page.token);
      body.set("deal_key", deal.id);
      if (deal.position) body.set("position", String(deal.position));
      const response = await fetch(deal.post, {
        method: "POST",
        credentials: "same-origin",
        headers: { "X-CSRFToken": page.token },
        body,
      });
      const landed = new URL(response.url).pathname === new URL(deal.sheet, self.location.origin).pathname;
      if (!(response.ok && response.redirected && landed)) {
        stopped.add(deal.sheet);
        continue;
      }
    }
    await letGo(db, deal.id);
  }
}

self.addEventListener("sync", (event) => {
  if (event.tag !== "hand-deals") return;
  event.waitUntil(
    self.clients.matchAll({ type: "window" }).then((windows) => {
      if (!windows.length) return sendKeptDeals();
      windows.forEach((client) => client.postMessage({ type: "send-deals" }));
    }),
  );
});

function setBadge(count) {
  if (typeof count !== "number" || !self.navigator.setAppBadge) return Promise.resolve();
  return (count > 0 ? self.navigator.setAppBadge(count) : self.navigator.clearAppBadge()).catch(() => {});
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  event.waitUntil(Promise.all([
    self.registration.showNotification(data.title || "", {
      body: data.body || "",
      tag: data.tag || undefined,
      lang: data.lang || undefined,
      dir: data.dir || "auto",
      icon: ICON,
      badge: BADGE_ICON,
      data: { url: data.url || "/" },
    }),
    setBadge(data.badge),
  ]));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (new URL(client.url).pathname === target.pathname && "focus" in client) return client.focus();
      }
      return self.clients.openWindow(target.href);
    }),
  );
});
{% endautoescape %}
