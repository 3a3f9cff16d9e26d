// Keys on every page: an element with data-key="X" is clicked when X is pressed outside a field
// (Shift+Q/R/H/P open the queue, round, hall and results pages).
(function () {
  "use strict";
  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.defaultPrevented) { return; }
    var tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") { return; }
    var el = document.querySelector('[data-key="' + (ev.key === '"' ? '\\"' : ev.key) + '"]');
    if (el) { ev.preventDefault(); el.click(); }
  });
})();
