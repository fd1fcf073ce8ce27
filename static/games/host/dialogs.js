// @ts-check
// What the screen says back: the toast over the header and the prompt (never a seat), «are you sure?» before a removal or
// the game's end, the choice over waiting taps that another device overtook; and what the
// host gives: extra points or a penalty, with the reason.
/** @import { LogEntry, Tap, TapEvent, TapRefusal } from "./queue.js" */
/** @import { HostPage } from "./table.js" */
/** @import { Words } from "./words.js" */
import { el } from "./draw.js";
import { _, signedPoints } from "./words.js";

// Extra points go in steps of 0.05 within the scheme's bounds (games/rules/scoring.py).
const BONUS_STEP = 0.05;
const BONUS_DEFAULT = 0.1;

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const dialog = (id) => /** @type {HTMLDialogElement} */ (document.getElementById(id));

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;
// The toast's type sizes (rem), the first that lets the whole message fit its area.
const TOAST_SIZES = [0.95, 0.85, 0.78, 0.72];

/**
 * Whether a message is the one the toast shows now: said again (a refusal repeated by a
 * second tap), it is not said twice, only kept in sight longer.
 * @param {{ hidden: boolean, text: string | null, kind: string }} shown
 * @param {string} message
 * @param {string} kind
 */
export function showing(shown, message, kind) {
  return !shown.hidden && shown.text === message && shown.kind === kind;
}

/**
 * The toast lies over the header and the prompt (host.css: their grid area), never over a
 * seat: a long message takes a smaller type until it fits; past the smallest its end is cut
 * (the whole of it is still announced).
 * @param {HTMLElement} toast
 */
function fitToast(toast) {
  if (toast.hidden) return;
  for (const size of TOAST_SIZES) {
    toast.style.fontSize = `${size}rem`;
    if (toast.scrollHeight <= toast.clientHeight + 1) return;
  }
}

/** @type {ResizeObserver | undefined} */
let toastSized;

/**
 * @param {string} message
 * @param {"error" | "info"} [kind]
 */
export function say(message, kind = "error") {
  const toast = $("host-toast");
  const kindNow = toast.classList.contains("error") ? "error" : "info";
  if (!showing({ hidden: toast.hidden !== false, text: toast.textContent, kind: kindNow }, message, kind)) {
    toast.textContent = message;
    toast.className = `host-toast ${kind}`;
    toast.hidden = false;
    fitToast(toast);
    if (kind === "error" && navigator.vibrate) navigator.vibrate(200);
  }
  // The prompt under it grows and shrinks with the table: the type follows.
  if (!toastSized && typeof ResizeObserver === "function") {
    toastSized = new ResizeObserver(() => fitToast(toast));
    toastSized.observe(toast);
  }
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (toast.hidden = true), kind === "error" ? 8000 : 3000);
}

/** A tap went through: an error said about an earlier one is out of date. */
export function hideError() {
  const toast = $("host-toast");
  if (toast.classList.contains("error")) toast.hidden = true;
}

/**
 * @param {string} message
 * @param {string} [yes] the main button's words, when not «Да, записать» (an undo)
 * @param {string} [no] the other button's, when not «Отмена»
 * @returns {Promise<boolean>}
 */
export function ask(message, yes, no) {
  const box = dialog("host-confirm");
  $("host-confirm-text").textContent = message;
  const button = /** @type {HTMLButtonElement} */ (box.querySelector("button[value=yes]"));
  const other = /** @type {HTMLButtonElement} */ (box.querySelector("button[value=no]"));
  const usual = [button.textContent, other.textContent];
  if (yes) button.textContent = yes;
  if (no) other.textContent = no;
  return new Promise((resolve) => {
    /** @param {Event} event */
    const answer = (event) => {
      const value = /** @type {HTMLElement} */ (event.target).closest("button")?.value;
      if (!value) return;
      box.removeEventListener("click", answer);
      box.close();
      [button.textContent, other.textContent] = usual;
      resolve(value === "yes");
    };
    box.addEventListener("click", answer);
    box.showModal();
  });
}

/**
 * Another device recorded taps first (the server refused a waiting tap as stale): the
 * dialog says, in words, what the other device recorded and which of this phone's taps
 * wait, and the host chooses. Sending them is the main button: nothing is lost, and the
 * server judges each again on top of the other device's taps (refusing what no longer
 * fits). Discarding them is the secondary one.
 * @param {TapRefusal} answer
 * @param {Tap[]} waiting
 * @param {LogEntry[]} recorded the other device's entries
 * @param {(event: TapEvent) => string} describe a tap in words
 * @returns {Promise<"send" | "discard">}
 */
export function conflict(answer, waiting, recorded, describe) {
  const box = dialog("host-conflict");
  $("host-conflict-text").textContent = recorded.length
    ? _("The other phone recorded: %(taps)s.", { taps: recorded.map(describe).join(", ") })
    : answer.error || _("Another device recorded this game first.");
  $("host-conflict-waiting").textContent = _("Your taps that wait (%(count)s), each judged again if you send them:", { count: waiting.length });
  $("host-conflict-taps").replaceChildren(...waiting.map((tap) => el("li", {}, describe(tap.event))));
  return new Promise((resolve) => {
    /** @param {Event} event */
    const choose = (event) => {
      const value = /** @type {HTMLElement} */ (event.target).closest("button")?.value;
      if (value !== "send" && value !== "discard") return;
      box.removeEventListener("click", choose);
      box.removeEventListener("cancel", stay);
      box.close();
      resolve(value);
    };
    /** @param {Event} event */
    const stay = (event) => event.preventDefault(); // Esc: the taps need an answer
    box.addEventListener("click", choose);
    box.addEventListener("cancel", stay);
    if (!box.open) box.showModal();
  });
}

/**
 * Whether extra points (and a best move not yet recorded) are still taken: at any time of
 * the game, and after the end until the club's window closes. A game that ended on this
 * screen has a window of the club's days from now: open unless the club gives none.
 * @param {HostPage["bonusWindow"]} window
 * @param {boolean} over
 * @param {number} now ms since the epoch
 */
export function bonusWindowOpen(window, over, now) {
  if (!over) return true;
  if (window.closes === null) return window.days > 0;
  return now <= Date.parse(window.closes);
}

/**
 * The points the host may give, in steps, from the highest to the lowest, never zero.
 * @param {HostPage["bonus"]} bounds
 * @returns {number[]}
 */
export function bonusSteps(bounds) {
  const steps = [];
  const top = Math.round(bounds.max / BONUS_STEP);
  const bottom = Math.round(bounds.min / BONUS_STEP);
  for (let step = top; step >= bottom; step -= 1) if (step) steps.push(Math.round(step * BONUS_STEP * 100) / 100);
  return steps;
}

/**
 * Extra points or a penalty for a seat, with the reason: the host's choice, or null when
 * they cancel. The seats with their names, the points within the scheme's bounds.
 * @param {Pick<HostPage, "seats" | "bonus">} page
 * @param {Words} words
 * @returns {Promise<{ seat: number, points: number, reason: string } | null>}
 */
export function bonusDialog(page, words) {
  const box = dialog("host-bonus");
  const form = /** @type {HTMLFormElement} */ (document.getElementById("host-bonus-form"));
  const seat = /** @type {HTMLSelectElement} */ (form.elements.namedItem("seat"));
  const points = /** @type {HTMLSelectElement} */ (form.elements.namedItem("points"));
  const reason = /** @type {HTMLInputElement} */ (form.elements.namedItem("reason"));
  const chosen = seat.value;
  seat.replaceChildren(...Object.keys(page.seats).map((no) => el("option", { value: no }, words.seat(Number(no)))));
  if (chosen) seat.value = chosen;
  const steps = bonusSteps(page.bonus);
  points.replaceChildren(...steps.map((each) => el("option", { value: String(each) }, signedPoints(each))));
  points.value = String(steps.includes(BONUS_DEFAULT) ? BONUS_DEFAULT : steps[0]);
  return reasonDialog({
    box,
    form,
    reason,
    seats: Object.keys(page.seats).map(Number),
    words,
    missing: _("Extra points need a reason."),
    answer: (why) => ({ seat: Number(seat.value), points: Number(points.value), reason: why }),
  });
}

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
 * A dialog whose form takes a written reason beside a seat picker (its `.seat-picker`: a
 * tap writes the seat's reference where the cursor is, so the reason names the player by
 * seat): the host's answer once the form is sent with a reason, or null when they cancel.
 * @template T
 * @param {{ box: HTMLDialogElement, form: HTMLFormElement, reason: HTMLInputElement,
 *   seats: number[], words: Words, missing: string, answer: (reason: string) => T }} parts
 * @returns {Promise<T | null>}
 */
export function reasonDialog({ box, form, reason, seats, words, missing, answer }) {
  reason.value = "";
  const picker = /** @type {HTMLElement} */ (form.querySelector(".seat-picker"));
  picker.replaceChildren(
    ...seats.map((no) => el("button", { type: "button", class: "secondary outline", "data-seat-ref": `{seat:${no}}`, title: words.seat(no) }, String(no))),
  );
  return new Promise((resolve) => {
    /** @param {Event} event */
    const click = (event) => {
      const button = /** @type {HTMLElement} */ (event.target).closest("button");
      const ref = button?.dataset.seatRef;
      if (ref) writeRef(reason, ref);
      else if (button?.value === "cancel") done(null);
    };
    /** @param {SubmitEvent} event */
    const submit = (event) => {
      event.preventDefault();
      const why = reason.value.trim();
      if (!why) {
        reason.setCustomValidity(missing);
        reason.reportValidity();
        return;
      }
      done(answer(why));
    };
    const typed = () => reason.setCustomValidity("");
    const closed = () => done(null);
    /** @param {T | null} given */
    const done = (given) => {
      box.removeEventListener("click", click);
      form.removeEventListener("submit", submit);
      reason.removeEventListener("input", typed);
      box.removeEventListener("close", closed);
      if (box.open) box.close();
      resolve(given);
    };
    box.addEventListener("click", click);
    form.addEventListener("submit", submit);
    reason.addEventListener("input", typed);
    box.addEventListener("close", closed);
    box.showModal();
  });
}
