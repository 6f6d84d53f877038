// Hand entry: steppers, the last seat filled in when the other three are known,
// and the card picker (choose a player, tap the cards they took).
(function () {
  "use strict";
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
        var v = cell.querySelector("select").value;
        cell.dataset.seat = v;
        cell.classList.toggle("taken", v !== "");
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
    picker.querySelectorAll(".card-cell").forEach(function (cell) {
      var select = cell.querySelector("select");
      cell.querySelector(".face").addEventListener("click", function () {
        select.value = select.value === String(active) ? "" : String(active);
        paint();
      });
      select.addEventListener("change", paint);
    });
    paint();
  }
  form.dataset.ready = "1";  // for tests and slow phones: the helpers above are wired
})();
