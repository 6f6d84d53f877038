// On a phone the header's links fold behind one button, so the header takes one row
// (issue 27.11). Without this script the links stay in view.
(function () {
  "use strict";
  var top = document.querySelector("header.top");
  var toggle = document.getElementById("menu-toggle");
  if (!top || !toggle) return;
  top.classList.add("menu-js");
  toggle.hidden = false;
  toggle.addEventListener("click", function () {
    var open = !top.classList.contains("open");
    top.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
  });
})();
