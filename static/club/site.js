// Small behaviours of the site's pages, kept out of the HTML for the Content-Security-Policy.

// A <select data-autosubmit> sends its form when it changes (the page keeps a button too).
document.addEventListener("change", (event) => {
  const field = event.target.closest("[data-autosubmit]");
  if (field && field.form) field.form.requestSubmit();
});

// The phone menu closes when a tap lands outside it, or on Escape.
document.addEventListener("click", (event) => {
  for (const menu of document.querySelectorAll("details.site-menu[open]")) {
    if (!menu.contains(event.target)) menu.open = false;
  }
});
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  for (const menu of document.querySelectorAll("details.site-menu[open]")) {
    menu.open = false;
    menu.querySelector("summary").focus();
  }
});

// A table wider than its box scrolls sideways; the line under it (its data-hint) says so
// only while there is more to see.
function markScrollableTables(root) {
  for (const box of root.querySelectorAll(".overflow-auto[data-hint]")) {
    let hint = box.nextElementSibling;
    if (!hint || !hint.classList.contains("scroll-hint")) {
      hint = document.createElement("p");
      hint.className = "scroll-hint";
      hint.textContent = box.dataset.hint;
      box.after(hint);
    }
    hint.hidden = box.scrollWidth <= box.clientWidth + 1;
  }
}
document.addEventListener("DOMContentLoaded", () => markScrollableTables(document));
window.addEventListener("resize", () => markScrollableTables(document));
document.addEventListener("htmx:afterSettle", (event) => markScrollableTables(event.target.ownerDocument || document));

// <span data-countdown="ISO time" data-format="({s} s)">: the seconds left until then (the
// undo of «Не смогу»); when they run out the page asks the server again, which then shows the
// place given up.
setInterval(() => {
  for (const span of document.querySelectorAll("[data-countdown]")) {
    const left = Math.round((Date.parse(span.dataset.countdown) - Date.now()) / 1000);
    span.textContent = left > 0 ? span.dataset.format.replace("{s}", left) : "";
    if (left > 0) span.dataset.running = "1";
    else if (left <= -2 && span.dataset.running) {
      delete span.dataset.running;
      location.reload();
    }
  }
}, 1000);
