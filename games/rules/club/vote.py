"""The day's vote (RULES.md §B): nominations, the count, the candidates for defence (first
and second places), day 1's «expel anyone?», the show of hands and its runoffs,
«автокатастрофа» («expel both?»), and the day's last vote as the host sees it (`Tally`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from games.rules.club.end import ClubEnd
from games.rules.club.state import (
    Reason,
    Step,
    Tally,
    _count_field,
    _seat_map,
)
from games.rules.errors import RuleCode, RuleViolation, gettext_noop, seat_field
from games.rules.event_types import (
    ExpelBothEvent,
    FirstDayExpelEvent,
    HandsEvent,
    NominateEvent,
    VotesEvent,
)

MAX_CANDIDATES = 4


class ClubVote(ClubEnd):
    """From the first nomination to the day's outcome."""

    def _on_nominate(self, event: NominateEvent) -> None:
        by, target = seat_field(event, "by"), seat_field(event, "target")
        self._require_day(Step.ROUND)
        self._require_alive(by, gettext_noop("nominator"))
        self._require_alive(target, gettext_noop("nominee"))
        if target in self.immune_now:
            raise RuleViolation(
                RuleCode.IMMUNE,
                gettext_noop("Seat %(target)s is immune on day 1 and cannot be nominated."),
                target=target,
            )
        made = self.nominations_by.get(by, [])
        if target in made:
            raise RuleViolation(
                RuleCode.DUPLICATE_NOMINATION,
                gettext_noop("Seat %(by)s has already nominated seat %(target)s."),
                by=by,
                target=target,
            )
        if len(made) >= 2:
            raise RuleViolation(
                RuleCode.TOO_MANY_NOMINATIONS,
                gettext_noop("Seat %(by)s has already nominated two players."),
                by=by,
            )
        self.nominations_by[by] = [*made, target]
        if target not in self.nominees:
            self.nominees.append(target)

    def _counts(
        self, event: VotesEvent | HandsEvent, allowed: list[int], what: str
    ) -> tuple[dict[int, int], dict[int, int] | None]:
        """Counts from `counts` or from `voters` (then also who voted for whom); each living
        player counts once at most."""
        if "voters" in event:
            voters = _seat_map(event["voters"], "voters")
            counts = dict.fromkeys(allowed, 0)
            for voter, target in voters.items():
                self._require_alive(voter, gettext_noop("voter"))
                if target not in counts:
                    raise RuleViolation(
                        RuleCode.NOT_A_CANDIDATE,
                        gettext_noop("Seat %(target)s is not a %(what)s."),
                        target=target,
                        what=what,
                    )
                counts[target] += 1
            return counts, voters
        counts = _seat_map(event.get("counts"), "counts")
        for seat in counts:
            if seat not in allowed:
                raise RuleViolation(
                    RuleCode.NOT_A_CANDIDATE,
                    gettext_noop("Seat %(seat)s is not a %(what)s."),
                    seat=seat,
                    what=what,
                )
        if sum(counts.values()) > len(self.alive):
            raise RuleViolation(
                RuleCode.TOO_MANY_VOTES,
                gettext_noop("More votes than living players (%(living)s)."),
                living=len(self.alive),
            )
        return {seat: counts.get(seat, 0) for seat in allowed}, None

    def _on_votes(self, event: VotesEvent) -> None:
        self._require_day(Step.ROUND)
        if not self.nominees:
            raise RuleViolation(
                RuleCode.NO_NOMINEES, gettext_noop("Nobody is nominated: there is no vote.")
            )
        counts, voters = self._counts(event, self.nominees, gettext_noop("nominated player"))
        candidates = self._defence_candidates(counts)
        with self._tallied("votes", counts=counts, voters=voters):
            self._after_the_count(candidates)

    def _after_the_count(self, candidates: list[int]) -> None:
        if not candidates:
            self._end_vote("no_candidates")
        elif len(candidates) > MAX_CANDIDATES:
            self._end_vote("nesostrel")  # «несострел»: nobody leaves, the table goes to night
        elif self.n == 1 and not (
            len(candidates) == 1 and self.options.single_candidate_day1 == "expel"
        ):
            self.candidates = candidates
            self.step = Step.FIRST_DAY_QUESTION
        elif len(candidates) == 1:
            self._expel(candidates, Reason.VOTED)
        else:
            self.candidates = candidates
            self.step = Step.HANDS
            self.hands_round = 1

    @contextmanager
    def _tallied(
        self,
        kind: str,
        *,
        counts: dict[int, int] | None = None,
        votes_for: int | None = None,
        dropped: Iterable[int] = (),
        voters: dict[int, int] | None = None,
    ) -> Iterator[None]:
        """Record a vote's result once its handler has done what it does."""
        before = set(self.alive)
        yield
        self.tally = Tally(
            kind,
            counts,
            votes_for,
            tuple(dropped),
            tuple(sorted(before - self.alive)),
            self.outcome if self.step == Step.DONE else None,
            voters,
            # A preliminary count that goes on to speeches: its candidates speak in defence.
            defence=tuple(self.candidates)
            if kind == "votes" and self.step in (Step.HANDS, Step.FIRST_DAY_QUESTION)
            else (),
        )

    def _defence_candidates(self, counts: dict[int, int]) -> list[int]:
        """All who share first place and all who share second; zero votes never count."""
        positive = sorted({c for c in counts.values() if c > 0}, reverse=True)
        if not positive:
            return []
        if self.options.candidate_places == "distinct_counts":
            threshold = positive[min(1, len(positive) - 1)]
        else:  # ranks: a shared first place fills the second too
            leaders = sum(1 for c in counts.values() if c == positive[0])
            threshold = positive[0] if leaders >= 2 or len(positive) == 1 else positive[1]
        return sorted(seat for seat, c in counts.items() if c >= threshold and c > 0)

    def _on_first_day_expel(self, event: FirstDayExpelEvent) -> None:
        votes_for = _count_field(event, "for")
        self._require_day(Step.FIRST_DAY_QUESTION)
        self._check_hands_total(votes_for)
        with self._tallied("first_day_expel", votes_for=votes_for):
            if not self.majority(votes_for):
                self._end_vote("first_day_kept")
            elif len(self.candidates) == 1:
                self._expel(self.candidates, Reason.VOTED)
            else:
                self.step = Step.HANDS
                self.hands_round = 1

    def _check_hands_total(self, hands: int) -> None:
        if hands > len(self.alive):
            raise RuleViolation(
                RuleCode.TOO_MANY_VOTES,
                gettext_noop("More hands than living players (%(living)s)."),
                living=len(self.alive),
            )

    def _on_hands(self, event: HandsEvent) -> None:
        self._require_day(Step.HANDS)
        counts, voters = self._counts(event, self.candidates, gettext_noop("candidate"))
        dropped = self._runoff_drops(counts)
        with self._tallied("hands", counts=counts, dropped=dropped, voters=voters):
            self._after_the_hands(counts, dropped)

    def _runoff_drops(self, counts: dict[int, int]) -> list[int]:
        """Who a show of hands over three or four drops: the fewest (all tied for it)."""
        if len(self.candidates) <= 2:
            return []
        fewest = min(counts.values())
        tied = sorted(seat for seat, c in counts.items() if c == fewest)
        if len(tied) > 1 and self.options.runoff_tie_for_fewest == "nobody_leaves":
            return []
        return tied

    def _after_the_hands(self, counts: dict[int, int], dropped: list[int]) -> None:
        if len(self.candidates) == 2:
            first, second = self.candidates
            if counts[first] == counts[second]:
                self.step = Step.EXPEL_BOTH  # «автокатастрофа»
            else:
                self._expel([first if counts[first] > counts[second] else second], Reason.VOTED)
            return
        remaining = [seat for seat in self.candidates if seat not in dropped]
        if not dropped or not remaining:  # a tie for the fewest that ends it, or all tied
            self._end_vote("runoff_tie")
        elif len(remaining) == 1:
            self._expel(remaining, Reason.VOTED)
        else:
            self.candidates = remaining  # 30 s more each, and hands again
            self.defended = set()
            self.hands_round += 1
            self.dropped = dropped

    def _on_expel_both(self, event: ExpelBothEvent) -> None:
        votes_for = _count_field(event, "for")
        self._require_day(Step.EXPEL_BOTH)
        self._check_hands_total(votes_for)
        with self._tallied("expel_both", votes_for=votes_for):
            if self.majority(votes_for):
                self._expel(list(self.candidates), Reason.CAR_CRASH)
            else:
                self._end_vote("both_kept")

    def _expel(self, seats: list[int], reason: Reason) -> None:
        self._end_vote(reason.value)
        self._eliminate([(seat, reason) for seat in seats])
