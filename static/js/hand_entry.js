// Hand entry: steppers, the last seat filled in when the other three are known,
// and the card picker (choose a player, tap the cards they took).
(function () {
  "use strict";
  // --- fiesta setup: offer only the leaders the engine accepts for the chosen contract ----
  var fiesta = document.getElementById("fiesta-form");
  var leaders = document.getElementById("leader-choice");
  if (fiesta && leaders) {
    var seats = Array.prototype.slice.call(leaders.querySelectorAll("label[data-contracts]"));
    var offer = function () {
      var picked = fiesta.querySelector("input[name=contract]:checked");
      if (!picked) return;
      var shown = seats.filter(function (label) {
        var ok = label.dataset.contracts.split(" ").indexOf(picked.value) >= 0;
        label.hidden = !ok;
        label.style.display = ok ? "" : "none";   // chip styles would show a [hidden] label
        label.querySelector("input").disabled = !ok;
        return ok;
      });
      leaders.hidden = shown.length === 0;
      leaders.style.display = shown.length ? "" : "none";
      var checked = shown.filter(function (l) { return l.querySelector("input").checked; });
      if (shown.length && !checked.length) shown[0].querySelector("input").checked = true;
    };
    fiesta.querySelectorAll("input[name=contract]").forEach(function (input) {
      input.addEventListener("change", offer);
    });
    offer();
    fiesta.dataset.ready = "1";
  }
  var form = document.getElementById("hand-form");
  if (!form) return;

  // --- counts: steppers and the computed last seat ---------------------------------------
  form.querySelectorAll(".count-row").forEach(function (row) {
    var total = +row.dataset.total;
    var inputs = Array.prototype.slice.call(row.querySelectorAll("input[type=number]"));
    // A seat is "typed" once the scorer touched it here; when three are typed, the page
    // fills the fourth (empty or prefilled alike) with what the element's total leaves.
    function typed(i) { return i.dataset.touched === "1"; }
    function fill() {
      var known = inputs.filter(typed);
      var open = inputs.filter(function (i) { return !typed(i); });
      if (known.length === 3 && open.length === 1) {
        var rest = total - known.reduce(function (a, i) { return a + (+i.value || 0); }, 0);
        if (rest >= 0) { open[0].value = rest; open[0].classList.add("auto"); }
        else if (open[0].classList.contains("auto")) { open[0].value = ""; }
      }
    }
    function touch(input) { input.dataset.touched = "1"; input.classList.remove("auto"); }
    inputs.forEach(function (input) {
      input.addEventListener("input", function () { touch(input); fill(); });
      var box = input.parentNode;
      box.querySelector(".dec").addEventListener("click", function () {
        input.value = Math.max(0, (+input.value || 0) - 1); touch(input); fill();
      });
      box.querySelector(".inc").addEventListener("click", function () {
        input.value = Math.min(total, (+input.value || 0) + 1); touch(input); fill();
      });
    });
  });

  // --- captures: the card picker ----------------------------------------------------------
  var picker = document.getElementById("card-picker");
  if (picker) {
    var active = 0;
    var buttons = picker.querySelectorAll("[data-pick]");
    var tally = document.getElementById("card-tally");
    function paint() {
      var counts = [0, 0, 0, 0], open = 0;
      picker.querySelectorAll(".card-cell").forEach(function (cell) {
        var select = cell.querySelector("select");
        var v = select.value;
        cell.dataset.seat = v;
        cell.classList.toggle("taken", v !== "");
        var who = cell.querySelector(".who");
        var name = v === "" ? "" : (buttons[+v] ? buttons[+v].textContent : "");
        if (who) who.textContent = name;
        cell.setAttribute("aria-label", select.getAttribute("aria-label") + (name ? " — " + name : ""));
        cell.setAttribute("aria-pressed", v === "" ? "false" : "true");
        if (v === "") open++; else counts[+v]++;
      });
      buttons.forEach(function (b) {
        var s = +b.dataset.pick;
        b.classList.toggle("on", s === active);
        b.setAttribute("aria-pressed", s === active ? "true" : "false");
        b.dataset.count = counts[s];
      });
      if (tally) tally.textContent = buttons.length ? Array.prototype.map.call(buttons, function (b) {
        return b.textContent.replace(/ \(\d+\)$/, "") + ": " + b.dataset.count;
      }).join(" · ") + (open ? " · ? " + open : " ✓") : "";
    }
    buttons.forEach(function (b) {
      b.addEventListener("click", function () { active = +b.dataset.pick; paint(); });
    });
    // the whole cell is the card's button (issue 27.4); its name shows who took it
    picker.classList.add("js-picker");
    picker.querySelectorAll(".card-cell").forEach(function (cell) {
      var select = cell.querySelector("select");
      var who = document.createElement("span");
      who.className = "who";
      cell.appendChild(who);
      cell.setAttribute("role", "button");
      cell.tabIndex = 0;
      var toggle = function () {
        select.value = select.value === String(active) ? "" : String(active);
        paint();
        form.dispatchEvent(new Event("change"));   // the live check
      };
      cell.addEventListener("click", toggle);
      cell.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); }
      });
      select.addEventListener("change", paint);
    });
    paint();
  }
  // --- the live check: the engine scores the entry as typed, or names every problem -------
  var live = document.getElementById("live-points");
  if (live && window.fetch && window.FormData) {
    var check = document.getElementById("live-check");
    var timer = null, seq = 0;
    var clearLive = function () {
      form.querySelectorAll(".live-problem").forEach(function (p) { p.remove(); });
    };
    var show = function (res) {
      live.hidden = false;
      clearLive();
      live.querySelectorAll("[data-live-seat]").forEach(function (el) {
        el.textContent = res.shown ? res.shown[+el.dataset.liveSeat] : "\u2013";
      });
      check.textContent = res.shown ? check.dataset.ok.replace("#T#", res.shown_total)
                                     : check.dataset.wait;
      Object.keys(res.problems || {}).forEach(function (key) {
        var row = document.getElementById("row-" + key) ||
                  (key === "cards" ? document.getElementById("card-picker") : null) || live;
        res.problems[key].forEach(function (msg) {
          var p = document.createElement("p");
          p.className = "error live-problem";
          p.textContent = msg;
          row.appendChild(p);
        });
      });
      form.dataset.live = String(seq);   // for tests: the check for this version is shown
    };
    var refresh = function () {
      var data = new FormData(form);
      data.set("preview", "1");
      var mine = ++seq;
      fetch(form.getAttribute("action"), {method: "POST", body: data, credentials: "same-origin",
                                          headers: {"Accept": "application/json"}})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (res) { if (res && mine === seq) show(res); })
        .catch(function () {});
    };
    var schedule = function () { clearTimeout(timer); timer = setTimeout(refresh, 250); };
    form.addEventListener("input", schedule);
    form.addEventListener("change", schedule);
    form.addEventListener("click", function (e) {
      if (e.target.closest && e.target.closest(".dec, .inc, .face, [data-pick]")) schedule();
    });
  }
  form.dataset.ready = "1";  // for tests and slow phones: the helpers above are wired
})();
