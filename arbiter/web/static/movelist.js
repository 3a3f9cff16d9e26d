// A list of legal moves with a type-to-filter box: every word typed must appear in the row
// ("H4", "MODEL", "26"); ArrowDown/ArrowUp walk the rows still shown, the first one is marked.
window.MoveList = (function () {
  "use strict";
  function attach(input, table, onChoose) {
    var rows = Array.prototype.slice.call(table.querySelectorAll("tr[data-move]"));
    var texts = rows.map(function (r) { return r.textContent.replace(/\s+/g, " ").toUpperCase(); });
    var current = null;
    function shown() { return rows.filter(function (r) { return !r.hidden; }); }
    function mark(row) {
      if (current) { current.classList.remove("current"); }
      current = row || null;
      if (current) { current.classList.add("current"); current.scrollIntoView({block: "nearest"}); }
    }
    function filter() {
      var words = input.value.toUpperCase().split(/\s+/).filter(Boolean);
      rows.forEach(function (r, i) {
        r.hidden = !words.every(function (w) { return texts[i].indexOf(w) >= 0; });
      });
      mark(shown()[0]);
    }
    input.addEventListener("input", filter);
    input.addEventListener("keydown", function (ev) {
      var list = shown(), at = list.indexOf(current);
      if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
        ev.preventDefault();
        mark(list[Math.max(0, Math.min(list.length - 1, at + (ev.key === "ArrowDown" ? 1 : -1)))]);
      } else if (ev.key === "Enter") {
        ev.preventDefault();
        if (current) { onChoose(current.getAttribute("data-move")); }
      } else if (ev.key === "Escape") {
        input.blur();
      }
    });
    rows.forEach(function (r) {
      r.addEventListener("click", function () { mark(r); });
      r.addEventListener("dblclick", function () { onChoose(r.getAttribute("data-move")); });
    });
    filter();
    return {focus: function () { input.focus(); input.select(); }};
  }
  return {attach: attach};
})();
