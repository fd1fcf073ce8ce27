// The seating screen: the count of ticked players against the table's limits as the host
// ticks, and the line-up following that count (the usual one for the size) until the host
// changes a card count by hand. The server checks it all again when the form is sent.
(function () {
  "use strict";
  const form = document.getElementById("seating");
  if (!form) return;
  const gettext = window.django ? window.django.gettext : (text) => text;
  const interpolate = window.django ? window.django.interpolate : (text) => text;
  const lineups = JSON.parse(document.getElementById("seating-lineups").textContent);
  const low = Number(form.dataset.min);
  const high = Number(form.dataset.max);
  const count = document.getElementById("seating-count");
  const next = document.getElementById("seating-next");
  const cards = [...form.querySelectorAll("input[data-role]")];
  // The civilians fill the table: a card added or taken elsewhere takes one from them or
  // gives one back, so the line-up keeps its size.
  const filler = cards.find((input) => input.dataset.role === "civilian");
  let edited = false;

  function refill(ticked) {
    if (!filler) return;
    const others = cards.reduce((sum, input) => sum + (input === filler ? 0 : Number(input.value) || 0), 0);
    filler.value = String(Math.max(ticked - others, 0));
  }

  function update(follow, changed) {
    const ticked = form.querySelectorAll('input[name="players"]:checked').length;
    if (follow && !edited && lineups[ticked]) {
      for (const input of cards) input.value = lineups[ticked][input.dataset.role] || "";
    } else if ((follow && edited) || (changed && changed !== filler)) {
      refill(ticked);
    }
    const dealt = cards.reduce((sum, input) => sum + (Number(input.value) || 0), 0);
    let problem = "";
    if (ticked < low || ticked > high) {
      problem = interpolate(gettext("A table needs %(low)s to %(high)s players."), { low, high }, true);
    } else if (dealt !== ticked) {
      problem = interpolate(gettext("The line-up has %(cards)s cards for %(players)s players."), { cards: dealt, players: ticked }, true);
    }
    count.textContent = [interpolate(gettext("Players ticked: %(count)s"), { count: ticked }, true), problem].filter(Boolean).join(". ");
    count.classList.toggle("error", Boolean(problem));
    next.disabled = Boolean(problem);
  }
  form.addEventListener("change", (event) => {
    if (event.target.matches("input[data-role]")) edited = true;
    update(event.target.name === "players", null);
  });
  form.addEventListener("input", (event) => {
    if (event.target.matches("input[data-role]")) {
      edited = true;
      update(false, event.target);
    }
  });
  update(false, null);
})();
