"""The host's table screen as data: what the engine's state means for each seat and control.

Pure Python like the rest of games/rules: the server answers every tap with `host_table`,
and the phone runs this same module under Pyodide while the venue's network is down
(static/games/engine-worker.js), so the screen never holds a second copy of a rule. The
screen (static/games/host.js) only draws what this says and turns taps into the events
named here; words are the page's, codes are this module's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules import events as event_shapes
from games.rules.club import (
    BALAGAN_DAY_ONE_SECONDS,
    BALAGAN_SECONDS,
    LAST_WORD_SECONDS,
    ClubGame,
    Phase,
    Step,
)
from games.rules.errors import ProtocolError, RuleViolation, gettext_noop
from games.rules.log import UNDO, effective_events
from games.rules.options import ClubOptions
from games.rules.roles import Action


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


def host_table(game: ClubGame, *, undoable: bool) -> dict[str, Any]:
    """Everything the host's screen shows, as JSON-ready values."""
    prompt = game.prompt()
    night = _night_step(game) if game.phase == Phase.NIGHT else None
    vote = _vote(game, prompt.speaker)
    timer = _timer(game, prompt.speaker, prompt.seconds)
    seats = [
        {
            "no": seat,
            "role": role.code,
            "team": role.team.value,
            "alive": seat in game.alive,
            "fouls": game.fouls.get(seat, 0),
            "immune": seat in game.immune_now,
            # Nominated during the round only: from the vote on, the candidates are marked.
            "nominated": game.phase == Phase.DAY
            and game.step == Step.ROUND
            and seat in game.nominees,
            "nominates": list(game.nominations_by.get(seat, [])) if game.phase == Phase.DAY else [],
            "candidate": seat in game.candidates,
            "speaking": seat == prompt.speaker,
            "out": _out_reason(game, seat),
            "last_word": seat in game.last_words_due,
        }
        for seat, role in sorted(game.roles.items())
    ]
    return {
        "phase": game.phase.value,
        "n": game.n,
        "step": game.step.value if game.phase == Phase.DAY else None,
        "over": game.finished,
        "winner": game.winner,
        "legal": list(prompt.legal),
        "speaker": prompt.speaker,
        "timer": timer,
        "balagan": _balagan(game),
        "seats": seats,
        "tap": _seat_tap(game, timer, night, vote),
        "vote": vote,
        "night": night,
        "last_words": sorted(game.last_words_due),
        "morning": _morning(game),
        "outcome": game.outcome,
        "alive": len(game.alive),
        "majority": len(game.alive) // 2 + 1,
        "eliminated": [out.as_dict() for out in game.eliminated],
        "checks": [check.as_dict() for check in game.checks],
        "undo": undoable,
    }


def _out_reason(game: ClubGame, seat: int) -> str | None:
    if seat in game.alive:
        return None
    return next((out.reason.value for out in game.eliminated if out.seat == seat), None)


def _timer(game: ClubGame, speaker: int | None, seconds: int | None) -> dict[str, Any] | None:
    """The clock the host runs now. The night's victims' last words open the day; a player
    who leaves mid-round (three fouls) speaks once the speech under way is over and the
    round has ended."""
    if game.finished:
        return None
    speaking = game.phase == Phase.DAY and speaker is not None and seconds is not None
    left_at_night = {out.seat for out in game.eliminated if out.phase == Phase.NIGHT.value}
    first = sorted(game.last_words_due & left_at_night) or (
        [] if speaking else sorted(game.last_words_due)
    )
    if first:
        return {"kind": "last_word", "seat": first[0], "seconds": LAST_WORD_SECONDS}
    if speaking:
        kind = "speech" if game.step == Step.ROUND else "defence"
        return {"kind": kind, "seat": speaker, "seconds": seconds}
    return None


def _balagan(game: ClubGame) -> int | None:
    """The free talk opens the day, before anyone has spoken or been nominated."""
    if game.phase != Phase.DAY or game.step != Step.ROUND or game.spoken or game.nominees:
        return None
    return BALAGAN_DAY_ONE_SECONDS if game.n == 1 else BALAGAN_SECONDS


def _vote(game: ClubGame, speaker: int | None) -> dict[str, Any] | None:
    """The show of hands the table is at, once the speeches before it are done."""
    if game.phase != Phase.DAY or game.last_words_due:
        return None
    living = sorted(game.alive)
    if game.step == Step.ROUND and game.nominees and speaker is None:
        return {"type": "votes", "among": list(game.nominees), "voters": living}
    # The questions («expel anyone?», «expel both?») count the hands for; the candidates
    # are marked on their seats.
    if game.step == Step.FIRST_DAY_QUESTION and speaker is None:
        return {"type": "first_day_expel", "among": [], "voters": living}
    if game.step == Step.HANDS and speaker is None:
        return {"type": "hands", "among": list(game.candidates), "voters": living}
    if game.step == Step.EXPEL_BOTH:
        return {"type": "expel_both", "among": [], "voters": living}
    return None


def _night_step(game: ClubGame) -> dict[str, Any] | None:
    """The role that wakes now, in the night order, and the event its tap makes."""
    slots = game.night_slots()
    if not slots:
        return None
    _order, slot = slots[0]
    kind, _colon, who = slot.partition(":")
    living = sorted(game.alive)
    if kind == "check":
        actor = next(s for s in living if game.roles[s].code == who)
        event: dict[str, Any] = {"type": "check", "by": actor}
        role = who
    elif kind == "kill":
        actor = None
        event, role = {"type": "kill", "by": who}, who
    elif kind == "heal":
        actor = next(s for s in living if game.roles[s].action == Action.HEAL)
        event, role = {"type": "heal"}, game.roles[actor].code
    else:  # "action:<seat>"
        actor = int(who)
        role = game.roles[actor].code
        event = {"type": "action", "by": actor, "kind": role}
    return {"slot": slot, "kind": kind, "role": role, "actor": actor, "event": event}


def _seat_tap(
    game: ClubGame,
    timer: dict[str, Any] | None,
    night: dict[str, Any] | None,
    vote: dict[str, Any] | None,
) -> dict[str, Any] | None:
    """What a short tap on a living seat means now; a long press is always a foul."""
    if game.finished:
        return None
    if night is not None:
        return {"kind": "night", "event": night["event"]}
    if vote is not None:
        return {"kind": "hand"}
    if timer is not None and timer["kind"] == "speech":
        return {"kind": "nominate", "by": timer["seat"]}
    return None


def _morning(game: ClubGame) -> dict[str, Any] | None:
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


def consequence(alive_before: set[int] | frozenset[int], after: ClubGame) -> dict[str, Any] | None:
    """What an event did that deserves an «are you sure» before it is kept: the seats it
    removed and the game's end. None when it did neither."""
    removes = sorted(set(alive_before) - after.alive)
    if not removes and not after.finished:
        return None
    return {"removes": removes, "winner": after.winner}


def refusal(error: RuleViolation | ProtocolError) -> dict[str, Any]:
    """A refusal for the screen, which words it from its catalogue of the templates."""
    return {"code": error.code, "template": error.template, "params": error.params}


def offline_tap(
    seats: Mapping[int | str, str],
    options: Mapping[str, Any] | None,
    immune: Sequence[int],
    log: Sequence[Mapping[str, Any]],
    event: Mapping[str, Any],
) -> dict[str, Any]:
    """The phone's engine, offline: judge one tap after the log it holds. Returns the
    table after it (`ok`), a refusal that changes nothing, or the consequence to confirm."""
    try:
        game = build(seats, options, immune, log)
        if event.get("type") == UNDO:
            if not effective_events(log):
                raise RuleViolation("nothing_to_undo", gettext_noop("There is nothing to undo."))
            game = build(seats, options, immune, [*log, dict(event)])
            return {"ok": True, "table": host_table(game, undoable=_undoable([*log, event]))}
        shaped = event_shapes.normalize(event)
        before = frozenset(game.alive)
        game.apply(shaped)
        return {
            "ok": True,
            "consequence": consequence(before, game),
            "table": host_table(game, undoable=_undoable([*log, shaped])),
        }
    except (RuleViolation, ProtocolError) as error:
        return {"ok": False, "refusal": refusal(error)}


def _undoable(log: Sequence[Mapping[str, Any]]) -> bool:
    return bool(effective_events(log))


def table_for(
    seats: Mapping[int | str, str],
    options: Mapping[str, Any] | None,
    immune: Sequence[int],
    log: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """The table from the page's own data (a reload while offline)."""
    return host_table(build(seats, options, immune, log), undoable=_undoable(log))
