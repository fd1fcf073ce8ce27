// @ts-check
// What the screen says back: the toast above the bar, «are you sure?» before a removal or
// the game's end, and the choice over waiting taps that another device overtook.
/** @import { Tap, TapRefusal } from "./queue.js" */
/** @import { Words } from "./words.js" */
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
 * The server took another device's taps first (stale) or refuses a waiting tap: the host
 * reviews the waiting taps, sends them anyway or discards them.
 * @param {TapRefusal} answer
 * @param {Tap[]} waiting
 * @param {Words} words
 * @returns {Promise<"send" | "discard">}
 */
export function conflict(answer, waiting, words) {
  const box = dialog("host-conflict");
  $("host-conflict-text").textContent =
    answer.code === "stale"
      ? _("While this phone was offline another device recorded taps. %(count)s of your taps are still waiting.", { count: waiting.length })
      : _("The server refused a waiting tap: %(error)s %(count)s taps are waiting.", { error: answer.error || "", count: waiting.length });
  const list = $("host-conflict-taps");
  list.replaceChildren(...waiting.map((tap) => el("li", {}, words.tap(tap.event))));
  list.hidden = true;
  return new Promise((resolve) => {
    /** @param {Event} event */
    const choose = (event) => {
      const value = /** @type {HTMLElement} */ (event.target).closest("button")?.value;
      if (!value) return;
      if (value === "review") {
        list.hidden = !list.hidden;
        return;
      }
      box.removeEventListener("click", choose);
      box.close();
      resolve(value === "discard" ? "discard" : "send");
    };
    box.addEventListener("click", choose);
    if (!box.open) box.showModal();
  });
}
