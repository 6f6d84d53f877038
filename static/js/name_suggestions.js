// New game: as a seat's name is typed, the roster names containing it (GET
// /players/names?q=…, debounced) fill the seats' datalist. The page's first list (the
// players who played most recently) comes back when the box is emptied.
(function () {
  "use strict";
  var list = document.getElementById("roster");
  if (!list || !list.dataset.namesUrl) return;
  var PAUSE_MS = 200;
  var first = Array.prototype.map.call(list.options, function (o) { return o.value; });
  var timer = null;
  var asked = 0;
  function fill(names) {
    list.replaceChildren.apply(list, names.map(function (n) {
      var o = document.createElement("option"); o.value = n; return o;
    }));
  }
  function ask(text) {
    var mine = ++asked;
    if (!text) { fill(first); return; }
    fetch(list.dataset.namesUrl + "?q=" + encodeURIComponent(text),
          {headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : {names: []}; })
      .then(function (data) { if (mine === asked) fill(data.names || []); })
      .catch(function () { /* offline: keep the list as it is */ });
  }
  document.querySelectorAll("input[list=roster]").forEach(function (input) {
    input.addEventListener("input", function () {
      clearTimeout(timer);
      var text = input.value.trim();
      timer = setTimeout(function () { ask(text); }, PAUSE_MS);
    });
  });
})();
