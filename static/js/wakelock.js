// Keeps the screen awake while a game page is open (Screen Wake Lock API, where available).
(function () {
  "use strict";
  if (!("wakeLock" in navigator) || !document.body.hasAttribute("data-wakelock")) return;
  var lock = null;
  function acquire() {
    if (document.visibilityState !== "visible" || lock) return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      lock.addEventListener("release", function () { lock = null; });
    }).catch(function () { /* denied or unsupported: nothing to do */ });
  }
  document.addEventListener("visibilitychange", acquire);
  acquire();
})();
