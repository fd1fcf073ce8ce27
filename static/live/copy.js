// A button that copies a field's text (templates/live/producer_made.html): the producer's
// link is shown once, so copying it must not depend on selecting it by hand.
for (const button of document.querySelectorAll("button[data-copy]")) {
  if (!(button instanceof HTMLButtonElement)) continue;
  button.addEventListener("click", async () => {
    const field = document.getElementById(button.dataset.copy ?? "");
    if (!(field instanceof HTMLInputElement)) return;
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
      button.textContent = button.dataset.copied ?? button.textContent;
    } catch {
      // No clipboard (an insecure page, a refusal): the text stays selected to copy by hand.
    }
  });
}
