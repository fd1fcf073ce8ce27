// The producer's view (templates/live/producer.html): live/producer.py's snapshot, polled
// every second with its ETag and drawn when it changed. The public table is drawn by the
// spectators' page's own code (static/games/live.js); this adds the cards, coloured by team,
// what the night aims at each seat, the night's actions in the order the host tapped them,
// the game's checks and the best move. The words are the page's (live/views.py).

import { Clock, draw, fill } from "../games/live.js";
import { pollEverySecond, readJson } from "../games/screen-parts.js";

/**
 * @typedef {import("../games/live.js").LiveSnapshot} LiveSnapshot
 * @typedef {{no: number, role: string, team: string, alive: boolean, out: string | null,
 *   targeted: string[]}} Card
 * @typedef {{kind: "check" | "kill" | "heal" | "action", slot: string, role: string,
 *   actor: number | null, target: number | null, result: string | null}} NightAction
 * @typedef {{n: number, now: boolean, actions: NightAction[],
 *   waiting: {slot: string, role: string}[]}} Night
 * @typedef {{by: number, target: number, result: string}} Check
 * @typedef {{game: number, cards: Card[], night: Night | null, checks: Check[],
 *   best_move: {by: number, targets: number[]} | null, table: LiveSnapshot}} Producer
 * @typedef {{pending: true, delay: number}} Pending
 * @typedef {Record<string, string> & {reasons: Record<string, string>,
 *   roles: Record<string, string>, results: Record<string, string>}} Words
 */

// What the night aims at a seat, as a mark beside its card.
const AIMS = { check: "🔍", kill: "🎯", heal: "✚", action: "✦" };

/**
 * @param {HTMLElement} root
 * @param {string} name
 */
function part(root, name) {
  const node = root.querySelector(`[data-producer="${name}"]`);
  if (!(node instanceof HTMLElement)) throw new Error(`no [data-producer=${name}]`);
  return node;
}

/**
 * A card's name: the club's catalogue's, as on the live page («Mafia» for a mafioso's card).
 * @param {Words} words
 * @param {string} role
 */
function roleName(words, role) {
  return words.roles[role] ?? role;
}

/**
 * Who acts in the night: a role, or the mafia as one for the joint shot («The mafia»).
 * @param {Words} words
 * @param {string} role
 */
function actorName(words, role) {
  return role === "mafia" ? words.mafia : roleName(words, role);
}

/**
 * @param {NightAction} action
 * @param {Words} words
 */
function actionRow(action, words) {
  const item = document.createElement("li");
  const role = actorName(words, action.role);
  if (action.target === null) {
    item.textContent = fill(words.idle_row, { role });
    return item;
  }
  const values = { role, by: action.actor ?? "", target: action.target };
  if (action.kind === "check") {
    item.append(fill(words.check_row, { ...values, result: "" }));
    item.append(resultMark(action.result ?? "", words));
  } else {
    item.textContent = fill(words[`${action.kind}_row`], values);
  }
  item.dataset.kind = action.kind;
  return item;
}

/**
 * @param {string} result
 * @param {Words} words
 */
function resultMark(result, words) {
  const mark = document.createElement("strong");
  mark.className = result === "red" || result === "not_commissar" ? "red" : "black";
  mark.textContent = words.results[result] ?? result;
  return mark;
}

/**
 * @param {HTMLElement} root
 * @param {Producer} producer
 * @param {Words} words
 */
function drawCards(root, producer, words) {
  for (const card of producer.cards) {
    const item = root.querySelector(`[data-live="seats"] li[data-seat="${card.no}"]`);
    if (!(item instanceof HTMLElement)) continue;
    item.classList.add(`team-${card.team}`);
    item.dataset.role = card.role;
    const line = document.createElement("span");
    line.className = "producer-card";
    const role = document.createElement("span");
    role.className = "role";
    role.textContent = roleName(words, card.role);
    const aimed = document.createElement("span");
    aimed.className = "aimed";
    aimed.textContent = card.targeted
      .map((slot) => AIMS[/** @type {keyof typeof AIMS} */ (slot.split(":")[0])] ?? "")
      .join("");
    line.append(role, aimed);
    // At the end the public table shows the card itself: the line then adds the aims only.
    item.querySelector(".end .role")?.remove();
    item.append(line);
  }
}

/**
 * @param {HTMLElement} root
 * @param {Producer} producer
 * @param {Words} words
 */
function drawNight(root, producer, words) {
  const night = producer.night;
  part(root, "night-box").hidden = night === null;
  if (night) {
    const title = night.now ? words.night_now : words.night_last;
    part(root, "night-title").textContent = fill(title, { n: night.n });
    const rows = night.actions.map((action) => actionRow(action, words));
    if (!rows.length) {
      const none = document.createElement("li");
      none.textContent = words.nothing_yet;
      rows.push(none);
    }
    part(root, "actions").replaceChildren(...rows);
    const roles = night.waiting.map((wait) => actorName(words, wait.role)).join(", ");
    part(root, "waiting").textContent =
      night.now && roles ? fill(words.waiting, { roles }) : "";
  }
  part(root, "checks-box").hidden = producer.checks.length === 0;
  part(root, "checks-title").textContent = words.checks;
  part(root, "checks").replaceChildren(
    ...producer.checks.map((check) => {
      const item = document.createElement("li");
      const by = producer.cards.find((card) => card.no === check.by);
      const role = by ? roleName(words, by.role) : "";
      item.append(fill(words.check_row, { role, by: check.by, target: check.target, result: "" }));
      item.append(resultMark(check.result, words));
      return item;
    }),
  );
  const best = producer.best_move;
  part(root, "best-move").textContent = best
    ? fill(words.best_move, { by: best.by, seats: best.targets.join(", ") })
    : "";
}

/**
 * @param {HTMLElement} root
 * @param {Producer | Pending} snapshot
 * @param {Words} words
 * @param {Clock} clock
 */
export function drawProducer(root, snapshot, words, clock) {
  const pending = part(root, "pending");
  if ("pending" in snapshot) {
    pending.hidden = false;
    pending.textContent = fill(words.pending, { seconds: snapshot.delay });
    return;
  }
  pending.hidden = true;
  draw(root, snapshot.table, words, clock);
  drawCards(root, snapshot, words);
  drawNight(root, snapshot, words);
}

/**
 * A revoked link's JSON answers 404: every card and night row leaves the page, and it says
 * why (as the overlay goes blank, static/live/overlay.js).
 * @param {HTMLElement} root
 * @param {Words} words
 */
export function blankProducer(root, words) {
  for (const list of root.querySelectorAll("ol")) list.replaceChildren();
  for (const name of ["night-box", "checks-box"]) part(root, name).hidden = true;
  for (const node of root.querySelectorAll("[data-live], [data-producer]")) {
    if (node instanceof HTMLElement && ["P", "H2"].includes(node.tagName)) node.textContent = "";
  }
  const offline = root.querySelector('[data-live="offline"]');
  if (offline instanceof HTMLElement) offline.hidden = true;
  const notice = part(root, "pending");
  notice.hidden = false;
  notice.textContent = words.revoked;
}

function follow() {
  const root = document.getElementById("producer");
  if (!root) return;
  /** @type {Words} */
  const words = readJson("producer-words");
  const clock = new Clock();
  const offline = root.querySelector('[data-live="offline"]');
  /** @type {Producer | Pending} */
  let snapshot = readJson("producer-snapshot");
  drawProducer(root, snapshot, words, clock);
  pollEverySecond({
    url: root.dataset.url ?? "",
    offline: offline instanceof HTMLElement ? offline : null,
    offlineText: words.offline,
    take: (next) => (snapshot = next),
    // Drawn every second: the speech's clock counts down between changes.
    drawAll: () => drawProducer(root, snapshot, words, clock),
    gone: () => blankProducer(root, words),
  });
}

follow();
