// The roster's search as you type: the form is sent a moment after the typing stops
// (debounced), and the caret is put back at the end of the search box on the new page.
// Without the script the search button sends it.
(function () {
  "use strict";
  var PAUSE_MS = 350;
  var input = document.querySelector("input[data-search-as-you-type]");
  if (!input || !input.form) return;
  var timer = null;
  var sent = input.value;
  if (sessionStorage.getItem("search-as-you-type") === input.form.id) {
    sessionStorage.removeItem("search-as-you-type");
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      if (input.value.trim() === sent.trim()) return;
      sent = input.value;
      sessionStorage.setItem("search-as-you-type", input.form.id);
      input.form.submit();
    }, PAUSE_MS);
  });
})();
