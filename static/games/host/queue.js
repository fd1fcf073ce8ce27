// @ts-check
// The taps and the record they make: the log this phone knows, the table it shows, and the
// taps waiting for the network. Every tap goes to the server in order with its seq and
// client_id, one at a time; while the network is down the taps wait (kept on the device)
// and the phone's engine, once loaded, judges each so the screen follows the game.
// No DOM here: the page gives the transport, the engine, the device's memory and the
// dialogs (tests/js/queue.test.js gives fakes).
/** @import { HostPage, HostTable, OfflineTap, Consequence, TapRecorded } from "./table.js" */
/** @import { Words } from "./words.js" */
import { _ } from "./words.js";

/** @typedef {{ type: string, at?: string, [field: string]: unknown }} TapEvent */
/** @typedef {Record<string, unknown>} LogEntry */
/** @typedef {{ client_id: string, event: TapEvent, confirmed: boolean }} Tap */
/** @typedef {{ log: LogEntry[], seq: number, table: HostTable, queue: Tap[] }} Snapshot */
/**
 * The tap endpoint's refusal (games/views.py): its message and code; 428 names what the
 * tap would do, 409 (stale) brings the log as it stands.
 * @typedef {{ error?: string, code?: string, removes?: number[], winner?: string | null,
 *   seq?: number, log?: LogEntry[], table?: HostTable }} TapRefusal
 */
/** @typedef {{ ok: true, answer: TapRecorded } | { ok: false, answer: TapRefusal }} Sent */

/**
 * @typedef {object} Io
 * @property {(body: Tap & { seq: number }) => Promise<Sent>} post one tap to the server; a TypeError when the network fails
 * @property {(log: LogEntry[], event: TapEvent) => Promise<OfflineTap | null>} judge the phone's engine; null until it has loaded
 * @property {(snapshot: Snapshot) => Promise<unknown>} save to the device
 */
/**
 * @typedef {object} Ui
 * @property {() => void} redraw
 * @property {(message: string, kind?: "error" | "info") => void} say
 * @property {(consequence: Consequence | TapRefusal) => Promise<boolean>} confirm «are you sure?»
 * @property {(answer: TapRecorded) => void} accepted the server took a tap
 * @property {(answer: TapRefusal, waiting: Tap[]) => Promise<"send" | "discard">} conflict
 * @property {() => void} tapping a tap's turn has come
 */

/**
 * What the screen starts from: the page is the server's latest when it came from the
 * network; the device's copy when the page came from the service worker's cache and is
 * older than what the phone knew, or when taps still wait.
 * @param {Pick<HostPage, "log" | "seq" | "table">} page
 * @param {Partial<Snapshot> | undefined} saved
 * @returns {Snapshot}
 */
export function restore(page, saved) {
  const start = { log: page.log, seq: page.seq, table: page.table, queue: saved?.queue || [] };
  if (saved && saved.log && saved.seq !== undefined && saved.table && (saved.seq > page.seq || start.queue.length)) {
    return { ...start, log: saved.log, seq: saved.seq, table: saved.table };
  }
  return start;
}

export function newClientId() {
  return crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
}

export class TapQueue {
  /**
   * @param {Snapshot} start
   * @param {boolean} online
   * @param {Io} io
   * @param {Ui} ui
   * @param {Words} words
   */
  constructor(start, online, io, ui, words) {
    this.log = start.log; // the server's log as this phone knows it (undos included)
    this.seq = start.seq; // the server's last entry number
    this.table = start.table; // what the screen shows: the server's answer or the phone's engine
    this.taps = start.queue; // taps not yet taken by the server, in order
    this.online = online;
    this.sending = false;
    this.io = io;
    this.ui = ui;
    this.words = words;
    // One tap at a time: a second tap waits until the first is judged and drawn, so a
    // double tap never judges two events against the same state.
    /** @type {Promise<unknown>} */
    this.lane = Promise.resolve();
  }

  /** The log's entries and the waiting taps: how many the record will have. */
  get entries() {
    return this.log.length + this.taps.length;
  }

  /** @returns {LogEntry[]} */
  pendingLog() {
    return [...this.log, ...this.taps.map((tap) => tap.event)];
  }

  /** @returns {Snapshot} */
  snapshot() {
    return { log: this.log, seq: this.seq, table: this.table, queue: this.taps };
  }

  save() {
    return this.io.save(this.snapshot());
  }

  /** @param {TapEvent} event */
  send(event) {
    this.lane = this.lane.then(() => this.sendNow(event)).catch((error) => this.ui.say(String(error)));
    return this.lane;
  }

  /** @param {TapEvent} event */
  async sendNow(event) {
    if (!event.at) event.at = new Date().toISOString();
    this.ui.tapping();
    const tap = { client_id: newClientId(), event, confirmed: false };
    if (!this.online || this.taps.length) return this.keepOffline(tap);
    try {
      await this.post(tap);
    } catch (error) {
      if (error instanceof TypeError) {
        this.setOnline(false);
        return this.keepOffline(tap);
      }
      throw error;
    }
    return undefined;
  }

  /**
   * One tap to the server, as the entry after the last one this phone knows.
   * @param {Tap} tap
   * @returns {Promise<Sent>}
   */
  sendTap(tap) {
    return this.io.post({ seq: this.seq + 1, ...tap });
  }

  /**
   * @param {Tap} tap
   * @returns {Promise<boolean>}
   */
  async post(tap) {
    const sent = await this.sendTap(tap);
    if (sent.ok) {
      this.accept(sent.answer);
      return true;
    }
    const answer = sent.answer;
    if (answer.code === "confirm") {
      if (await this.ui.confirm(answer)) return this.post({ ...tap, confirmed: true });
      return false;
    }
    if (answer.code === "stale" && answer.log) {
      this.resync(answer);
      this.ui.say(_("Another device recorded this game first; the screen now shows its taps. Make your tap again if it is still needed."));
      return false;
    }
    this.ui.say(answer.error || _("The tap was not recorded."));
    return false;
  }

  /** @param {TapRecorded} answer */
  accept(answer) {
    this.log = [...this.log, answer.entry];
    this.seq = answer.seq;
    this.table = answer.table;
    this.ui.accepted(answer);
    this.save();
    this.ui.redraw();
  }

  /** @param {TapRefusal} answer */
  resync(answer) {
    this.take(answer);
    this.save();
    this.ui.redraw();
  }

  /**
   * The server's log as it stands, from a stale tap's answer.
   * @param {TapRefusal} answer
   */
  take(answer) {
    if (!answer.log || answer.seq === undefined || !answer.table) return;
    this.log = answer.log;
    this.seq = answer.seq;
    this.table = answer.table;
  }

  /**
   * Without the network: the phone's engine judges the tap (a refusal is said, a removal
   * asks first); without the engine the tap is kept as it is and the server judges it on
   * reconnect.
   * @param {Tap} tap
   */
  async keepOffline(tap) {
    const result = await this.io.judge(this.pendingLog(), tap.event);
    if (result) {
      if (!result.ok) return this.ui.say(this.words.refusal(result.refusal));
      if (result.consequence && !(await this.ui.confirm(result.consequence))) return undefined;
      this.table = result.table;
    }
    this.taps.push({ ...tap, confirmed: true });
    this.ui.redraw(); // drawn before it is stored: the next tap sees the state after this one
    await this.save();
    return undefined;
  }

  /** The waiting taps to the server, in order, while it takes them. */
  async flush() {
    if (this.sending || !this.taps.length || !this.online) return;
    this.sending = true;
    this.ui.redraw();
    try {
      while (this.taps.length) {
        const sent = await this.sendTap(this.taps[0]);
        if (sent.ok) {
          this.taps.shift();
          this.accept(sent.answer);
          continue;
        }
        this.conflict(sent.answer);
        return;
      }
    } catch (error) {
      this.setOnline(false);
    } finally {
      this.sending = false;
      await this.save();
      this.ui.redraw();
    }
  }

  /**
   * The server took another device's taps first (stale) or refuses a waiting tap: the host
   * chooses, plainly, what happens to the taps still waiting.
   * @param {TapRefusal} answer
   */
  conflict(answer) {
    this.take(answer);
    this.ui.conflict(answer, this.taps).then(async (choice) => {
      if (choice === "discard") {
        this.taps = [];
        await this.save();
        this.ui.redraw();
      } else {
        this.flush();
      }
    });
  }

  /** @param {boolean} online */
  setOnline(online) {
    this.online = online;
    this.ui.redraw();
    if (online) this.flush();
  }
}

/**
 * The server as the queue's transport: one tap as JSON, with the session and CSRF token.
 * @param {string} url
 * @returns {Io["post"]}
 */
export function serverTransport(url) {
  return async (body) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    const answer = await response.json().catch(() => ({ error: _("The server did not answer; try again.") }));
    return { ok: response.ok, answer };
  };
}

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}
