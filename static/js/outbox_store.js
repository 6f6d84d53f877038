// The outbox: hands saved on this phone that the server has not answered yet, kept in
// IndexedDB so that they survive closing the tab, the browser and a restart of the phone.
// Loaded by every page (offline.js) and by the service worker (sw.js, for Background Sync).
//
// An item is one press of Save: the form's address and body as the page would have posted
// them, a random Idempotency-Key, the version of the sheet it was entered against and how
// many hands of the same game were waiting when it was entered ("ahead": it was entered on
// top of them). Items are sent in the order they were saved, each with its key, so a save
// whose answer was lost is sent again and the server answers it from its record of that key
// (app/web/idempotent.py): never stored twice. No rule of the game is written here: the
// server's engine checks every hand when it arrives and answers saved, refused or conflict.
(function (root) {
  "use strict";
  var DB = "kingsheet", STORE = "outbox";
  var opened = null;

  function open() {
    if (opened) return opened;
    opened = new Promise(function (resolve, reject) {
      var req = root.indexedDB.open(DB, 1);
      req.onupgradeneeded = function () { req.result.createObjectStore(STORE, {keyPath: "key"}); };
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { opened = null; reject(req.error); };
    });
    return opened;
  }

  function tx(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var t = db.transaction(STORE, mode);
        var out = work(t.objectStore(STORE));
        t.oncomplete = function () { resolve(out && "result" in out ? out.result : undefined); };
        t.onerror = function () { reject(t.error); };
        t.onabort = function () { reject(t.error); };
      });
    });
  }

  function all(game) {
    return tx("readonly", function (s) { return s.getAll(); }).then(function (items) {
      items = (items || []).filter(function (i) { return game == null || i.game === game; });
      return items.sort(function (a, b) { return a.seq - b.seq; });
    });
  }

  function put(item) { return tx("readwrite", function (s) { s.put(item); }); }
  function remove(key) { return tx("readwrite", function (s) { s.delete(key); }); }

  function newKey() {
    if (root.crypto && root.crypto.randomUUID) return root.crypto.randomUUID();
    var a = new Uint8Array(16);
    root.crypto.getRandomValues(a);
    return Array.prototype.map.call(a, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  // A new item, after the ones already waiting for the same game.
  function add(fields) {
    return all(fields.game).then(function (waiting) {
      var item = Object.assign({key: newKey(), seq: Date.now() + Math.random(), state: "pending",
                                problems: [], created: Date.now(), ahead: waiting.length}, fields);
      return put(item).then(function () { return item; });
    });
  }

  // What is sent is fixed the first time: a hand entered on top of waiting ones names the
  // version the save before it made (so the engine sees it after that hand, not as stale).
  function frozen(item) {
    if (item.sent) return item.sent;
    var body = new URLSearchParams(item.body);
    if (item.ahead > 0 && item.chained != null) body.set("version", String(item.chained));
    item.csrf = body.get("csrf_token") || "";
    body.delete("csrf_token");      // the session's, not the hand's: added when sent
    item.sent = {url: item.url, body: body.toString()};
    return item.sent;
  }

  // the page's own CSRF token (a phone that logged in again has a new one)
  function token(item) {
    var meta = root.document && root.document.querySelector('meta[name="csrf-token"]');
    return (meta && meta.content) || item.csrf || "";
  }

  // The server's answer: only a real refusal is a refusal. A 4xx with the outbox's JSON
  // (refused, conflict, wait) is as the server says; 5xx (a proxy's 502 too), 408 and 429 are
  // the server not answering now ("retry": the hand keeps waiting); a login page is "login".
  function answerOf(r) {
    if (r.type === "opaqueredirect" || r.status === 401) return Promise.resolve({state: "login"});
    if (r.status >= 500 || r.status === 408 || r.status === 429 || r.status === 0) {
      return Promise.resolve({state: "retry", problems: ["HTTP " + r.status]});
    }
    return r.json().catch(function () { return null; }).then(function (data) {
      if (data && data.state) return data;
      if (r.ok) return {state: "retry", problems: ["HTTP " + r.status]};   // not the server's answer
      var message = data && data.error && data.error.message;
      return {state: r.status === 409 ? "conflict" : "refused",
              problems: [message || ("HTTP " + r.status)]};
    });
  }

  // A send the server does not answer within this long is given up (the hand keeps waiting
  // and is sent again with its key): a server that went to sleep mid-request holds nothing.
  var SEND_TIMEOUT_MS = 15000;

  function sendOne(item) {
    var sent = frozen(item);
    var abort = root.AbortController ? new root.AbortController() : null;
    var timer = abort ? setTimeout(function () { abort.abort(); }, SEND_TIMEOUT_MS) : null;
    return put(item).then(function () {
      return root.fetch(sent.url, {
        method: "POST", body: sent.body + "&csrf_token=" + encodeURIComponent(token(item)), credentials: "same-origin", redirect: "manual",
        cache: "no-store", signal: abort ? abort.signal : undefined,
        headers: {"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json",
                  "Idempotency-Key": item.key, "X-Outbox": "1"}
      });
    }).then(answerOf).then(function (answer) { clearTimeout(timer); return answer; },
                           function (e) { clearTimeout(timer); throw e; });
  }

  // After a save: the hands entered on top of it name the version it made.
  function chain(item, version) {
    return all(item.game).then(function (rest) {
      return Promise.all(rest.filter(function (i) { return !i.sent && i.seq > item.seq; })
        .slice(0, 1).map(function (i) { i.chained = version; return put(i); }));
    });
  }

  // Sends what waits, in order; a game stops at its first hand that was refused or
  // overtaken (the ones after it were entered on top of it), and at a hand the server could
  // not answer now (5xx, or its key still being carried out): the other games go on. No
  // network at all stops everything. Resolves with a report: {saved: [answers], refused:
  // [items], stopped: "offline" | "login" | null, left: hands still waiting to be sent,
  // reached: the app answered}.
  function flushLocked(game) {
    var report = {saved: [], refused: [], stopped: null, left: 0, reached: false};
    return all(game).then(function (items) {
      var blocked = {};
      var i = 0;
      function next() {
        if (i >= items.length || report.stopped) return report;
        var item = items[i++];
        if (blocked[item.game]) return next();
        if (item.state === "refused" || item.state === "conflict") { blocked[item.game] = true; return next(); }
        return sendOne(item).then(function (answer) {
          if (answer.state !== "retry") report.reached = true;     // the app itself answered
          if (answer.state === "saved") {
            report.saved.push(Object.assign({game: item.game, key: item.key}, answer));
            return remove(item.key).then(function () {
              return answer.version != null ? chain(item, answer.version) : null;
            }).then(function () {
              // the next item of this game is read again (it may have been chained)
              return all(item.game).then(function (fresh) {
                items = items.slice(0, i).concat(items.slice(i).map(function (old) {
                  return fresh.filter(function (f) { return f.key === old.key; })[0] || old;
                }));
              });
            }).then(next);
          }
          if (answer.state === "login") { report.stopped = "login"; return report; }
          if (answer.state === "wait" || answer.state === "retry") {
            blocked[item.game] = true;        // this game waits; the others are sent
            return next();
          }
          item.state = answer.state === "conflict" ? "conflict" : "refused";
          item.problems = answer.problems || [];
          blocked[item.game] = true;
          report.refused.push(item);
          return put(item).then(next);
        }, function () { report.stopped = "offline"; return report; });
      }
      return next();
    }).then(function (r) {
      return all(game).then(function (rest) {
        r.left = rest.filter(function (i) { return i.state === "pending"; }).length;
        return r;
      });
    });
  }

  function flush(game) {
    var locks = root.navigator && root.navigator.locks;
    if (locks && locks.request) {
      return locks.request("kingsheet-outbox", function () { return flushLocked(game); });
    }
    return flushLocked(game);
  }

  root.KingsheetOutbox = {add: add, all: all, put: put, remove: remove, flush: flush};
})(self);
