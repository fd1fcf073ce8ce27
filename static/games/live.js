// The spectators' page of a running club game (templates/games/live.html): the table as
// games/live.py's public snapshot says, polled every second with its ETag (a 304 costs the
// server no database), drawn again only when it changed. The words are the page's, in the
// reader's language (games/views.py game_live); the snapshot holds codes and numbers only.

/**
 * @typedef {{no: number, nick: string | null, guest: boolean, alive: boolean, fouls: number,
 *   immune: boolean, nominated: boolean, candidate: boolean, speaking: boolean,
 *   role: string | null}} LiveSeat
 * @typedef {{seat: number, phase: string, n: number, reason: string}} LiveLeft
 * @typedef {{kind: "last_word" | "speech" | "defence", seat: number, seconds: number,
 *   turn: number}} LiveClock
 * @typedef {{type: "votes" | "first_day_expel" | "hands" | "expel_both", among: number[],
 *   about: number[], round: number, dropped: number[]}} LiveVote
 * @typedef {{type: string, counts: Record<string, number> | null, for: number | null,
 *   dropped: number[], expelled: number[], defence: number[], outcome: string | null}} LiveTally
 * @typedef {{game: number, number: number, ruleset: "club", phase: string, n: number,
 *   step: string | null,
 *   over: boolean, winner: string | null, opener: number | null, speaker: number | null,
 *   clock: LiveClock | null, nominees: number[], vote: LiveVote | null,
 *   tally: LiveTally | null, left: LiveLeft[], seats: LiveSeat[],
 *   scores: {seat: number, points: number}[] | null}} LiveSnapshot
 * @typedef {Record<string, string> & {reasons: Record<string, string>,
 *   roles: Record<string, string>}} LiveWords
 * @typedef {import("./live-online.js").OnlineSnapshot} OnlineSnapshot
 * @typedef {import("./live-online.js").OnlineWords} OnlineWords
 */

import { drawOnline } from "./live-online.js";

const POLL_MS = 1000;
// After a change the next poll comes sooner: taps come in bursts (a host's phone back from
// an offline stretch sends its queue, one tap after another), and the page follows a burst
// tap by tap instead of a second behind it. The first 304 brings back the second's pace.
const SOON_MS = 300;

/** @param {string} id */
function readJson(id) {
  const node = document.getElementById(id);
  return JSON.parse(node?.textContent ?? "null");
}

/**
 * A page's word with its %(name)s filled in.
 * @param {string} template
 * @param {Record<string, string | number>} values
 */
export function fill(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_all, key) => String(values[key] ?? ""));
}

/**
 * @param {HTMLElement} root
 * @param {string} name
 */
function part(root, name) {
  const node = root.querySelector(`[data-live="${name}"]`);
  if (!(node instanceof HTMLElement)) throw new Error(`no [data-live=${name}]`);
  return node;
}

/**
 * @param {LiveSeat} seat
 * @param {LiveWords} words
 */
function seatName(seat, words) {
  return seat.nick ?? fill(words.player, { seat: seat.no });
}

/**
 * The text with its last word bound to the one before it («место 6», «день 2)»): a narrow
 * screen wraps before them, never leaves a number alone on a line.
 * @param {string} text
 */
export function keepLastWord(text) {
  return text.replace(/ (?=\S+$)/, "\u00a0");
}

/** @param {number[]} seats */
function seatList(seats) {
  return seats.join(", ");
}

/**
 * @param {LiveSnapshot} live
 * @param {LiveWords} words
 */
function phaseText(live, words) {
  if (live.over) return words.over;
  if (live.phase === "day") return fill(words.day, { n: live.n });
  if (live.phase === "night") return fill(words.night, { n: live.n });
  return words.setup;
}

/**
 * @param {LiveSnapshot} live
 * @param {LiveWords} words
 */
function voteText(live, words) {
  const vote = live.vote;
  if (!vote) return "";
  const seats = seatList(vote.among.length ? vote.among : vote.about);
  if (vote.type === "hands" && vote.round > 1) {
    return fill(words.runoff, { round: vote.round, seats });
  }
  return fill(words[vote.type], { seats });
}

/**
 * @param {LiveSnapshot} live
 * @param {LiveWords} words
 */
function tallyText(live, words) {
  const tally = live.tally;
  if (!tally) return "";
  const parts = [];
  if (tally.counts) {
    const counts = Object.entries(tally.counts).map(([seat, n]) =>
      fill(words.tally_item, { seat, count: n }),
    );
    parts.push(fill(words.tally, { counts: counts.join(", ") }));
  } else if (tally.for !== null) {
    parts.push(fill(words.tally_for, { count: tally.for }));
  }
  if (tally.expelled.length) parts.push(fill(words.expelled, { seats: seatList(tally.expelled) }));
  else if (tally.outcome) parts.push(words.no_one);
  return parts.join(" · ");
}

/**
 * @param {LiveSnapshot} live
 * @param {LiveWords} words
 */
function resultText(live, words) {
  if (!live.over || !live.winner) return "";
  if (live.winner === "red") return words.winner_red;
  if (live.winner === "black") return words.winner_black;
  return fill(words.winner_other, { winner: words.roles[live.winner] ?? live.winner });
}

/** The clock of the speech under way: counted down from when this page first saw it. */
export class Clock {
  /** @type {string} */
  key = "";
  started = 0;
  /** @type {LiveClock | null} */
  clock = null;

  /** @param {LiveClock | null} clock */
  follow(clock) {
    const key = clock ? `${clock.kind}:${clock.seat}:${clock.turn}` : "";
    if (key !== this.key) this.started = Date.now();
    this.key = key;
    this.clock = clock;
  }

  left() {
    if (!this.clock) return null;
    const gone = Math.floor((Date.now() - this.started) / 1000);
    return Math.max(0, this.clock.seconds - gone);
  }
}

/**
 * @param {HTMLElement} root
 * @param {LiveSnapshot} live
 * @param {LiveWords} words
 * @param {Clock} clock
 */
export function draw(root, live, words, clock) {
  part(root, "phase").textContent = phaseText(live, words);
  clock.follow(live.clock);
  drawClock(root, words, clock);
  const opener = live.opener !== null ? fill(words.opener, { seat: live.opener }) : "";
  part(root, "opener").textContent = opener;
  const nominees = live.nominees.length
    ? fill(words.nominees, { seats: seatList(live.nominees) })
    : "";
  part(root, "nominees").textContent = nominees;
  part(root, "vote").textContent = voteText(live, words);
  part(root, "tally").textContent = tallyText(live, words);
  const result = part(root, "result");
  result.textContent = resultText(live, words);
  if (live.over) {
    const link = document.createElement("a");
    link.href = root.dataset.result ?? "";
    link.textContent = words.result_link;
    result.append(link);
  }
  const points = new Map((live.scores ?? []).map((score) => [score.seat, score.points]));
  part(root, "seats").replaceChildren(
    ...live.seats.map((seat) => seatRow(seat, words, points.get(seat.no))),
  );
  const left = part(root, "left");
  left.replaceChildren(
    ...live.left.map((out) => {
      const item = document.createElement("li");
      const when = out.phase === "day" ? words.when_day : words.when_night;
      const reason = words.reasons[out.reason] ?? out.reason;
      const row = fill(words.left_row, { seat: out.seat, reason, when, n: out.n });
      item.textContent = keepLastWord(row);
      return item;
    }),
  );
  part(root, "left-title").textContent = words.left;
  part(root, "left-box").hidden = live.left.length === 0;
}

/**
 * @param {HTMLElement} root
 * @param {LiveWords} words
 * @param {Clock} clock
 */
function drawClock(root, words, clock) {
  const node = part(root, "clock");
  const current = clock.clock;
  const seconds = clock.left();
  if (!current || seconds === null) {
    node.textContent = "";
    return;
  }
  const who = { last_word: words.last_word, speech: words.speaker, defence: words.defence };
  const time = document.createElement("strong");
  time.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  const label = document.createElement("span");
  label.className = "who";
  label.textContent = keepLastWord(fill(who[current.kind], { seat: current.seat }));
  node.replaceChildren(label, " ", time);
}

// Points as the reader's language writes them, with their sign: +1,20 in Russian.
const POINTS = new Intl.NumberFormat(document.documentElement.lang || undefined, {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  signDisplay: "exceptZero",
});

/**
 * @param {LiveSeat} seat
 * @param {LiveWords} words
 * @param {number | undefined} points
 */
function seatRow(seat, words, points) {
  const item = document.createElement("li");
  item.dataset.seat = String(seat.no);
  const marks = [
    !seat.alive && "out",
    seat.speaking && "speaking",
    seat.nominated && "nominated",
    seat.candidate && "candidate",
  ].filter((mark) => typeof mark === "string");
  item.className = marks.join(" ");
  const no = document.createElement("span");
  no.className = "no";
  no.textContent = String(seat.no);
  const nick = document.createElement("span");
  nick.className = "nick";
  nick.translate = false;
  nick.textContent = seatName(seat, words) + (seat.guest ? ` (${words.guest})` : "");
  const extra = document.createElement("span");
  extra.className = "marks";
  extra.textContent = (seat.immune ? "🛡" : "") + "●".repeat(seat.fouls);
  if (seat.fouls) extra.title = `${words.fouls}: ${seat.fouls}`;
  item.append(no, nick, extra);
  // At the end, the card and the points on a line of their own under the name.
  if (seat.role || points !== undefined) {
    const end = document.createElement("span");
    end.className = "end";
    const role = document.createElement("span");
    role.className = "role";
    role.textContent = seat.role ? (words.roles[seat.role] ?? seat.role) : "";
    end.append(role);
    if (points !== undefined) {
      const score = document.createElement("strong");
      score.className = "points";
      score.title = words.points;
      score.textContent = POINTS.format(points);
      end.append(score);
    }
    item.append(end);
  }
  return item;
}

/** Poll the snapshot every second (sooner after a change); a 304 keeps the table, an error
 * says so and keeps it. */
function follow() {
  const root = document.getElementById("live");
  if (!root) return;
  const url = root.dataset.url ?? "";
  /** @type {LiveSnapshot | OnlineSnapshot} */
  let live = readJson("live-snapshot");
  /** @type {LiveWords & OnlineWords} */
  const words = readJson("live-words");
  const clock = new Clock();
  let etag = "";
  const offline = part(root, "offline");
  // An online game's snapshot has its own drawing (static/games/live-online.js) and no clock.
  const paint = () =>
    live.ruleset === "online" ? drawOnline(root, live, words) : draw(root, live, words, clock);
  paint();
  const poll = async () => {
    let changed = false;
    try {
      const headers = etag ? { "If-None-Match": etag } : undefined;
      const answer = await fetch(url, { headers, cache: "no-store" });
      if (answer.status === 200) {
        changed = etag !== ""; // the first answer is most often the page's own snapshot
        etag = answer.headers.get("ETag") ?? "";
        live = await answer.json();
        paint();
      }
      offline.hidden = answer.status === 200 || answer.status === 304;
      offline.textContent = offline.hidden ? "" : words.offline;
    } catch {
      offline.hidden = false;
      offline.textContent = words.offline;
    }
    if (live.ruleset !== "online") drawClock(root, words, clock);
    setTimeout(poll, changed ? SOON_MS : POLL_MS);
  };
  setTimeout(poll, POLL_MS);
}

follow();
