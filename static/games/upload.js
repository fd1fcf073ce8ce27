// @ts-check
// The recording's upload in chunks through the API, resumable: each chunk is sent at the
// offset the server has; a dropped connection waits and asks the server where it stopped,
// and choosing the same file again after a reload continues the begun upload. Without this
// script the form posts the whole file at once.
//
// The form and its parts are templates/games/_recording.html's, which loads this script
// with them.
/**
 * The API's recording (games/recordings/api.py's RecordingOut), the part read here.
 * @typedef {object} UploadRecording
 * @property {number} id
 * @property {number} size
 * @property {number} received
 * @property {string} status
 * @property {string} error
 */
/**
 * An answer's body: the recording when the answer is ok, else the refusal's `detail`
 * (or nothing, when the body was not JSON).
 * @typedef {UploadRecording & { detail?: string }} UploadBody
 */
(function () {
  "use strict";
  const found = document.getElementById("recording-upload");
  if (!found || !window.fetch || !window.Blob || !Blob.prototype.slice) return;
  const form = /** @type {HTMLFormElement} */ (found);
  // The form's fields and data-* by name (both live, read as they are when used).
  const fields = /** @type {HTMLFormControlsCollection & { file: HTMLInputElement, started_at: HTMLInputElement }} */ (
    form.elements
  );
  const data = /** @type {DOMStringMap & { start: string, recording: string, zoneOffset: string }} */ (form.dataset);
  const bar = /** @type {HTMLProgressElement} */ (form.querySelector("progress"));
  const status = /** @type {HTMLElement} */ (form.querySelector(".upload-status"));
  const csrf = /** @type {HTMLInputElement} */ (form.querySelector("[name=csrfmiddlewaretoken]")).value;
  const chunkBytes = Number(form.dataset.chunkBytes);
  /** @param {number} id */
  const recordingUrl = (id) => data.recording.replace(/0$/, String(id));
  const text = {
    ru: { sending: "Загрузка: ", waiting: "Связь пропала, продолжим через ", done: "Загружено, идёт разбор…" },
    en: { sending: "Uploading: ", waiting: "Connection lost, retrying in ", done: "Uploaded; the analysis is running…" },
  }[document.documentElement.lang === "en" ? "en" : "ru"];

  /**
   * @param {string} url
   * @param {RequestInit & { headers?: Record<string, string> }} options
   * @returns {Promise<{ response: Response, body: UploadBody }>}
   */
  async function call(url, options) {
    const response = await fetch(url, {
      credentials: "same-origin",
      ...options,
      headers: { "X-CSRFToken": csrf, ...(options.headers || {}) },
    });
    const body = await response.json().catch(() => ({}));
    return { response, body };
  }

  /** @param {number} seconds */
  function sleep(seconds) {
    return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }

  /** @param {File} file */
  async function upload(file) {
    // The field is the club's wall clock (the page says so): sent with the club's offset,
    // never read in the phone's own time zone.
    const wall = fields.started_at.value;
    const startedAt = wall ? (wall.length === 16 ? `${wall}:00` : wall) + data.zoneOffset : null;
    const begun = await call(data.start, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: file.name, size: file.size, started_at: startedAt }),
    });
    if (!begun.response.ok) throw new Error(begun.body.detail || begun.response.statusText);
    let recording = begun.body;
    let wait = 1;
    bar.hidden = false;
    while (recording.received < recording.size) {
      const offset = recording.received;
      bar.value = (100 * offset) / file.size;
      status.textContent = text.sending + Math.floor(bar.value) + "%";
      try {
        const sent = await call(recordingUrl(recording.id) + "/chunk", {
          method: "PUT",
          headers: { "Content-Type": "application/octet-stream", "Upload-Offset": String(offset) },
          body: file.slice(offset, offset + chunkBytes),
        });
        if (sent.response.status === 409) {
          recording = (await call(recordingUrl(recording.id), { method: "GET" })).body;
          continue;
        }
        if (!sent.response.ok) throw new Error(sent.body.detail || sent.response.statusText);
        recording = sent.body;
        wait = 1;
      } catch (error) {
        if (error instanceof TypeError) {  // the network, not the server: wait and resume
          status.textContent = text.waiting + wait + " s";
          await sleep(wait);
          wait = Math.min(30, wait * 2);
          const known = await call(recordingUrl(recording.id), { method: "GET" }).catch(() => null);
          if (known && known.response.ok) recording = known.body;
          continue;
        }
        throw error;
      }
    }
    // Complete, but unreadable or too long: the server says why (and kept what it had).
    if (recording.status === "failed") throw new Error(recording.error);
    bar.value = 100;
    status.textContent = text.done;
    window.location.reload();
  }

  form.addEventListener("submit", function (event) {
    const file = fields.file.files?.[0];
    if (!file) return;
    event.preventDefault();
    /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]")).disabled = true;
    upload(file).catch(function (error) {
      status.textContent = error.message;
      status.classList.add("error");
      /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]")).disabled = false;
    });
  });
})();
