"""The day's vote (RULES.md §D): votes (the second is final), PASS, the fast that closes the
day early, the catastrophe round after a tie of leaders (posts, revotes, «hang all / pardon
all», never more than two leave) and how the day resolves."""

from __future__ import annotations

from collections import Counter

from games.rules.errors import ProtocolError, RuleCode, RuleViolation, gettext_noop, seat_field
from games.rules.event_types import FastEvent, RevoteEvent, UnfastEvent, VoteEvent
from games.rules.online.end import OnlineEnd
from games.rules.online.state import (
    HANG_ALL,
    MAX_VOTES_A_DAY,
    PARDON_ALL,
    PASS,
    Catastrophe,
    Choice,
    Phase,
    Reason,
)


class OnlineVote(OnlineEnd):
    """From the day's first vote to its outcome."""

    def _on_vote(self, event: VoteEvent) -> None:
        self._require_open(Phase.DAY)
        voter = seat_field(event, "voter")
        self._living(voter)
        target = event.get("target")
        if target != PASS:
            if type(target) is not int:
                raise ProtocolError(gettext_noop("A vote is for a seat or `pass`."))
            self._living(target)
        if self.catastrophe is not None:
            raise RuleViolation(
                RuleCode.CATASTROPHE, gettext_noop("A catastrophe is on: vote in the revote.")
            )
        if self.vote_count.get(voter, 0) >= MAX_VOTES_A_DAY:
            raise RuleViolation(
                RuleCode.VOTE_FINAL,
                gettext_noop("The vote was changed once already: the second vote is final."),
            )
        self.votes[voter] = target
        self.vote_count[voter] = self.vote_count.get(voter, 0) + 1
        final = self.vote_count[voter] == MAX_VOTES_A_DAY
        self._tell("vote", seat=voter, target=target, detail="final" if final else "")
        self._maybe_fast_night()

    def _on_fast(self, event: FastEvent) -> None:
        self._require_open(Phase.DAY)
        voter = seat_field(event, "voter")
        self._living(voter)
        if self.catastrophe is not None:
            raise RuleViolation(RuleCode.CATASTROPHE, gettext_noop("No fast during a catastrophe."))
        self.fasted.add(voter)
        self._tell("fast", seat=voter)
        self._maybe_fast_night()

    def _on_unfast(self, event: UnfastEvent) -> None:
        self._require_open(Phase.DAY)
        voter = seat_field(event, "voter")
        self._living(voter)
        self.fasted.discard(voter)
        self._tell("unfast", seat=voter)

    def _maybe_fast_night(self) -> None:
        """Everyone has fasted (the one under the vote may abstain): the day resolves."""
        if not self.options.fast_resolves_day or not self.fasted:
            return
        if self.vote_cancelled and not self.options.fast_night_after_modkill:
            return  # a modkill day: the night comes on schedule
        leaders = self.leaders()
        excused = set(leaders) if len(leaders) == 1 else set()
        if self.alive - excused <= self.fasted:
            self.ended_by_fast = True
            self._resolve_day(fast=True)

    def _on_revote(self, event: RevoteEvent) -> None:
        self._require_open(Phase.DAY)
        voter = seat_field(event, "voter")
        self._living(voter)
        target = event.get("target")
        round_ = self.catastrophe
        if round_ is None:  # left in advance: only «hang all / pardon all» can be
            if target not in (HANG_ALL, PARDON_ALL):
                raise RuleViolation(
                    RuleCode.NO_CATASTROPHE,
                    gettext_noop("Only «hang all / pardon all» can be left in advance."),
                )
            self.held[voter] = target
            return
        if voter in round_.tied:
            raise RuleViolation(
                RuleCode.CATASTROPHE,
                gettext_noop("The tied players do not vote in the catastrophe."),
            )
        if voter in round_.excluded:
            raise RuleViolation(
                RuleCode.CATASTROPHE,
                gettext_noop("You were in the tie: you do not vote in its follow-up round."),
            )
        replacing = voter in round_.advance and self.options.advance_vote_replaceable
        if voter in round_.votes and not replacing:
            raise RuleViolation(RuleCode.VOTE_FINAL, gettext_noop("One vote in the catastrophe."))
        allowed = (HANG_ALL, PARDON_ALL) if round_.question else tuple(round_.tied)
        if target not in allowed:
            raise RuleViolation(
                RuleCode.BAD_TARGET, gettext_noop("That vote is not on offer in this round.")
            )
        round_.votes[voter] = target
        round_.advance.discard(voter)
        self._tell("revote", seat=voter, target=target, detail="changed" if replacing else "")
        self._maybe_close_round()

    def _maybe_close_round(self) -> None:
        """«Он длится, пока не оставят свои посты все живые игроки»: every tied player has
        posted and every other has voted (a vote left in advance counts) → it closes."""
        round_ = self.catastrophe
        if round_ is None or not self.options.catastrophe_closes_when_all_posted:
            return
        tied_posted = set(round_.tied) <= round_.posted
        if tied_posted and round_.voters(self.alive) <= set(round_.votes):
            self._resolve_day()

    def _resolve_day(self, *, fast: bool = False) -> None:
        """Close the day (or its catastrophe round) and apply its outcome."""
        self.resolutions += 1
        if self.vote_cancelled:  # a modkill today: no vote, whatever stage it reached
            self.open, self.catastrophe, self.outcome = False, None, "cancelled"
            self._tell("outcome", detail="cancelled")
            return
        if self.catastrophe is not None:
            self._resolve_catastrophe()
            return
        self.open = False
        leaders = self.leaders()
        if not leaders:
            self._outcome("nobody")  # all PASS, or no vote on anyone
            return
        on_players = [t for t in self.votes.values() if t != PASS]
        passes = sum(1 for t in self.votes.values() if t == PASS)
        silent = len(self.alive) - len(self.votes)
        if self.options.day_one_pardon_with_silent:
            passes += silent  # the silent count as PASS (a reading)
        if (
            self.n == 1
            and self.options.day_one_pardon
            and len(on_players) == 1
            and passes == len(self.alive) - 1
        ):
            self._outcome("pardoned")
            return
        if len(leaders) == 1:
            self._outcome("fast" if fast else "voted", [leaders[0]])
            return
        self._start_catastrophe(leaders)

    def _outcome(self, outcome: str, hanged: list[int] | None = None) -> None:
        """The vote's result, told; the hanged leave (the story says who before the end)."""
        self.outcome = outcome
        self._tell("outcome", detail=outcome, seats=tuple(sorted(hanged or ())))
        if hanged:
            self._eliminate(hanged, Reason.VOTED)

    def _start_catastrophe(self, tied: list[int], previous: Catastrophe | None = None) -> None:
        alive = len(self.alive)
        if alive == 4:
            self._outcome("catastrophe_at_four")  # no revote, nobody leaves
            return
        question = alive % 2 == 0 and len(tied) == 2
        votes: dict[int, Choice] = (
            {v: t for v, t in self.held.items() if v in self.alive and v not in tied}
            if question
            else {}
        )
        excluded: set[int] = set()
        if previous is not None and not self.options.untied_vote_in_followup:
            excluded = set(previous.tied) - set(tied)
        for seat in excluded:
            votes.pop(seat, None)
        self.catastrophe = Catastrophe(
            list(tied), question, votes, set(), excluded, advance=set(votes)
        )
        self.open, self.outcome = True, "catastrophe"
        self._tell("catastrophe", seats=tuple(tied), detail="question" if question else "revote")

    def _resolve_catastrophe(self) -> None:
        round_ = self.catastrophe
        assert round_ is not None
        self.catastrophe = None
        self.open = False
        silent = sorted(round_.voters(self.alive) - set(round_.votes))
        votes = [t for v, t in round_.votes.items() if v in self.alive]
        if round_.question:
            hang = votes.count(HANG_ALL)
            if hang > votes.count(PARDON_ALL):
                self._hang_all(round_.tied)
            else:
                self._outcome("pardon_all")  # a tie pardons
        else:
            counts = Counter(t for t in votes if t in self.alive)
            top = max(counts.values(), default=0)
            leaders = sorted(s for s, c in counts.items() if c == top)
            if not counts:
                self._outcome("nobody")
            elif len(leaders) == 1:
                self.tied_rounds = 0
                self._outcome("voted", leaders)
            elif len(leaders) == 2 and len(self.alive) % 2 == 0:
                self.tied_rounds = 0  # two leaders at an even count: hang or keep both
                self._start_catastrophe(leaders, round_)
            else:
                self.tied_rounds += 1  # «если лидеров 3 то заново»
                limit = self.options.revote_tie_limit
                if limit and self.tied_rounds >= limit:
                    self._outcome("tie_again")
                else:
                    self._start_catastrophe(leaders, round_)
        if self.options.catastrophe_silence == "warning":
            for seat in silent:
                if seat in self.alive and not self.finished:
                    self._warn(seat)

    def _hang_all(self, tied: list[int]) -> None:
        """«Повесить всех», never more than two: over the vote, or over the whole day with
        the host's removals (an option); when fewer may go than are tied, none goes (the
        rules name no way to choose among them)."""
        room = 2
        if self.options.two_leave_limit == "day":
            room -= self.removed_today
        if len(tied) > room:
            self._outcome("limit")
        else:
            self._outcome("hang_all", tied)

    def _would_tie(self) -> bool:
        """Closing the day now would start a catastrophe."""
        return not self.vote_cancelled and len(self.leaders()) > 1 and len(self.alive) != 4
