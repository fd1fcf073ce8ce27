// The seat picker beside a reason (games/reasons.py): a tap writes the seat's reference
// «{seat:4}» where the cursor is, so the reason names the player by seat and each reader
// sees the nickname or «место 4», as the member's consent has it.
document.addEventListener("click", (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  const button = target.closest ? target.closest("[data-seat-ref]") : null;
  if (!(button instanceof HTMLElement)) return;
  const box = button.closest("form");
  const input = box ? box.querySelector("input[name=reason]") : null;
  if (!(input instanceof HTMLInputElement)) return;
  const ref = button.dataset.seatRef || "";
  const at = input.selectionStart ?? input.value.length;
  const upto = input.selectionEnd ?? at;
  const before = input.value.slice(0, at);
  const pad = before && !before.endsWith(" ") ? " " : "";
  input.value = before + pad + ref + input.value.slice(upto);
  const caret = (before + pad + ref).length;
  input.focus();
  input.setSelectionRange(caret, caret);
});
