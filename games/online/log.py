"""One action appended to an online game's log: judged by the engine on the table's state,
then written (the caller holds the game's row lock)."""

from __future__ import annotations

from django.utils import timezone

from accounts.models import User
from games import reasons
from games.models import Game, GameEvent
from games.online.spectators import online_snapshot_on_commit
from games.online.table import Table
from games.recording import game_analyse_on_commit
from games.rules import events as event_shapes
from games.rules.errors import ProtocolError, RuleViolation
from games.rules_text import rule_refused


def append(found: Table, event: dict[str, object], author: User | None) -> None:
    """Judge the event on the current state and append it (the caller holds the lock)."""
    game = found.game
    try:
        shaped = event_shapes.normalize(event, "online")
    except ProtocolError as error:
        raise rule_refused(error) from error
    # The host's reason names players by seat, as a live game's (games/reasons.py); screened
    # once the event's shape has capped its texts, so the cost is bounded.
    reasons.refuse_named_event(shaped, {seat.number: seat.player.nickname for seat in found.seats})
    shaped.setdefault("at", timezone.now().isoformat())
    state = found.state
    try:
        state.apply(shaped)
    except (RuleViolation, ProtocolError) as error:
        raise rule_refused(error) from error
    GameEvent.objects.create(
        game=game, seq=game.last_seq + 1, type=str(shaped["type"]), payload=shaped, author=author
    )
    game.last_seq += 1
    # The spectators' snapshot once this commits, from the table as it stands then (before
    # the analysis is queued: a worker run eagerly writes it again with the points).
    online_snapshot_on_commit(found)
    was_finished = game.finished
    game.take_outcome(state, timezone.now())
    if game.finished and not was_finished:
        game_analyse_on_commit(game.pk)
    game.save(update_fields=["last_seq", *Game.OUTCOME_FIELDS])
    found.events.append(shaped.copy())  # as the log's JSON reads back
