// The round's desk: the move list chooses the continuation (Enter), and the pile is uploaded
// (drag and drop, or the phone's camera) and read in the background, its progress polled.
(function () {
  "use strict";
  var filter = document.getElementById("move-filter"), table = document.getElementById("moves");
  var form = document.getElementById("move-form");
  if (filter && table) {
    var list = window.MoveList.attach(filter, table, function (move) {
      if (!form) { return; }
      document.getElementById("chosen-move").value = move;
      form.submit();
    });
    document.addEventListener("keydown", function (ev) {
      var tag = ev.target && ev.target.tagName;
      if (ev.key === "/" && tag !== "INPUT") { ev.preventDefault(); list.focus(); }
    });
  }

  var upload = document.getElementById("upload-form");
  if (!upload) { return; }
  var pile = document.getElementById("pile"), zone = document.getElementById("dropzone");
  var bar = document.getElementById("upload-bar"), label = document.getElementById("upload-text");
  var result = document.getElementById("upload-result");
  ["dragenter", "dragover"].forEach(function (name) {
    zone.addEventListener(name, function (ev) { ev.preventDefault(); zone.classList.add("over"); });
  });
  zone.addEventListener("dragleave", function () { zone.classList.remove("over"); });
  zone.addEventListener("drop", function (ev) {
    ev.preventDefault();
    zone.classList.remove("over");
    var files = new DataTransfer();
    Array.prototype.forEach.call(pile.files, function (f) { files.items.add(f); });
    Array.prototype.forEach.call(ev.dataTransfer.files, function (f) { files.items.add(f); });
    pile.files = files.files;
    zone.setAttribute("data-count", pile.files.length);
  });

  function refresh(id) {  // the round's counts as they now stand, without leaving the page
    fetch(location.href, {credentials: "same-origin"}).then(function (r) { return r.text(); }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, "text/html").getElementById(id);
      var old = document.getElementById(id);
      if (fresh && old) { old.replaceWith(fresh); }
      result.setAttribute("data-refreshed", "1");
    });
  }

  function poll(url) {
    fetch(url, {credentials: "same-origin"}).then(function (r) { return r.json(); }).then(function (s) {
      if (!s.ok) { label.textContent = s.message; return; }
      if (s.phase === "reading") {  // a file counts once the scanner hands over its first slip
        bar.value = Math.round(100 * Math.max(0, s.files_read - 1) / s.files);
        label.textContent = s.progress_text;
      } else if (s.phase === "filing") {
        bar.value = s.slips ? Math.round(100 * s.filed / s.slips) : 100;
        label.textContent = s.progress_text;
      }
      if (s.phase === "done" || s.phase === "failed") {
        bar.value = 100;
        label.textContent = s.phase_text;
        var p = document.createElement("p");
        p.className = s.phase === "done" ? "flash ok done" : "flash error done";
        p.textContent = s.phase === "done" ? s.summary : s.error;
        result.appendChild(p);
        s.problems.forEach(function (line) {
          var q = document.createElement("p"); q.className = "flash error"; q.textContent = line; result.appendChild(q);
        });
        refresh("step-correct");
        return;
      }
      setTimeout(function () { poll(url); }, 700);
    });
  }

  upload.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var data = new FormData(upload);
    var xhr = new XMLHttpRequest();
    document.getElementById("upload-progress").hidden = false;
    result.textContent = "";
    bar.value = 0;
    xhr.upload.addEventListener("progress", function (e) {
      if (e.lengthComputable) { bar.value = Math.round(100 * e.loaded / e.total); }
    });
    xhr.addEventListener("load", function () {
      var answer = {};
      try { answer = JSON.parse(xhr.responseText); } catch (e) { answer = {message: xhr.statusText}; }
      if (!answer.ok) {
        var p = document.createElement("p"); p.className = "flash error done"; p.textContent = answer.message;
        result.appendChild(p);
        return;
      }
      result.setAttribute("data-job", upload.getAttribute("data-state").replace("JOB", answer.job));
      poll(result.getAttribute("data-job"));
    });
    xhr.open("POST", upload.action);
    xhr.setRequestHeader("X-CSRF-Token", document.querySelector('meta[name="csrf-token"]').content);
    xhr.send(data);
  });
})();
