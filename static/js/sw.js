// kingsheet's service worker (served at /sw.js: its scope is the whole site).
//
// Hand-written rather than Workbox: what it does is small (two caches and the outbox's
// Background Sync), Workbox would come from a CDN or an npm build step that this project
// does not have, and every line here is read with the rest of the app.
//
// - Pages (the games list, a game's sheet and entry pages, the trick page, share links,
//   the rules): network first; every copy that arrives is kept, so with no network (or a
//   network that does not answer within a few seconds) the last copy is shown, marked with
//   the time it was made (offline.js writes "No connection — copy of 21:14"). A page never
//   opened on this phone shows /offline instead of the browser's error page.
// - The app's files (CSS, JS, icons, manifest): served from the cache, refreshed behind.
// - Polls, the API, PDFs, log-in pages and every write go to the network untouched.
// - "sync" (Background Sync, where the browser has it): sends the outbox; fails while hands
//   still wait, so the browser tries again (the pages send on their own too: offline.js).
importScripts("/static/js/outbox_store.js");

var PAGES = "kingsheet-pages-v1";
var FILES = "kingsheet-files-v1";
var NETWORK_WAIT_MS = 4000;
var SHELL = [
  "/offline", "/manifest.webmanifest", "/favicon.ico",
  "/static/css/app.css", "/static/css/referee.css",
  "/static/js/wakelock.js", "/static/js/live.js", "/static/js/confirm_forms.js",
  "/static/js/offline.js", "/static/js/outbox_store.js", "/static/js/sheet.js",
  "/static/js/hand_entry.js", "/static/js/referee.js",
  "/static/icons/icon-192.png", "/static/icons/icon-512.png"
];

// the rules of every profile, in the language of the moment they were kept
var RULES = ["/rules", "/rules/ru32", "/rules/fiestas", "/rules/subastas", "/rules/rifki"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(FILES).then(function (cache) {
    var files = SHELL.map(function (url) {
      return fetch(url, {credentials: "same-origin"}).then(function (r) {
        if (r.ok) return (url === "/offline" ? caches.open(PAGES).then(function (p) { return p.put(url, r); })
                                             : cache.put(url, r));
      }).catch(function () { /* kept the next time */ });
    });
    var rules = RULES.map(function (url) {
      var request = new Request(url, {credentials: "same-origin"});
      return fetch(request).then(function (r) { return keep(request, r); }).catch(function () {});
    });
    return Promise.all(files.concat(rules));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== PAGES && n !== FILES; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

// --- which requests ------------------------------------------------------------------------
var PAGE = /^\/(?:$|games(?:\/|$)|rules(?:\/|$)|s\/|players(?:\/|$)|offline$)/;
var NEVER = /^\/(?:api\/|login|logout|setup|account|users|sw\.js)|\/(?:live|changes|offline\.json)$|\.(?:pdf|json|csv)$|\/qr\.svg$|\/exports/;
var FILE = /^\/(?:static\/|favicon\.ico$|manifest\.webmanifest$)/;
// The entry pages of "the next hand" are the same page whatever row the address names and
// whatever values it carries along: they are kept by their setup (contract, trump, leader,
// auction, mode; an empty mode is counts). The pages of the hands after it that the
// schedule fixes (offline.json's "ahead" pages) are kept by their row as well: with hands
// waiting in the outbox, the entry of the hand after them is that row's page (its own
// contract, dealer and leader), else the next hand's page, on which offline.js says which
// row it will be. The trick page is kept by its whole state; its first page (no card played
// yet) of a later hand (offline.json's "ahead" pages, reached through their "mode=tricks"
// entry) by its setup and row, served like the entry pages.
var ENTRY = /^\/games\/\d+\/hands\/new$/;
var TRICKS = /^\/games\/\d+\/hands\/tricks$/;
var SETUP = ["auction", "contract", "leader", "mode", "trump"];

function entryKey(url, row) {
  var u = new URL(url);
  u.hash = "";
  var kept = new URLSearchParams();
  SETUP.forEach(function (k) {
    var v = u.searchParams.get(k);
    if (k === "mode" && !v) v = "counts";
    if (v) kept.set(k, v);
  });
  if (row) kept.set("row", String(row));
  u.search = kept.toString();
  return u.toString();
}

// the first trick page of a hand: nothing in its address but its setup and row
function firstTricks(u) {
  var only = true;
  u.searchParams.forEach(function (v, k) {
    if (SETUP.indexOf(k) < 0 && k !== "row" && k !== "ahead") only = false;
  });
  return TRICKS.test(u.pathname) && only;
}

function tricksKey(url, row) {
  var u = new URL(url);
  u.hash = "";
  var kept = new URLSearchParams();
  SETUP.forEach(function (k) { if (u.searchParams.get(k)) kept.set(k, u.searchParams.get(k)); });
  kept.set("row", String(row));
  u.search = kept.toString();
  return u.toString();
}

function keyOf(url) {
  var u = new URL(url);
  u.hash = "";
  if (ENTRY.test(u.pathname)) {
    return entryKey(url, u.searchParams.get("ahead") ? u.searchParams.get("row") : null);
  }
  if (u.searchParams.get("ahead") && firstTricks(u)) return tricksKey(url, u.searchParams.get("row"));
  if (TRICKS.test(u.pathname)) u.searchParams.delete("row");
  u.searchParams.sort();
  return u.toString();
}

// The kept copy of a page: for a new hand's entry (or its first trick page) with hands of
// its game waiting in the outbox, the page of the row after them when it was kept.
function lookup(url) {
  var u = new URL(url);
  var pages = caches.open(PAGES);
  function match(key) { return pages.then(function (c) { return c.match(key); }); }
  var rowKey = ENTRY.test(u.pathname) ? entryKey : (firstTricks(u) ? tricksKey : null);
  if (!rowKey || !self.KingsheetOutbox) return match(keyOf(url));
  var game = +u.pathname.split("/")[2];
  return self.KingsheetOutbox.all(game).then(function (items) {
    var waiting = items.filter(function (i) { return !i.editing; });
    if (!waiting.length) return null;
    var row = Math.max(+(u.searchParams.get("row") || 0), waiting[waiting.length - 1].row + 1);
    return match(rowKey(url, row));
  }).catch(function () { return null; }).then(function (hit) { return hit || match(keyOf(url)); });
}

function keep(request, response) {
  // a copy of a page, stamped with when it was made (the page says so when it is shown)
  if (!response || !response.ok || response.type !== "basic") return Promise.resolve();
  var type = response.headers.get("Content-Type") || "";
  if (type.indexOf("text/html") !== 0) return Promise.resolve();
  return response.clone().text().then(function (html) {
    var headers = new Headers(response.headers);
    headers.set("X-Kingsheet-Copy", new Date().toISOString());
    var copy = new Response(html, {status: 200, headers: headers});
    var puts = [caches.open(PAGES).then(function (c) { return c.put(keyOf(response.url || request.url), copy.clone()); })];
    if (response.redirected && keyOf(request.url) !== keyOf(response.url)) {
      // the address asked for leads there (e.g. the trick page of a setup)
      puts.push(caches.open(PAGES).then(function (c) {
        return c.put(keyOf(request.url), Response.redirect(response.url, 302));
      }));
    }
    return Promise.all(puts);
  });
}

function marked(response) {
  // the copy shown with no network: <html data-offline-copy="when"> for offline.js
  var when = response.headers.get("X-Kingsheet-Copy");
  if (!when || response.status !== 200) return response;
  return response.text().then(function (html) {
    html = html.replace(/<html\b/, '<html data-offline-copy="' + when + '"');
    var headers = new Headers(response.headers);
    return new Response(html, {status: 200, headers: headers});
  });
}

function fromCache(request) {
  return lookup(request.url).then(function (hit) {
    if (hit) return marked(hit);
    return caches.open(PAGES).then(function (c) { return c.match("/offline"); }).then(function (page) {
      return page ? marked(page) : new Response(
        "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
        "<title>kingsheet</title><p>Sin conexión. · No connection.</p><p><a href='/'>kingsheet</a></p>",
        {status: 503, headers: {"Content-Type": "text/html; charset=utf-8"}});
    });
  });
}

function page(event) {
  var request = event.request;
  var network = fetch(request).then(function (r) {
    event.waitUntil(keep(request, r).catch(function () {}));
    return r;
  });
  var timeout = new Promise(function (resolve) {
    setTimeout(function () {
      caches.open(PAGES).then(function (c) { return c.match(keyOf(request.url)); })
        .then(function (hit) { if (hit) resolve(null); });
    }, NETWORK_WAIT_MS);
  });
  return Promise.race([network, timeout]).then(function (r) {
    return r || fromCache(request);
  }, function () { return fromCache(request); });
}

function file(event) {
  var request = event.request;
  return caches.open(FILES).then(function (cache) {
    return cache.match(request, {ignoreSearch: true}).then(function (hit) {
      var fresh = fetch(request).then(function (r) {
        if (r.ok) cache.put(request.url.split("?")[0], r.clone());
        return r;
      });
      if (hit) { event.waitUntil(fresh.catch(function () {})); return hit; }
      return fresh;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || NEVER.test(url.pathname)) return;
  if (FILE.test(url.pathname)) { event.respondWith(file(event)); return; }
  var wantsPage = request.mode === "navigate" || request.headers.get("X-Live-Refresh") ||
                  request.headers.get("X-Kingsheet-Page");
  if (PAGE.test(url.pathname) && wantsPage) event.respondWith(page(event));
});

// --- messages from the pages ---------------------------------------------------------------
// {type: "warm", urls}: keep these pages (the next hand's entry pages) for later.
// {type: "forget"}: drop every kept page (log out: the next user must not see them).
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "warm" && Array.isArray(data.urls)) {
    event.waitUntil(data.urls.reduce(function (done, url) {
      return done.then(function () {
        var request = new Request(url, {credentials: "same-origin", headers: {"X-Kingsheet-Page": "1"}});
        return fetch(request).then(function (r) { return keep(request, r); }).catch(function () {});
      });
    }, Promise.resolve()).then(function () {
      if (event.source) event.source.postMessage({type: "warmed", count: data.urls.length});
    }));
  } else if (data.type === "forget") {
    event.waitUntil(caches.delete(PAGES));
  }
});

self.addEventListener("sync", function (event) {
  if (event.tag === "kingsheet-outbox") {
    // a sync that sent nothing because the server could not be reached fails, so that the
    // browser tries it again later (it used to report success and was never retried)
    event.waitUntil(self.KingsheetOutbox.flush(null).then(function (report) {
      return self.clients.matchAll().then(function (clients) {
        clients.forEach(function (c) { c.postMessage({type: "outbox", report: report}); });
      }).then(function () {
        if (report.stopped === "offline" || report.left) throw new Error("hands still waiting");
      });
    }));
  }
});
