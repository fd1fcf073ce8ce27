"""The host's table screen as data: what the engine's state means for each seat and control.

Pure Python like the rest of games/rules: the server answers every tap with `host_table`,
and the phone runs this same module under Pyodide while the venue's network is down
(static/games/engine-worker.js), so the screen never holds a second copy of a rule. The
screen (static/games/host/) only draws what this says and turns taps into the events
named here; words are the page's, codes are this module's.

The JSON's shape is the TypedDicts below: mypy checks this module against them, and
`python manage.py host_types` writes them as TypeScript (static/games/host/table.d.ts)
for the screen's type check, so a change on either side breaks one of the two checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, NotRequired, TypedDict, cast

from games.rules import events as event_shapes
from games.rules.club import (
    BALAGAN_DAY_ONE_SECONDS,
    BALAGAN_SECONDS,
    BEST_MOVE_SEATS,
    LAST_WORD_SECONDS,
    BestMoveDict,
    BonusDict,
    CheckDict,
    ClubGame,
    EliminationDict,
    Phase,
    Reason,
    Step,
    TallyDict,
)
from games.rules.errors import ProtocolError, RuleCode, RuleViolation, gettext_noop
from games.rules.event_types import ActionEvent, CheckEvent, ClubEvent, HealEvent, KillEvent
from games.rules.log import UNDO, effective_events
from games.rules.options import ClubOptions
from games.rules.roles import Action, Team

# --- the JSON's shape ------------------------------------------------------------------


class TableSeat(TypedDict):
    no: int
    role: str  # the role's code: the cards show only while 👁 is held
    team: Team
    alive: bool
    fouls: int
    immune: bool
    nominated: bool
    nominates: list[int]
    candidate: bool
    speaking: bool
    out: Reason | None
    last_word: bool
    targeted: list[str]  # tonight's slots aimed at this seat ("kill:mafia", "heal", …)


class Timer(TypedDict):
    kind: Literal["last_word", "speech", "defence"]
    seat: int
    seconds: int
    # How many speeches and last words the log holds before this clock: the clock is the
    # same one while this is unchanged (an extension lengthens it), so the screen keys its
    # start by it, and an undo brings back the key (and the start) of the clock it ended.
    # A clock kept under a higher turn is one an undo took back: the screen forgets it.
    turn: int
    # When the speech or last word before this one ended (ISO 8601), while the club checks
    # that speeches do not overlap: this clock cannot start earlier, so a start the device
    # kept from before it (an undone turn's, redone) is no start of this speech.
    after: str | None


class Vote(TypedDict):
    type: Literal["votes", "first_day_expel", "hands", "expel_both"]
    among: list[int]  # the candidates; empty for a yes/no question (hands «for»)
    voters: list[int]
    about: list[int]  # the candidates a yes/no question is about; empty otherwise
    round: int  # 1, or 2… for a runoff's show of hands over the candidates left
    dropped: list[int]  # who the show of hands before this one dropped


# The event a night step's tap records, its target added by the screen.
type NightStepEvent = CheckEvent | KillEvent | HealEvent | ActionEvent


class NightWaiting(TypedDict):
    slot: str
    role: str  # the role's code, or "mafia" for the joint kill


class NightStep(TypedDict):
    slot: str  # "check:boss", "kill:mafia", "heal", "action:<seat>"
    kind: Literal["check", "kill", "heal", "action"]
    role: str
    actor: int | None  # None for a joint kill
    event: NightStepEvent


class NightTap(TypedDict):
    kind: Literal["night"]
    event: NightStepEvent


class HandTap(TypedDict):
    kind: Literal["hand"]


class NominateTap(TypedDict):
    kind: Literal["nominate"]
    by: int


class BestMoveTap(TypedDict):
    """A tap names a seat in the best move being entered (again: takes it back)."""

    kind: Literal["best_move"]


type SeatTap = NightTap | HandTap | NominateTap | BestMoveTap


class BestMoveOffer(TypedDict):
    """The best move (ЛХ) the screen offers: who may name it (the night's victims who
    qualify; one of them gives it), and how many seats at most."""

    by: list[int]
    most: int


class Shot(TypedDict):
    by: str
    target: int


class Morning(TypedDict):
    night: int
    shots: list[Shot]
    healed: list[int]
    checks: list[CheckDict]
    left: list[EliminationDict]


class HostTable(TypedDict):
    """Everything the host's screen shows."""

    phase: Phase
    n: int
    step: Step | None
    over: bool
    winner: str | None
    legal: list[str]
    speaker: int | None
    timer: Timer | None
    balagan: int | None
    seats: list[TableSeat]
    tap: SeatTap | None
    vote: Vote | None
    night: NightStep | None
    # Who could still act tonight, in the night order (the current one first); empty once
    # every living role has acted or passed; null by day.
    night_waiting: list[NightWaiting] | None
    last_words: list[int]
    morning: Morning | None
    # Offered during the last word of the victim who names it (and after the end), until
    # recorded; then the best move as recorded.
    best_move: BestMoveOffer | None
    best_move_given: BestMoveDict | None
    bonuses: list[BonusDict]
    outcome: str | None
    tally: TallyDict | None  # the day's last recorded vote and what it did
    alive: int
    majority: int
    eliminated: list[EliminationDict]
    checks: list[CheckDict]
    undo: bool
    # The event ↶ takes back now (the last that stands), null when none: the screen names
    # extra points and the best move before it takes them back.
    undoes: ClubEvent | None


class Consequence(TypedDict):
    removes: list[int]
    winner: str | None
    reasons: dict[str, Reason]  # why each removed seat leaves
    waiting: NotRequired[list[NightWaiting]]  # a morning before these roles acted
    reopens: NotRequired[bool]  # an undo that reopens a finished game


class Refusal(TypedDict):
    code: str
    template: str
    params: dict[str, Any]


class TapJudged(TypedDict):
    ok: Literal[True]
    table: HostTable
    consequence: NotRequired[Consequence | None]


class TapRefused(TypedDict):
    ok: Literal[False]
    refusal: Refusal


# What the phone's engine answers a tap made offline.
type OfflineTap = TapJudged | TapRefused


# --- the table ---------------------------------------------------------------------------


def build(
    seats: Mapping[int | str, str],
    options: Mapping[str, Any] | None,
    immune: Sequence[int],
    log: Sequence[Mapping[str, Any]],
) -> ClubGame:
    """The game's state from what the host's page holds: the table, its options and the log
    (undos included), as the server folds it."""
    game = ClubGame(
        {int(seat): role for seat, role in seats.items()},
        options=ClubOptions.from_dict(dict(options) if options is not None else None),
        immune=immune,
    )
    game.apply_all(effective_events(log))
    return game


def host_table(game: ClubGame, events: Sequence[Mapping[str, Any]]) -> HostTable:
    """Everything the host's screen shows, as JSON-ready values, from the game and the
    effective events it was folded from."""
    prompt = game.prompt()
    night = _night_step(game) if game.phase == Phase.NIGHT else None
    vote = _vote(game, prompt.speaker)
    best_move = _best_move_offer(game)
    turn = sum(1 for event in events if event.get("type") in ("speech", "last_word"))
    timer = _timer(game, prompt.speaker, prompt.seconds, turn)
    seats: list[TableSeat] = [
        {
            "no": seat,
            "role": role.code,
            "team": role.team,
            "alive": seat in game.alive,
            "fouls": game.fouls.get(seat, 0),
            "immune": seat in game.immune_now,
            # Nominated during the round only: from the vote on, the candidates are marked.
            "nominated": game.phase == Phase.DAY
            and game.step == Step.ROUND
            and seat in game.nominees,
            "nominates": list(game.nominations_by.get(seat, [])) if game.phase == Phase.DAY else [],
            "candidate": seat in game.candidates,
            # The one whose clock runs: during a last word its giver, not the round's
            # next speaker (the engine's prompt names the speech that follows it).
            "speaking": timer is not None and seat == timer["seat"],
            "out": _out_reason(game, seat),
            "last_word": seat in game.last_words_due,
            "targeted": list(game.night_targets.get(seat, [])) if game.phase == Phase.NIGHT else [],
        }
        for seat, role in sorted(game.roles.items())
    ]
    return {
        "phase": game.phase,
        "n": game.n,
        "step": game.step if game.phase == Phase.DAY else None,
        "over": game.finished,
        "winner": game.winner,
        "legal": list(prompt.legal),
        "speaker": prompt.speaker,
        "timer": timer,
        "balagan": _balagan(game),
        "seats": seats,
        "tap": _seat_tap(game, timer, night, vote, best_move),
        "vote": vote,
        "night": night,
        "night_waiting": night_waiting(game) if game.phase == Phase.NIGHT else None,
        "last_words": sorted(game.last_words_due),
        "morning": _morning(game),
        "best_move": best_move,
        "best_move_given": game.best_move.as_dict() if game.best_move else None,
        "bonuses": [bonus.as_dict() for bonus in game.bonuses],
        "outcome": game.outcome,
        "tally": game.tally.as_dict() if game.tally and game.phase == Phase.DAY else None,
        "alive": len(game.alive),
        "majority": game.majority_needed,
        "eliminated": [out.as_dict() for out in game.eliminated],
        "checks": [check.as_dict() for check in game.checks],
        "undo": bool(events),
        # Every event the table is folded from was shaped by events.normalize first.
        "undoes": cast("ClubEvent", dict(events[-1])) if events else None,
    }


def _out_reason(game: ClubGame, seat: int) -> Reason | None:
    if seat in game.alive:
        return None
    return next((out.reason for out in game.eliminated if out.seat == seat), None)


def _timer(game: ClubGame, speaker: int | None, seconds: int | None, turn: int) -> Timer | None:
    """The clock the host runs now. The night's victims' last words open the day; a player
    who leaves mid-round (three fouls) speaks once the speech under way is over and the
    round has ended."""
    if game.finished:
        return None
    speaking = game.phase == Phase.DAY and speaker is not None and seconds is not None
    left_at_night = {out.seat for out in game.eliminated if out.phase == Phase.NIGHT.value}
    ended = game.speeches_end if game.options.speeches_checked else None
    after = ended.isoformat() if ended is not None else None
    first = sorted(game.last_words_due & left_at_night) or (
        [] if speaking else sorted(game.last_words_due)
    )
    if first:
        return {
            "kind": "last_word",
            "seat": first[0],
            "seconds": LAST_WORD_SECONDS,
            "turn": turn,
            "after": after,
        }
    if speaking and speaker is not None and seconds is not None:  # (the last two for mypy)
        kind: Literal["speech", "defence"] = "speech" if game.step == Step.ROUND else "defence"
        return {"kind": kind, "seat": speaker, "seconds": seconds, "turn": turn, "after": after}
    return None


def _balagan(game: ClubGame) -> int | None:
    """The free talk opens the day, before anyone has spoken or been nominated."""
    if game.phase != Phase.DAY or game.step != Step.ROUND or game.spoken or game.nominees:
        return None
    return BALAGAN_DAY_ONE_SECONDS if game.n == 1 else BALAGAN_SECONDS


def _vote(game: ClubGame, speaker: int | None) -> Vote | None:
    """The show of hands the table is at, once the speeches before it are done."""
    if game.phase != Phase.DAY or game.last_words_due:
        return None
    living = sorted(game.alive)
    candidates = list(game.candidates)
    if game.step == Step.ROUND and game.nominees and speaker is None:
        return {"type": "votes", "among": list(game.nominees), "voters": living, "about": [],
                "round": 1, "dropped": []}  # fmt: skip
    # The questions («expel anyone?», «expel both?») count the hands for; they name the
    # candidates they are about.
    if game.step == Step.FIRST_DAY_QUESTION and speaker is None:
        return {"type": "first_day_expel", "among": [], "voters": living, "about": candidates,
                "round": 1, "dropped": []}  # fmt: skip
    if game.step == Step.HANDS and speaker is None:
        return {"type": "hands", "among": candidates, "voters": living, "about": [],
                "round": game.hands_round, "dropped": list(game.dropped)}  # fmt: skip
    if game.step == Step.EXPEL_BOTH:
        return {"type": "expel_both", "among": [], "voters": living, "about": candidates,
                "round": game.hands_round, "dropped": []}  # fmt: skip
    return None


def night_waiting(game: ClubGame) -> list[NightWaiting]:
    """The living roles that could still act tonight, in the night order."""
    return [{"slot": slot, "role": _slot_role(game, slot)} for _order, slot in game.night_slots()]


def _slot_role(game: ClubGame, slot: str) -> str:
    """Who wakes for a night slot: the role's code, or "mafia" for the joint kill."""
    kind, _colon, who = slot.partition(":")
    if kind == "action":
        return game.roles[int(who)].code
    if kind == "heal":
        healer = next(s for s in sorted(game.alive) if game.roles[s].action == Action.HEAL)
        return game.roles[healer].code
    return who


def _night_step(game: ClubGame) -> NightStep | None:
    """The role that wakes now, in the night order, and the event its tap makes."""
    slots = game.night_slots()
    if not slots:
        return None
    _order, slot = slots[0]
    kind, _colon, who = slot.partition(":")
    living = sorted(game.alive)
    actor: int | None
    event: NightStepEvent
    role = _slot_role(game, slot)
    if kind == "check":
        actor = next(s for s in living if game.roles[s].code == who)
        event = {"type": "check", "by": actor}
    elif kind == "kill":
        actor = None
        event = {"type": "kill", "by": who}
    elif kind == "heal":
        actor = next(s for s in living if game.roles[s].action == Action.HEAL)
        event = {"type": "heal"}
    else:  # "action:<seat>"
        actor = int(who)
        event = {"type": "action", "by": actor, "kind": role}
    # The step's kind is its event's type: the slot's prefix, named by the event.
    return {"slot": slot, "kind": event["type"], "role": role, "actor": actor, "event": event}


def _seat_tap(
    game: ClubGame,
    timer: Timer | None,
    night: NightStep | None,
    vote: Vote | None,
    best_move: BestMoveOffer | None,
) -> SeatTap | None:
    """What a short tap on a living seat means now; a long press is always a foul. While
    the best move is offered (its giver's last word, or after the end) a tap names a seat
    in it."""
    if best_move is not None:
        return {"kind": "best_move"}
    if game.finished:
        return None
    if night is not None:
        return {"kind": "night", "event": night["event"]}
    if vote is not None:
        return {"kind": "hand"}
    if timer is not None and timer["kind"] == "speech":
        return {"kind": "nominate", "by": timer["seat"]}
    return None


def _best_move_offer(game: ClubGame) -> BestMoveOffer | None:
    """The best move, offered while a victim who names it gives the last word (the
    morning after their night), or after the end; until it is recorded. The engine takes
    it later too (the API, a protocol): the screen asks at the moment it is named."""
    due = game.best_move_due()
    if due and (game.finished or game.last_words_due.intersection(due)):
        return {"by": due, "most": BEST_MOVE_SEATS}
    return None


def _morning(game: ClubGame) -> Morning | None:
    """What the host announces after a night: shots, heals, checks, who leaves."""
    if game.n < 2 and game.phase != Phase.OVER:
        return None
    if game.phase == Phase.DAY and (game.spoken or game.nominees):
        return None
    night_n = game.n - 1 if game.phase == Phase.DAY else game.n
    left = [out.as_dict() for out in game.eliminated if out.phase == "night" and out.n == night_n]
    if game.phase == Phase.OVER and not left:
        return None
    if game.phase not in (Phase.DAY, Phase.OVER):
        return None
    return {
        "night": night_n,
        "shots": [{"by": by, "target": target} for by, target in game.kills],
        "healed": sorted(game.heals),
        "checks": [check.as_dict() for check in game.checks[game.night_checks_from :]],
        "left": left,
    }


def consequence(
    alive_before: set[int] | frozenset[int],
    after: ClubGame,
    *,
    waiting: Sequence[NightWaiting] = (),
) -> Consequence | None:
    """What an event did that deserves an «are you sure» before it is kept: the seats it
    removed and why, the game's end, or a morning while roles had not acted (`waiting`,
    taken before the event). None when it did none of these."""
    removes = sorted(set(alive_before) - after.alive)
    if not removes and not after.finished and not waiting:
        return None
    reasons = {str(out.seat): out.reason for out in after.eliminated if out.seat in removes}
    answer: Consequence = {"removes": removes, "winner": after.winner, "reasons": reasons}
    if waiting:
        answer["waiting"] = list(waiting)
    return answer


def judged(game: ClubGame, event: Mapping[str, Any]) -> Consequence | None:
    """Apply `event` to `game` (RuleViolation changes nothing) and say what it did that the
    host confirms first: the server and the phone's engine ask the same questions."""
    before = frozenset(game.alive)
    early = event.get("type") == "day" and game.phase == Phase.NIGHT
    waiting = night_waiting(game) if early else []
    game.apply(event)
    return consequence(before, game, waiting=waiting)


def refusal(error: RuleViolation | ProtocolError) -> Refusal:
    """A refusal for the screen, which words it from its catalogue of the templates."""
    return {"code": error.code, "template": error.template, "params": error.params}


def offline_tap(
    seats: Mapping[int | str, str],
    options: Mapping[str, Any] | None,
    immune: Sequence[int],
    log: Sequence[Mapping[str, Any]],
    event: Mapping[str, Any],
) -> OfflineTap:
    """The phone's engine, offline: judge one tap after the log it holds. Returns the
    table after it (`ok`), a refusal that changes nothing, or the consequence to confirm."""
    try:
        game = build(seats, options, immune, log)
        if event.get("type") == UNDO:
            if not effective_events(log):
                raise RuleViolation(
                    RuleCode.NOTHING_TO_UNDO, gettext_noop("There is nothing to undo.")
                )
            after = table_for(seats, options, immune, [*log, dict(event)])
            if not game.finished:
                return {"ok": True, "table": after}
            # It reopens a finished game: asked first, as the server does.
            reopens: Consequence = {"removes": [], "winner": None, "reasons": {}, "reopens": True}
            return {"ok": True, "consequence": reopens, "table": after}
        shaped = event_shapes.normalize(event)
        outcome = judged(game, shaped)
        return {
            "ok": True,
            "consequence": outcome,
            "table": host_table(game, effective_events([*log, shaped])),
        }
    except (RuleViolation, ProtocolError) as error:
        return {"ok": False, "refusal": refusal(error)}


def table_for(
    seats: Mapping[int | str, str],
    options: Mapping[str, Any] | None,
    immune: Sequence[int],
    log: Sequence[Mapping[str, Any]],
) -> HostTable:
    """The table from the page's own data (a reload while offline)."""
    return host_table(build(seats, options, immune, log), effective_events(log))
