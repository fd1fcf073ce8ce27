// @ts-check
// The host's disqualification (☰ → «Дисквалифицировать…»): the judge removes a living
// player with the reason, at any moment of the game (games/rules/club/end.py). The dialog
// only chooses the seat and takes the reason; the tap that follows is asked like any
// removal («…покидает стол: дисквалификация. Записать?»), so nothing leaves on one touch.
/** @import { HostTable } from "./table.js" */
/** @import { Words } from "./words.js" */
import { el } from "./draw.js";
import { _ } from "./words.js";

/**
 * A seat's reference written into the reason where the cursor is (games/reasons.py refuses
 * a nickname in words).
 * @param {HTMLInputElement} reason
 * @param {string} ref «{seat:N}»
 */
function writeRef(reason, ref) {
  const at = reason.selectionStart ?? reason.value.length;
  const before = reason.value.slice(0, at);
  const written = before + (before && !before.endsWith(" ") ? " " : "") + ref;
  reason.value = (written + reason.value.slice(reason.selectionEnd ?? at)).slice(0, reason.maxLength);
  reason.focus();
  reason.setSelectionRange(written.length, written.length);
  reason.setCustomValidity("");
}

/**
 * The seat to disqualify (the living ones, with their names) and the reason: the host's
 * choice, or null when they cancel.
 * @param {Pick<HostTable, "seats">} table
 * @param {Words} words
 * @returns {Promise<{ seat: number, reason: string } | null>}
 */
export function disqualifyDialog(table, words) {
  const box = /** @type {HTMLDialogElement} */ (document.getElementById("host-disqualify"));
  const form = /** @type {HTMLFormElement} */ (document.getElementById("host-disqualify-form"));
  const seat = /** @type {HTMLSelectElement} */ (form.elements.namedItem("seat"));
  const reason = /** @type {HTMLInputElement} */ (form.elements.namedItem("reason"));
  const living = table.seats.filter((each) => each.alive).map((each) => each.no);
  seat.replaceChildren(el("option", { value: "" }, _("Choose the seat")), ...living.map((no) => el("option", { value: String(no) }, words.seat(no))));
  seat.value = "";
  reason.value = "";
  const picker = /** @type {HTMLElement} */ (document.getElementById("host-disqualify-seats"));
  picker.replaceChildren(
    ...table.seats.map((each) =>
      el("button", { type: "button", class: "secondary outline", "data-seat-ref": `{seat:${each.no}}`, title: words.seat(each.no) }, String(each.no)),
    ),
  );
  return new Promise((resolve) => {
    /** @param {Event} event */
    const click = (event) => {
      const button = /** @type {HTMLElement} */ (event.target).closest("button");
      const ref = button?.dataset.seatRef;
      if (ref) return writeRef(reason, ref);
      if (button?.value === "cancel") done(null);
      return undefined;
    };
    /** @param {SubmitEvent} event */
    const submit = (event) => {
      event.preventDefault();
      const why = reason.value.trim();
      if (!why) {
        reason.setCustomValidity(_("A disqualification needs a reason."));
        reason.reportValidity();
        return;
      }
      done({ seat: Number(seat.value), reason: why });
    };
    const typed = () => reason.setCustomValidity("");
    const closed = () => done(null);
    /** @param {{ seat: number, reason: string } | null} answer */
    const done = (answer) => {
      box.removeEventListener("click", click);
      form.removeEventListener("submit", submit);
      reason.removeEventListener("input", typed);
      box.removeEventListener("close", closed);
      if (box.open) box.close();
      resolve(answer);
    };
    box.addEventListener("click", click);
    form.addEventListener("submit", submit);
    reason.addEventListener("input", typed);
    box.addEventListener("close", closed);
    box.showModal();
  });
}
