// The round grid by keys: j/k (or the arrows) move between tables, Space marks several, t gives
// the top, / filters the legal moves and Enter gives the marked one, w a disciplinary warning,
// p / a cancel the slip's technical penalty / warning (an appeal, D 6.5), u takes back the
// table's last change.
(function () {
  "use strict";
  var grid = document.getElementById("round-grid");
  if (!grid) { return; }
  var rows = Array.prototype.slice.call(grid.querySelectorAll("tr[data-table]"));
  var at = Math.max(0, rows.findIndex(function (r) { return r.classList.contains("selected"); }));
  function select(i) {
    if (!rows.length) { return; }
    rows.forEach(function (r) { r.classList.remove("selected"); });
    at = Math.max(0, Math.min(rows.length - 1, i));
    rows[at].classList.add("selected");
    rows[at].scrollIntoView({block: "nearest"});
  }
  function chosen() {
    var marked = rows.filter(function (r) { return r.classList.contains("marked"); });
    return (marked.length ? marked : [rows[at]]).map(function (r) { return r.getAttribute("data-table"); });
  }
  function give(move) {
    document.getElementById("give-tables").value = chosen().join(",");
    document.getElementById("give-move").value = move;
    document.getElementById("give-form").submit();
  }
  rows.forEach(function (r, i) { r.addEventListener("click", function () { select(i); }); });
  select(at);
  var filter = document.getElementById("move-filter"), moves = document.getElementById("moves");
  var list = filter && moves ? window.MoveList.attach(filter, moves, give) : null;
  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    var tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
      if (ev.key === "Escape") { ev.target.blur(); }
      return;
    }
    var row = rows[at];
    if (ev.key === "j" || ev.key === "ArrowDown") { select(at + 1); }
    else if (ev.key === "k" || ev.key === "ArrowUp") { select(at - 1); }
    else if (ev.key === " ") { row.classList.toggle("marked"); }
    else if (ev.key === "t") { give("top"); }
    else if (ev.key === "/" && list) { list.focus(); }
    else if (ev.key === "w") {
      document.getElementById("warn-table").value = row.getAttribute("data-table");
      document.getElementById("warn-reason").focus();
    } else if (ev.key === "p" || ev.key === "a") {  // the slip's penalty / warning (avertisment) cancelled
      document.getElementById("cancel-table").value = row.getAttribute("data-table");
      document.getElementById("cancel-kind").value = ev.key === "p" ? "penalty" : "warning";
      document.getElementById("cancel-reason").focus();
    } else if (ev.key === "u") {
      var undo = row.querySelector("form.undo-form button");
      if (undo) { undo.click(); } else { return; }
    } else { return; }
    ev.preventDefault();
  });
  document.getElementById("cancel-form").addEventListener("submit", function () {
    if (!document.getElementById("cancel-table").value) {
      document.getElementById("cancel-table").value = rows[at].getAttribute("data-table");
    }
  });
  document.getElementById("warn-form").addEventListener("submit", function () {
    if (!document.getElementById("warn-table").value) {
      document.getElementById("warn-table").value = rows[at].getAttribute("data-table");
    }
  });
})();
