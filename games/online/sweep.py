"""An online game's schedule: the deadline on its OnlineTable says when the next step is
due; the sweep (every minute) takes every due step — start day 1, close a phase, start the
next — so a missed run only delays it; an action that closes a phase (the host's, or the
last fast) takes the step at once."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Game, GameStatus
from games.online import announce, texts
from games.online.log import append
from games.online.table import Table, online_table


def after_action(
    found: Table, kind: str, event: Mapping[str, Any], *, resolved: bool, removed: list[int]
) -> None:
    """What follows an action: a private answer, a new deadline, the next phase."""
    state, table, now = found.state, found.table, timezone.now()
    if kind in ("don_check", "com_check"):
        check = state.checks[-1]
        checker = next(s for s in found.seats if s.number == check.by)
        announce.tell(
            found.game,
            checker.player,
            f"check:{state.n}:{kind}",
            partial(texts.online_check, night=state.n, target=check.target, result=check.result),
        )
    if removed:
        nick = {s.number: s.player.nickname for s in found.seats}
        names = [f"{seat}. {nick[seat]}" for seat in removed]
        announce.everyone(
            found,
            f"removed:{found.game.pk}:{found.game.last_seq}",
            partial(texts.online_removed, names=names),
        )
    if kind == "extend" and table.deadline_at:
        table.deadline_at += timedelta(minutes=int(event["minutes"]))
        table.save(update_fields=["deadline_at"])
    elif resolved:  # closed by the host, or by everyone's fast
        _followed(found, now)
    elif state.finished:  # the host removed the last of a side
        table.deadline_at = None
        table.save(update_fields=["deadline_at"])
        announce.end(found)


def _followed(found: Table, now: datetime) -> None:
    """After a phase closed: schedule or take the next step, and tell the players."""
    state, table = found.state, found.table
    if state.finished:
        table.deadline_at = None
    elif state.open:  # a catastrophe round began
        table.deadline_at = now + timedelta(minutes=table.catastrophe_minutes)
    elif state.ended_by_fast:  # «через 5 (или 10) минут наступит фаст-ночь»
        table.deadline_at = now + timedelta(minutes=table.fast_night_minutes)
    else:
        table.deadline_at = now
    table.save(update_fields=["deadline_at"])
    announce.outcome(found)
    if state.finished:
        announce.end(found)
    elif not state.open and table.deadline_at == now:
        _step(found, now)


def online_sweep(now: datetime | None = None) -> int:
    """Take every due step of every running online game of the club in scope; returns how
    many were taken (games/online/tasks.py visits the clubs)."""
    now = now or timezone.now()
    due = Game.objects.filter(status=GameStatus.RUNNING, online__deadline_at__lte=now).values_list(
        "pk", flat=True
    )
    taken = 0
    for game_id in list(due):
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(pk=game_id).first()
            found = online_table(game_id) if game else None
            if found is None or found.table.deadline_at is None or found.table.deadline_at > now:
                continue  # another sweep took it
            _step(found, now)
            taken += 1
    return taken


def _step(found: Table, now: datetime) -> None:
    state, table = found.state, found.table
    if state.phase.value == "setup":
        append(found, {"type": "day", "n": 1}, None)
        table.deadline_at = now + timedelta(minutes=table.day_minutes)
        table.save(update_fields=["deadline_at"])
        announce.phase(found)
        return
    if state.open:  # the deadline closes the phase
        append(found, {"type": "day_end" if state.phase.value == "day" else "night_end"}, None)
        _followed(found, now)
        return
    if state.phase.value == "day":
        append(found, {"type": "night", "n": state.n}, None)
        table.deadline_at = now + timedelta(minutes=table.night_minutes)
    else:
        append(found, {"type": "day", "n": state.n + 1}, None)
        table.deadline_at = now + timedelta(minutes=table.day_minutes)
    table.save(update_fields=["deadline_at"])
    if found.state.finished:
        announce.end(found)
    else:
        announce.phase(found)
