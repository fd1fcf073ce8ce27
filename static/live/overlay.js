// The stream overlays (templates/live/overlay.html): OBS's browser source shows this page
// over the video. It polls the overlay's feed (live/overlays.py) every second with its ETag
// (a 304 costs the server no database) and draws it again only when it changed. The feed's
// game is the spectators' snapshot (games/live.py): codes and numbers; the words are the
// page's, in its language. A revoked link's feed answers 404: the overlay goes blank.

/**
 * @typedef {import("../games/live.js").LiveSnapshot} LiveSnapshot
 * @typedef {import("../games/live.js").LiveSeat} LiveSeat
 * @typedef {import("../games/live.js").LiveClock} LiveClock
 * @typedef {{no: number, nick: string | null, guest: boolean}} NamedSeat
 * @typedef {{game: number | null, number: number, round?: number,
 *   seats: NamedSeat[] | null}} NextGame
 * @typedef {{place: number, nick: string | null, player: number, guest: boolean,
 *   points: number, games: number, wins: number}} StandingRow
 * @typedef {{scope: "game" | "table" | "tournament", state: "shown" | "hidden" | "none",
 *   game: LiveSnapshot | null, table: number | null, next: NextGame | null,
 *   standings: StandingRow[] | null}} Feed
 * @typedef {Record<string, string> & {reasons: Record<string, string>,
 *   roles: Record<string, string>}} Words
 */

import { Clock, fill } from "../games/live.js";
import { pointsFormat, pollEverySecond } from "../games/screen-parts.js";


/**
 * @param {HTMLElement} root
 * @param {string} name
 */
function part(root, name) {
  const node = root.querySelector(`[data-live="${name}"]`);
  return node instanceof HTMLElement ? node : null;
}

/**
 * @param {string} tag
 * @param {string} className
 * @param {string} text
 */
function element(tag, className, text) {
  const node = document.createElement(tag);
  node.className = className;
  node.textContent = text;
  return node;
}

/**
 * @param {LiveSnapshot} live
 * @param {Words} words
 */
function phaseText(live, words) {
  if (live.over) {
    if (live.winner === "red") return words.winner_red;
    if (live.winner === "black") return words.winner_black;
    return words.over;
  }
  if (live.phase === "day") return fill(words.day, { n: live.n });
  if (live.phase === "night") return fill(words.night, { n: live.n });
  return words.setup;
}

/**
 * The vote under way, or the nominees, or what the last vote did.
 * @param {LiveSnapshot} live
 * @param {Words} words
 */
function voteText(live, words) {
  const vote = live.vote;
  if (vote) {
    const seats = (vote.among.length ? vote.among : vote.about).join(", ");
    if (vote.type === "hands" && vote.round > 1) {
      return fill(words.runoff, { round: vote.round, seats });
    }
    return fill(words[vote.type], { seats });
  }
  if (live.nominees.length) return fill(words.nominees, { seats: live.nominees.join(", ") });
  const tally = live.tally;
  if (tally?.expelled.length) return fill(words.expelled, { seats: tally.expelled.join(", ") });
  if (tally?.outcome) return words.no_one;
  return "";
}

/**
 * @param {LiveSnapshot} live
 * @param {LiveSeat} seat
 * @param {Words} words
 */
function seatCard(live, seat, words) {
  const item = document.createElement("li");
  item.dataset.seat = String(seat.no);
  const marks = [
    !seat.alive && "out",
    seat.speaking && "speaking",
    seat.nominated && "nominated",
    seat.candidate && "candidate",
  ];
  item.className = marks.filter((mark) => typeof mark === "string" && mark).join(" ");
  const nick = element("span", "nick", seat.nick ?? fill(words.player, { seat: seat.no }));
  nick.translate = false;
  item.append(element("span", "no", String(seat.no)), nick);
  if (seat.guest) item.append(element("span", "guest", words.guest));
  const fouls = element("span", "fouls", "●".repeat(seat.fouls));
  if (seat.fouls) fouls.title = `${words.fouls}: ${seat.fouls}`;
  item.append(fouls);
  const out = live.left.find((left) => left.seat === seat.no);
  if (out) item.append(element("span", "why", words.reasons[out.reason] ?? out.reason));
  if (seat.role) item.append(element("span", "role", words.roles[seat.role] ?? seat.role));
  return item;
}

/**
 * @param {StandingRow | NamedSeat} row
 * @param {number} number
 * @param {Words} words
 */
function personName(row, number, words) {
  if (row.nick === null) return fill(row.guest ? words.guest_n : words.player, { seat: number });
  return row.guest ? `${row.nick} (${words.guest})` : row.nick;
}

/**
 * @param {HTMLElement} root
 * @param {Feed} feed
 * @param {Words} words
 * @param {Clock} clock
 */
export function draw(root, feed, words, clock) {
  const live = feed.state === "shown" ? feed.game : null;
  clock.follow(live?.clock ?? null);
  const title = part(root, "title");
  if (title) {
    const game = live ? fill(words.game, { number: live.number }) : "";
    const table = feed.table !== null ? fill(words.table, { n: feed.table }) : "";
    title.textContent = [table, game].filter(Boolean).join(" · ");
  }
  const phase = part(root, "phase");
  if (phase) phase.textContent = live ? phaseText(live, words) : "";
  const vote = part(root, "vote");
  if (vote) vote.textContent = live ? voteText(live, words) : "";
  drawClock(root, words, clock);
  const strip = part(root, "strip");
  if (strip) strip.replaceChildren(...(live ? live.seats.map((seat) => seatCard(live, seat, words)) : []));
  drawNext(root, feed, words);
  drawStandings(root, feed, words);
  const note = part(root, "note");
  if (note) {
    let text = "";
    if (feed.state === "hidden") text = words.not_shown;
    else if (feed.state === "none" && !feed.standings?.length) text = words.waiting;
    note.textContent = text;
    note.hidden = text === "";
  }
  root.hidden = false;
}

/**
 * @param {HTMLElement} root
 * @param {Words} words
 * @param {Clock} clock
 */
function drawClock(root, words, clock) {
  const node = part(root, "clock");
  if (!node) return;
  const left = clock.left();
  if (left === null || !clock.clock) {
    node.replaceChildren();
    return;
  }
  const who = { last_word: words.last_word, speech: words.speaker, defence: words.defence };
  const time = document.createElement("strong");
  time.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  node.replaceChildren(fill(who[clock.clock.kind], { seat: clock.clock.seat }), time);
}

/**
 * @param {HTMLElement} root
 * @param {Feed} feed
 * @param {Words} words
 */
function drawNext(root, feed, words) {
  const box = part(root, "next-box");
  const list = part(root, "next");
  const heading = part(root, "next-title");
  if (!box || !list || !heading) return;
  const next = feed.next;
  box.hidden = !next?.seats?.length;
  if (!next?.seats) return;
  const which = next.round
    ? fill(words.round_table, { round: next.round, table: next.number })
    : fill(words.game, { number: next.number });
  heading.textContent = `${words.next} · ${which}`;
  list.replaceChildren(
    ...next.seats.map((seat) => {
      const item = document.createElement("li");
      const name = element("span", "name", personName(seat, seat.no, words));
      name.translate = false;
      item.append(element("span", "place", String(seat.no)), name);
      return item;
    }),
  );
}

/**
 * @param {HTMLElement} root
 * @param {Feed} feed
 * @param {Words} words
 */
function drawStandings(root, feed, words) {
  const box = part(root, "standings-box");
  const list = part(root, "standings");
  const heading = part(root, "standings-title");
  if (!box || !list || !heading) return;
  const rows = feed.standings ?? [];
  box.hidden = rows.length === 0;
  heading.textContent = words.standings;
  list.replaceChildren(
    ...rows.slice(0, 16).map((row) => {
      const item = document.createElement("li");
      const name = element("span", "name", personName(row, row.player, words));
      name.translate = false;
      item.append(
        element("span", "place", String(row.place)),
        name,
        element("span", "pts", POINTS.format(row.points)),
      );
      return item;
    }),
  );
}

const POINTS = pointsFormat({ signed: false });

/** Poll the feed every second; a 304 keeps the overlay, a 404 (revoked) blanks it. */
function follow() {
  const root = document.getElementById("overlay");
  const source = document.getElementById("overlay-words");
  if (!root || !source) return;
  /** @type {Words} */
  const words = JSON.parse(source.textContent ?? "{}");
  const clock = new Clock();
  // No connection: the overlay stays as it was until the feed answers again (no offline
  // line over a stream); a revoked link's 404 blanks it.
  pollEverySecond({
    url: root.dataset.url ?? "",
    take: (feed) => draw(root, feed, words, clock),
    drawAll: () => drawClock(root, words, clock),
    gone: () => (root.hidden = true),
    now: true,
  });
}

follow();
