"""The state of a live game (RULES.md §B): the seats and what the game has recorded so
far, the records it keeps (eliminations, checks, the day's last vote), the fields an event
carries, and the checks every phase makes before it changes anything.

The phases add their handlers on top of `ClubState` (day.py, vote.py, night.py, end.py,
prompt.py); `ClubGame` (this package's `__init__`) puts them together behind `apply`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, TypedDict

from games.rules.errors import ProtocolError, RuleCode, RuleViolation, gettext_noop, seat_field
from games.rules.fold import EventFold
from games.rules.options import ClubOptions
from games.rules.roles import Role


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
    # Removed by the host's decision (`disqualify`), not by fouls: revealed, no last word.
    DISQUALIFIED = "disqualified"


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
        # The swindler's victim leaves in silence (RULES.md §B); a disqualified player
        # leaves the table at once, as FIIM's rules remove one (docs/protocol.md).
        return self.reason not in (Reason.SWINDLER, Reason.DISQUALIFIED)

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


class BestMoveDict(TypedDict):
    by: int
    targets: list[int]


@dataclass(frozen=True, slots=True)
class BestMove:
    """The best move (ЛХ) the first night's victim named: none named is «без ЛХ»."""

    by: int
    targets: tuple[int, ...]

    def as_dict(self) -> BestMoveDict:
        return {"by": self.by, "targets": list(self.targets)}


class BonusDict(TypedDict):
    seat: int
    points: float
    reason: str


@dataclass(frozen=True, slots=True)
class Bonus:
    """Extra points (a penalty when negative) the host gave a seat, and why."""

    seat: int
    points: float
    reason: str

    def as_dict(self) -> BonusDict:
        return {"seat": self.seat, "points": self.points, "reason": self.reason}


# A vote's result as JSON ("for" is a keyword: the functional form).
TallyDict = TypedDict(
    "TallyDict",
    {
        "type": str,  # "votes", "hands", "first_day_expel", "expel_both"
        "counts": dict[str, int] | None,  # per candidate, for votes and hands
        "for": int | None,  # the hands for, for a yes/no question
        "dropped": list[int],  # left the runoff by this show of hands (still in the game)
        "expelled": list[int],
        "defence": list[int],  # sent to the defence speech by this preliminary count
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
    # Who voted for whom (voter → candidate), when the host tapped the hands rather than
    # entering counts: the scoring reads the day's deciding vote from it.
    voters: dict[int, int] | None = None
    # The candidates a preliminary count sends to the defence speech (RULES.md §B, day 3);
    # empty when it ends the vote or expels its one candidate.
    defence: tuple[int, ...] = ()

    def as_dict(self) -> TallyDict:
        counts = self.counts
        return {
            "type": self.type,
            "counts": None if counts is None else {str(s): n for s, n in sorted(counts.items())},
            "for": self.votes_for,
            "dropped": list(self.dropped),
            "expelled": list(self.expelled),
            "defence": list(self.defence),
            "outcome": self.outcome,
        }


def _target_field(event: Mapping[str, object]) -> int | None:
    """A night action's target: a seat, or null for a role that woke and did nothing."""
    if event.get("target") is None:
        return None
    return seat_field(event, "target")


def _count_field(event: Mapping[str, object], key: str) -> int:
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


class ClubState(EventFold):
    """The state of one live game, as every phase reads and changes it."""

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
        # Recorded, never judged by the rules: the best move (ЛХ) and the host's extra points.
        self.best_move: BestMove | None = None
        self.bonuses: list[Bonus] = []
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
            "best_move": self.best_move.as_dict() if self.best_move else None,
            "bonuses": [b.as_dict() for b in self.bonuses],
        }

    def best_move_givers(self) -> list[int]:
        """Who may name the best move, by the option `best_move_victims`, once their death
        is known: the seats killed on night 1 (`night_one`), or in the first night that
        killed anyone (`first_killed`). Killed means shot dead (`killed`): the swindler's
        victim has no last word, and the maniac the kamikaze takes was not shot."""
        rule = self.options.best_move_victims
        shot = [e for e in self.eliminated if e.phase == Phase.NIGHT and e.reason == Reason.KILLED]
        if rule == "none" or not shot:
            return []
        night = 1 if rule == "night_one" else shot[0].n
        return sorted(e.seat for e in shot if e.n == night)

    def best_move_due(self) -> list[int]:
        """Who may name the best move now: nobody once it is recorded."""
        return [] if self.best_move is not None else self.best_move_givers()

    # --- what every phase checks first -------------------------------------------------

    def _require_day(self, *steps: Step) -> None:
        if self.phase != Phase.DAY:
            raise RuleViolation(RuleCode.NOT_DAY, gettext_noop("This happens by day only."))
        if steps and self.step not in steps:
            raise RuleViolation(
                RuleCode.WRONG_STEP, gettext_noop("This cannot happen at this point of the day.")
            )

    def _require_seat(self, seat: int) -> None:
        if seat not in self.roles:
            raise RuleViolation(
                RuleCode.NO_SUCH_SEAT, gettext_noop("There is no seat %(seat)s."), seat=seat
            )

    def _require_alive(self, seat: int, who: str = gettext_noop("player")) -> None:
        self._require_seat(seat)
        if seat not in self.alive:
            raise RuleViolation(
                RuleCode.SEAT_OUT,
                gettext_noop("Seat %(seat)s (%(who)s) has already left the table."),
                seat=seat,
                who=who,
            )

    def _end_vote(self, outcome: str) -> None:
        """The day's vote is over with this outcome: a count, a question or an elimination
        that leaves too few candidates ends it (vote.py and end.py both do)."""
        self.outcome = outcome
        self.step = Step.DONE
        self.candidates = []
