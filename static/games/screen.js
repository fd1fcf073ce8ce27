// The venue's screen (templates/games/screen.html, games/live_evening.py): the evening's
// tables at once, who plays next and the evening's standings, polled every second with
// the ETag (a 304 costs the server no database). Each table is drawn by the spectators'
// page's own draw() (static/games/live.js) from the game's public snapshot, served beside
// the screen's frame: {frame, live: {"<game id>": snapshot}}.

import { Clock, draw, fill } from "./live.js";
import { part, pointsFormat, pollEverySecond, readJson } from "./screen-parts.js";

/**
 * @typedef {import("./live.js").LiveSnapshot} LiveSnapshot
 * @typedef {import("./live.js").LiveWords} LiveWords
 * @typedef {{no: number, nick: string | null, guest: boolean}} NamedSeat
 * @typedef {{game: number, number: number, shown: string,
 *   seats: NamedSeat[] | null}} NextGame
 * @typedef {{table: number, game: number | null, number: number | null,
 *   state: "running" | "over" | null, shown: string | null, live: boolean,
 *   next: NextGame | null}} TableFrame
 * @typedef {{place: number, nick: string | null, player: number, guest: boolean,
 *   points: number, games: number, wins: number}} StandingRow
 * @typedef {{evening: number, tables: TableFrame[], standings: StandingRow[],
 *   scored: number, finished: number}} ScreenFrame
 * @typedef {{frame: ScreenFrame, live: Record<string, LiveSnapshot>}} Screen
 */

// The standings' rows a TV shows beside the tables (static/games/screen.css hides the rest).
const TV_STANDINGS = 12;

// Points with their sign: +1,20 in Russian.
const POINTS = pointsFormat({ signed: true });

/**
 * @param {string | null} nick
 * @param {number} no
 * @param {boolean} guest
 * @param {LiveWords} words
 */
function named(nick, no, guest, words) {
  const name = nick ?? fill(words.player, { seat: no });
  return guest ? `${name} (${words.guest})` : name;
}

/** One table's box, made from the page's template once and kept while the table is. */
class TableBox {
  /**
   * @param {HTMLTemplateElement} template
   * @param {number} table
   */
  constructor(template, table) {
    const made = template.content.firstElementChild?.cloneNode(true);
    if (!(made instanceof HTMLElement)) throw new Error("no table template");
    this.root = made;
    this.root.dataset.table = String(table);
    this.clock = new Clock();
  }

  /**
   * @param {TableFrame} table
   * @param {LiveSnapshot | undefined} snapshot
   * @param {LiveWords} words
   */
  draw(table, snapshot, words) {
    const title = fill(words.table, { table: table.table });
    const game = table.number !== null ? ` · ${fill(words.game, { number: table.number })}` : "";
    part(this.root, "title").textContent = title + game;
    const box = part(this.root, "live");
    const note = part(this.root, "note");
    const phase = this.root.querySelector('[data-live="phase"]');
    if (snapshot && table.live) {
      this.root.dataset.game = String(table.game);
      this.root.dataset.result = `/games/${table.game}/?public=1`;
      box.hidden = false;
      note.textContent = "";
      note.hidden = true;
      draw(this.root, snapshot, words, this.clock);
      return;
    }
    box.hidden = true;
    note.hidden = false;
    if (phase) phase.textContent = "";
    if (table.game === null) note.textContent = words.no_game;
    else if (table.shown === "members") note.textContent = words.members_only;
    else note.textContent = table.state === "over" ? words.not_shown_over : words.not_shown;
  }
}

/**
 * @param {HTMLElement} root
 * @param {ScreenFrame} frame
 * @param {LiveWords} words
 */
function drawNext(root, frame, words) {
  const waiting = frame.tables.filter((table) => table.next !== null);
  if (!waiting.length) {
    const none = document.createElement("p");
    none.className = "muted";
    none.textContent = words.no_next;
    root.replaceChildren(none);
    return;
  }
  root.replaceChildren(
    ...waiting.map((table) => {
      const next = /** @type {NextGame} */ (table.next);
      const box = document.createElement("section");
      box.className = "screen-next";
      box.dataset.table = String(table.table);
      const title = document.createElement("h3");
      title.textContent = fill(words.next, { table: table.table, number: next.number });
      box.append(title);
      if (next.seats === null) {
        const hidden = document.createElement("p");
        hidden.textContent = words.next_hidden;
        box.append(hidden);
        return box;
      }
      const seats = document.createElement("ol");
      seats.className = "screen-next-seats";
      seats.translate = false;
      seats.append(
        ...next.seats.map((seat) => {
          const item = document.createElement("li");
          item.dataset.seat = String(seat.no);
          const no = document.createElement("span");
          no.className = "no";
          no.textContent = String(seat.no);
          item.append(no, " ", named(seat.nick, seat.no, seat.guest, words));
          return item;
        }),
      );
      box.append(seats);
      return box;
    }),
  );
}

/**
 * @param {HTMLElement} root
 * @param {ScreenFrame} frame
 * @param {LiveWords} words
 */
function drawStandings(root, frame, words) {
  if (!frame.standings.length) {
    const none = document.createElement("li");
    none.className = "muted";
    none.textContent = words.no_standings;
    root.replaceChildren(none);
    return;
  }
  root.replaceChildren(
    ...frame.standings.map((row) => {
      const item = document.createElement("li");
      const place = document.createElement("span");
      place.className = "place";
      place.textContent = String(row.place);
      const nick = document.createElement("span");
      nick.className = "nick";
      nick.translate = false;
      nick.textContent = named(row.nick, row.player, row.guest, words);
      nick.title = fill(words.standing_row, { games: row.games, wins: row.wins });
      const points = document.createElement("strong");
      points.className = "points";
      points.textContent = POINTS.format(row.points);
      item.append(place, nick, points);
      return item;
    }),
  );
  // A TV shows the top rows only (static/games/screen.css); this line counts the rest.
  if (frame.standings.length > TV_STANDINGS) {
    const more = document.createElement("li");
    more.className = "more";
    more.textContent = fill(words.more, { count: frame.standings.length - TV_STANDINGS });
    root.append(more);
  }
}

function follow() {
  const root = document.getElementById("screen");
  const template = document.getElementById("screen-table");
  if (!root || !(template instanceof HTMLTemplateElement)) return;
  const url = root.dataset.url ?? "";
  /** @type {Screen} */
  let screen = readJson("screen-data");
  /** @type {LiveWords} */
  const words = readJson("screen-words");
  /** @type {Map<number, TableBox>} */
  const boxes = new Map();
  const tables = part(root, "tables");
  const offline = part(root, "offline");

  const drawAll = () => {
    const frame = screen.frame;
    const wanted = new Set(frame.tables.map((table) => table.table));
    for (const number of [...boxes.keys()]) {
      if (!wanted.has(number)) boxes.delete(number);
    }
    const ordered = frame.tables.map((table) => {
      let box = boxes.get(table.table);
      if (!box) {
        box = new TableBox(template, table.table);
        boxes.set(table.table, box);
      }
      box.draw(table, table.game !== null ? screen.live[String(table.game)] : undefined, words);
      return box.root;
    });
    tables.replaceChildren(...ordered);
    tables.dataset.count = String(ordered.length);
    drawNext(part(root, "next"), frame, words);
    drawStandings(part(root, "standings"), frame, words);
  };

  drawAll();
  pollEverySecond({
    url, offline, offlineText: words.offline, take: (next) => (screen = next), drawAll,
  });
}

follow();
