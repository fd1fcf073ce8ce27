// A tournament followed live (templates/tournaments/live.html, tournaments/live.py): the
// final's table on top while the final is played (drawn by the spectators' page's own
// draw(), static/games/live.js, from the game's public snapshot served beside the frame),
// the tables being played and the standings, polled every second with the ETag.

import { Clock, draw, fill } from "../games/live.js";
import { part, pointsFormat, pollEverySecond, readJson } from "../games/screen-parts.js";

/**
 * @typedef {import("../games/live.js").LiveSnapshot} LiveSnapshot
 * @typedef {import("../games/live.js").LiveWords} LiveWords
 * @typedef {{round: number, table: number, final: boolean, game: number, number: number,
 *   state: "running" | "over", shown: string, live: boolean}} LiveTable
 * @typedef {{place: number, nick: string | null, player: number, guest: boolean,
 *   points: number, games: number, wins: number, ci: number | null}} LiveStanding
 * @typedef {{tournament: number, finished: boolean, hidden_final: boolean, games: number,
 *   standings: LiveStanding[], headline: LiveTable | null, tables: LiveTable[]}} Frame
 * @typedef {{frame: Frame, live: Record<string, LiveSnapshot>}} Screen
 */

const POINTS = pointsFormat({ signed: false });

/**
 * @param {LiveStanding} row
 * @param {LiveWords} words
 */
function standingName(row, words) {
  if (row.nick !== null) return row.nick;
  return fill(row.guest ? words.guest_n : words.player, { n: row.player, seat: row.player });
}

/**
 * @param {HTMLElement} box
 * @param {LiveTable | null} table
 * @param {LiveSnapshot | undefined} snapshot
 * @param {LiveWords} words
 * @param {Clock} clock
 */
function drawHeadline(box, table, snapshot, words, clock) {
  box.hidden = table === null;
  if (table === null) return;
  part(box, "title").textContent = fill(words.final, { number: table.number });
  const shown = part(box, "live");
  const note = part(box, "note");
  if (snapshot && table.live) {
    box.dataset.result = `/games/${table.game}/?public=1`;
    shown.hidden = false;
    note.hidden = true;
    draw(box, snapshot, words, clock);
    return;
  }
  shown.hidden = true;
  note.hidden = false;
  const phase = box.querySelector('[data-live="phase"]');
  if (phase) phase.textContent = "";
  if (table.shown === "members") note.textContent = words.members_only;
  else note.textContent = table.state === "over" ? words.not_shown_over : words.not_shown;
}

/**
 * @param {HTMLElement} root
 * @param {LiveTable[]} tables
 * @param {LiveWords} words
 */
function drawPlaying(root, tables, words) {
  part(root, "playing-box").hidden = tables.length === 0;
  part(root, "playing").replaceChildren(
    ...tables.map((table) => {
      const item = document.createElement("li");
      item.dataset.game = String(table.game);
      item.append(fill(words.round, { round: table.round, table: table.table }), " · ");
      if (table.live) {
        const link = document.createElement("a");
        link.href = `/games/${table.game}/live/`;
        link.textContent = words.follow;
        item.append(link);
      } else {
        item.append(table.shown === "members" ? words.members_only : words.not_shown);
      }
      return item;
    }),
  );
}

/**
 * @param {HTMLElement} root
 * @param {Frame} frame
 * @param {LiveWords} words
 */
function drawStandings(root, frame, words) {
  const ci = frame.standings.some((row) => row.ci !== null);
  part(root, "ci-head").hidden = !ci;
  const hidden = part(root, "hidden-final");
  hidden.hidden = !frame.hidden_final;
  hidden.textContent = frame.hidden_final ? words.hidden_final : "";
  const none = part(root, "no-games");
  none.hidden = frame.standings.length > 0;
  none.textContent = words.no_games;
  part(root, "standings").replaceChildren(
    ...frame.standings.map((row) => {
      const line = document.createElement("tr");
      /** @param {string} text @param {string} kind */
      const cell = (text, kind) => {
        const td = document.createElement("td");
        td.className = kind;
        td.textContent = text;
        line.append(td);
        return td;
      };
      cell(String(row.place), "num");
      cell(standingName(row, words), "nick").translate = false;
      const points = cell("", "num");
      const strong = document.createElement("strong");
      strong.textContent = POINTS.format(row.points);
      points.append(strong);
      cell(String(row.games), "num");
      cell(String(row.wins), "num");
      if (ci) cell(row.ci === null ? "" : POINTS.format(row.ci), "num");
      return line;
    }),
  );
}

function follow() {
  const root = document.getElementById("tournament-live");
  if (!root) return;
  const url = root.dataset.url ?? "";
  /** @type {Screen} */
  let screen = readJson("screen-data");
  /** @type {LiveWords} */
  const words = readJson("screen-words");
  const clock = new Clock();
  const headline = part(root, "headline");
  const offline = part(root, "offline");
  const drawAll = () => {
    const frame = screen.frame;
    const top = frame.headline;
    drawHeadline(headline, top, top ? screen.live[String(top.game)] : undefined, words, clock);
    drawPlaying(root, frame.tables, words);
    drawStandings(root, frame, words);
  };
  drawAll();
  pollEverySecond({
    url, offline, offlineText: words.offline, take: (next) => (screen = next), drawAll,
  });
}

follow();
