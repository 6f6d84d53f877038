// A table that keeps scoring when the club's wifi drops (see docs/architecture.md, "Where
// state lives"). On every page:
// - registers the service worker (/sw.js) that keeps the pages this phone opened;
// - a page shown from that copy says so ("No connection — copy of 21:14");
// - on every page of a game, says how many hands wait on this phone and since when, with
//   "Send now"; on the sheet, each waiting hand is a row "waiting to be sent";
// - Save on the counts, captured-cards and trick pages puts the hand in the outbox
//   (outbox_store.js) and sends it at once; with no network the hand waits and the sheet
//   shows it. What waits is sent whenever the server may be reached: on every page load, on
//   the "online" event, when the live check reaches the server again (live.js "live:back"),
//   when the page is shown again, on a timer while anything waits (2 s, doubling, at most
//   30 s), on "Send now" and by Background Sync where the browser has it. The bar says one
//   thing: how many hands wait and when the next try is, that they are being sent, or
//   (for a moment) that all were sent;
// - only a real refusal is one: a 5xx (a proxy's 502), a timeout or no network keep the hand
//   waiting (outbox_store.js);
// - a hand the server refused, or that another phone overtook, stays in the outbox until the
//   scorer opens it again (the entry comes back with the server's words next to its fields,
//   or the conflict page offering it as a correction) or discards it;
// - logging out with hands waiting asks first.
// Nothing here knows the rules: points come from the server when a hand is saved.
(function () {
  "use strict";
  var box = window.KingsheetOutbox;
  var words = document.getElementById("offline-words");
  if (!words) return;
  var t = words.dataset;
  var lang = document.documentElement.lang || undefined;
  var me = (document.getElementById("current-user") || {}).textContent || "";
  var plural = window.Intl && Intl.PluralRules ? new Intl.PluralRules(lang) : null;

  function say(name, n) {
    var cat = plural ? plural.select(n) : (n === 1 ? "one" : "other");
    var cap = function (c) { return c.charAt(0).toUpperCase() + c.slice(1); };
    return (t[name + cap(cat)] || t[name + "Other"] || "").replace("#N#", n);
  }

  function clock(ms) {
    var d = new Date(ms);
    try {
      return d.toLocaleTimeString(lang, {hour: "2-digit", minute: "2-digit", timeZone: t.tz || undefined});
    } catch (e) { return d.toISOString().slice(11, 16); }
  }

  function clockSeconds(ms) {
    var d = new Date(ms);
    try {
      return d.toLocaleTimeString(lang, {hour: "2-digit", minute: "2-digit", second: "2-digit",
                                         timeZone: t.tz || undefined});
    } catch (e) { return d.toISOString().slice(11, 19); }
  }

  // --- the service worker and the copy shown with no network ------------------------------
  var worker = "serviceWorker" in navigator;
  if (worker) {
    navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(function () {});
    navigator.serviceWorker.addEventListener("message", function (e) {
      if (e.data && e.data.type === "outbox") render();
      if (e.data && e.data.type === "warmed") document.body.dataset.warmed = String(e.data.count);
    });
  }

  var copy = document.documentElement.dataset.offlineCopy;
  if (copy) {
    var note = document.createElement("p");
    note.className = "flash offline-copy";
    note.id = "offline-copy";
    note.setAttribute("role", "status");
    note.textContent = t.tCopy.replace("#T#", clock(Date.parse(copy)));
    var main = document.querySelector("main");
    if (main) main.insertBefore(note, main.firstChild);
  }

  function dropCopyNote(reached) {
    // the server answered again: the page is brought up to date by live.js
    var n = document.getElementById("offline-copy");
    if (n && (reached === true || navigator.onLine !== false)) n.remove();
  }
  document.addEventListener("live:swapped", dropCopyNote);
  document.addEventListener("live:back", function () { dropCopyNote(true); });

  if (!box || !window.indexedDB) return;

  // --- which game this page is about ------------------------------------------------------
  // Every page of a game names it (#offline-words[data-game]: the sheet, the entry, trick
  // and hand pages, the confirm page, the change log, the handover page); a copy kept
  // before pages named it is read from its live status.
  var status = document.getElementById("live-status");
  var m = status && /\/games\/(\d+)\//.exec(status.dataset.liveUrl || "");
  var game = t.game ? +t.game : (m ? +m[1] : null);

  function sheetUrl(id) { return "/games/" + id; }

  // --- the bar: how many hands wait, since when -------------------------------------------
  function bar(items) {
    var old = document.getElementById("outbox-bar");
    if (!items.length) { if (old) old.remove(); return; }
    var el = old || document.createElement("div");
    el.id = "outbox-bar";
    el.className = "flash outbox-bar";
    el.setAttribute("role", "status");
    el.replaceChildren();
    var p = document.createElement("p");
    var oldest = Math.min.apply(null, items.map(function (i) { return i.created; }));
    p.textContent = say("tWaiting", items.length).replace("#T#", clock(oldest));
    el.appendChild(p);
    var pending = items.filter(function (i) { return i.state === "pending"; }).length;
    if (pending && (flushing || nextTry)) {
      var when = document.createElement("p");
      when.id = "outbox-when";
      when.className = "outbox-when";
      when.textContent = flushing ? t.tSending : t.tNextTry.replace("#T#", clockSeconds(nextTry));
      el.appendChild(when);
    }
    var stuck = items.filter(function (i) { return i.state !== "pending"; }).length;
    if (stuck) {
      var s = document.createElement("p");
      s.className = "error";
      s.textContent = say("tStuck", stuck);
      el.appendChild(s);
    }
    var send = document.createElement("button");
    send.type = "button";
    send.className = "button small primary";
    send.id = "outbox-send";
    send.textContent = t.tSend;
    send.addEventListener("click", function () { flush(true); });
    el.appendChild(send);
    if (old) return;
    // under the live status, or under the page's title on a page that has none
    var main = document.querySelector("main");
    var anchor = status || (main && main.querySelector(":scope > .row"));
    if (anchor) anchor.insertAdjacentElement("afterend", el);
    else if (main) main.insertBefore(el, main.firstChild);
  }

  // --- the sheet: a row for every hand waiting --------------------------------------------
  function button(label, id, run, danger) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "button small" + (danger ? " danger" : "");
    b.id = id;
    b.textContent = label;
    b.addEventListener("click", run);
    return b;
  }

  function rows(items) {
    var body = document.querySelector("#sheet tbody");
    document.querySelectorAll("tr.pending-row").forEach(function (tr) { tr.remove(); });
    if (!body) return;
    var cols = document.querySelectorAll("#sheet thead th").length - 1;
    items.forEach(function (item) {
      var tr = document.createElement("tr");
      tr.className = "pending-row " + item.state;
      tr.id = "pending-" + item.key;
      tr.dataset.row = String(item.row);
      var th = document.createElement("th");
      th.className = "hand-col";
      th.scope = "row";
      th.innerHTML = '<span class="n"></span> <span class="contract"></span>';
      th.querySelector(".n").textContent = item.row;
      th.querySelector(".contract").textContent = item.label || "";
      tr.appendChild(th);
      var td = document.createElement("td");
      td.colSpan = cols;
      td.className = "pending-cell";
      var what = document.createElement("span");
      what.className = "pending-state";
      if (item.state === "pending") {
        what.textContent = t.tPending + " · " + clock(item.created);
        td.appendChild(what);
      } else {
        what.textContent = (item.state === "conflict" ? t.tConflict : t.tRefused);
        td.appendChild(what);
        (item.problems || []).forEach(function (msg) {
          var p = document.createElement("p");
          p.className = "error";
          p.textContent = msg;
          td.appendChild(p);
        });
        td.appendChild(button(t.tOpen, "reopen-" + item.key, function () { reopen(item); }));
        td.appendChild(button(t.tDiscard, "discard-" + item.key, function () {
          if (window.confirm(t.tDiscardAsk)) box.remove(item.key).then(render);
        }, true));
      }
      tr.appendChild(td);
      body.appendChild(tr);
    });
  }

  function mine(items) {
    return items.filter(function (i) { return !i.user || !me || i.user === me; });
  }

  function render() {
    if (game == null) return Promise.resolve();
    return box.all(game).then(function (items) {
      items = mine(items);
      bar(items);
      rows(items);
      onTop(items);
      nextPanel(items);
      document.body.dataset.outbox = String(items.length);   // for tests
      return items;
    }).catch(function () { return null; });
  }

  // --- the sheet's panel: the hand to enter next is the one after those waiting ----------
  // The sheet names its next hand and each of the few after it (#next-ahead, a <template>
  // per row, from the server); with hands waiting here, the panel and its two buttons show
  // the hand after them -- the one the buttons open (sw.js serves that row's kept page).
  function nextPanel(items) {
    var ahead = document.getElementById("next-ahead");
    var panel = document.getElementById("next-hand");
    if (!ahead || !panel) return;
    var a = ahead.dataset;
    var enter = document.getElementById("enter-hand");
    var tricks = document.getElementById("enter-tricks");
    if (panel.kingsheetServer === undefined) {
      panel.kingsheetServer = {html: Array.prototype.map.call(panel.querySelectorAll(":scope > .what, :scope > .who, :scope > .not-known"),
                                                              function (el) { return el.outerHTML; }).join(""),
                               enter: enter ? enter.textContent : "", tricks: tricks ? tricks.textContent : ""};
    }
    var waiting = mine(items).filter(function (i) { return !i.editing; });
    var row = waiting.length ? Math.max(+a.nextRow, waiting[waiting.length - 1].row + 1) : +a.nextRow;
    if (String(row) === panel.dataset.row) return;
    var kept = ahead.querySelector('template[data-row="' + row + '"]');
    var number = kept ? +kept.dataset.number : +a.nextNumber + (row - +a.nextRow);
    var html = panel.kingsheetServer.html, over = false;
    if (row !== +a.nextRow) {
      over = number > +a.lastNumber;
      var what = document.createElement("div");
      what.className = "what";
      what.textContent = over ? a.tAllWaiting : a.tHand.replace("#N#", number);
      var later = document.createElement("p");
      later.className = "not-known";
      later.textContent = a.tLater.replace("#N#", number);
      html = kept ? kept.innerHTML : what.outerHTML + (over ? "" : later.outerHTML);
    }
    panel.querySelectorAll(":scope > .what, :scope > .who, :scope > .not-known").forEach(function (el) { el.remove(); });
    panel.insertAdjacentHTML("afterbegin", html);
    [[enter, a.tEnter, panel.kingsheetServer.enter], [tricks, a.tTricks, panel.kingsheetServer.tricks]].forEach(function (b) {
      if (!b[0]) return;
      b[0].textContent = row === +a.nextRow ? b[2] : b[1].replace("#N#", number);
      b[0].style.display = over ? "none" : "";
    });
    var first = document.getElementById("first-seat-form");
    if (first) first.hidden = row !== +a.nextRow;
    panel.dataset.row = String(row);          // for tests: the row the panel shows
  }

  // --- sending ----------------------------------------------------------------------------
  // Whenever the server may be reached, and on a timer while hands wait: 2 s after a try that
  // left hands waiting, doubling up to 30 s; back to 2 s once a hand gets through.
  var RETRY_FIRST = 2000, RETRY_MAX = 30000;
  var flushing = null, retryIn = RETRY_FIRST, retryTimer = null, nextTry = null;

  function plan(report) {
    clearTimeout(retryTimer);
    retryTimer = null;
    nextTry = null;
    if (!report.left || report.stopped === "login") { retryIn = RETRY_FIRST; return; }
    if (report.saved.length) retryIn = RETRY_FIRST;
    nextTry = Date.now() + retryIn;
    retryTimer = setTimeout(function () { flush(false); }, retryIn);
    retryIn = Math.min(retryIn * 2, RETRY_MAX);
  }

  function allSent() {
    var old = document.getElementById("outbox-done");
    if (old) old.remove();
    var bar = document.getElementById("outbox-bar");
    var main = document.querySelector("main");
    if (!main) return;
    var done = document.createElement("p");
    done.id = "outbox-done";
    done.className = "flash outbox-done";
    done.setAttribute("role", "status");
    done.textContent = t.tAllSent;
    var anchor = bar || status || main.querySelector(":scope > .row");
    if (anchor) anchor.insertAdjacentElement("afterend", done);
    else main.insertBefore(done, main.firstChild);
    setTimeout(function () { done.remove(); }, 5000);
  }

  function flush(asked) {
    if (flushing) return flushing;
    clearTimeout(retryTimer);
    retryTimer = null;
    flushing = box.flush(null).then(function (report) {
      flushing = null;
      plan(report);
      document.body.dataset.outboxSent = String((+document.body.dataset.outboxSent || 0) + report.saved.length);
      document.body.dataset.outboxTries = String((+document.body.dataset.outboxTries || 0) + 1);
      if (report.stopped === "login" && asked) window.alert(t.tLogin);
      if (report.reached) dropCopyNote(true);
      if (report.saved.some(function (a) { return a.game === game; })) {
        document.dispatchEvent(new CustomEvent("outbox:sent"));
      }
      return render().then(function (items) {
        if (report.saved.length && items && !items.length) allSent();
        return report;
      });
    }, function (e) { flushing = null; plan({saved: [], left: 1}); throw e; });
    render();                              // "sending…"
    return flushing;
  }

  // A send that includes what was just queued: a send already on its way (the timer's, the
  // page's first) may have read the outbox before the hand was put in it, and its report then
  // lacks the hand -- the Save went to the sheet without its row, the hand still waiting
  // there. So that send is let finish, a new one follows, and both reports count.
  function flushIncluding() {
    var before = flushing ? flushing.catch(function () { return null; }) : Promise.resolve(null);
    return before.then(function (first) {
      return flush(false).then(function (second) {
        if (!first) return second;
        return {saved: first.saved.concat(second.saved), refused: first.refused.concat(second.refused),
                left: second.left, stopped: second.stopped, reached: first.reached || second.reached};
      });
    });
  }

  // --- reopening a refused or overtaken hand: the form posted as it was saved -------------
  function reopen(item) {
    var sent = item.sent || {url: item.url, body: item.body};
    var form = document.createElement("form");
    form.method = "post";
    form.action = sent.url;
    var fields = new URLSearchParams(sent.body);
    var meta = document.querySelector('meta[name="csrf-token"]');
    if (meta) fields.set("csrf_token", meta.content);     // this session's token
    fields.forEach(function (v, k) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = k;
      input.value = v;
      form.appendChild(input);
    });
    try { sessionStorage.setItem("kingsheet:reopened", JSON.stringify({game: item.game, key: item.key})); }
    catch (e) { /* the old entry then stays until discarded */ }
    document.body.appendChild(form);
    form.submit();
  }

  function reopened() {
    try {
      var r = JSON.parse(sessionStorage.getItem("kingsheet:reopened") || "null");
      return r && r.game === game ? r : null;
    } catch (e) { return null; }
  }

  // --- Save on an entry page --------------------------------------------------------------
  function rowOf(url) {
    var r = new URL(url, window.location.href).searchParams.get("row");
    return r ? +r : null;
  }

  function onTop(items) {
    var form = document.querySelector("form[data-outbox]");
    var note = document.getElementById("outbox-on-top");
    var last = items.filter(function (i) { return !i.editing; }).pop();
    var pageRow = form && +form.dataset.row;
    if (!form || form.dataset.editing === "1" || !last || reopened() || last.row < pageRow) {
      if (note) note.remove();
      return;
    }
    note = note || document.createElement("p");
    note.id = "outbox-on-top";
    note.className = "flash";
    note.setAttribute("role", "status");
    note.textContent = t.tOnTop.replace("#N#", last.row + 1);
    form.insertBefore(note, form.firstChild);
  }

  function queue(form, submitter) {
    var data = new URLSearchParams();
    new FormData(form).forEach(function (v, k) { if (typeof v === "string") data.append(k, v); });
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    var url = new URL(form.action, window.location.href);
    var editing = form.dataset.editing === "1";
    var back = reopened();
    return box.all(game).then(function (items) {
      var old = back && items.filter(function (i) { return i.key === back.key; })[0];
      var fields = {game: game, user: me, body: data.toString(), label: form.dataset.outboxLabel || "",
                    version: +(data.get("version") || 0), editing: editing};
      if (old) {
        // the reopened hand keeps its place in the line
        try { sessionStorage.removeItem("kingsheet:reopened"); } catch (e) { /* nothing */ }
        return box.remove(old.key).then(function () {
          return box.add(Object.assign(fields, {url: url.pathname + url.search, row: old.row,
                                                seq: old.seq, ahead: old.ahead, chained: old.chained}));
        });
      }
      var row = +form.dataset.row;
      var waiting = mine(items).filter(function (i) { return !i.editing; });
      if (!editing && waiting.length) {
        row = Math.max(row, waiting[waiting.length - 1].row + 1);
        url.searchParams.set("row", String(row));
      }
      return box.add(Object.assign(fields, {url: url.pathname + url.search, row: row}));
    });
  }

  function native(form) {
    form.dataset.outboxSkip = "1";
    form.dataset.confirmed = "1";
    HTMLFormElement.prototype.submit.call(form);
  }

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.hasAttribute || !form.hasAttribute("data-outbox") || form.dataset.outboxSkip) return;
    var submitter = e.submitter;
    if (submitter && submitter.hasAttribute("formaction") && navigator.onLine === false) {
      // a change of the setup or of the entry mode with no network: the kept page of it
      e.preventDefault();
      var to = new URL(submitter.formAction, window.location.href);
      to.searchParams.delete("change");
      window.location.href = to.pathname + to.search;
      return;
    }
    if (submitter && (submitter.hasAttribute("formaction") || submitter.name === "then")) return;
    if (game == null) return;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) { e.preventDefault(); return; }
    e.preventDefault();
    form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = true; });
    queue(form, submitter).then(function (item) {
      if (worker && navigator.serviceWorker.ready && "SyncManager" in window) {
        navigator.serviceWorker.ready.then(function (reg) { return reg.sync.register("kingsheet-outbox"); })
          .catch(function () {});
      }
      if (navigator.onLine === false) { window.location.href = sheetUrl(game); return null; }
      return flushIncluding().then(function (report) {
        var saved = report.saved.filter(function (a) { return a.key === item.key; })[0];
        if (saved) { window.location.href = saved.location; return; }
        var refused = report.refused.filter(function (i) { return i.key === item.key; })[0];
        if (refused) {
          // the scorer is here: the server's own page, with every problem at its field
          return box.remove(item.key).then(function () { native(form); });
        }
        window.location.href = sheetUrl(game);
      });
    }).catch(function () { native(form); });
  }, true);

  // --- log out ----------------------------------------------------------------------------
  var logout = document.getElementById("logout-form");
  if (logout) {
    logout.addEventListener("submit", function (e) {
      if (logout.dataset.asked) return;
      e.preventDefault();
      box.all(null).then(function (items) {
        items = mine(items);
        if (items.length && !window.confirm(say("tLogoutAsk", items.length))) return;
        logout.dataset.asked = "1";
        if (worker && navigator.serviceWorker.controller) {
          navigator.serviceWorker.controller.postMessage({type: "forget"});
        }
        HTMLFormElement.prototype.submit.call(logout);
      });
    });
  }

  // --- keeping the next hand's entry pages ------------------------------------------------
  function warm() {
    var enter = document.getElementById("enter-hand");
    if (!enter || game == null || !worker || navigator.onLine === false) return;
    navigator.serviceWorker.ready.then(function (reg) {
      return fetch("/games/" + game + "/hands/offline.json", {credentials: "same-origin", cache: "no-store"})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) {
          if (data && reg.active) reg.active.postMessage({type: "warm", urls: data.urls});
        });
    }).catch(function () {});
  }

  document.addEventListener("live:swapped", function () { render(); warm(); });
  window.addEventListener("online", function () { flush(false); });
  document.addEventListener("live:back", function () { flush(false); warm(); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) flush(false); });
  render().then(function () {
    flush(false).catch(function () {});
    warm();
  });
})();
