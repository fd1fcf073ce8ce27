// The recording's upload in chunks through the API, resumable: each chunk is sent at the
// offset the server has; a dropped connection waits and asks the server where it stopped,
// and choosing the same file again after a reload continues the begun upload. Without this
// script the form posts the whole file at once.
(function () {
  "use strict";
  const form = document.getElementById("recording-upload");
  if (!form || !window.fetch || !window.Blob || !Blob.prototype.slice) return;
  const bar = form.querySelector("progress");
  const status = form.querySelector(".upload-status");
  const csrf = form.querySelector("[name=csrfmiddlewaretoken]").value;
  const chunkBytes = Number(form.dataset.chunkBytes);
  const recordingUrl = (id) => form.dataset.recording.replace(/0$/, String(id));
  const text = {
    ru: { sending: "Загрузка: ", waiting: "Связь пропала, продолжим через ", done: "Загружено, идёт разбор…" },
    en: { sending: "Uploading: ", waiting: "Connection lost, retrying in ", done: "Uploaded; the analysis is running…" },
  }[document.documentElement.lang === "en" ? "en" : "ru"];

  async function call(url, options) {
    const response = await fetch(url, {
      credentials: "same-origin",
      ...options,
      headers: { "X-CSRFToken": csrf, ...(options.headers || {}) },
    });
    const body = await response.json().catch(() => ({}));
    return { response, body };
  }

  function sleep(seconds) {
    return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }

  async function upload(file) {
    // The field is the club's wall clock (the page says so): sent with the club's offset,
    // never read in the phone's own time zone.
    const wall = form.elements.started_at.value;
    const startedAt = wall ? (wall.length === 16 ? `${wall}:00` : wall) + form.dataset.zoneOffset : null;
    const begun = await call(form.dataset.start, {
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
    const file = form.elements.file.files[0];
    if (!file) return;
    event.preventDefault();
    form.querySelector("button[type=submit]").disabled = true;
    upload(file).catch(function (error) {
      status.textContent = error.message;
      status.classList.add("error");
      form.querySelector("button[type=submit]").disabled = false;
    });
  });
})();
