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
