"""The state of an online game (RULES.md §D): the seats and what the game has recorded so
far, its records (eliminations, checks, the catastrophe round, the story its thread tells),
the fields an event carries, and what every phase checks first.

The phases add their handlers on top of `OnlineState` (day.py, vote.py, night.py, end.py,
prompt.py); `OnlineGame` (this package's `__init__`) puts them together behind `apply`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypedDict

from games.rules.errors import ProtocolError, RuleCode, RuleViolation, gettext_noop
from games.rules.fold import EventFold
from games.rules.online.options import OnlineOptions

BLACK_ROLES = frozenset({"don", "mafia"})
ROLES = ("don", "mafia", "commissar", "civilian")
LINEUP = {"don": 1, "mafia": 2, "commissar": 1, "civilian": 6}
PASS, HANG_ALL, PARDON_ALL = "pass", "hang_all", "pardon_all"
MAX_VOTES_A_DAY = 2  # the second vote of a day is final

# A vote's choice: a seat, or a word (PASS by day; HANG_ALL / PARDON_ALL in a catastrophe).
type Choice = int | str


class Phase(StrEnum):
    SETUP = "setup"
    DAY = "day"
    NIGHT = "night"
    OVER = "over"


class Reason(StrEnum):
    VOTED = "voted"
    KILLED = "killed"
    MODKILL = "modkill"
    WARNINGS = "warnings"


class EliminationDict(TypedDict):
    seat: int
    phase: str
    n: int
    reason: str
    revealed: bool
    last_word: bool


class CheckDict(TypedDict):
    by: int
    target: int
    result: str


class CatastropheDict(TypedDict):
    tied: list[int]
    question: bool


@dataclass(frozen=True, slots=True)
class Elimination:
    seat: int
    phase: str
    n: int
    reason: Reason

    def as_dict(self, revealed: bool) -> EliminationDict:
        return {
            "seat": self.seat,
            "phase": self.phase,
            "n": self.n,
            "reason": self.reason.value,
            "revealed": revealed,  # roles stay closed until the game ends
            "last_word": True,  # every eliminated player has one
        }


@dataclass(frozen=True, slots=True)
class Check:
    by: int
    kind: str  # "don" (commissar or not) or "commissar" (red or black)
    target: int
    result: str

    def as_dict(self) -> CheckDict:
        return {"by": self.by, "target": self.target, "result": self.result}


@dataclass
class Catastrophe:
    """The round after a tie of leaders: the tied post once each; the others revote."""

    tied: list[int]
    question: bool  # True: «hang all / pardon all»; False: a revote among the tied
    votes: dict[int, Choice]  # voter → a tied seat, HANG_ALL or PARDON_ALL
    posted: set[int]
    excluded: set[int] = field(default_factory=set)  # untied of the last round, not voting
    advance: set[int] = field(default_factory=set)  # votes left in advance, replaceable once

    def voters(self, alive: set[int]) -> set[int]:
        return alive - set(self.tied) - self.excluded


@dataclass(frozen=True, slots=True)
class Story:
    """One public line of the game, in order, as its thread tells it.

    kind: phase, vote, revote, fast, unfast, post, last_word, round_post, catastrophe,
    outcome, warning, removed, modkill, end. `index` is the event it comes from (its text
    and time), `seat` who acted, `target` a vote's choice, `seats` who left (an outcome)
    or who is tied (a catastrophe), `detail` an outcome's word, a vote's "changed" or
    "final", a warning's count, the winner.
    """

    kind: str
    phase: str
    n: int
    index: int
    seat: int | None = None
    target: Choice | None = None
    seats: tuple[int, ...] = ()
    detail: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "phase": self.phase,
            "n": self.n,
            "index": self.index,
            "seat": self.seat,
            "target": self.target,
            "seats": list(self.seats),
            "detail": self.detail,
        }


class OnlineState(EventFold):
    """The state of one online game, as every phase reads and changes it."""

    def __init__(self, seats: Mapping[int, str], *, options: OnlineOptions | None = None) -> None:
        self.options = options or OnlineOptions()
        for seat, role in seats.items():
            if type(seat) is not int or seat < 1:
                raise ProtocolError(gettext_noop("Bad seat number: %(seat)s."), seat=repr(seat))
            if role not in ROLES:
                raise ProtocolError(
                    gettext_noop("The online game has no role `%(role)s`."), role=role
                )
        counts = Counter(seats.values())
        if self.options.strict_lineup and dict(counts) != LINEUP:
            raise ProtocolError(
                gettext_noop(
                    "The online line-up is a don, two mafia, a commissar and six civilians."
                )
            )
        if counts["don"] > 1 or counts["commissar"] > 1 or not counts["don"] + counts["mafia"]:
            raise ProtocolError(
                gettext_noop("A game has one don, at most one commissar and at least one mafioso.")
            )
        self.roles: dict[int, str] = dict(seats)
        self.order = tuple(sorted(self.roles))
        self.alive: set[int] = set(self.roles)
        self.phase = Phase.SETUP
        self.open = False  # the current phase takes actions (closed: resolved, waiting)
        self.n = 0
        self.winner: str | None = None
        self.eliminated: list[Elimination] = []
        self.warnings: dict[int, int] = {}
        self.checks: list[Check] = []
        self.misfires = 0  # misfired or skipped nights in a row
        self.events_applied = 0
        self.last_words_due: set[int] = set()
        self.outcome: str | None = None  # how the last phase ended
        self.resolutions = 0  # phases and rounds resolved: a door sees one it caused
        self.story: list[Story] = []  # the game as its thread tells it
        # The day.
        self.votes: dict[int, Choice] = {}  # voter → seat or PASS
        self.vote_count: dict[int, int] = {}
        self.fasted: set[int] = set()
        self.vote_cancelled = False  # a modkill today
        self.cancel_next_vote = False  # a modkill last night (option)
        self.removed_today = 0  # by the host, for «never more than two» over the day
        self.tied_rounds = 0  # revote rounds in a row that ended tied
        self.ended_by_fast = False  # today closed because everyone fasted: a fast night
        self.catastrophe: Catastrophe | None = None
        self.held: dict[int, str] = {}  # HANG_ALL/PARDON_ALL left in advance
        self.posts: list[tuple[int, int]] = []  # (day, seat)
        # The night.
        self.shots: dict[int, int | None] = {}
        self.advance_shots: dict[int, int | None] = {}  # left by day for the coming night
        self.checked: set[str] = set()

    # --- reading the state -------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def black_alive(self) -> set[int]:
        return {s for s in self.alive if self.roles[s] in BLACK_ROLES}

    def tally(self) -> dict[Choice, int]:
        """The day's votes per seat, and PASS."""
        return dict(Counter(self.votes.values()))

    def leaders(self) -> list[int]:
        """The seats with the most votes (PASS does not compete)."""
        counts = Counter(t for t in self.votes.values() if isinstance(t, int))  # not PASS
        if not counts:
            return []
        top = max(counts.values())
        return sorted(seat for seat, count in counts.items() if count == top)

    @property
    def first_eliminated(self) -> tuple[int, ...]:
        """The seats that left first (together, in the same phase)."""
        if not self.eliminated:
            return ()
        head = self.eliminated[0]
        return tuple(e.seat for e in self.eliminated if (e.phase, e.n) == (head.phase, head.n))

    def summary(self) -> dict[str, Any]:
        """The replay output of PROTOCOL.md."""
        return {
            "finished": self.finished,
            "winner": self.winner,
            "eliminated": [e.as_dict(self.finished) for e in self.eliminated],
            "alive": sorted(self.alive),
            "first_eliminated": list(self.first_eliminated),
            "fouls": {str(s): n for s, n in sorted(self.warnings.items()) if n},
            "checks": [c.as_dict() for c in self.checks],
        }

    # --- what every phase checks first -------------------------------------------------

    def _tell(self, kind: str, **line: Any) -> None:
        """A line of the story, from the event being applied (its index)."""
        self.story.append(Story(kind, self.phase.value, self.n, self.events_applied, **line))

    def _living(self, seat: int) -> None:
        if seat not in self.alive:
            raise RuleViolation(
                RuleCode.NOT_ALIVE, gettext_noop("Player %(seat)s is not in the game."), seat=seat
            )

    def _require_open(self, phase: Phase) -> None:
        if self.phase != phase or not self.open:
            raise RuleViolation(
                RuleCode.WRONG_PHASE,
                gettext_noop("Not now: it belongs to an open day.")
                if phase == Phase.DAY
                else gettext_noop("It is not night."),
            )
