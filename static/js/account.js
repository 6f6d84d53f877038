// The account page (asking before a revoke: confirm_forms.js): copy a new token's text with one tap
// (where the browser lets a page write to the clipboard; else a tap on it selects it all).
(function () {
  "use strict";
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
