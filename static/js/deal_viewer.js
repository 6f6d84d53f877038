// The hand page's deal viewer, progressive enhancement (templates/referee/_deal_viewer.html).
// The server renders one trick of the hand, with ◀ ▶ links to the tricks around it; every
// card of the deal is in the page, each with the trick it was played in (data-trick). Here
// ◀ ▶, the arrow keys and the "See the trick" links step without reloading: the cards of
// earlier tricks are hidden, the trick shown is swapped, and the address keeps ?trick= so a
// reload or a shared link opens the same trick. Without this file every link still works.
(function () {
  "use strict";

  function viewer() { return document.getElementById("viewer"); }

  function data() {
    var el = document.getElementById("dv-data");
    try { return el ? JSON.parse(el.textContent) : null; } catch (e) { return null; }
  }

  function urlOf(k) {
    var u = new URL(window.location.href);
    u.searchParams.set("trick", String(k));
    u.hash = "viewer";
    return u.pathname + u.search + u.hash;
  }

  function setLink(a, k, count) {
    if (!a) return;
    if (k >= 0 && k < count) {
      a.setAttribute("href", urlOf(k));
      a.removeAttribute("aria-disabled");
      a.classList.remove("disabled");
    } else {
      a.removeAttribute("href");
      a.setAttribute("aria-disabled", "true");
      a.classList.add("disabled");
    }
  }

  function show(k) {
    var v = viewer();
    var d = data();
    if (!v || !d || !d.count) return;
    k = Math.max(0, Math.min(d.count - 1, k));
    v.querySelectorAll(".dv-hand").forEach(function (hand) {
      var left = 0;
      hand.querySelectorAll(".dv-suit").forEach(function (suit) {
        var shown = 0;
        suit.querySelectorAll(".dv-card").forEach(function (c) {
          var t = c.dataset.trick === "" ? Infinity : +c.dataset.trick;
          c.hidden = t < k;
          c.classList.toggle("in-trick", t === k);
          if (!c.hidden) shown++;
        });
        suit.classList.toggle("void", shown === 0);
        left += shown;
      });
      var count = hand.querySelector(".dv-left");
      if (count) count.textContent = "(" + left + ")";
    });
    v.querySelectorAll(".dv-trick, .dv-caption").forEach(function (el) {
      el.hidden = +el.dataset.trick !== k;
    });
    var label = document.getElementById("dv-label");
    if (label) label.textContent = d.labels[k];
    setLink(document.getElementById("dv-prev"), k - 1, d.count);
    setLink(document.getElementById("dv-next"), k + 1, d.count);
    var notice = document.getElementById("dv-notice");
    if (notice && +v.dataset.step !== k) notice.remove();
    v.dataset.step = String(k);
    var u = new URL(window.location.href);
    if (u.searchParams.get("trick") !== String(k)) {
      u.searchParams.set("trick", String(k));
      history.replaceState(null, "", u.pathname + u.search + u.hash);
    }
  }

  function current() { var v = viewer(); return v ? +v.dataset.step : 0; }

  // after the live refresh swapped the page (rendered at the first trick), the trick in the
  // address again
  function fromAddress() {
    var t = new URL(window.location.href).searchParams.get("trick");
    if (t !== null && /^[0-9]{1,4}$/.test(t) && viewer()) show(+t);
  }

  document.addEventListener("click", function (e) {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    var a = e.target.closest("#dv-prev, #dv-next, .dv-jump");
    if (!a || !viewer()) return;
    e.preventDefault();
    if (a.id === "dv-prev") show(current() - 1);
    else if (a.id === "dv-next") show(current() + 1);
    else {
      show(+a.dataset.step);
      viewer().scrollIntoView({block: "start"});
    }
  });

  document.addEventListener("keydown", function (e) {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    if (e.metaKey || e.ctrlKey || e.altKey || e.shiftKey || !viewer()) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    e.preventDefault();
    show(current() + (e.key === "ArrowRight" ? 1 : -1));
  });

  document.addEventListener("live:swapped", fromAddress);
})();
