// A page made to be printed (an event's seating, the tables' QR cards): its [data-print]
// button opens the browser's print dialog (no inline handler: the pages' CSP forbids them).
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
})();
