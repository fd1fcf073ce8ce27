"""Shared set-up for the recording tests: an evening with its players and a host."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any, Unpack
from unittest import mock

from django.utils import timezone

from accounts.models import Role, User
from club.models import Evening
from games.models import Game
from games.queries import game_view
from games.recording import GameView, game_record_event
from games.rules.simulate import SAMPLE_LINEUP, SAMPLE_OPENING, SAMPLE_TOWN_WINS
from games.starting import game_create
from tests.factories import MemberFields, make_evening, make_member, sign_up_many

LINEUP = list(SAMPLE_LINEUP)
OPENING = list(SAMPLE_OPENING)  # to day 2: seat 6 killed on night 1
TOWN_WINS = list(SAMPLE_TOWN_WINS)  # the town wins on day 4
# The games' tests' `table` fixture (tests/games/conftest.py): a host, an evening, its players.
type Table = tuple[User, Evening, list[User]]


def make_host(**fields: Unpack[MemberFields]) -> User:
    fields.setdefault("role", Role.HOST)  # a host of the club in scope
    host = make_member(**fields)
    return User.objects.get(pk=host.pk)  # a fresh instance: no stale membership cache


def evening_with_players(count: int = 12) -> tuple[Evening, list[User]]:
    evening = make_evening(
        starts_at=timezone.now() + timedelta(hours=1), opens_at=timezone.now() - timedelta(days=1)
    )
    players = [result.member for result in sign_up_many(evening, count)]
    return evening, players


def start_game(
    host: User, evening: Evening, players: list[User], roles: list[str] = LINEUP
) -> Game:
    pairs = zip(players, roles, strict=True)
    seats = {n: (member.pk, role) for n, (member, role) in enumerate(pairs, 1)}
    return game_create(host=host, evening_id=evening.pk, seats=seats)


def record(game: Game, host: User, *events: Mapping[str, Any]) -> None:
    for event in events:
        game.refresh_from_db()
        game_record_event(
            game_id=game.pk, author=host, event=event, seq=game.last_seq + 1, client_id=None
        )
    game.refresh_from_db()


def record_unscreened(game: Game, host: User, *events: Mapping[str, Any]) -> None:
    """`record` as it was before a reason was screened for nicknames (games/reasons.py):
    the reasons written then are in clubs' logs, and the pages screen them as they show."""
    with mock.patch("games.reasons.refuse_named_event"):
        record(game, host, *events)


def view_of(game_id: int) -> GameView:
    """The game's view: a game the test made, so it is there."""
    view = game_view(game_id)
    assert view is not None, f"no game {game_id}"
    return view
