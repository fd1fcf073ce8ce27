"""A game as its pages, the API and the analysis read it: three queries whatever its length
(the game, its seats with their members, its log), then the engine's fold in memory."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet

from accounts.models import User
from club.models import Guest
from games.models import Game, GameEvent, GameStatus
from games.recording import GameView, fold, seats_of
from games.rules.log import UNDO, effective_events


def recent_games() -> QuerySet[Game]:
    return (
        Game.objects.filter(status=GameStatus.FINISHED)
        .select_related("evening")
        .order_by("-ended_at")
    )


def game_view(game_id: int) -> GameView | None:
    # A tournament's game names its tournament, round and table (tournaments.models.Table,
    # the reverse one-to-one): read in the same query, none more for any game.
    game = (
        Game.objects.select_related(
            "evening", "host", "tournament_table__round__tournament__preset"
        )
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        return None
    seats = seats_of(game)
    log = game.events.payloads()
    events = effective_events(log)
    return GameView(game, seats, log, events, fold(game, seats, events))


def evening_guests_played(evening_id: int) -> int:
    """How many of the evening's guests were seated in one of its games: counted, never
    named (club.Guest)."""
    return Guest.objects.filter(game_seats__game__evening_id=evening_id).distinct().count()


def evening_players(evening_id: int) -> list[User]:
    """Who played at an evening: every member seated in one of its games, by nickname.
    Whose name may be shown is the reader's question (games/access.may_see_name)."""
    return list(
        User.objects.filter(game_seats__game__evening_id=evening_id).distinct().order_by("nickname")
    )


@dataclass(frozen=True)
class GivenBonus:
    """Extra points that stand in a game's log, with its audit: who gave them, and when."""

    seat: int
    points: float
    reason: str
    author: User | None
    at: datetime


def bonuses_given(game: Game) -> list[GivenBonus]:
    """The game's extra points that stand (an undone one is not), in the order given, each
    with the log's author and time: one query."""
    entries = GameEvent.objects.filter(game=game).select_related("author").order_by("seq")
    standing: list[GameEvent] = []
    for entry in entries:
        if entry.type == UNDO:
            if standing:
                standing.pop()
        else:
            standing.append(entry)
    return [
        GivenBonus(
            seat=entry.payload["seat"],
            points=entry.payload["points"],
            reason=entry.payload["reason"],
            author=entry.author,
            at=entry.created_at,
        )
        for entry in standing
        if entry.type == "bonus"
    ]
