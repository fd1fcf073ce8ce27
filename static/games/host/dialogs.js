// @ts-check
// What the screen says back: the toast above the bar, «are you sure?» before a removal or
// the game's end, and the choice over waiting taps that another device overtook.
/** @import { LogEntry, Tap, TapEvent, TapRefusal } from "./queue.js" */
import { el } from "./draw.js";
import { _ } from "./words.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const dialog = (id) => /** @type {HTMLDialogElement} */ (document.getElementById(id));

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;

/**
 * @param {string} message
 * @param {"error" | "info"} [kind]
 */
export function say(message, kind = "error") {
  const toast = $("host-toast");
  toast.textContent = message;
  toast.className = `host-toast ${kind}`;
  toast.hidden = false;
  if (kind === "error" && navigator.vibrate) navigator.vibrate(200);
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
 * @returns {Promise<boolean>}
 */
export function ask(message) {
  const box = dialog("host-confirm");
  $("host-confirm-text").textContent = message;
  return new Promise((resolve) => {
    /** @param {Event} event */
    const answer = (event) => {
      const value = /** @type {HTMLElement} */ (event.target).closest("button")?.value;
      if (!value) return;
      box.removeEventListener("click", answer);
      box.close();
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
