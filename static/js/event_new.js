// New event: only the chosen game's table options are shown (the others stay in the form,
// hidden, with their defaults). Without this script every game's options are shown.
(function () {
  "use strict";
  var form = document.getElementById("new-event-form");
  var select = form && form.querySelector("select[name=profile]");
  if (!select) return;
  function update() {
    form.querySelectorAll("details.options").forEach(function (d) { d.hidden = d.dataset.profile !== select.value; });
  }
  select.addEventListener("change", update);
  update();
})();

// The players' box: a name picked from the roster (typed with its suggestions) goes on a
// line of its own, once; Enter in the name adds it too.
(function () {
  "use strict";
  var row = document.getElementById("add-player-row");
  var input = document.getElementById("add-player");
  var box = document.getElementById("players");
  if (!row || !input || !box) return;
  row.hidden = false;
  function fold(name) { return name.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().split(/\s+/).join(" "); }
  function add() {
    var name = input.value.trim().split(/\s+/).join(" ");
    if (!name) return;
    // the roster's spelling when a suggestion is the same name (the server matches it too)
    Array.prototype.forEach.call(document.querySelectorAll("#roster option"), function (o) {
      if (fold(o.value) === fold(name)) name = o.value;
    });
    var lines = box.value.split("\n").map(function (l) { return l.trim(); }).filter(Boolean);
    var taken = lines.some(function (l) { return fold(l.split(",")[0].trim()) === fold(name); });
    if (!taken) lines.push(name);
    box.value = lines.join("\n") + "\n";
    input.value = "";
    input.focus();
  }
  document.getElementById("add-player-button").addEventListener("click", add);
  input.addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); add(); } });
})();
