// The confirmation page without a reload per seat (issue 27.8): the phone goes round the
// table, so a seat's form is sent in the background and the page's body is replaced by the
// one the server answers with (the page the form would have loaded: the seat confirmed, or
// the error next to that seat's PIN). The phone stays where it is. Without JavaScript, or if
// the request fails, the form is posted as before.
(function () {
  "use strict";
  if (!window.fetch || !window.DOMParser || !window.FormData) return;
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var body = document.getElementById("confirm-body");
    if (event.defaultPrevented || !body || !form.matches || !form.matches("form.confirm-seat")) return;
    event.preventDefault();
    var seat = form.querySelector('input[name="seat"]').value;
    var data = new FormData(form);
    document.body.setAttribute("data-confirm-busy", "1");
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    fetch(form.action.split("#")[0], {method: "POST", body: data, credentials: "same-origin"})
      .then(function (response) {
        return response.text().then(function (text) { return {url: response.url, text: text}; });
      })
      .then(function (answer) {
        var fresh = new DOMParser().parseFromString(answer.text, "text/html").getElementById("confirm-body");
        if (!fresh) { window.location.assign(answer.url); return; }   // another page: show it
        body.replaceWith(document.importNode(fresh, true));
        var wrong = document.querySelector('#confirm-body input[aria-invalid="true"]');
        var card = document.getElementById("seat-card-" + seat);
        if (wrong) wrong.focus();
        else if (card) { card.setAttribute("tabindex", "-1"); card.focus(); }
        document.body.removeAttribute("data-confirm-busy");
      })
      .catch(function () {
        document.body.removeAttribute("data-confirm-busy");
        form.submit();
      });
  });
}());
