// @ts-check
// The taps and the record they make: the log this phone knows, the table it shows, and the
// taps waiting for the server. Every tap goes to the server in order with its seq and
// client_id, one at a time. While the server cannot be reached (no network, or a venue's
// Wi-Fi that is up while the server is not) the taps wait, kept on the device, and go
// again by themselves: with a backoff (1 s, 2 s, then every 4 s), at once when the network
// returns, when the screen is shown again and at every new tap. A failed send never
// stops the sending for good.
//
// The phone's engine judges a waiting tap so the screen follows the game. Until the engine
// has loaded, a tap waits unjudged: the screen does not guess what it did (a second
// «Дальше» would name the same speaker again), and the engine judges the waiting taps, in
// order, when it is ready (a refusal is said and the tap dropped; a removal asks). The
// server judges every tap anyway: it refuses one out of turn, and the tap is dropped with
// its reason in words.
//
// While nothing waits, the screen asks the server for the log's head every few seconds
// (sync.js): a second phone's taps are drawn here without a tap of this one's.
//
// No DOM here: the page gives the transport, the engine, the device's memory, the dialogs
// and the timers (tests/js/queue.test.js gives fakes).
/** @import { ClubEntry, HostPage, HostTable, OfflineTap, Consequence, TapRecorded } from "./table.js" */
/** @import { Words } from "./words.js" */
import { _ } from "./words.js";

/**
 * A tap's event: a protocol event or an undo, as games/rules/event_types.py shapes them
 * (table.d.ts is written from it), so every event the screen builds is type-checked.
 * @typedef {ClubEntry} TapEvent
 */
/** @typedef {ClubEntry} LogEntry an entry the server recorded: an event or an undo */
/**
 * A tap not yet taken by the server. `judged` is false while the phone's engine has not
 * judged it (it had not loaded): the table shown does not include it yet.
 * @typedef {{ client_id: string, event: TapEvent, confirmed: boolean, judged?: boolean }} Tap
 */
/** @typedef {{ log: LogEntry[], seq: number, table: HostTable, queue: Tap[] }} Snapshot */
/**
 * The tap endpoint's refusal (games/views.py): its message and code; 428 names what the
 * tap would do, 409 (stale) brings the log as it stands.
 * @typedef {{ error?: string, code?: string, removes?: number[], winner?: string | null,
 *   seq?: number, log?: LogEntry[], table?: HostTable }} TapRefusal
 */
/** @typedef {{ seq: number, log: LogEntry[], table: HostTable }} Head the log as the server holds it */
/**
 * The server's answer; a network failure or a timeout throws instead.
 * @typedef {{ ok: true, status: number, answer: TapRecorded } | { ok: false, status: number, answer: TapRefusal }} Sent
 */

/**
 * @typedef {object} Io
 * @property {(body: Tap & { seq: number }) => Promise<Sent>} post one tap to the server; throws when it cannot be reached
 * @property {(seq: number) => Promise<Head | null>} head the log's head: null while `seq` is the server's last; throws when it cannot be reached
 * @property {(log: LogEntry[], event: TapEvent) => Promise<OfflineTap | null>} judge the phone's engine; null until it has loaded
 * @property {(snapshot: Snapshot) => Promise<unknown>} save to the device
 */
/**
 * @typedef {object} Ui
 * @property {() => void} redraw
 * @property {(message: string, kind?: "error" | "info") => void} say
 * @property {(consequence: Consequence | TapRefusal) => Promise<boolean>} confirm «are you sure?»
 * @property {(answer: TapRecorded) => void} accepted the server took a tap
 * @property {(answer: TapRefusal, waiting: Tap[], recorded: LogEntry[]) => Promise<"send" | "discard">} conflict
 *   another device recorded `recorded` first; the host chooses what happens to `waiting`
 * @property {(event: TapEvent) => string} describe a tap in words («речь 5», «фол: 7»)
 * @property {() => void} tapping a tap's turn has come
 * @property {(message: string) => void} unrecordable a speech's clock cannot be recorded (it
 *   starts before the speech before it ended): says `message` and offers to restart the clock
 */
/** @typedef {{ set: (run: () => void, ms: number) => unknown, clear: (handle: unknown) => void }} Timers */

/** The waits between attempts while the server cannot be reached: then every last one. */
export const RETRY_MS = [1000, 2000, 4000];

/** @param {number} attempt how many attempts failed in a row (1 after the first) */
export function retryDelay(attempt) {
  return RETRY_MS[Math.min(Math.max(attempt, 1), RETRY_MS.length) - 1];
}

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

/** @type {Timers} */
const TIMERS = { set: (run, ms) => setTimeout(run, ms), clear: (handle) => clearTimeout(/** @type {any} */ (handle)) };

export class TapQueue {
  /**
   * @param {Snapshot} start
   * @param {boolean} online
   * @param {Io} io
   * @param {Ui} ui
   * @param {Words} words
   * @param {Timers} [timers]
   */
  constructor(start, online, io, ui, words, timers = TIMERS) {
    this.log = start.log; // the server's log as this phone knows it (undos included)
    this.seq = start.seq; // the server's last entry number
    this.table = start.table; // what the screen shows: the server's answer or the phone's engine
    this.taps = start.queue; // taps not yet taken by the server, in order
    this.online = online; // the server answered the last time it was asked
    this.sending = false;
    /** @type {string | null} the waiting tap on its way to the server */
    this.inflight = null;
    this.failures = 0; // attempts that failed in a row
    /** @type {unknown} */
    this.retry = null;
    this.polling = false;
    this.stopped = false; // the server refused this session the record: no retry by itself
    this.changes = 0; // counts the changes of the record other than a tap taken in order
    /** @type {string[]} waiting taps dropped since the host was last told */
    this.dropped = [];
    this.stuckClock = false; // one of them was a speech whose clock cannot be recorded
    this.io = io;
    this.ui = ui;
    this.words = words;
    this.timers = timers;
    // One change of the record at a time: a second tap waits until the first is judged and
    // drawn, so a double tap never judges two events against the same state.
    /** @type {Promise<unknown>} */
    this.lane = Promise.resolve();
    this.asking = 0; // questions to the server or the phone's engine not yet answered
  }

  /**
   * `question`'s answer, counted while it is awaited: a tap whose answer is on its way is
   * not in `taps`, and what the screen will say of it (a refusal) is not said yet.
   * @template T
   * @param {Promise<T>} question
   * @returns {Promise<T>}
   */
  async answerTo(question) {
    this.asking += 1;
    try {
      return await question;
    } finally {
      this.asking -= 1;
    }
  }

  /** The log's entries and the waiting taps: how many the record will have. */
  get entries() {
    return this.log.length + this.taps.length;
  }

  /** Waiting taps the phone's engine has not judged: the screen does not show them yet. */
  get unjudged() {
    return this.taps.filter((tap) => tap.judged === false).length;
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

  /**
   * Runs `work` in turn with the taps; never call it from inside a turn (it would wait for
   * itself).
   * @template T
   * @param {() => Promise<T>} work
   * @returns {Promise<T | undefined>}
   */
  inLane(work) {
    const turn = this.lane.then(work).catch((error) => {
      this.ui.say(String(error));
      return undefined;
    });
    this.lane = turn;
    return turn;
  }

  /**
   * @param {TapEvent} event
   * @param {boolean} [confirmed] the host was already asked (↶ named what it takes back):
   *   no second question, from the server or the phone's engine
   */
  send(event, confirmed = false) {
    return this.inLane(() => this.sendNow(event, confirmed));
  }

  /**
   * @param {TapEvent} event
   * @param {boolean} [confirmed]
   */
  async sendNow(event, confirmed = false) {
    if (!event.at) event.at = new Date().toISOString();
    this.ui.tapping();
    const tap = { client_id: newClientId(), event, confirmed };
    if (!this.online || this.taps.length || this.sending) {
      await this.keep(tap);
      this.kick(); // every new tap tries the server again
      return;
    }
    if (!(await this.post(tap))) {
      this.online = false;
      await this.keep(tap); // drawn offline, with the tap waiting
      this.unreachable(); // and tried again after a wait
    }
  }

  /**
   * One tap to the server, as the entry after the last one this phone knows.
   * @param {Tap} tap
   * @returns {Promise<Sent | null>} null when the server could not be reached
   */
  async sendTap(tap) {
    try {
      const sent = await this.answerTo(this.io.post({ seq: this.seq + 1, client_id: tap.client_id, event: tap.event, confirmed: tap.confirmed }));
      return sent.status >= 500 ? null : sent;
    } catch (error) {
      return null;
    }
  }

  /**
   * A tap straight to the server (nothing waits before it).
   * @param {Tap} tap
   * @returns {Promise<boolean>} false when the server could not be reached
   */
  async post(tap) {
    const sent = await this.sendTap(tap);
    if (!sent) return false;
    this.reached();
    if (sent.ok) {
      this.accept(sent.answer);
      return true;
    }
    const answer = sent.answer;
    if (answer.code === "confirm") {
      if (!(await this.ui.confirm(answer))) return true;
      tap.confirmed = true;
      return this.post(tap);
    }
    if (answer.code === "stale" && answer.log) {
      const recorded = this.recordedElsewhere(answer).map((entry) => this.ui.describe(entry));
      this.take(answer);
      this.changes += 1;
      this.save();
      this.ui.redraw();
      this.ui.say(
        recorded.length
          ? _("Another device recorded first: %(taps)s. The screen now shows it; make your tap again if it is still needed.", { taps: recorded.join(", ") })
          : _("Another device recorded this game first; the screen now shows its taps. Make your tap again if it is still needed."),
      );
      return true;
    }
    this.refuse(tap.event, answer.code, answer.error || _("The tap was not recorded."));
    return true;
  }

  /**
   * A refusal in words; a speech whose clock cannot be recorded also offers a way on (the
   * clock started again), so the host is never left with a «Дальше» refused for good.
   * @param {TapEvent} event
   * @param {string | undefined} code
   * @param {string} message
   */
  refuse(event, code, message) {
    if (this.unrecordable(event, code, message)) this.ui.unrecordable(message);
    else this.ui.say(message);
  }

  /**
   * Whether the rules refused `event` as a speech (or last word) starting before the one
   * before it ended: its clock's start is what cannot be recorded.
   * @param {TapEvent} event
   * @param {string | undefined} code
   * @param {string} message
   */
  unrecordable(event, code, message) {
    return (event.type === "speech" || event.type === "last_word") && this.words.speechOverlap(code, message);
  }

  /**
   * The server took a tap: its entry joins the log. The table follows the server's unless
   * taps the phone's engine judged still wait (the phone's table already includes them).
   * @param {TapRecorded} answer
   */
  accept(answer) {
    this.log = [...this.log, answer.entry];
    this.seq = answer.seq;
    if (!this.taps.some((tap) => tap.judged !== false)) this.table = answer.table;
    this.ui.accepted(answer);
    this.save();
    this.ui.redraw();
  }

  /**
   * The entries the server holds beyond what this phone knew: another device's taps.
   * @param {TapRefusal} answer
   * @returns {LogEntry[]}
   */
  recordedElsewhere(answer) {
    return (answer.log || []).slice(this.seq);
  }

  /**
   * The server's log as it stands (a stale tap's answer, or the log's head).
   * @param {TapRefusal | Head} answer
   */
  take(answer) {
    if (!answer.log || answer.seq === undefined || !answer.table) return;
    this.log = answer.log;
    this.seq = answer.seq;
    this.table = answer.table;
  }

  /**
   * A tap that waits for the server: the phone's engine judges it (a refusal is said, a
   * removal asks first) and the screen follows. Without the engine, or behind a tap it
   * has not judged, it waits unjudged and the screen stays as it was.
   * @param {Tap} tap
   */
  async keep(tap) {
    const result = this.unjudged ? null : await this.answerTo(this.io.judge(this.pendingLog(), tap.event));
    if (result) {
      if (!result.ok) return this.refuse(tap.event, result.refusal.code, this.words.refusal(result.refusal));
      if (result.consequence && !tap.confirmed && !(await this.ui.confirm(result.consequence))) return undefined;
      this.table = result.table;
      this.taps.push({ ...tap, confirmed: true, judged: true });
    } else {
      this.taps.push({ ...tap, judged: false });
    }
    this.ui.redraw(); // drawn before it is stored: the next tap sees the state after this one
    await this.save();
    return undefined;
  }

  /** The phone's engine has loaded: it judges the taps that waited for it. */
  engineReady() {
    return this.inLane(() => this.judgeWaiting());
  }

  /**
   * The unjudged waiting taps, in order, each after the ones before it. A refused tap is
   * dropped and said; a removal asks (no: dropped). The tap on its way to the server is
   * the server's to judge: the rest wait for its answer.
   */
  async judgeWaiting() {
    let judged = false;
    for (;;) {
      const index = this.taps.findIndex((tap) => tap.judged === false);
      if (index < 0) break;
      const tap = this.taps[index];
      if (tap.client_id === this.inflight) break;
      const changes = this.changes;
      const result = await this.answerTo(this.io.judge([...this.log, ...this.taps.slice(0, index).map((each) => each.event)], tap.event));
      if (!result) break;
      if (changes !== this.changes || !this.taps.includes(tap)) continue; // the record moved meanwhile: again
      judged = true;
      if (!result.ok) {
        this.drop(tap, this.words.refusal(result.refusal), result.refusal.code);
        continue;
      }
      if (result.consequence && !tap.confirmed && !(await this.ui.confirm(result.consequence))) {
        this.drop(tap, _("not confirmed"));
        continue;
      }
      tap.judged = true;
      tap.confirmed = true;
      this.table = result.table;
    }
    if (!judged) return;
    this.tell();
    await this.save();
    this.ui.redraw();
  }

  /**
   * A waiting tap that will not be recorded, and why (said once the queue has settled).
   * @param {Tap} tap
   * @param {string} why
   * @param {string} [code] the refusal's code, when the rules refused it
   */
  drop(tap, why, code) {
    this.taps = this.taps.filter((each) => each !== tap);
    this.changes += 1;
    if (this.unrecordable(tap.event, code, why)) this.stuckClock = true;
    // «речь 2 — Место 2 уже говорило»: the reasons are joined by «;», without their full stops.
    this.dropped.push(_("%(tap)s — %(why)s", { tap: this.ui.describe(tap.event), why: why.replace(/\.\s*$/, "") }));
  }

  /** Says which waiting taps were not recorded, and why (with a way on for a clock). */
  tell() {
    if (!this.dropped.length) return;
    // Each thing once: taps refused alike read as one, with how many they were (× 2).
    /** @type {Map<string, number>} */
    const counted = new Map();
    for (const each of this.dropped) counted.set(each, (counted.get(each) || 0) + 1);
    const taps = [...counted].map(([each, times]) => (times > 1 ? `${each} × ${times}` : each));
    const message = _("Not recorded: %(taps)s", { taps: taps.join("; ") });
    if (this.stuckClock) this.ui.unrecordable(message);
    else this.ui.say(message);
    this.dropped = [];
    this.stuckClock = false;
  }

  /** The waiting taps to the server, in order, while it takes them. */
  async flush() {
    if (this.sending || !this.taps.length) return;
    this.sending = true;
    this.timers.clear(this.retry);
    this.retry = null;
    const [changes, waiting] = [this.changes, this.taps.length];
    try {
      for (;;) {
        const tap = this.taps[0];
        if (!tap) break;
        this.inflight = tap.client_id;
        const sent = await this.sendTap(tap);
        this.inflight = null;
        if (!sent) {
          this.unreachable();
          break;
        }
        this.reached();
        const goOn = await this.inLane(async () => {
          const on = await this.settle(tap, sent);
          // Taps that waited behind it for the phone's engine, if it has loaded meanwhile.
          if (on && this.unjudged) await this.judgeWaiting();
          return on;
        });
        if (!goOn) break;
      }
    } finally {
      this.sending = false;
      this.inflight = null;
      this.tell();
      // Drawn again only if it changed something (a failed attempt changes nothing).
      if (this.changes !== changes || this.taps.length !== waiting) {
        await this.save();
        this.ui.redraw();
      }
    }
    // The engine may have loaded while the first of them was on its way.
    if (this.unjudged) await this.inLane(() => this.judgeWaiting());
  }

  /**
   * The server's answer to a waiting tap. Returns whether the sending goes on.
   * @param {Tap} tap
   * @param {Sent} sent
   * @returns {Promise<boolean>}
   */
  async settle(tap, sent) {
    if (sent.ok) {
      this.taps = this.taps.filter((each) => each !== tap);
      this.accept(sent.answer);
      return true;
    }
    const answer = sent.answer;
    if (!this.taps.includes(tap)) return true; // discarded meanwhile
    if (answer.code === "confirm") {
      if (await this.ui.confirm(answer)) tap.confirmed = true; // it goes again, confirmed
      else this.drop(tap, _("not confirmed"));
      return true;
    }
    if (answer.code === "stale" && answer.log) return this.overtaken(answer);
    if (sent.status === 403) {
      // Not this session's to record (logged out, or no longer the host): the taps stay,
      // and go again at the next tap, not at every beat.
      this.ui.say(answer.error || _("The tap was not recorded."));
      this.stopped = true;
      return false;
    }
    this.drop(tap, answer.error || _("refused by the server"), answer.code);
    return true;
  }

  /**
   * Another device recorded taps first: the screen shows the server's log and the host
   * chooses, plainly, what happens to the taps still waiting. Sent again, each is judged
   * again on top of the new log.
   * @param {TapRefusal} answer
   * @returns {Promise<boolean>}
   */
  async overtaken(answer) {
    const recorded = this.recordedElsewhere(answer);
    this.take(answer);
    this.changes += 1;
    this.ui.redraw();
    const choice = await this.ui.conflict(answer, this.taps, recorded);
    if (choice === "discard") {
      this.taps = [];
      this.changes += 1;
      return false;
    }
    for (const tap of this.taps) {
      tap.judged = false;
      tap.confirmed = false;
    }
    await this.judgeWaiting();
    return true;
  }

  /** The server answered: the phone is online and the backoff starts again from 1 s. */
  reached() {
    this.failures = 0;
    if (!this.online) {
      this.online = true;
      this.ui.redraw();
    }
  }

  /** The server could not be reached: the screen says so and the sending tries again. */
  unreachable() {
    this.failures += 1;
    this.offline();
    this.timers.clear(this.retry);
    this.retry = this.taps.length ? this.timers.set(() => this.kick(), retryDelay(this.failures)) : null;
  }

  /** Tries the server now: the waiting taps if any, else the log's head. */
  kick() {
    this.timers.clear(this.retry);
    this.retry = null;
    this.stopped = false;
    if (this.taps.length) void this.flush();
    else void this.poll();
  }

  /** The screen says offline (drawn again only if it said otherwise). */
  offline() {
    if (!this.online) return;
    this.online = false;
    this.ui.redraw();
  }

  /** @param {boolean} online what the browser says about the network */
  setOnline(online) {
    if (online) {
      this.failures = 0;
      this.kick();
    } else {
      this.offline();
    }
  }

  /**
   * The log's head from the server: if it moved on without this phone (another phone's
   * taps), the screen takes it. Only while nothing of this phone's waits or is in flight.
   */
  async poll() {
    if (this.taps.length || this.sending || this.polling) return;
    this.polling = true;
    const [seq, changes] = [this.seq, this.changes];
    /** @type {Head | null} */
    let head;
    try {
      head = await this.io.head(seq);
    } catch (error) {
      if (!this.taps.length) this.offline();
      return;
    } finally {
      this.polling = false;
    }
    this.reached();
    if (!head) return;
    const moved = /** @type {Head} */ (head);
    await this.inLane(async () => {
      if (this.seq !== seq || this.changes !== changes || this.taps.length || this.sending) return;
      this.take(moved);
      this.changes += 1;
      await this.save();
      this.ui.redraw();
    });
  }
}

/**
 * The server as the queue's transport: one tap as JSON, with the session and CSRF token.
 * A tap that has no answer in `timeoutMs` counts as not sent (its client_id makes the
 * retry safe if it was recorded after all).
 * @param {string} url
 * @param {number} [timeoutMs]
 * @returns {Io["post"]}
 */
export function serverTransport(url, timeoutMs = 5000) {
  return async (body) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body),
      credentials: "same-origin",
      signal: AbortSignal.timeout(timeoutMs),
    });
    const answer = await response.json().catch(() => ({ error: _("The server did not answer; try again.") }));
    return { ok: response.ok, status: response.status, answer };
  };
}

/**
 * The log's head (GET /games/<id>/head/?seq=N): 204 while N is the server's last entry.
 * @param {string} url
 * @param {number} [timeoutMs]
 * @returns {Io["head"]}
 */
export function headTransport(url, timeoutMs = 4000) {
  return async (seq) => {
    const response = await fetch(`${url}?seq=${seq}`, { credentials: "same-origin", signal: AbortSignal.timeout(timeoutMs) });
    if (response.status === 204) return null;
    if (!response.ok) throw new Error(`head: ${response.status}`);
    return response.json();
  };
}

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}
