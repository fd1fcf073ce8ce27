// @ts-check
// The show of hands being entered: for whom each tapped hand is up, or the typed counts,
// until «Записать» turns it into the vote's event. One form per vote of the table: a new
// vote (or any tap recorded meanwhile) starts a fresh form.
/** @import { ClubEvent, HostTable, Vote } from "./table.js" */

/** @typedef {number | "for"} Target a candidate's seat, or "for" in a yes/no question */

export class VoteForm {
  /**
   * @param {string} key
   * @param {Vote} vote
   * @param {boolean} counting whether the host enters counts rather than tapped hands
   */
  constructor(key, vote, counting) {
    this.key = key;
    /** @type {Target} the candidate the tapped hands go to */
    this.current = vote.among[0] ?? "for";
    /** @type {Record<string, Target>} voter's seat → the candidate their hand is up for */
    this.hands = {};
    /** @type {Record<string, number> | null} candidate → the count typed, when counting */
    this.counts = counting ? {} : null;
  }

  /**
   * The form the table's vote needs now: `form` itself while it is the same vote with no
   * tap recorded since, a fresh one otherwise, none when the table has no vote.
   * @param {VoteForm | null} form
   * @param {HostTable} table
   * @param {number} entries the log's entries and the waiting taps
   * @param {() => boolean} counting the host's lasting preference
   */
  static follow(form, table, entries, counting) {
    const vote = table.vote;
    if (!vote) return null;
    const key = `${vote.type}:${table.n}:${vote.among.join(",")}:${entries}`;
    if (form && form.key === key) return form;
    return new VoteForm(key, vote, counting());
  }

  /** @param {Vote} vote */
  static targets(vote) {
    return /** @type {Target[]} */ (vote.among.length ? vote.among : ["for"]);
  }

  /** @param {Target} target */
  handsFor(target) {
    return Object.values(this.hands).filter((to) => to === target).length;
  }

  /** @param {Vote} vote */
  handsLeft(vote) {
    return vote.voters.length - Object.keys(this.hands).length;
  }

  /**
   * A tap on a voter's seat raises their hand for the chosen candidate, or lowers it.
   * @param {number} seat
   */
  toggleHand(seat) {
    if (this.hands[seat] === this.current) delete this.hands[seat];
    else this.hands[seat] = this.current;
  }

  /**
   * A tap on a seat during the vote: with tapped hands it raises or lowers that voter's
   * hand; with counts a candidate's seat chooses that candidate for the keypad, and any
   * other seat does nothing ("ignored", for the screen to say so).
   * @param {Vote} vote
   * @param {number} seat
   * @returns {"hand" | "chose" | "ignored"}
   */
  tapSeat(vote, seat) {
    if (!this.counts) {
      this.toggleHand(seat);
      return "hand";
    }
    if (!vote.among.includes(seat)) return "ignored";
    this.current = seat;
    return "chose";
  }

  /**
   * «Остальные → N»: every hand not yet tapped goes to that candidate.
   * @param {Vote} vote
   * @param {Target} target
   */
  restTo(vote, target) {
    for (const voter of vote.voters) if (!(voter in this.hands)) this.hands[voter] = target;
  }

  /**
   * A typed count. True when it is the one that completes the set for the first time: the
   * vote is then recorded at once (a correction waits for «Записать»).
   * @param {Vote} vote
   * @param {Target} target
   * @param {number} count
   */
  setCount(vote, target, count) {
    const counts = this.counts || (this.counts = {});
    const targets = VoteForm.targets(vote);
    const complete = () => targets.every((each) => each in counts);
    const first = !complete();
    counts[target] = count;
    // The keypad moves on to the next candidate still without a number, after this one;
    // once every one has a number, to the next one (a correction goes round in order).
    const from = targets.indexOf(target);
    const after = [...targets.slice(from + 1), ...targets.slice(0, from)];
    const next = after.find((each) => !(each in counts)) ?? after[0];
    if (next !== undefined) this.current = next;
    return first && complete();
  }

  /**
   * A key of the keypad: the count of the chosen candidate (see `setCount`).
   * @param {Vote} vote
   * @param {number} count
   */
  type(vote, count) {
    return this.setCount(vote, this.current, count);
  }

  /**
   * The count typed for a candidate, if any.
   * @param {Target} target
   * @returns {number | undefined}
   */
  countFor(target) {
    return this.counts ? this.counts[target] : undefined;
  }

  /**
   * The hands not yet given to anyone: tapped or typed.
   * @param {Vote} vote
   */
  left(vote) {
    if (!this.counts) return this.handsLeft(vote);
    return vote.voters.length - Object.values(this.counts).reduce((sum, count) => sum + count, 0);
  }

  /** Between tapped hands and typed counts; true when counting now. */
  toggleCounts() {
    this.counts = this.counts ? null : {};
    return this.counts !== null;
  }

  /**
   * The vote's protocol event from what was entered. A yes/no question (its `among` is
   * empty) counts the hands for; a count or a show of hands, each candidate's.
   * @param {Vote} vote
   * @returns {ClubEvent}
   */
  event(vote) {
    const type = vote.type;
    if (type === "first_day_expel" || type === "expel_both") {
      return { type, for: this.counts ? (this.counts.for ?? 0) : this.handsFor("for") };
    }
    if (this.counts) {
      /** @type {Record<string, number>} */
      const counts = {};
      for (const target of vote.among) counts[String(target)] = this.counts[target] ?? 0;
      return { type, counts };
    }
    /** @type {Record<string, number>} */
    const voters = {};
    // Over candidates every hand is up for a seat ("for" is a question's).
    for (const [voter, target] of Object.entries(this.hands)) if (target !== "for") voters[voter] = target;
    return { type, voters };
  }
}
