// The host's speech timer. The board is re-rendered after every tap, so the running timer
// lives in sessionStorage (per game and seat): a swap or a reload picks it up where it was.
(function () {
  "use strict";
  let ticking = null;
  let beeped = false;

  function key(form) {
    return "mafia-timer:" + document.getElementById("board").dataset.game + ":" + form.dataset.seat;
  }

  function beep() {
    if (navigator.vibrate) navigator.vibrate([300, 100, 300]);
    try {
      const audio = new (window.AudioContext || window.webkitAudioContext)();
      const tone = audio.createOscillator();
      tone.frequency.value = 880;
      tone.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.4);
    } catch (e) { /* no sound on this phone: the vibration and the red clock remain */ }
  }

  function show(form) {
    const clock = form.querySelector(".clock");
    const started = sessionStorage.getItem(key(form));
    const limit = Number(form.dataset.seconds || 0);
    if (!started) { clock.textContent = String(limit); return; }
    const left = Math.ceil(limit - (Date.now() - Number(started)) / 1000);
    clock.textContent = String(Math.max(left, 0));
    form.classList.toggle("over", left <= 0);
    if (left <= 0 && !beeped) { beeped = true; beep(); }
  }

  function bind() {
    clearInterval(ticking);
    const form = document.getElementById("speech");
    if (!form) return;
    beeped = false;
    form.querySelector(".timer-start").addEventListener("click", function () {
      sessionStorage.setItem(key(form), String(Date.now()));
      show(form);
    });
    form.addEventListener("submit", function () {
      const started = sessionStorage.getItem(key(form));
      const now = new Date();
      form.elements.start.value = new Date(started ? Number(started) : now.getTime()).toISOString();
      form.elements.end.value = now.toISOString();
      sessionStorage.removeItem(key(form));
    });
    show(form);
    ticking = setInterval(function () { show(form); }, 250);
  }

  document.addEventListener("DOMContentLoaded", bind);
  document.addEventListener("htmx:afterSwap", bind);
  // A refusal comes back as a board with its message: swap it in like any answer.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr.status === 409 || event.detail.xhr.status === 422) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
