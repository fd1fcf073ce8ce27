"""The live game of the club (RULES.md §B) as a fold over its events.

`ClubGame.apply(event)` checks an event against the rules and either changes the state or
raises RuleViolation, leaving the state as it was. The same events always give the same
state. `prompt()` says what comes next, so the host's screen can be driven by the engine.

The state is mutable and changed in place: replaying a game is a loop over its events, and
the engine must do tens of thousands of them a second. `copy()` gives an independent state
for callers that want `state + event -> new state` without touching the old one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, TypedDict

from games.rules.errors import ProtocolError, RuleViolation, gettext_noop
from games.rules.fold import EventFold
from games.rules.options import ClubOptions
from games.rules.roles import MAFIA_KILL_ORDER, Action, CheckKind, Role, Team

ROUND_SECONDS = 30
LAST_IN_ROUND_SECONDS = 45
DEFENCE_SECONDS = 30
# Not in RULES.md: the last word is timed like a closing speech, and the «балаган» (the
# table's free talk) is two minutes, one on day 1 (the hosts' custom).
LAST_WORD_SECONDS = 60
BALAGAN_SECONDS = 120
BALAGAN_DAY_ONE_SECONDS = 60
EXTENSION_SECONDS = 30
MAX_CANDIDATES = 4
MAX_EXTENSIONS = 2
FOULS_TO_REMOVAL = 3


class Phase(StrEnum):
    SETUP = "setup"  # before day 1
    DAY = "day"
    NIGHT = "night"
    OVER = "over"


class Step(StrEnum):
    """Where a day stands."""

    ROUND = "round"  # speeches and nominations
    FIRST_DAY_QUESTION = "first_day_question"  # day 1: «expel anyone at all?»
    HANDS = "hands"  # a show of hands over the candidates
    EXPEL_BOTH = "expel_both"  # a tie of two: «expel both?»
    DONE = "done"  # nothing more to decide: the table may go to night


class Reason(StrEnum):
    VOTED = "voted"
    CAR_CRASH = "car_crash"
    FOULS = "fouls"
    KILLED = "killed"
    KAMIKAZE = "kamikaze"
    SWINDLER = "swindler"


class EliminationDict(TypedDict):
    """An elimination as JSON (the replay's summary, the host's screen)."""

    seat: int
    phase: str
    n: int
    reason: Reason
    revealed: bool
    last_word: bool


@dataclass(frozen=True, slots=True)
class Elimination:
    seat: int
    phase: str
    n: int
    reason: Reason

    @property
    def revealed(self) -> bool:
        return self.reason != Reason.SWINDLER

    @property
    def last_word(self) -> bool:
        return self.reason != Reason.SWINDLER

    def as_dict(self) -> EliminationDict:
        return {
            "seat": self.seat,
            "phase": self.phase,
            "n": self.n,
            "reason": self.reason,
            "revealed": self.revealed,
            "last_word": self.last_word,
        }


class CheckDict(TypedDict):
    by: int
    target: int
    result: str


@dataclass(frozen=True, slots=True)
class Check:
    by: int
    target: int
    result: str  # "red" / "black" for a team check; "commissar" / "not_commissar" for the boss

    def as_dict(self) -> CheckDict:
        return {"by": self.by, "target": self.target, "result": self.result}


# A vote's result as JSON ("for" is a keyword: the functional form).
TallyDict = TypedDict(
    "TallyDict",
    {
        "type": str,  # "votes", "hands", "first_day_expel", "expel_both"
        "counts": dict[str, int] | None,  # per candidate, for votes and hands
        "for": int | None,  # the hands for, for a yes/no question
        "dropped": list[int],  # left the runoff by this show of hands
        "expelled": list[int],
        "outcome": str | None,  # how the day's vote ended, if it did
    },
)


@dataclass(frozen=True, slots=True)
class Tally:
    """The day's last recorded vote and what it did, for the host to see."""

    type: str
    counts: dict[int, int] | None
    votes_for: int | None
    dropped: tuple[int, ...]
    expelled: tuple[int, ...]
    outcome: str | None

    def as_dict(self) -> TallyDict:
        counts = self.counts
        return {
            "type": self.type,
            "counts": None if counts is None else {str(s): n for s, n in sorted(counts.items())},
            "for": self.votes_for,
            "dropped": list(self.dropped),
            "expelled": list(self.expelled),
            "outcome": self.outcome,
        }


@dataclass(frozen=True, slots=True)
class Prompt:
    """What comes next, for the host's screen."""

    phase: str
    n: int
    step: str | None
    legal: tuple[str, ...]  # event types the engine accepts now
    speaker: int | None = None  # whose speech is next
    seconds: int | None = None  # how long that speech is
    question: str | None = None  # "expel_anyone", "expel_both" or "hands"
    candidates: tuple[int, ...] = ()
    wake: str | None = None  # the role (or "mafia" for the joint kill) that wakes now


def _violation(code: str, template: str, /, **params: Any) -> RuleViolation:
    return RuleViolation(code, template, **params)


def _seat_field(event: Mapping[str, Any], key: str) -> int:
    value = event.get(key)
    if type(value) is not int:
        raise ProtocolError(gettext_noop("Field `%(key)s` must be a seat number."), key=key)
    return value


def _target_field(event: Mapping[str, Any]) -> int | None:
    """A night action's target: a seat, or null for a role that woke and did nothing."""
    if event.get("target") is None:
        return None
    return _seat_field(event, "target")


def _count_field(event: Mapping[str, Any], key: str) -> int:
    value = event.get(key)
    if type(value) is not int or value < 0:
        raise ProtocolError(gettext_noop("Field `%(key)s` must be a non-negative number."), key=key)
    return value


def _seat_map(raw: object, key: str) -> dict[int, int]:
    """{"3": 5} or {3: 5} → {3: 5}; JSON object keys are strings."""
    if not isinstance(raw, Mapping):
        raise ProtocolError(gettext_noop("Field `%(key)s` must be an object."), key=key)
    result: dict[int, int] = {}
    for seat, value in raw.items():
        try:
            number = int(seat)
        except (TypeError, ValueError):
            raise ProtocolError(
                gettext_noop("In `%(key)s`, %(seat)s is not a seat."), key=key, seat=repr(seat)
            ) from None
        if type(value) is not int or value < 0 or number in result:
            raise ProtocolError(
                gettext_noop("In `%(key)s`, a bad value for seat %(seat)s."), key=key, seat=seat
            )
        result[number] = value
    return result


def carried_immunity(seats: Mapping[int, int], first_out: Iterable[int]) -> list[int]:
    """The seats of the new game that are immune on its day 1 and night 1: whoever left
    first in the evening's previous game (both, when two left at once as the first).
    `seats` maps a seat of the new game to its member, `first_out` names the members."""
    leaving = set(first_out)
    return sorted(seat for seat, member in seats.items() if member in leaving)


class ClubGame(EventFold):
    """The state of one live game."""

    after_end = frozenset({"foul"})

    def __init__(
        self,
        seats: Mapping[int, str],
        *,
        options: ClubOptions | None = None,
        immune: Iterable[int] = (),
    ) -> None:
        self.options = options or ClubOptions()
        roles = self.options.roles
        if not self.options.min_players <= len(seats) <= self.options.max_players:
            raise ProtocolError(
                gettext_noop(
                    "Players at the table: %(count)s; %(min_players)s to %(max_players)s "
                    "are needed."
                ),
                count=len(seats),
                min_players=self.options.min_players,
                max_players=self.options.max_players,
            )
        self.roles: dict[int, Role] = {}
        for seat, code in seats.items():
            if type(seat) is not int or seat < 1:
                raise ProtocolError(gettext_noop("Bad seat number: %(seat)s."), seat=repr(seat))
            if code not in roles:
                raise ProtocolError(
                    gettext_noop("Unknown role `%(code)s` (define it in options.roles)."), code=code
                )
            self.roles[seat] = roles[code]
        self.order: tuple[int, ...] = tuple(sorted(self.roles))
        self.immune = frozenset(immune)
        if not self.immune <= set(self.roles):
            raise ProtocolError(gettext_noop("`immune` names a seat not at the table."))
        self.alive: set[int] = set(self.roles)
        self.phase = Phase.SETUP
        self.n = 0
        self.winner: str | None = None
        self.eliminated: list[Elimination] = []
        self.first_eliminated: tuple[int, ...] = ()
        self.fouls: dict[int, int] = {}
        self.checks: list[Check] = []
        self.night_checks_from = 0  # where tonight's (or last night's) checks start
        self.events_applied = 0
        # The day.
        self.step = Step.ROUND
        self.nominees: list[int] = []  # in the order they were nominated
        self.nominations_by: dict[int, list[int]] = {}
        self.candidates: list[int] = []
        self.defended: set[int] = set()  # candidates who gave this vote's defence speech
        self.round_opener: int | None = None
        self.spoken: set[int] = set()
        self.extensions: dict[int, int] = {}  # «под фол» taken in the current speech
        self.extensions_total: dict[int, int] = {}
        self.speeches_end: datetime | None = None  # when the last speech or last word ended
        self.last_words_due: set[int] = set()
        self.outcome: str | None = None  # how the day's vote ended: e.g. "no_candidates"
        self.tally: Tally | None = None  # the day's last recorded vote
        self.hands_round = 0  # 1 for the first show of hands over these candidates, 2… after
        self.dropped: list[int] = []  # who the last show of hands dropped from the runoff
        # The night.
        self.night_order_reached = -1
        self.acted: set[str] = set()  # "check:boss", "kill:mafia", "heal", "action:7"
        self.kills: list[tuple[str, int]] = []
        self.heals: set[int] = set()
        self.night_targets: dict[int, list[str]] = {}  # tonight's targets → the slots aiming
        if self._winner() is not None:
            raise ProtocolError(gettext_noop("The line-up decides the game before it starts."))

    # --- reading the state -------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def majority_needed(self) -> int:
        """«Majority» always means more than half of the living players."""
        return len(self.alive) // 2 + 1

    def majority(self, votes: int) -> bool:
        return votes >= self.majority_needed

    @property
    def immune_now(self) -> frozenset[int]:
        """The carried-in immunity holds on day 1 and night 1 only."""
        return self.immune if self.n <= 1 else frozenset()

    def summary(self) -> dict[str, Any]:
        """The replay output of PROTOCOL.md."""
        return {
            "finished": self.finished,
            "winner": self.winner,
            "eliminated": [e.as_dict() for e in self.eliminated],
            "alive": sorted(self.alive),
            "first_eliminated": list(self.first_eliminated),
            "fouls": {str(seat): count for seat, count in sorted(self.fouls.items()) if count},
            "checks": [c.as_dict() for c in self.checks],
        }

    # --- applying events ---------------------------------------------------------------

    # Each handler checks everything first and changes the state only after.

    def _on_day(self, event: Mapping[str, Any]) -> None:
        n = _count_field(event, "n")
        if self.phase == Phase.SETUP:
            if n != 1:
                raise _violation("phase_order", gettext_noop("The game opens with day 1."))
        elif self.phase != Phase.NIGHT or n != self.n + 1:
            raise _violation("phase_order", gettext_noop("Day %(n)s cannot start now."), n=n)
        if self.phase == Phase.NIGHT:
            self._resolve_night()  # may end the game: the day then never starts
            if self.finished:
                return
        self.phase = Phase.DAY
        self.n = n
        self._start_day()

    def _on_night(self, event: Mapping[str, Any]) -> None:
        n = _count_field(event, "n")
        if self.phase != Phase.DAY or n != self.n:
            raise _violation("phase_order", gettext_noop("Night %(n)s cannot start now."), n=n)
        if self.step == Step.ROUND and self.nominees:
            raise _violation(
                "vote_pending", gettext_noop("Players are nominated: the vote comes first.")
            )
        if self.step not in (Step.ROUND, Step.DONE):
            raise _violation("vote_pending", gettext_noop("The day's vote is not finished."))
        self.phase = Phase.NIGHT
        self.night_checks_from = len(self.checks)
        self.night_order_reached = -1
        self.acted = set()
        self.kills = []
        self.heals = set()
        self.night_targets = {}
        self.last_words_due = set()

    def _start_day(self) -> None:
        self.step = Step.ROUND
        self.nominees = []
        self.nominations_by = {}
        self.candidates = []
        self.defended = set()
        self.spoken = set()
        self.extensions = {}
        self.outcome = None
        self.tally = None
        self.hands_round = 0
        self.dropped = []
        living = [seat for seat in self.order if seat in self.alive]
        if not living:
            return
        # Each day's round opens one seat further round the table than the day before
        # (docs/protocol.md, the option `day_opener`), skipping the seats that have left.
        if self.options.day_opener == "day_number":
            anchor = self.order[(self.n - 1) % len(self.order)]
            self.round_opener = next((seat for seat in living if seat >= anchor), living[0])
        elif self.round_opener is None:
            self.round_opener = living[0]
        else:
            later = [seat for seat in living if seat > self.round_opener]
            self.round_opener = later[0] if later else living[0]

    def _require_day(self, *steps: Step) -> None:
        if self.phase != Phase.DAY:
            raise _violation("not_day", gettext_noop("This happens by day only."))
        if steps and self.step not in steps:
            raise _violation(
                "wrong_step", gettext_noop("This cannot happen at this point of the day.")
            )

    def _require_seat(self, seat: int) -> None:
        if seat not in self.roles:
            raise _violation("no_such_seat", gettext_noop("There is no seat %(seat)s."), seat=seat)

    def _require_alive(self, seat: int, who: str = gettext_noop("player")) -> None:
        self._require_seat(seat)
        if seat not in self.alive:
            raise _violation(
                "seat_out",
                gettext_noop("Seat %(seat)s (%(who)s) has already left the table."),
                seat=seat,
                who=who,
            )

    def _on_nominate(self, event: Mapping[str, Any]) -> None:
        by, target = _seat_field(event, "by"), _seat_field(event, "target")
        self._require_day(Step.ROUND)
        self._require_alive(by, gettext_noop("nominator"))
        self._require_alive(target, gettext_noop("nominee"))
        if target in self.immune_now:
            raise _violation(
                "immune",
                gettext_noop("Seat %(target)s is immune on day 1 and cannot be nominated."),
                target=target,
            )
        made = self.nominations_by.get(by, [])
        if target in made:
            raise _violation(
                "duplicate_nomination",
                gettext_noop("Seat %(by)s has already nominated seat %(target)s."),
                by=by,
                target=target,
            )
        if len(made) >= 2:
            raise _violation(
                "too_many_nominations",
                gettext_noop("Seat %(by)s has already nominated two players."),
                by=by,
            )
        self.nominations_by[by] = [*made, target]
        if target not in self.nominees:
            self.nominees.append(target)

    def _counts(self, event: Mapping[str, Any], allowed: list[int], what: str) -> dict[int, int]:
        """Counts from `counts` or from `voters`; each living player counts once at most."""
        if "voters" in event:
            voters = _seat_map(event["voters"], "voters")
            counts = dict.fromkeys(allowed, 0)
            for voter, target in voters.items():
                self._require_alive(voter, gettext_noop("voter"))
                if target not in counts:
                    raise _violation(
                        "not_a_candidate",
                        gettext_noop("Seat %(target)s is not a %(what)s."),
                        target=target,
                        what=what,
                    )
                counts[target] += 1
            return counts
        counts = _seat_map(event.get("counts"), "counts")
        for seat in counts:
            if seat not in allowed:
                raise _violation(
                    "not_a_candidate",
                    gettext_noop("Seat %(seat)s is not a %(what)s."),
                    seat=seat,
                    what=what,
                )
        if sum(counts.values()) > len(self.alive):
            raise _violation(
                "too_many_votes",
                gettext_noop("More votes than living players (%(living)s)."),
                living=len(self.alive),
            )
        return {seat: counts.get(seat, 0) for seat in allowed}

    def _on_votes(self, event: Mapping[str, Any]) -> None:
        self._require_day(Step.ROUND)
        if not self.nominees:
            raise _violation("no_nominees", gettext_noop("Nobody is nominated: there is no vote."))
        counts = self._counts(event, self.nominees, gettext_noop("nominated player"))
        candidates = self._defence_candidates(counts)
        with self._tallied("votes", counts=counts):
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

    def _on_first_day_expel(self, event: Mapping[str, Any]) -> None:
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
            raise _violation(
                "too_many_votes",
                gettext_noop("More hands than living players (%(living)s)."),
                living=len(self.alive),
            )

    def _on_hands(self, event: Mapping[str, Any]) -> None:
        self._require_day(Step.HANDS)
        counts = self._counts(event, self.candidates, gettext_noop("candidate"))
        dropped = self._runoff_drops(counts)
        with self._tallied("hands", counts=counts, dropped=dropped):
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

    def _on_expel_both(self, event: Mapping[str, Any]) -> None:
        votes_for = _count_field(event, "for")
        self._require_day(Step.EXPEL_BOTH)
        self._check_hands_total(votes_for)
        with self._tallied("expel_both", votes_for=votes_for):
            if self.majority(votes_for):
                self._expel(list(self.candidates), Reason.CAR_CRASH)
            else:
                self._end_vote("both_kept")

    def _end_vote(self, outcome: str) -> None:
        self.outcome = outcome
        self.step = Step.DONE
        self.candidates = []

    def _expel(self, seats: list[int], reason: Reason) -> None:
        self._end_vote(reason.value)
        self._eliminate([(seat, reason) for seat in seats])

    def _on_foul(self, event: Mapping[str, Any]) -> None:
        seat = _seat_field(event, "seat")
        if self.finished:
            # A foul heard after the end (the recording's suggestion, accepted by the host):
            # it counts in the record and changes nothing of the finished game.
            if seat not in self.roles:
                raise _violation(
                    "no_such_seat", gettext_noop("There is no seat %(seat)s."), seat=seat
                )
            self.fouls[seat] = self.fouls.get(seat, 0) + 1
            return
        if self.phase not in (Phase.DAY, Phase.NIGHT):
            raise _violation("not_started", gettext_noop("The game has not started."))
        self._require_alive(seat)
        self._add_foul(seat)

    def _add_foul(self, seat: int) -> None:
        self.fouls[seat] = self.fouls.get(seat, 0) + 1
        if self.fouls[seat] >= FOULS_TO_REMOVAL:
            self._eliminate([(seat, Reason.FOULS)])

    def _on_extension(self, event: Mapping[str, Any]) -> None:
        seat = _seat_field(event, "seat")
        self._require_day()
        self._require_alive(seat)
        speaker = self.speaker_due()
        if self.options.speeches_checked and seat != speaker:
            raise _violation(
                "not_speaking",
                gettext_noop("«Под фол» is the speaker's: seat %(seat)s is not speaking now."),
                seat=seat,
            )
        taken = (
            self.extensions.get(seat, 0)
            if self.options.extension_limit_per == "speech"
            else self.extensions_total.get(seat, 0)
        )
        if taken >= MAX_EXTENSIONS:
            raise _violation("extension_limit", gettext_noop("«Под фол» is allowed twice at most."))
        self.extensions[seat] = self.extensions.get(seat, 0) + 1
        self.extensions_total[seat] = self.extensions_total.get(seat, 0) + 1
        self._add_foul(seat)  # each extension is a foul; the third foul removes the player

    def _on_speech(self, event: Mapping[str, Any]) -> None:
        seat = _seat_field(event, "seat")
        self._require_day()
        if self.options.speeches_checked:
            self._require_speaker(seat)
            end = self._require_after_the_last(event)
        else:
            if seat not in self.alive and seat not in self.last_words_due:
                self._require_alive(seat)
            end = self.speeches_end
        self.speeches_end = end
        self.spoken.add(seat)
        if self.step in (Step.FIRST_DAY_QUESTION, Step.HANDS) and seat in self.candidates:
            self.defended.add(seat)
        self.extensions.pop(seat, None)  # the next speech starts a fresh «под фол» count

    def _on_last_word(self, event: Mapping[str, Any]) -> None:
        seat = _seat_field(event, "seat")
        self._require_seat(seat)
        if seat not in self.last_words_due:
            raise _violation(
                "no_last_word", gettext_noop("Seat %(seat)s has no last word now."), seat=seat
            )
        if self.options.speeches_checked:
            self.speeches_end = self._require_after_the_last(event)
        self.last_words_due.discard(seat)

    def _require_speaker(self, seat: int) -> None:
        """A speech is the one due now: the next seat of the round, or the next candidate's
        defence; a seat that has spoken (or a departed one) is refused, saying who speaks."""
        self._require_seat(seat)
        due = self.speaker_due()
        if seat == due:
            return
        if (seat in self.spoken and self.step == Step.ROUND) or seat in self.defended:
            raise _violation("spoken", gettext_noop("Seat %(seat)s has already spoken."), seat=seat)
        if due is None:
            raise _violation("no_speech_due", gettext_noop("No speech is due now."))
        raise _violation(
            "speech_order",
            gettext_noop("Seat %(due)s speaks now, not seat %(seat)s."),
            due=due,
            seat=seat,
        )

    def _require_after_the_last(self, event: Mapping[str, Any]) -> datetime | None:
        """A speech or last word starts no earlier than the one before it ended (the
        recording's analysis reads who spoke when from these); returns the new end."""
        if "start" not in event:
            return self.speeches_end
        start = datetime.fromisoformat(event["start"])
        end = datetime.fromisoformat(event["end"])
        if self.speeches_end is not None and start < self.speeches_end:
            raise _violation(
                "speech_overlap",
                gettext_noop(
                    "This speech starts at %(start)s, before the one before it ended (%(end)s)."
                ),
                start=start.strftime("%H:%M:%S"),
                end=self.speeches_end.strftime("%H:%M:%S"),
            )
        return end

    # --- the night ---------------------------------------------------------------------

    def _require_night(self) -> None:
        if self.phase != Phase.NIGHT:
            raise _violation("not_night", gettext_noop("This happens at night only."))

    def _take_night_slot(self, order: int, slot: str) -> None:
        """Check that a role may act now, in the night order, once; then mark it as acted.
        Callers check everything else first: nothing after this may refuse the event."""
        if slot in self.acted:
            raise _violation("already_acted", gettext_noop("This role has already acted tonight."))
        if order < self.night_order_reached:
            raise _violation(
                "night_order", gettext_noop("Night actions are recorded in the night order.")
            )
        self.acted.add(slot)
        self.night_order_reached = order

    def _seat_role_acting(self, seat: int, action: Action) -> Role:
        self._require_alive(seat, gettext_noop("actor"))
        role = self.roles[seat]
        if role.action != action or role.night_order is None:
            raise _violation(
                "wrong_role", gettext_noop("Seat %(seat)s cannot do this at night."), seat=seat
            )
        return role

    def _on_check(self, event: Mapping[str, Any]) -> None:
        by, target = _seat_field(event, "by"), _target_field(event)
        self._require_night()
        role = self._seat_role_acting(by, Action.CHECK)
        if target is not None:
            self._require_alive(target, gettext_noop("checked player"))
        slot = f"check:{role.code}"
        self._take_night_slot(role.night_order or 0, slot)
        if target is not None:
            self.checks.append(Check(by, target, self._check_result(role, target)))
            self._aimed(target, slot)

    def _check_result(self, role: Role, target: int) -> str:
        target_role = self.roles[target]
        if role.check == CheckKind.COMMISSAR:
            return "commissar" if target_role.code == "commissar" else "not_commissar"
        if target_role.team == Team.LONER:
            return self.options.loners_check_as
        return target_role.team.value

    def _killers(self, by: str) -> tuple[int, list[int]]:
        """The night order of a kill by `by` and the living seats who make it."""
        if by == "swindler" and not self.options.swindler_kills:
            raise _violation(
                "no_such_kill", gettext_noop("Under these rules the swindler does not kill.")
            )
        shooters = [
            seat
            for seat in self.alive
            if self.roles[seat].shoots_as == by
            or (self.roles[seat].code == by and self.roles[seat].action == Action.KILL)
        ]
        orders = [
            order
            for seat in shooters
            if self.roles[seat].action == Action.KILL
            and (order := self.roles[seat].night_order) is not None
        ]
        if not shooters:
            raise _violation("no_killer", gettext_noop("Nobody alive shoots as `%(by)s`."), by=by)
        order = MAFIA_KILL_ORDER if by == "mafia" else min(orders, default=MAFIA_KILL_ORDER)
        return order, shooters

    def _on_kill(self, event: Mapping[str, Any]) -> None:
        by = event.get("by")
        target = _target_field(event)
        if not isinstance(by, str):
            raise ProtocolError(gettext_noop("Field `by` names who shoots."))
        self._require_night()
        if self.n == 1 and not self.options.night_one_kills:
            raise _violation(
                "no_kills_night_one", gettext_noop("No kills on night 1 under these rules.")
            )
        order, _shooters = self._killers(by)
        if target is not None:
            self._require_alive(target, gettext_noop("target"))
        slot = f"kill:{by}"
        self._take_night_slot(order, slot)
        if target is not None:
            self.kills.append((by, target))
            self._aimed(target, slot)

    def _on_heal(self, event: Mapping[str, Any]) -> None:
        target = _target_field(event)
        self._require_night()
        healers = [s for s in self.alive if self.roles[s].action == Action.HEAL]
        if not healers:
            raise _violation("no_healer", gettext_noop("There is no doctor at the table."))
        if target is not None:
            self._require_alive(target, gettext_noop("target"))
        order = min(self.roles[s].night_order or 0 for s in healers)
        self._take_night_slot(order, "heal")
        if target is not None:
            self.heals.add(target)
            self._aimed(target, "heal")

    def _on_action(self, event: Mapping[str, Any]) -> None:
        by, target = _seat_field(event, "by"), _target_field(event)
        kind = event.get("kind")
        if not isinstance(kind, str) or not kind:
            raise ProtocolError(gettext_noop("Field `kind` names the action."))
        self._require_night()
        role = self._seat_role_acting(by, Action.OTHER)
        if target is not None:
            self._require_alive(target, gettext_noop("target"))
        slot = f"action:{by}"
        self._take_night_slot(role.night_order or 0, slot)
        # Recorded as it is: the engine resolves nothing for it (RULES.md §B).
        if target is not None:
            self._aimed(target, slot)

    def _aimed(self, target: int, slot: str) -> None:
        self.night_targets[target] = [*self.night_targets.get(target, []), slot]

    def _resolve_night(self) -> None:
        """The morning: kills land unless healed, or on a seat immune on night 1."""
        casualties: dict[int, Reason] = {}
        for by, target in self.kills:
            if target in self.heals or target in self.immune_now:
                continue
            if target not in casualties:
                casualties[target] = Reason.SWINDLER if by == "swindler" else Reason.KILLED
            if (
                by == "maniac"
                and self.roles[target].code == "kamikaze"
                and self.options.kamikaze_takes_maniac
            ):
                for seat in self.alive:
                    if self.roles[seat].code == "maniac" and seat not in casualties:
                        casualties[seat] = Reason.KAMIKAZE
        if casualties:
            self._eliminate(sorted(casualties.items()), phase=Phase.NIGHT)

    # --- leaving the table and winning --------------------------------------------------

    def _eliminate(self, leaving: list[tuple[int, Reason]], phase: Phase | None = None) -> None:
        phase = phase or self.phase
        batch = []
        for seat, reason in sorted(leaving):
            if seat not in self.alive:
                continue
            self.alive.discard(seat)
            elimination = Elimination(seat, phase.value, self.n, reason)
            self.eliminated.append(elimination)
            batch.append(seat)
            if elimination.last_word:
                self.last_words_due.add(seat)
            if seat in self.nominees:
                self.nominees.remove(seat)
            if seat in self.candidates:
                self.candidates.remove(seat)
        if not batch:
            return
        if not self.first_eliminated:
            self.first_eliminated = tuple(batch)
        # A candidate removed mid-vote (by fouls) leaves too few to vote on.
        if self.step in (Step.HANDS, Step.EXPEL_BOTH) and len(self.candidates) < 2:
            self._end_vote("candidates_left")
        if self.step == Step.FIRST_DAY_QUESTION and not self.candidates:
            self._end_vote("candidates_left")
        self._check_win()

    def _winner(self) -> str | None:
        black = red = 0
        loners: list[Role] = []
        for seat in self.alive:
            team = self.roles[seat].team
            if team == Team.BLACK:
                black += 1
            elif team == Team.RED:
                red += 1
            else:
                loners.append(self.roles[seat])
        if black == 0 and not loners:
            return Team.RED.value  # every black card gone, loners included
        if black >= 1 and black >= red:
            return Team.BLACK.value  # parity; loners are not counted
        if (
            self.options.loner_wins_alone
            and black == 0
            and loners
            and len(self.alive) - len(loners) <= 1
            and len(loners) == 1
        ):
            return loners[0].code
        return None

    def _check_win(self) -> None:
        winner = self._winner()
        if winner is not None:
            self.winner = winner
            self.phase = Phase.OVER

    # --- what comes next ----------------------------------------------------------------

    def round_order(self) -> list[int]:
        living = [seat for seat in self.order if seat in self.alive]
        if self.round_opener is None or not living:
            return living
        start = next((i for i, seat in enumerate(living) if seat >= self.round_opener), 0)
        return living[start:] + living[:start]

    def speaker_due(self) -> int | None:
        """Whose speech is due now: the round's next seat, or the next candidate's defence;
        None between them (a vote, a question, the night)."""
        if self.phase != Phase.DAY:
            return None
        if self.step == Step.ROUND:
            # round_order()'s first seat not yet spoken, without building the order: this
            # runs for every speech of a replay.
            order = self.order
            start = order.index(self.round_opener) if self.round_opener is not None else 0
            for i in range(len(order)):
                seat = order[(start + i) % len(order)]
                if seat in self.alive and seat not in self.spoken:
                    return seat
            return None
        if self.step in (Step.FIRST_DAY_QUESTION, Step.HANDS):
            return next((seat for seat in self.candidates if seat not in self.defended), None)
        return None

    def prompt(self) -> Prompt:
        if self.phase == Phase.OVER:
            return Prompt(self.phase.value, self.n, None, ())
        if self.phase == Phase.SETUP:
            return Prompt(self.phase.value, 0, None, ("day",))
        if self.phase == Phase.NIGHT:
            return Prompt(
                self.phase.value, self.n, None, self._night_legal(), wake=self._next_to_wake()
            )
        always = ("speech", "foul", "extension", "last_word")
        if self.step == Step.ROUND:
            waiting = [seat for seat in self.round_order() if seat not in self.spoken]
            speaker = waiting[0] if waiting else None
            seconds = None
            if speaker is not None:
                base = LAST_IN_ROUND_SECONDS if len(waiting) == 1 else ROUND_SECONDS
                seconds = base + EXTENSION_SECONDS * self.extensions.get(speaker, 0)
            legal = (
                (*always, "nominate", "votes") if self.nominees else (*always, "nominate", "night")
            )
            return Prompt(self.phase.value, self.n, self.step.value, legal, speaker, seconds)
        questions = {
            Step.FIRST_DAY_QUESTION: ("expel_anyone", "first_day_expel"),
            Step.HANDS: ("hands", "hands"),
            Step.EXPEL_BOTH: ("expel_both", "expel_both"),
        }
        if self.step in questions:
            question, event_type = questions[self.step]
            # The candidates' defence speeches, in their order, before the hands; «под фол»
            # lengthens a defence as it does a speech of the round.
            speaker = self.speaker_due()
            return Prompt(
                self.phase.value,
                self.n,
                self.step.value,
                (*always, event_type),
                speaker=speaker,
                seconds=DEFENCE_SECONDS + EXTENSION_SECONDS * self.extensions.get(speaker or 0, 0),
                question=question,
                candidates=tuple(self.candidates),
            )
        return Prompt(self.phase.value, self.n, self.step.value, (*always, "night"))

    def night_slots(self) -> list[tuple[int, str]]:
        """(order, slot) of every night action that living roles could still take."""
        slots: dict[str, int] = {}
        for seat in self.alive:
            role = self.roles[seat]
            if role.night_order is None:
                continue
            if role.action == Action.CHECK:
                slots[f"check:{role.code}"] = role.night_order
            elif role.action == Action.HEAL:
                slots["heal"] = min(slots.get("heal", role.night_order), role.night_order)
            elif role.action == Action.OTHER:
                slots[f"action:{seat}"] = role.night_order
            if role.shoots_as == "mafia" or role.code == "mafia":
                slots["kill:mafia"] = MAFIA_KILL_ORDER
            elif role.action == Action.KILL:
                if role.code == "swindler" and not self.options.swindler_kills:
                    continue
                slots[f"kill:{role.shoots_as or role.code}"] = role.night_order
        if self.n == 1 and not self.options.night_one_kills:
            slots = {slot: order for slot, order in slots.items() if not slot.startswith("kill:")}
        return sorted(
            (order, slot)
            for slot, order in slots.items()
            if slot not in self.acted and order >= self.night_order_reached
        )

    def _next_to_wake(self) -> str | None:
        slots = self.night_slots()
        return slots[0][1].split(":", 1)[-1] if slots else None

    def _night_legal(self) -> tuple[str, ...]:
        kinds = {slot.split(":", 1)[0] for _order, slot in self.night_slots()}
        return (*sorted(kinds), "foul", "day")

    _handlers = {
        "day": _on_day,
        "night": _on_night,
        "nominate": _on_nominate,
        "votes": _on_votes,
        "first_day_expel": _on_first_day_expel,
        "hands": _on_hands,
        "expel_both": _on_expel_both,
        "foul": _on_foul,
        "extension": _on_extension,
        "speech": _on_speech,
        "last_word": _on_last_word,
        "check": _on_check,
        "kill": _on_kill,
        "heal": _on_heal,
        "action": _on_action,
    }
