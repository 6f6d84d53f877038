// Referee mode, progressive enhancement. The server holds the rules and the state lives
// in the address: every tap is a link to the next state. Here we fetch that page and swap
// it in place (no reload, the address kept current so a reload loses nothing), queue taps
// made while a page is on its way, send typed cards (KH, 10s, qd + Enter), and make the
// deal picker tap-friendly. Without this file every link and form still works.
(function () {
  "use strict";
  var busy = false;
  var queue = [];
  document.documentElement.classList.add("js");

  function root() { return document.getElementById("referee"); }

  function swap(html, url) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("referee");
    var old = root();
    if (!fresh || !old) { window.location.href = url; return; }
    var hadFocus = document.activeElement && document.activeElement.id === "add";
    old.replaceWith(fresh);
    document.title = doc.title;
    if (url) history.replaceState(null, "", url);
    retarget();
    init(hadFocus);
  }

  // --- the entry survives a language switch, the "Sheet" link and a reload ---------------
  // The address holds the whole state and is kept current; links that come back to "this
  // page" (language, scorer) are pointed at the current address. Each state is also kept
  // on this phone (localStorage) so the hand can be continued after leaving the page.
  function here() { return window.location.pathname + window.location.search; }

  function retarget() {
    document.querySelectorAll(".top a[href*='next=']").forEach(function (a) {
      var u = new URL(a.href, window.location.href);
      u.searchParams.set("next", here());
      a.href = u.pathname + u.search;
    });
  }

  function draftKey(r) {
    return "kingsheet:tricks:" + r.dataset.game + ":" + (r.dataset.editing === "1" ? "row" : "new") + ":" + r.dataset.row;
  }

  function keepDraft() {
    var r = root();
    if (!r || !r.dataset.game || !window.localStorage) return;
    var plays = +r.dataset.plays;
    try {
      var url = offline.length ? withOfflinePlays(here()) : here();
      if (plays > 0) localStorage.setItem(draftKey(r), JSON.stringify({url: url, plays: plays, at: Date.now()}));
    } catch (e) { /* private mode or full: the address still holds the state */ }
  }

  function readDraft(r) {
    try { return JSON.parse(localStorage.getItem(draftKey(r)) || "null"); } catch (e) { return null; }
  }

  function dropDraft(r) { try { localStorage.removeItem(draftKey(r)); } catch (e) { /* nothing kept */ } }

  function bar(id, text, actions) {
    var old = document.getElementById(id);
    if (old) old.remove();
    var box = document.createElement("div");
    box.id = id;
    box.className = "flash draft-bar";
    box.setAttribute("role", "alert");
    var p = document.createElement("p");
    p.textContent = text;
    box.appendChild(p);
    actions.forEach(function (act) {
      var el = document.createElement(act.href ? "a" : "button");
      el.className = "button small" + (act.primary ? " primary" : "");
      el.id = act.id;
      el.textContent = act.label;
      if (act.href) el.href = act.href; else el.type = "button";
      el.addEventListener("click", act.run || function () {});
      box.appendChild(el);
    });
    var r = root();
    r.insertBefore(box, r.firstChild);
    return box;
  }

  // a count in the page's language: the template gives each plural category's form
  // (data-t-x-one, -few, -many, -other; see tricks.html), Intl.PluralRules picks one
  function plural(el, key, n) {
    var cat = "other";
    try { cat = new Intl.PluralRules(document.documentElement.lang || "es").select(n); } catch (e) {}
    var form = el.dataset[key + cat.charAt(0).toUpperCase() + cat.slice(1)] || el.dataset[key + "Other"];
    return form.replace("#N#", n);
  }

  function offerResume() {
    var r = root();
    if (!r || !r.dataset.game || +r.dataset.plays > 0 || r.dataset.step !== "play") return;
    var draft = readDraft(r);
    if (!draft || !draft.url || draft.url === here()) return;
    bar("resume-bar", plural(r, "tResume", draft.plays), [
      {id: "resume-draft", label: r.dataset.tResumeGo, primary: true, href: draft.url,
       run: function (e) { e.preventDefault(); go(draft.url); }},
      {id: "drop-draft", label: r.dataset.tResumeDrop,
       run: function () { dropDraft(r); document.getElementById("resume-bar").remove(); }}
    ]);
  }

  // leaving mid-hand (the Sheet link, the menu, "enter counts instead") asks first; the
  // language and scorer links keep the entry and go straight through
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a[href]");
    var r = root();
    if (!a || !r || e.defaultPrevented || a.dataset.nav !== undefined) return;
    if (a.id === "discard-entry") { dropDraft(r); return; }   // leaving on purpose
    if (+r.dataset.plays === 0 || a.closest(".draft-bar") || a.href.indexOf("next=") >= 0) return;
    if (a.getAttribute("href").charAt(0) === "#") return;
    e.preventDefault();
    bar("leave-bar", plural(r, "tLeave", +r.dataset.plays), [
      {id: "leave-go", label: r.dataset.tLeaveGo, href: a.href},
      {id: "leave-stay", label: r.dataset.tLeaveStay, primary: true,
       run: function () { document.getElementById("leave-bar").remove(); }}
    ]).scrollIntoView({block: "nearest"});
  }, true);

  document.addEventListener("submit", function (e) {
    if ((e.target.id === "save-form" || e.target.id === "offline-save-form") && root()) dropDraft(root());
  }, true);

  function go(url, card) {
    if (busy) return;
    busy = true;
    root().setAttribute("aria-busy", "true");
    fetch(url, {credentials: "same-origin", headers: {"X-Requested-With": "fetch"}})
      .then(function (r) { return r.text().then(function (t) { return [r, t]; }); })
      .then(function (rt) {
        busy = false;
        swap(rt[1], rt[0].ok ? rt[0].url : null);
        var next = queue.shift();
        if (next) {
          var a = root().querySelector('a.cardbtn[data-card="' + next + '"]');
          if (a) go(a.href); else queue = [];
        }
      })
      .catch(function () {
        busy = false;
        if (card && offlineTap(card)) return;
        window.location.href = url;
      });
  }

  // --- no network: the cards tapped are kept on the page, the hand saved to the outbox ----
  // The server's rules are not here: the cards are kept in the order tapped and the engine
  // checks them (who played each, who won each trick, when the hand ended) when the hand
  // reaches it; a hand it refuses comes back to this page with its problem.
  var offline = [];

  function offlinePanel() {
    var r = root();
    var panel = document.getElementById("offline-plays");
    if (!panel) {
      panel = document.createElement("section");
      panel.id = "offline-plays";
      panel.className = "card offline-plays";
      var grid = document.getElementById("card-grid");
      grid.parentNode.insertBefore(panel, grid);
    }
    panel.replaceChildren();
    var note = document.createElement("p");
    note.className = "flash offline-copy";
    note.textContent = r.dataset.tOffline;
    panel.appendChild(note);
    var before = +r.dataset.serverPlays;
    var list = document.createElement("ol");
    list.className = "offline-tricks";
    for (var k = 0; k < offline.length; k++) {
      var n = Math.floor((before + k) / 4);
      var li = list.children[list.children.length - 1];
      if (!li || +li.dataset.trick !== n) {
        li = document.createElement("li");
        li.dataset.trick = String(n);
        li.textContent = r.dataset.tTrick.replace("#N#", n + 1) + ": ";
        list.appendChild(li);
      }
      var c = document.querySelector('#card-grid [data-card="' + offline[k] + '"]');
      var span = document.createElement("span");
      span.className = "ocard " + (c && c.classList.contains("red") ? "red" : "");
      span.textContent = (c ? c.textContent.trim() : offline[k]) + " ";
      li.appendChild(span);
    }
    panel.appendChild(list);
    var row = document.createElement("div");
    row.className = "row";
    var undo = document.createElement("button");
    undo.type = "button";
    undo.className = "button small";
    undo.id = "offline-undo";
    undo.textContent = "↶ " + r.dataset.tUndo;
    undo.disabled = offline.length === 0;
    undo.addEventListener("click", function () {
      var code = offline.pop();
      var cell = document.querySelector('#card-grid [data-card="' + code + '"]');
      if (cell) { cell.classList.remove("played-offline"); cell.removeAttribute("aria-disabled"); }
      paintOffline();
    });
    row.appendChild(undo);
    var save = document.createElement("button");
    save.type = "button";
    save.className = "button primary";
    save.id = "offline-save";
    save.textContent = r.dataset.tSave;
    save.disabled = offline.length === 0 || (before + offline.length) % 4 !== 0;
    save.addEventListener("click", saveOffline);
    row.appendChild(save);
    panel.appendChild(row);
  }

  function paintOffline() {
    var r = root();
    r.dataset.plays = String(+r.dataset.serverPlays + offline.length);
    offlinePanel();
    keepDraft();
  }

  function offlineTap(card) {
    var r = root();
    var form = document.getElementById("offline-save-form");
    var cell = document.querySelector('#card-grid a.cardbtn[data-card="' + card + '"]');
    if (!r || !form || !cell || cell.classList.contains("played-offline")) return !!(form && cell);
    if (r.dataset.serverPlays === undefined) r.dataset.serverPlays = r.dataset.plays;
    offline.push(card);
    cell.classList.add("played-offline");
    cell.setAttribute("aria-disabled", "true");
    paintOffline();
    return true;
  }

  function withOfflinePlays(address) {
    var u = new URL(address, window.location.href);
    var plays = (u.searchParams.get("plays") || "").split(",").filter(Boolean).concat(offline);
    u.searchParams.set("plays", plays.join(","));
    return u.pathname + "?" + u.searchParams.toString().replace(/%2C/g, ",");
  }

  function saveOffline() {
    var form = document.getElementById("offline-save-form");
    form.action = withOfflinePlays(form.getAttribute("action"));
    dropDraft(root());
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  }

  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("#referee a[data-nav]");
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    if (a.dataset.card && (offline.length || navigator.onLine === false) && offlineTap(a.dataset.card)) return;
    if (busy) {
      if (a.dataset.card && queue.length < 8) queue.push(a.dataset.card);
      return;
    }
    go(a.href, a.dataset.card);
  });

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.matches || !form.matches("#referee form[data-nav]") || (form.method || "get").toLowerCase() !== "get") return;
    e.preventDefault();
    var params = new URLSearchParams(new FormData(form));
    go(form.action.split("?")[0] + "?" + params.toString());
  });

  // typing a card anywhere on a laptop goes to the card box
  document.addEventListener("keydown", function (e) {
    var input = document.getElementById("add");
    if (!input || e.metaKey || e.ctrlKey || e.altKey) return;
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (/^[0-9akqjtshdcAKQJTSHDC♠♥♦♣]$/.test(e.key)) input.focus();
  });

  function initDeal() {
    var form = document.getElementById("deal-form");
    if (!form) return;
    var n = +form.dataset.n;
    var buttons = Array.prototype.slice.call(form.querySelectorAll("[data-pick]"));
    var cells = Array.prototype.slice.call(form.querySelectorAll(".deal-cell"));
    var active = 0;
    function counts() {
      var k = [0, 0, 0, 0];
      cells.forEach(function (c) { var v = c.querySelector("select").value; if (v !== "") k[+v] += 1; });
      return k;
    }
    function paint() {
      var k = counts();
      var open = cells.filter(function (c) { return c.querySelector("select").value === ""; });
      var short = [0, 1, 2, 3].filter(function (s) { return k[s] < n; });
      var auto = short.length === 1 && k[short[0]] + open.length === n ? short[0] : null;
      cells.forEach(function (c) {
        var v = c.querySelector("select").value;
        c.dataset.seat = v;
        c.classList.toggle("auto", v === "" && auto !== null);
      });
      buttons.forEach(function (b) {
        var s = +b.dataset.pick;
        var shown = auto === s ? n : k[s];
        b.classList.toggle("on", s === active);
        b.classList.toggle("full", shown === n);
        b.setAttribute("aria-pressed", s === active ? "true" : "false");
        b.querySelector("[data-count]").textContent = shown;
      });
    }
    buttons.forEach(function (b) {
      b.addEventListener("click", function () { active = +b.dataset.pick; paint(); });
    });
    cells.forEach(function (cell) {
      var select = cell.querySelector("select");
      cell.querySelector(".face").addEventListener("click", function () {
        if (select.value === String(active)) { select.value = ""; }
        else {
          select.value = String(active);
          var k = counts();
          if (k[active] >= n) {          // this player is complete: on to the next short one
            for (var i = 1; i <= 3; i++) {
              var s = (active + i) % 4;
              if (k[s] < n) { active = s; break; }
            }
          }
        }
        paint();
      });
      select.addEventListener("change", paint);
    });
    paint();
  }

  function init(refocus) {
    initDeal();
    keepDraft();
    var input = document.getElementById("add");
    if (input && (refocus || (window.matchMedia && window.matchMedia("(pointer: fine)").matches))) {
      input.focus();
      if (input.value) input.select();
    }
  }

  retarget();
  init(false);
  offerResume();
})();
