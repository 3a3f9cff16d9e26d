// The queue's keys: 1-9 accept a candidate, a accept the reading, e type a correction, Enter preview
// then save, j/k next/previous item, x skip, d/D discard (not a slip / duplicate), m move to a round. The page works without this file (plain forms).
(function () {
  "use strict";
  var card = document.getElementById("card");
  var csrf = document.querySelector('meta[name="csrf-token"]').content;
  var status = document.getElementById("claim-status");
  var claimedElsewhere = false;

  function submit(id) {
    var form = document.getElementById(id);
    if (form) { form.requestSubmit ? form.requestSubmit() : form.submit(); }
  }
  function step(delta) {
    var links = Array.prototype.slice.call(document.querySelectorAll("#items a"));
    var current = links.findIndex(function (a) { return a.parentElement.classList.contains("current"); });
    var next = links[current + delta];
    if (next) { window.location.href = next.href; }
  }
  if (card) {
    fetch(card.dataset.claimUrl, {method: "POST", headers: {"X-CSRF-Token": csrf}, credentials: "same-origin"})
      .then(function (r) { return r.json().then(function (body) { return {ok: r.ok, body: body}; }); })
      .then(function (res) {
        if (res.ok) { status.textContent = "✓ " + res.body.by; status.className = "claim-status ok"; }
        else { claimedElsewhere = true; status.textContent = res.body.message; status.className = "claim-status bad"; }
      })
      .catch(function () { /* no name yet: the server says so on the first save */ });
  }
  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    var typing = ev.target && (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT" || ev.target.tagName === "TEXTAREA");
    if (typing) {
      if (ev.key === "Escape") { ev.target.blur(); }
      return;
    }
    if (ev.key === "Escape" && document.getElementById("preview")) {
      window.location.href = window.location.pathname + window.location.search; return;
    }
    if (!card) { return; }
    if (/^[1-9]$/.test(ev.key) && document.getElementById("cand-" + ev.key)) { ev.preventDefault(); submit("cand-" + ev.key); }
    else if (ev.key === "a") { ev.preventDefault(); submit("accept-form"); }
    else if (ev.key === "e") { var f = document.getElementById("fields"); if (f) { ev.preventDefault(); f.focus(); } }
    else if (ev.key === "x") { ev.preventDefault(); submit("skip-form"); }
    else if (ev.key === "m") { var r = document.getElementById("move-round"); if (r) { ev.preventDefault(); r.focus(); } }
    else if (ev.key === "j" || ev.key === "ArrowDown") { ev.preventDefault(); step(1); }
    else if (ev.key === "k" || ev.key === "ArrowUp") { ev.preventDefault(); step(-1); }
  });
})();
