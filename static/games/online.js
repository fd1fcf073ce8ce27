// The online table, live (templates/games/online.html): htmx swaps the parts that change;
// this script keeps what the player is doing undisturbed and says what arrived.
(() => {
  const story = () => document.getElementById("online-story");
  const lines = () => story().querySelectorAll(":scope > li[id]");

  // Every action tells the server how many lines of the thread the page has, so the answer
  // brings back only the new ones.
  document.addEventListener("htmx:configRequest", (event) => {
    if (event.detail.elt.closest("[data-seen]")) event.detail.parameters.seen = lines().length;
  });

  // A post that went through leaves the box empty (and the focus in it); a refused one
  // keeps the text where it was.
  document.addEventListener("htmx:afterRequest", (event) => {
    const form = event.detail.elt.closest("[data-clear-on-success]");
    const status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (form && status >= 200 && status < 300) {
      const box = document.getElementById(form.dataset.clearOnSuccess);
      if (box) box.value = "";
    }
  });

  // New lines: a line that came twice (an answer and a poll crossing) is dropped; when
  // they arrive below what the player is reading, a button says how many and goes there.
  let unseen = [];
  const marker = () => document.getElementById("new-posts");
  function showMarker() {
    const button = marker().querySelector("button");
    const n = unseen.length;
    button.textContent = interpolate(ngettext("%(n)s new line ↓", "%(n)s new lines ↓", n), { n }, true);
    marker().hidden = n === 0;
  }
  function below(element) {
    return element.getBoundingClientRect().top > window.innerHeight;
  }
  function arrived(added) {
    const ids = new Set();
    for (const line of lines()) {
      if (ids.has(line.id)) line.remove();
      else ids.add(line.id);
    }
    for (const empty of story().querySelectorAll(".story-empty")) empty.remove();
    const fresh = added.filter((line) => line.isConnected && line.id);
    if (fresh.length && below(fresh[0])) {
      unseen.push(...fresh);
      showMarker();
    }
  }
  document.addEventListener("DOMContentLoaded", () => {
    if (!story()) return;
    new MutationObserver((records) => {
      const added = records.flatMap((record) => [...record.addedNodes]).filter((n) => n.nodeType === 1);
      if (added.length) arrived(added);
    }).observe(story(), { childList: true });
    marker().querySelector("button").addEventListener("click", () => {
      const first = unseen.find((line) => line.isConnected);
      unseen = [];
      marker().hidden = true;
      if (first) first.scrollIntoView({ behavior: "smooth", block: "start" });
    });
    // Reading down to the new lines clears the count.
    window.addEventListener("scroll", () => {
      if (unseen.length && !below(unseen[unseen.length - 1])) {
        unseen = [];
        marker().hidden = true;
      }
    }, { passive: true });
  });
})();
