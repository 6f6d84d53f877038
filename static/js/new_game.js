// New game: show the chosen profile's options, its seat rule and direction of play,
// and put the typed names on the table drawing.
(function () {
  "use strict";
  var form = document.getElementById("new-game-form");
  if (!form) return;
  function chosen() { return form.querySelector("input[name=profile]:checked"); }
  function names() {
    var out = [];
    form.querySelectorAll("input[data-seat]").forEach(function (i) { out[+i.dataset.seat] = i.value.trim(); });
    return out;
  }
  function update() {
    var p = chosen();
    var id = p ? p.value : "";
    form.querySelectorAll("details.options").forEach(function (d) { d.hidden = d.dataset.profile !== id; });
    var cw = !p || p.dataset.clockwise === "true";
    document.getElementById("diagram-cw").hidden = !cw;
    document.getElementById("diagram-ccw").hidden = cw;
    var hint = document.getElementById("direction-hint");
    hint.textContent = cw ? hint.dataset.cw : hint.dataset.ccw;
    var label = document.getElementById("first-seat-label");
    label.textContent = p && p.dataset.seatKey === "first_chooser" ? label.dataset.chooser : label.dataset.dealer;
    var n = names();
    document.querySelectorAll("[data-seat-name]").forEach(function (t) {
      var s = +t.dataset.seatName; t.textContent = n[s] || "";
    });
    form.querySelectorAll("option[data-seat-option]").forEach(function (o) {
      var s = +o.dataset.seatOption; var base = o.textContent.split(" · ")[0];
      o.textContent = n[s] ? base + " · " + n[s] : base;
    });
  }
  form.addEventListener("change", update);
  form.addEventListener("input", update);
  update();
})();
