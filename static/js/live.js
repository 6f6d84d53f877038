// The live sheet: every page of a game asks the server about once a second whether the game
// changed (GET .../live with If-None-Match: a 304 without a body while nothing changed).
// When it did:
// - mode "swap" (the sheet, read-only pages): the page fetches itself again and swaps its
//   [data-live-region]s in place, keeping the scroll position, the focus and anything typed;
// - mode "notice" (an entry page): nothing typed is touched; what changed since the page was
//   loaded is shown at once in #live-notice, and the form keeps the version it was loaded
//   at, so Save answers with the conflict page instead of saving over someone's hand.
// #live-status says when the page was last brought up to date, or that the connection is lost;
// when the server answers again after that, "live:back" tells offline.js (which sends what
// waits in the outbox and drops the "copy of" note).
(function () {
  "use strict";
  var status = document.getElementById("live-status");
  if (!status || !window.fetch || !window.DOMParser) return;
  var d = status.dataset;
  var url = d.liveUrl;
  var mode = d.mode || "swap";
  var version = +d.version;        // the newest version seen
  var base = +d.version;           // the version the page (its entry) was loaded at
  var table = +d.table || 0;       // the seat confirmations seen (a swapped page shows them)
  var interval = +d.pollMs || 1000;
  var lastChange = d.updatedAt ? new Date(d.updatedAt) : null;
  // a copy the phone kept, shown with no network, starts as lost since the copy was made:
  // the status line never says "live" beside the "no connection" note (issue 39)
  var copyAt = document.documentElement.dataset.offlineCopy;
  var lastContact = copyAt && !isNaN(Date.parse(copyAt)) ? new Date(copyAt) : new Date();
  var lost = !!copyAt || navigator.onLine === false, busy = false, timer = null;
  var lang = document.documentElement.lang || undefined;

  function clock(date) {
    if (!date || isNaN(date.getTime())) return "–";
    try {
      // the club's time zone (CLUB_TIME_ZONE), as every time the server writes
      return date.toLocaleTimeString(lang, {hour: "2-digit", minute: "2-digit", second: "2-digit",
                                            timeZone: d.tz || undefined});
    } catch (e) { return date.toISOString().slice(11, 19); }
  }

  function localTimes(root) {
    (root || document).querySelectorAll("time[data-local]").forEach(function (t) {
      var when = new Date(t.getAttribute("datetime"));
      if (!isNaN(when.getTime())) t.textContent = clock(when);
    });
  }

  function paint() {
    var text = status.querySelector(".text");
    status.classList.toggle("lost", lost);
    status.classList.toggle("stale", mode === "notice" && version !== base);
    if (lost) text.textContent = d.tLost.replace("#T#", clock(lastContact));
    else text.textContent = d.tOk.replace("#T#", clock(lastChange));
    status.dataset.seen = String(version);   // for tests: the newest version this page saw
  }

  // --- swap: the page fetched again, its live regions replaced -----------------------------
  function dirty(input) {
    if (input.type === "checkbox" || input.type === "radio") return input.checked !== input.defaultChecked;
    if (input.tagName === "SELECT") {
      return Array.prototype.some.call(input.options, function (o) { return o.selected !== o.defaultSelected; });
    }
    return input.type !== "hidden" && input.value !== input.defaultValue;
  }

  function keepTyped(oldRegion, fresh) {
    oldRegion.querySelectorAll("input, select, textarea").forEach(function (input) {
      if (!input.name || !dirty(input)) return;
      var sel = '[name="' + CSS.escape(input.name) + '"]';
      if (input.type === "radio" || input.type === "checkbox") sel += '[value="' + CSS.escape(input.value) + '"]';
      var twin = fresh.querySelector(sel);
      if (!twin) return;
      if (input.type === "radio" || input.type === "checkbox") twin.checked = input.checked;
      else twin.value = input.value;
    });
    oldRegion.querySelectorAll("details[id]").forEach(function (det) {
      var twin = fresh.querySelector("#" + CSS.escape(det.id));
      if (twin) twin.open = det.open;
    });
  }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var x = window.scrollX, y = window.scrollY;
    var focused = document.activeElement && document.activeElement.id;
    var known = {};
    document.querySelectorAll("[data-live-region] tr[id]").forEach(function (tr) { known[tr.id] = rowText(tr); });
    doc.querySelectorAll("[data-live-region]").forEach(function (fresh) {
      var old = document.getElementById(fresh.id);
      if (!old) return;
      keepTyped(old, fresh);
      var adopted = document.importNode(fresh, true);
      old.replaceWith(adopted);
    });
    var changedRows = [];
    document.querySelectorAll("[data-live-region] tr[id]").forEach(function (tr) {
      if (known[tr.id] === undefined) tr.classList.add("live-new");
      else if (known[tr.id] !== rowText(tr) && /^hand-\d+$/.test(tr.id)) changedRows.push(tr);
    });
    if (changedRows.length) whoChanged(changedRows, base);
    var title = doc.querySelector("title");
    if (title) document.title = title.textContent;
    var st = doc.getElementById("live-status");
    if (st && st.dataset.updatedAt) lastChange = new Date(st.dataset.updatedAt);
    if (focused) {
      var again = document.getElementById(focused);
      if (again && again !== document.activeElement) again.focus({preventScroll: true});
    }
    window.scrollTo(x, y);
    localTimes(document);
    document.dispatchEvent(new CustomEvent("live:swapped"));
    if (st) table = +st.dataset.table || 0;
    return st ? +st.dataset.version : null;
  }

  function rowText(tr) { return tr.textContent.replace(/\s+/g, " "); }

  // A hand row another phone changed (not added) stays marked, with who changed it and a
  // note above the sheet, until this phone's scorer closes the note (issue 27.6).
  function whoChanged(rows, since) {
    var changes = d.changesUrl;
    rows.forEach(function (tr) { tr.classList.add("live-changed"); });
    if (!changes) return;
    var sep = changes.indexOf("?") < 0 ? "?" : "&";
    fetch(changes + sep + "since=" + since, {cache: "no-store", credentials: "same-origin"})
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var list = doc.querySelector(".change-list");
        rows.forEach(function (tr) {
          var n = tr.id.slice(5);
          var li = doc.querySelector('.change-list li[data-row="' + n + '"]');
          var cell = tr.querySelector("th");
          if (!li || !cell || cell.querySelector(".changed-by")) return;
          var mark = document.createElement("span");
          mark.className = "mark changed-by";
          mark.textContent = "✎ " + li.dataset.who;
          cell.appendChild(mark);
        });
        if (!list) return;
        var note = document.getElementById("live-changed") || document.createElement("div");
        note.id = "live-changed";
        note.className = "flash live-changed-note";
        note.setAttribute("role", "status");
        note.replaceChildren(document.importNode(list, true));
        var close = document.createElement("button");
        close.type = "button";
        close.className = "button small";
        close.id = "live-changed-close";
        close.textContent = "✓ " + (d.tSeen || "OK");
        close.addEventListener("click", function () {
          note.remove();
          document.querySelectorAll("tr.live-changed").forEach(function (tr) { tr.classList.remove("live-changed"); });
        });
        note.appendChild(close);
        localTimes(note);
        if (!note.parentNode) status.insertAdjacentElement("afterend", note);
      })
      .catch(function () { /* the rows stay marked */ });
  }

  function refresh(newVersion) {
    return fetch(d.refreshUrl || window.location.href, {cache: "no-store", credentials: "same-origin",
                                        headers: {"X-Live-Refresh": "1"}})
      .then(function (r) {
        if (r.status === 404) { window.location.reload(); return ""; }   // the page is gone
        if (!r.ok) throw new Error(String(r.status));
        return r.text();
      })
      .then(function (html) {
        if (!html) return;
        var shown = swap(html);
        version = shown || newVersion;
        base = version;
      });
  }

  // --- notice: what changed since the entry was opened -------------------------------------
  function notice() {
    var box = document.getElementById("live-notice");
    var changes = d.changesUrl;
    if (!box || !changes) return Promise.resolve();
    var sep = changes.indexOf("?") < 0 ? "?" : "&";
    return fetch(changes + sep + "since=" + base, {cache: "no-store", credentials: "same-origin"})
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        box.replaceChildren.apply(box, Array.prototype.map.call(doc.body.childNodes, function (n) {
          return document.importNode(n, true);
        }));
        box.hidden = false;
        localTimes(box);
        document.body.dataset.stale = String(version);  // for tests and the entry scripts
        document.dispatchEvent(new CustomEvent("live:stale", {detail: {base: base, version: version}}));
      });
  }

  function changed(data) {
    if (mode === "notice") {
      version = data.version;
      if (data.updated_at) lastChange = new Date(data.updated_at);
      return notice();
    }
    if (data.updated_at) lastChange = new Date(data.updated_at);
    return refresh(data.version);
  }

  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(poll, ms === undefined ? (document.hidden ? interval * 10 : interval) : ms);
  }

  function poll() {
    if (busy) return schedule();
    busy = true;
    // a page loaded without the time of the last change asks once without the version
    var tag = "v" + version + (table ? "c" + table : "");
    var headers = lastChange ? {"If-None-Match": '"' + tag + '"'} : {};
    fetch(url, {cache: "no-store", credentials: "same-origin", headers: headers})
      .then(function (r) {
        if (r.status === 304) return null;
        if (!r.ok) throw new Error(String(r.status));
        return r.json();
      })
      .then(function (data) {
        lastContact = new Date();
        if (lost) document.dispatchEvent(new CustomEvent("live:back"));   // offline.js sends
        lost = false;
        if (data && !lastChange && data.updated_at) lastChange = new Date(data.updated_at);
        if (data && mode !== "swap") table = data.table || 0;   // an entry page only keeps count
        if (data && data.version !== version) return changed(data);
        // a seat confirmed the sheet: the same version, the page fetched again to show it
        if (data && (data.table || 0) !== table) return refresh(version);
        return null;
      })
      .catch(function () { lost = true; })
      .then(function () { busy = false; paint(); schedule(); });
  }

  document.addEventListener("visibilitychange", function () { if (!document.hidden) schedule(0); });
  window.addEventListener("online", function () { schedule(0); });
  document.addEventListener("outbox:sent", function () { schedule(0); });   // offline.js
  localTimes(document);
  paint();
  status.dataset.ready = "1";
  schedule();
})();
