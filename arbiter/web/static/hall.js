// The hall timer (D 5.3.3): 3 minutes, the 30-second call, "Stop!", each with a sound.
// Space starts or pauses, r resets, f goes full screen. The page reloads when the round changes
// or closes (then the top is drawn on the board), never while the timer runs.
(function () {
  "use strict";
  var TOTAL = 180, CALL_AT = 30;
  var hall = document.getElementById("hall");
  var shown = document.getElementById("timer"), call = document.getElementById("call");
  var left = TOTAL, running = false, lastTick = null, called30 = false, stopped = false, audio = null;

  function beep(freq, ms) {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = freq; osc.connect(gain); gain.connect(audio.destination);
      gain.gain.value = 0.3; osc.start(); osc.stop(audio.currentTime + ms / 1000);
    } catch (e) { /* no sound device: the call is still shown */ }
  }
  function render() {
    var s = Math.max(0, Math.ceil(left));
    shown.textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    shown.classList.toggle("warn30", s <= CALL_AT && s > 0);
    shown.classList.toggle("stopped", s === 0);
  }
  function tick() {
    if (!running) { return; }
    var now = Date.now();
    left -= (now - lastTick) / 1000; lastTick = now;
    if (!called30 && left <= CALL_AT) { called30 = true; call.textContent = hall.dataset.say30; call.className = "call"; beep(880, 400); }
    if (left <= 0) {
      left = 0; running = false; stopped = true;
      call.textContent = hall.dataset.saystop; call.className = "call stop"; beep(440, 1200);
    }
    render();
  }
  function toggle() {
    if (stopped) { return; }
    running = !running; lastTick = Date.now();
  }
  function reset() { running = false; left = TOTAL; called30 = false; stopped = false; call.textContent = ""; render(); }
  setInterval(tick, 200);
  document.addEventListener("keydown", function (ev) {
    if (ev.key === " ") { ev.preventDefault(); toggle(); }
    else if (ev.key === "r") { reset(); }
    else if (ev.key === "f" && document.documentElement.requestFullscreen) { document.documentElement.requestFullscreen(); }
  });
  setInterval(function () {
    if (running) { return; }
    fetch(hall.dataset.stateUrl).then(function (r) { return r.json(); }).then(function (state) {
      if (String(state.round) !== hall.dataset.round || (state.closed ? "1" : "0") !== hall.dataset.closed) { window.location.reload(); }
    }).catch(function () {});
  }, 5000);
  render();
})();
