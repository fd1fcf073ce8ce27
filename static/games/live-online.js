// An online game's spectators' page (templates/games/live.html): the table as
// games/online/spectators.py's public snapshot says, drawn into the club page's frame
// (static/games/live.js polls it and calls this for an online snapshot). The words are the
// page's, in the reader's language; the snapshot holds codes, numbers and the players'
// posts, a hidden player's nickname in them written as {seat:N}.

/**
 * @typedef {{no: number, nick: string | null, alive: boolean, warnings: number,
 *   role: string | null}} OnlineSeat
 * @typedef {{kind: string, phase: string, n: number, seat: number | null,
 *   target: number | string | null, seats: number[], detail: string, text: string,
 *   at: string | null}} OnlineLine
 * @typedef {{game: number, number: number, ruleset: "online", phase: string, n: number,
 *   open: boolean, deadline: string | null, over: boolean, winner: string | null,
 *   votes: {seat: number, target: number | string}[], fasted: number[],
 *   catastrophe: {tied: number[], question: boolean} | null,
 *   left: {seat: number, phase: string, n: number, reason: string}[], seats: OnlineSeat[],
 *   thread: OnlineLine[], thread_from: number,
 *   scores: {seat: number, points: number}[] | null}} OnlineSnapshot
 * @typedef {Record<string, string> & {reasons: Record<string, string>,
 *   roles: Record<string, string>, outcomes: Record<string, string>}} OnlineWords
 */

/**
 * A page's word with its %(name)s filled in.
 * @param {string} template
 * @param {Record<string, string | number>} values
 */
function fill(template, values) {
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
 * @param {string} tag
 * @param {string} text
 * @param {string} [className]
 */
function element(tag, text, className) {
  const node = document.createElement(tag);
  node.textContent = text;
  if (className) node.className = className;
  return node;
}

/**
 * A moment as the players' page says it: in the club's time zone (the page's words).
 * @param {string} iso
 * @param {OnlineWords} words
 */
function moment(iso, words) {
  const lang = document.documentElement.lang || undefined;
  const options = /** @type {const} */ ({ day: "numeric", month: "long", hour: "2-digit", minute: "2-digit" });
  return new Intl.DateTimeFormat(lang, { ...options, timeZone: words.zone }).format(new Date(iso));
}

/**
 * A seat as the reader may name it: «3. Fox», or «Игрок 3» for a hidden name.
 * @param {OnlineSnapshot} live
 * @param {OnlineWords} words
 * @param {number | null} seat
 */
function who(live, words, seat) {
  if (seat === null) return "";
  const nick = live.seats.find((row) => row.no === seat)?.nick;
  return nick ? `${seat}. ${nick}` : fill(words.player, { seat });
}

/**
 * @param {OnlineSnapshot} live
 * @param {OnlineWords} words
 * @param {number | string | null} target
 */
function choice(live, words, target) {
  if (typeof target === "number") return who(live, words, target);
  return target ? (words[target] ?? target) : "";
}

/**
 * A post's words, each {seat:N} said as «место N».
 * @param {string} text
 * @param {OnlineWords} words
 */
function written(text, words) {
  return text.replace(/\{seat:(\d{1,2})\}/g, (_all, seat) => fill(words.seat_ref, { seat }));
}

/**
 * One line of the thread, as the players' page says it (templates/games/online.html).
 * @param {OnlineSnapshot} live
 * @param {OnlineWords} words
 * @param {OnlineLine} line
 */
function threadLine(live, words, line) {
  const item = document.createElement("li");
  item.className = `story-${line.kind}`;
  const name = who(live, words, line.seat);
  if (line.kind === "phase") {
    item.append(element("h3", fill(line.phase === "day" ? words.day : words.night, { n: line.n })));
  } else if (line.kind === "post" || line.kind === "last_word" || line.kind === "round_post") {
    const head = element("strong", name);
    head.translate = false;
    const post = element("article", "", "post");
    const header = document.createElement("header");
    header.append(head);
    const badge = line.kind === "post" ? "" : words[line.kind];
    if (badge) header.append(" ", element("span", badge, "badge"));
    if (line.at) header.append(" ", element("time", moment(line.at, words), "small muted"));
    post.append(header, element("p", written(line.text, words)));
    item.append(post);
  } else if (line.kind === "vote" || line.kind === "revote") {
    const badge = line.detail ? ` (${words[line.detail] ?? line.detail})` : "";
    item.append(element("p", `${name} → ${choice(live, words, line.target)}${badge}`, "small"));
  } else if (line.kind === "fast" || line.kind === "unfast") {
    item.append(element("p", `${name} ${line.kind === "fast" ? words.fasts : words.unfasts}`, "small muted"));
  } else if (line.kind === "catastrophe") {
    const key = line.detail === "question" ? "catastrophe_question" : "catastrophe_revote";
    item.append(element("p", fill(words[key], { seats: line.seats.join(", ") }), "notice warn"));
  } else if (line.kind === "outcome") {
    const names = line.seats.map((seat) => who(live, words, seat)).join(", ");
    const said = line.seats.length && line.detail !== "killed" ? words.outcomes.voted : (words.outcomes[line.detail] ?? line.detail);
    const fast = line.detail === "fast" ? ` ${words.outcomes.fast}` : "";
    item.append(element("p", [said, names].filter(Boolean).join(" ") + fast, "notice"));
  } else if (line.kind === "warning") {
    item.append(element("p", `${fill(words.warning, { count: line.detail })} ${name}`, "notice warn"));
  } else if (line.kind === "removed" || line.kind === "modkill") {
    item.append(element("p", `${words[line.kind]} ${name}`, "notice error"));
  } else if (line.kind === "end") {
    item.append(element("p", line.detail === "red" ? words.red_wins : words.black_wins, "notice"));
  }
  return item;
}

/**
 * @param {OnlineSnapshot} live
 * @param {OnlineWords} words
 */
function phaseText(live, words) {
  if (live.over) return words.over;
  if (live.phase === "day") return fill(words.day, { n: live.n });
  if (live.phase === "night") return fill(words.night, { n: live.n });
  return words.starts;
}

/**
 * Draw an online snapshot into the live page's frame.
 * @param {HTMLElement} root
 * @param {OnlineSnapshot} live
 * @param {OnlineWords} words
 */
export function drawOnline(root, live, words) {
  part(root, "phase").textContent = phaseText(live, words);
  const deadline = live.deadline ? fill(live.open ? words.until : words.next_step, { when: moment(live.deadline, words) }) : "";
  part(root, "clock").textContent = deadline;
  part(root, "opener").textContent = "";
  part(root, "nominees").textContent = live.fasted.length ? `${words.fasted} ${live.fasted.join(", ")}` : "";
  const round = live.catastrophe;
  const key = round?.question ? "catastrophe_question" : "catastrophe_revote";
  part(root, "vote").textContent = round ? fill(words[key], { seats: round.tied.join(", ") }) : "";
  const votes = live.votes.map((vote) => `${vote.seat} → ${choice(live, words, vote.target)}`);
  part(root, "tally").textContent = votes.length ? `${words.vote_title}: ${votes.join("; ")}` : "";
  const result = part(root, "result");
  result.textContent = live.over ? (live.winner === "red" ? words.red_wins : words.black_wins) : "";
  if (live.over) {
    const link = document.createElement("a");
    link.href = root.dataset.result ?? "";
    link.textContent = words.result_link;
    result.append(" · ", link);
  }
  const points = new Map((live.scores ?? []).map((score) => [score.seat, score.points]));
  part(root, "seats").replaceChildren(
    ...live.seats.map((seat) => {
      const item = document.createElement("li");
      item.dataset.seat = String(seat.no);
      item.className = seat.alive ? "" : "out";
      const nick = element("span", seat.nick ?? fill(words.player, { seat: seat.no }), "nick");
      nick.translate = false;
      const marks = element("span", seat.warnings ? `⚠${seat.warnings}` : "", "marks");
      if (seat.warnings) marks.title = `${words.warnings}: ${seat.warnings}`;
      item.append(element("span", String(seat.no), "no"), nick, marks);
      const score = points.get(seat.no);
      if (seat.role || score !== undefined) {
        const end = element("span", "", "end");
        end.append(element("span", seat.role ? (words.roles[seat.role] ?? seat.role) : "", "role"));
        if (score !== undefined) end.append(element("strong", score.toFixed(2), "points"));
        item.append(end);
      }
      return item;
    }),
  );
  part(root, "left").replaceChildren(
    ...live.left.map((out) => {
      const when = out.phase === "day" ? words.when_day : words.when_night;
      const reason = words.reasons[out.reason] ?? out.reason;
      return element("li", fill(words.left_row, { seat: out.seat, reason, when, n: out.n }));
    }),
  );
  part(root, "left-title").textContent = words.left;
  part(root, "left-box").hidden = live.left.length === 0;
  const thread = part(root, "thread");
  thread.replaceChildren(...live.thread.map((line) => threadLine(live, words, line)));
  if (live.thread_from > 0) thread.prepend(element("li", words.earlier, "muted"));
  if (!live.thread.length) thread.append(element("li", words.no_posts, "muted"));
  part(root, "thread-title").textContent = words.thread;
  part(root, "thread-box").hidden = false;
}
