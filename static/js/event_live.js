// An event's director's view and results screen (and the directors' list of calls, through
// /calls/live), kept up to date: the page asks /events/<id>/live about once a second (If-None-Match: a 304 without a body while nothing
// changed); when the event changed (a table saved a hand or confirmed, a round was drawn),
// the page fetches itself again and swaps its [data-live-region]s in place.
// A text field being filled in a region keeps its value and focus through the swap.
// The screen pages through long lists by itself: in each [data-pages] box one .page shows
// at a time, the next every data-page-ms; its [data-page-label] says which.
(function () {
  "use strict";
  var status = document.getElementById("event-live");
  if (!status || !window.fetch || !window.DOMParser) return;
  var d = status.dataset;
  var tag = d.stamp ? '"' + d.stamp + '"' : null;
  var interval = +d.pollMs || 1000;
  var pageMs = +d.pageMs || 0;
  var busy = false, tick = 0;
  var lang = document.documentElement.lang || undefined;

  function clock() {
    try {
      return new Date().toLocaleTimeString(lang, {hour: "2-digit", minute: "2-digit", second: "2-digit",
                                                  timeZone: d.tz || undefined});
    } catch (e) { return new Date().toISOString().slice(11, 19); }
  }

  function say(lost) {
    status.classList.toggle("lost", lost);
    var text = status.querySelector(".text");
    if (text) text.textContent = (lost ? d.tLost : d.tOk).replace("#T#", clock());
  }

  function showPages() {
    document.querySelectorAll("[data-pages]").forEach(function (box) {
      var pages = box.querySelectorAll(".page");
      if (!pages.length) return;
      var at = tick % pages.length;
      pages.forEach(function (p, i) { p.hidden = i !== at; });
      var label = box.querySelector("[data-page-label]");
      if (label) {
        label.hidden = pages.length < 2;
        label.textContent = (at + 1) + " / " + pages.length;
      }
    });
  }

  // The room's screen fits its seating and its standings to the screen: in a [data-fit]
  // box the page shown starts at data-fit-max (in vh, else its stylesheet's size) and is
  // set smaller, step by step, until nothing overflows the box nor a name its cell (long
  // names, many tables, many rounds); never below data-fit-min vh.
  function overflows(box, page) {
    if (box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 2) return true;
    return Array.prototype.some.call(page.querySelectorAll(".name"), function (el) {
      return el.scrollWidth > el.clientWidth + 1;
    });
  }

  function fit() {
    var vh = window.innerHeight / 100;
    document.querySelectorAll("[data-fit]").forEach(function (box) {
      var high = +box.dataset.fitMax || 0, low = (+box.dataset.fitMin || 1.5) * vh;
      box.querySelectorAll(".page").forEach(function (page) {
        if (page.hidden) return;
        page.style.fontSize = high ? high * vh + "px" : "";
        var size = parseFloat(window.getComputedStyle(page).fontSize);
        while (overflows(box, page) && size > low) {
          size = Math.max(low, size * 0.95);
          page.style.fontSize = size + "px";
        }
      });
    });
  }

  // What is being typed in a region (a director's answer to a call) survives the swap:
  // each text field with an id keeps its value, and the one with the focus keeps it.
  function typed(region) {
    var kept = {};
    region.querySelectorAll("input[type=text][id], textarea[id]").forEach(function (el) {
      if (el.value) kept[el.id] = el.value;
    });
    return kept;
  }

  function retype(kept, focused) {
    Object.keys(kept).forEach(function (id) {
      var el = document.getElementById(id);
      if (el && !el.value) el.value = kept[id];
    });
    var again = focused && document.getElementById(focused.id);
    if (again) {
      again.focus();
      if (typeof again.setSelectionRange === "function" && focused.end !== null) {
        try { again.setSelectionRange(focused.start, focused.end); } catch (e) { /* not text */ }
      }
    }
  }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var active = document.activeElement;
    doc.querySelectorAll("[data-live-region][id]").forEach(function (fresh) {
      var old = document.getElementById(fresh.id);
      if (!old) return;
      var focused = active && active.id && old.contains(active)
        ? {id: active.id, start: active.selectionStart, end: active.selectionEnd} : null;
      var kept = typed(old);
      old.replaceWith(document.importNode(fresh, true));
      retype(kept, focused);
    });
    showPages();
    fit();
    status.dataset.seen = tag || "";   // for tests: the newest stamp this page shows
  }

  function poll() {
    if (busy) return;
    busy = true;
    var headers = tag ? {"If-None-Match": tag} : {};
    fetch(d.liveUrl, {headers: headers, cache: "no-store", credentials: "same-origin"})
      .then(function (r) {
        if (r.status === 304) return null;
        if (!r.ok) throw new Error("HTTP " + r.status);
        var fresh = r.headers.get("ETag");
        if (!fresh || fresh === tag) return null;
        return fetch(window.location.href, {headers: {"X-Live-Refresh": "1"}, cache: "no-store",
                                            credentials: "same-origin"})
          .then(function (page) {
            if (!page.ok) throw new Error("HTTP " + page.status);
            return page.text();
          })
          .then(function (html) { tag = fresh; swap(html); });
      })
      .then(function () { say(false); }, function () { say(true); })
      .then(function () { busy = false; });
  }

  showPages();
  fit();
  window.addEventListener("resize", fit);
  window.setInterval(poll, interval);
  if (pageMs) window.setInterval(function () { tick += 1; showPages(); fit(); }, pageMs);
})();
