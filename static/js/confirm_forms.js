// Every page: a form with data-confirm asks before it is sent (deleting the last hand,
// revoking a share link or a token). Delegated, so forms the live sheet swaps in ask too.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || form.dataset.confirmed) return;   // asked already (offline.js)
    if (form.matches && form.matches("form[data-confirm]") && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });
}());
