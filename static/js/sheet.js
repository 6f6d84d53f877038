// The sheet page (asking before a delete: confirm_forms.js): after a save, show the new row under the pinned
// message and next-hand panel (issue 14.1: all three in view on a 375x812 phone).
(function () {
  "use strict";
  var block = document.getElementById("next-block");
  function showTarget() {
    // the game is over: its panel (winner, totals, the next step) is at the top
    if (document.querySelector("#next-hand.over")) {
      if (window.location.hash) history.replaceState(null, "", window.location.pathname + window.location.search);
      window.scrollTo(0, 0);
      return;
    }
    var m = /^#hand-(\d+)$/.exec(window.location.hash);
    var row = m && document.getElementById("hand-" + m[1]);
    if (!row) { return; }
    var pinned = block && block.classList.contains("pinned") ? block.offsetHeight : 0;
    document.documentElement.style.setProperty("--pinned-h", pinned + "px");
    // the whole row below the pinned panel, and as much of the sheet above it as the
    // totals row (kept in view when it fits) allows
    var top = row.getBoundingClientRect().top + window.scrollY - pinned - 8;
    var foot = document.querySelector("#sheet tfoot") || row;
    var y = Math.min(top, foot.getBoundingClientRect().bottom + window.scrollY + 8 - window.innerHeight);
    window.scrollTo(0, Math.max(0, y));
  }
  showTarget();
  window.addEventListener("load", showTarget);
  window.addEventListener("hashchange", showTarget);
}());
