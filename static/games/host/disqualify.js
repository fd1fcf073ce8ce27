// @ts-check
// The host's disqualification (☰ → «Дисквалифицировать…»): the judge removes a living
// player with the reason, at any moment of the game (games/rules/club/end.py). The dialog
// only chooses the seat and takes the reason; the tap that follows is asked like any
// removal («…покидает стол: дисквалификация. Записать?»), so nothing leaves on one touch.
/** @import { HostTable } from "./table.js" */
/** @import { Words } from "./words.js" */
import { reasonDialog } from "./dialogs.js";
import { el } from "./draw.js";
import { _ } from "./words.js";

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
  return reasonDialog({
    box,
    form,
    reason,
    seats: table.seats.map((each) => each.no),
    words,
    missing: _("A disqualification needs a reason."),
    answer: (why) => ({ seat: Number(seat.value), reason: why }),
  });
}
