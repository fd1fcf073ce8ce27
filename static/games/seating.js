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
  let edited = false;

  function update(follow) {
    const ticked = form.querySelectorAll('input[name="players"]:checked').length;
    if (follow && !edited && lineups[ticked]) {
      for (const input of cards) input.value = lineups[ticked][input.dataset.role] || "";
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
    update(event.target.name === "players");
  });
  form.addEventListener("input", (event) => event.target.matches("input[data-role]") && update(false));
  update(false);
})();
