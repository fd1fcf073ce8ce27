"""The online text game (RULES.md §D) as a fold over its events, like the club engine.

`OnlineGame.apply(event)` checks an event and changes the state, or raises RuleViolation
and changes nothing. Phases open and close: `day_end` / `night_end` resolve the phase (an
implicit close happens when the next phase starts without one), and a day whose every
living player has fasted (the one under the vote may abstain) resolves at once, as the
reading of RULES.md says. `OnlineOptions` holds each reading that a club may switch.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from games.rules.errors import ProtocolError, RuleViolation, gettext_noop
from games.rules.fold import EventFold

BLACK_ROLES = frozenset({"don", "mafia"})
ROLES = ("don", "mafia", "commissar", "civilian")
LINEUP = {"don": 1, "mafia": 2, "commissar": 1, "civilian": 6}
PASS, HANG_ALL, PARDON_ALL = "pass", "hang_all", "pardon_all"
MAX_VOTES_A_DAY = 2  # the second vote of a day is final


SILENCE = ("nothing", "warning")  # what a player silent in a catastrophe round gets
TWO_LEAVE = ("vote", "day")  # what «never more than two leave» counts


@dataclass(frozen=True)
class OnlineOptions:
    """The readings of RULES.md §D a club may switch, each with the default the text reads
    most plainly (docs/protocol.md says why)."""

    misfires_to_town_win: int = 3  # misfired or skipped nights in a row
    warnings_to_removal: int = 3
    # Day 1: a single vote on a player with every other living player on PASS pardons.
    day_one_pardon: bool = True
    # ... and the players who did not vote count as PASS there (8 PASS, 1 vote, 1 silent).
    day_one_pardon_with_silent: bool = False
    # When everyone has fasted, the day's vote is resolved then (else: at day_end only).
    fast_resolves_day: bool = True
    # ... also on a day with a modkill (else its night comes on schedule).
    fast_night_after_modkill: bool = False
    # The line-up is the rules' own: don, two mafia, commissar, six civilians.
    strict_lineup: bool = True
    # A removal for warnings by day is the host's removal, a modkill: no vote that day.
    warnings_removal_cancels_vote: bool = True
    # A modkill at night cancels the coming day's vote too.
    night_modkill_cancels_next_vote: bool = False
    # «Если лидеров 3 то заново»: revote rounds ending tied, in a row, after which nobody
    # leaves that day; 0: none, the revote is held again while the tie lasts (as written).
    revote_tie_limit: int = 0
    # A player no longer tied after a revote (the third of three) votes in the next round.
    untied_vote_in_followup: bool = True
    # A «hang all / pardon all» vote left in advance may be replaced once in the round.
    advance_vote_replaceable: bool = True
    # A living player who does not vote in a catastrophe round: "nothing" (counts for
    # nobody) or "warning" (one warning each when the round closes).
    catastrophe_silence: str = "nothing"
    # The round closes by itself once every tied player has posted and every other living
    # player has voted (else at its deadline or when the host closes it).
    catastrophe_closes_when_all_posted: bool = True
    # «Never more than two leave by one vote»: counted over the vote ("vote") or over the
    # whole day, the host's removals included ("day").
    two_leave_limit: str = "vote"
    # A mafioso may change the night's shot until the night closes.
    shot_changeable: bool = False
    # The don and the commissar may check a player who has left (roles stay closed).
    check_departed: bool = True

    @classmethod
    def from_dict(cls, raw: object) -> OnlineOptions:
        if raw is None:
            return cls()
        if not isinstance(raw, Mapping):
            raise ProtocolError(gettext_noop("`options` must be an object."))
        defaults = cls()
        values: dict[str, Any] = {}
        low = {"revote_tie_limit": 0}
        words = {"catastrophe_silence": SILENCE, "two_leave_limit": TWO_LEAVE}
        for key, value in raw.items():
            if key not in {f.name for f in fields(cls)}:
                raise ProtocolError(gettext_noop("Unknown ruleset option: %(key)s."), key=key)
            expected = type(getattr(defaults, key))
            if (
                type(value) is not expected
                or (expected is int and not low.get(key, 1) <= value <= 20)
                or (expected is str and value not in words[key])
            ):
                raise ProtocolError(gettext_noop("A bad value for option %(key)s."), key=key)
            values[key] = value
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


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


@dataclass(frozen=True, slots=True)
class Elimination:
    seat: int
    phase: str
    n: int
    reason: Reason

    def as_dict(self, revealed: bool) -> dict[str, Any]:
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

    def as_dict(self) -> dict[str, Any]:
        return {"by": self.by, "target": self.target, "result": self.result}


@dataclass
class Catastrophe:
    """The round after a tie of leaders: the tied post once each; the others revote."""

    tied: list[int]
    question: bool  # True: «hang all / pardon all»; False: a revote among the tied
    votes: dict[int, Any]  # voter → a tied seat, HANG_ALL or PARDON_ALL
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
    target: Any = None
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


def _violation(code: str, template: str, /, **params: Any) -> RuleViolation:
    return RuleViolation(code, template, **params)


def _seat(event: Mapping[str, Any], key: str) -> int:
    value = event.get(key)
    if type(value) is not int:
        raise ProtocolError(gettext_noop("Field `%(key)s` must be a seat number."), key=key)
    return value


class OnlineGame(EventFold):
    """The state of one online game."""

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
        self.votes: dict[int, Any] = {}  # voter → seat or PASS
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

    def tally(self) -> dict[Any, int]:
        """The day's votes per seat, and PASS."""
        return dict(Counter(self.votes.values()))

    def leaders(self) -> list[int]:
        """The seats with the most votes (PASS does not compete)."""
        counts = Counter(t for t in self.votes.values() if t != PASS)
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

    def actions_for(self, seat: int) -> tuple[str, ...]:
        """What the player in `seat` may do now (the host's moderation aside): the one
        answer the table's page, the bot's buttons and the night's reminders all read.
        "post" is the last word for a player who has just left."""
        if self.phase == Phase.OVER or seat not in self.roles:
            return ()
        if seat not in self.alive:
            return ("post",) if seat in self.last_words_due else ()
        role = self.roles[seat]
        actions: list[str] = []
        if self.phase == Phase.DAY and self.open:
            round_ = self.catastrophe
            if round_ is not None:
                if seat in round_.tied and seat not in round_.posted:
                    actions.append("post")
                replaceable = seat in round_.advance and self.options.advance_vote_replaceable
                voter = seat in round_.voters(self.alive)
                if voter and (seat not in round_.votes or replaceable):
                    actions.append("revote")
            else:
                if self.vote_count.get(seat, 0) < MAX_VOTES_A_DAY:
                    actions.append("vote")
                actions += ["unfast" if seat in self.fasted else "fast", "post"]
                if role in BLACK_ROLES:
                    actions.append("shot")  # left in advance for the coming night
        elif self.phase == Phase.DAY:
            actions.append("post")
        elif self.phase == Phase.NIGHT and self.open:
            if role in BLACK_ROLES and seat not in self.shots:
                actions.append("shot")
            if role == "don" and "don" not in self.checked:
                actions.append("don_check")
            if role == "commissar" and "commissar" not in self.checked:
                actions.append("com_check")
        return tuple(actions)

    def prompt(self) -> dict[str, Any]:
        """What the players and the host may do now."""
        legal: list[str] = ["warning", "modkill"] if self.phase in (Phase.DAY, Phase.NIGHT) else []
        if self.phase == Phase.SETUP:
            legal = ["day"]
        elif self.phase == Phase.DAY and self.open:
            if self.catastrophe:
                legal += ["revote", "post", "day_end", "extend"]
            else:
                legal += ["vote", "fast", "unfast", "post", "revote", "shot", "day_end", "extend"]
        elif self.phase == Phase.DAY:
            legal += ["night", "post"]
        elif self.phase == Phase.NIGHT and self.open:
            legal += ["shot", "don_check", "com_check", "night_end", "extend"]
        elif self.phase == Phase.NIGHT:
            legal += ["day"]
        return {
            "phase": self.phase.value,
            "n": self.n,
            "open": self.open,
            "legal": legal,
            "tally": {str(k): v for k, v in self.tally().items()},
            "catastrophe": (
                {"tied": self.catastrophe.tied, "question": self.catastrophe.question}
                if self.catastrophe
                else None
            ),
            "outcome": self.outcome,
        }

    # --- applying events ---------------------------------------------------------------

    def _tell(self, kind: str, **line: Any) -> None:
        """A line of the story, from the event being applied (its index)."""
        self.story.append(Story(kind, self.phase.value, self.n, self.events_applied, **line))

    def _living(self, seat: int) -> None:
        if seat not in self.alive:
            raise _violation(
                "not_alive", gettext_noop("Player %(seat)s is not in the game."), seat=seat
            )

    def _require_open(self, phase: Phase) -> None:
        if self.phase != phase or not self.open:
            raise _violation(
                "wrong_phase",
                gettext_noop("Not now: it belongs to an open day.")
                if phase == Phase.DAY
                else gettext_noop("It is not night."),
            )

    # Phases.

    def _on_day(self, event: Mapping[str, Any]) -> None:
        n = event.get("n")
        expected = 1 if self.phase == Phase.SETUP else self.n + 1
        if self.phase not in (Phase.SETUP, Phase.NIGHT) or n != expected:
            raise _violation("phase_order", gettext_noop("Day %(n)s cannot start now."), n=n)
        if self.phase == Phase.NIGHT and self.open:
            self._resolve_night()
            if self.finished:
                return
        self.phase, self.n, self.open = Phase.DAY, expected, True
        self.votes, self.vote_count, self.fasted = {}, {}, set()
        self.catastrophe, self.held = None, {}
        # A modkill last night cancels this day's vote where the club reads it so.
        self.vote_cancelled, self.cancel_next_vote = self.cancel_next_vote, False
        self.removed_today = self.tied_rounds = 0
        self.ended_by_fast = False
        self.outcome = None
        self._tell("phase")

    def _on_night(self, event: Mapping[str, Any]) -> None:
        n = event.get("n")
        if self.phase != Phase.DAY or n != self.n:
            raise _violation("phase_order", gettext_noop("Night %(n)s cannot start now."), n=n)
        if self.open:
            if self.catastrophe is not None or self._would_tie():
                raise _violation(
                    "vote_pending",
                    gettext_noop(
                        "The leaders are tied: the catastrophe comes first (close the day)."
                    ),
                )
            self._resolve_day()
            if self.finished:
                return
        self.phase, self.open = Phase.NIGHT, True
        self.shots = {s: t for s, t in self.advance_shots.items() if s in self.alive}
        self.advance_shots, self.checked = {}, set()
        self.outcome, self.ended_by_fast = None, False
        self._tell("phase")

    def _would_tie(self) -> bool:
        """Closing the day now would start a catastrophe."""
        return not self.vote_cancelled and len(self.leaders()) > 1 and len(self.alive) != 4

    def _on_day_end(self, event: Mapping[str, Any]) -> None:
        self._require_open(Phase.DAY)
        self._resolve_day()

    def _on_night_end(self, event: Mapping[str, Any]) -> None:
        self._require_open(Phase.NIGHT)
        self._resolve_night()

    def _on_extend(self, event: Mapping[str, Any]) -> None:
        minutes = event.get("minutes")
        if type(minutes) is not int or not 1 <= minutes <= 24 * 60:
            raise ProtocolError(gettext_noop("`minutes` is 1 to 1440."))
        if not self.open:
            raise _violation("wrong_phase", gettext_noop("There is no open phase to extend."))

    # The day.

    def _on_vote(self, event: Mapping[str, Any]) -> None:
        self._require_open(Phase.DAY)
        voter = _seat(event, "voter")
        self._living(voter)
        target = event.get("target")
        if target != PASS:
            if type(target) is not int:
                raise ProtocolError(gettext_noop("A vote is for a seat or `pass`."))
            self._living(target)
        if self.catastrophe is not None:
            raise _violation(
                "catastrophe", gettext_noop("A catastrophe is on: vote in the revote.")
            )
        if self.vote_count.get(voter, 0) >= MAX_VOTES_A_DAY:
            raise _violation(
                "vote_final",
                gettext_noop("The vote was changed once already: the second vote is final."),
            )
        self.votes[voter] = target
        self.vote_count[voter] = self.vote_count.get(voter, 0) + 1
        final = self.vote_count[voter] == MAX_VOTES_A_DAY
        self._tell("vote", seat=voter, target=target, detail="final" if final else "")
        self._maybe_fast_night()

    def _on_fast(self, event: Mapping[str, Any]) -> None:
        self._require_open(Phase.DAY)
        voter = _seat(event, "voter")
        self._living(voter)
        if self.catastrophe is not None:
            raise _violation("catastrophe", gettext_noop("No fast during a catastrophe."))
        self.fasted.add(voter)
        self._tell("fast", seat=voter)
        self._maybe_fast_night()

    def _on_unfast(self, event: Mapping[str, Any]) -> None:
        self._require_open(Phase.DAY)
        voter = _seat(event, "voter")
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

    def _on_post(self, event: Mapping[str, Any]) -> None:
        seat = _seat(event, "seat")
        if "text" in event and (not isinstance(event["text"], str) or len(event["text"]) > 4000):
            raise ProtocolError(gettext_noop("A post's text is up to 4000 characters."))
        if seat in self.last_words_due:
            self.last_words_due.discard(seat)  # the last word
            self._tell("last_word", seat=seat)
            return
        self._living(seat)
        if self.phase != Phase.DAY:
            raise _violation("wrong_phase", gettext_noop("Posts are written by day."))
        round_ = self.catastrophe
        if round_ is not None:
            if seat not in round_.tied:
                raise _violation(
                    "catastrophe", gettext_noop("In a catastrophe only the tied players post.")
                )
            if seat in round_.posted:
                raise _violation("catastrophe", gettext_noop("One post in a catastrophe."))
            round_.posted.add(seat)
            self.posts.append((self.n, seat))
            self._tell("round_post", seat=seat)
            self._maybe_close_round()
            return
        self.posts.append((self.n, seat))
        self._tell("post", seat=seat)

    def _on_revote(self, event: Mapping[str, Any]) -> None:
        self._require_open(Phase.DAY)
        voter = _seat(event, "voter")
        self._living(voter)
        target = event.get("target")
        round_ = self.catastrophe
        if round_ is None:  # left in advance: only «hang all / pardon all» can be
            if target not in (HANG_ALL, PARDON_ALL):
                raise _violation(
                    "no_catastrophe",
                    gettext_noop("Only «hang all / pardon all» can be left in advance."),
                )
            self.held[voter] = target
            return
        if voter in round_.tied:
            raise _violation(
                "catastrophe", gettext_noop("The tied players do not vote in the catastrophe.")
            )
        if voter in round_.excluded:
            raise _violation(
                "catastrophe",
                gettext_noop("You were in the tie: you do not vote in its follow-up round."),
            )
        replacing = voter in round_.advance and self.options.advance_vote_replaceable
        if voter in round_.votes and not replacing:
            raise _violation("vote_final", gettext_noop("One vote in the catastrophe."))
        allowed = (HANG_ALL, PARDON_ALL) if round_.question else tuple(round_.tied)
        if target not in allowed:
            raise _violation("bad_target", gettext_noop("That vote is not on offer in this round."))
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
        votes = (
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

    # The night.

    def _on_shot(self, event: Mapping[str, Any]) -> None:
        by = _seat(event, "by")
        self._living(by)
        if self.roles[by] not in BLACK_ROLES:
            raise _violation("not_mafia", gettext_noop("Only the mafia shoot."))
        target = event.get("target")
        if target is not None:
            if type(target) is not int:
                raise ProtocolError(gettext_noop("A shot is at a seat or null."))
            self._living(target)
        if self.phase == Phase.NIGHT and self.open:
            if by in self.shots and not self.options.shot_changeable:
                raise _violation("acted", gettext_noop("This night's shot is made already."))
            self.shots[by] = target
        elif self.phase == Phase.DAY:
            self.advance_shots[by] = target  # left in advance for the coming night
        else:
            raise _violation("wrong_phase", gettext_noop("No shots now."))

    def _check(self, event: Mapping[str, Any], kind: str) -> None:
        self._require_open(Phase.NIGHT)
        role = "don" if kind == "don" else "commissar"
        by = next((s for s in self.alive if self.roles[s] == role), None)
        if by is None:
            raise _violation("no_checker", gettext_noop("Nobody is left to check."))
        if kind in self.checked:
            raise _violation("acted", gettext_noop("This night's check is made already."))
        target = _seat(event, "target")
        if target not in self.roles:
            raise _violation(
                "not_alive", gettext_noop("There is no seat %(target)s."), target=target
            )
        if target not in self.alive and not self.options.check_departed:
            raise _violation(
                "not_alive", gettext_noop("Player %(seat)s is not in the game."), seat=target
            )
        if kind == "don":
            result = "commissar" if self.roles[target] == "commissar" else "not_commissar"
        else:
            result = "black" if self.roles[target] in BLACK_ROLES else "red"
        self.checked.add(kind)
        self.checks.append(Check(by, kind, target, result))

    def _on_don_check(self, event: Mapping[str, Any]) -> None:
        self._check(event, "don")

    def _on_com_check(self, event: Mapping[str, Any]) -> None:
        self._check(event, "commissar")

    def _resolve_night(self) -> None:
        self.open = False
        self.resolutions += 1
        mafia = self.black_alive
        targets = {self.shots.get(s) for s in mafia}
        (target,) = targets if len(targets) == 1 else (None,)
        if target is not None and target in self.alive:
            self.misfires = 0
            self.outcome = "killed"
            self._tell("outcome", detail="killed", seats=(target,))
            self._eliminate([target], Reason.KILLED)
            return
        self.misfires += 1
        self.outcome = "misfire"
        self._tell("outcome", detail="misfire")
        if self.misfires >= self.options.misfires_to_town_win:
            self._finish("red")

    # The host.

    def _on_warning(self, event: Mapping[str, Any]) -> None:
        seat = _seat(event, "seat")
        self._living(seat)
        if self.phase == Phase.SETUP:
            raise _violation("wrong_phase", gettext_noop("The game has not started."))
        self._warn(seat)

    def _warn(self, seat: int) -> None:
        self.warnings[seat] = self.warnings.get(seat, 0) + 1
        self._tell("warning", seat=seat, detail=str(self.warnings[seat]))
        if self.warnings[seat] >= self.options.warnings_to_removal:
            self._tell("removed", seat=seat)
            self._host_removal(seat, Reason.WARNINGS)

    def _on_modkill(self, event: Mapping[str, Any]) -> None:
        seat = _seat(event, "seat")
        self._living(seat)
        if self.phase == Phase.SETUP:
            raise _violation("wrong_phase", gettext_noop("The game has not started."))
        self._tell("modkill", seat=seat)
        self._host_removal(seat, Reason.MODKILL)

    def _host_removal(self, seat: int, reason: Reason) -> None:
        """The host removes a player: a modkill (and, as the club reads it, a removal for
        warnings) cancels the open day's vote, or the coming day's when it is night (an
        option); the night itself comes on schedule."""
        cancels = reason == Reason.MODKILL or self.options.warnings_removal_cancels_vote
        if cancels and self.phase == Phase.DAY and self.open:
            self.vote_cancelled = True
        if cancels and self.phase == Phase.NIGHT and self.options.night_modkill_cancels_next_vote:
            self.cancel_next_vote = True
        if self.phase == Phase.DAY:
            self.removed_today += 1
        self._eliminate([seat], reason)

    # --- eliminations and the end ------------------------------------------------------

    def _eliminate(self, seats: list[int], reason: Reason) -> None:
        for seat in sorted(seats):
            self.alive.discard(seat)
            self.eliminated.append(Elimination(seat, self.phase.value, self.n, reason))
            self.last_words_due.add(seat)
            self.votes.pop(seat, None)
            self.fasted.discard(seat)
            self.shots.pop(seat, None)
            self.advance_shots.pop(seat, None)
        # Votes on a player who left count for nobody.
        self.votes = {v: t for v, t in self.votes.items() if t == PASS or t in self.alive}
        if self.catastrophe is not None:
            self.catastrophe.tied = [s for s in self.catastrophe.tied if s in self.alive]
        black = len(self.black_alive)
        if black == 0:
            self._finish("red")
        elif black >= len(self.alive) - black:
            self._finish("black")

    def _finish(self, winner: str) -> None:
        self.winner, self.phase, self.open = winner, Phase.OVER, False
        self.catastrophe = None
        self._tell("end", detail=winner)

    _handlers = {
        "day": _on_day,
        "night": _on_night,
        "day_end": _on_day_end,
        "night_end": _on_night_end,
        "extend": _on_extend,
        "vote": _on_vote,
        "fast": _on_fast,
        "unfast": _on_unfast,
        "post": _on_post,
        "revote": _on_revote,
        "shot": _on_shot,
        "don_check": _on_don_check,
        "com_check": _on_com_check,
        "warning": _on_warning,
        "modkill": _on_modkill,
    }
