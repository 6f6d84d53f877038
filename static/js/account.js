// The account page: ask before revoking a token; copy a new token's text with one tap
// (where the browser lets a page write to the clipboard; else a tap on it selects it all).
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.matches && form.matches("form[data-confirm]") && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });

  var button = document.getElementById("copy-token");
  if (!button || !navigator.clipboard || !window.isSecureContext) { return; }
  var source = document.getElementById(button.dataset.copy);
  button.hidden = false;
  button.addEventListener("click", function () {
    navigator.clipboard.writeText(source.textContent.trim()).then(function () {
      button.textContent = button.dataset.copied;
    });
  });
}());
