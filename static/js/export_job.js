// The export job page: polls the job's status (JSON) and shows its progress; the
// download link appears when the PDF is ready. Without JS the page refreshes itself.
(function () {
  "use strict";
  var box = document.getElementById("export-job");
  if (!box) return;
  var bar = document.getElementById("export-progress");
  var state = document.getElementById("export-state");
  var link = document.getElementById("export-download");
  var words = JSON.parse(box.dataset.words || "{}");
  function show(s) {
    bar.value = s.percent;
    bar.textContent = s.percent + "%";
    if (s.state === "error") { state.textContent = s.error; state.className = "error"; return; }
    state.textContent = (words[s.state] || s.state).replace("%(done)s", s.done)
      .replace("%(total)s", s.total).replace("%(pages)s", s.pages || "");
    if (s.state === "done") { link.hidden = false; link.href = s.pdf_url; }
  }
  function poll() {
    fetch(box.dataset.statusUrl, {headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (s) { show(s); if (s.state !== "done" && s.state !== "error") setTimeout(poll, 400); })
      .catch(function () { setTimeout(poll, 1500); });
  }
  if (box.dataset.poll === "1") poll();
})();
