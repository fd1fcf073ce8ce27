"""Shared set-up for the recording tests: an evening with its players and a host."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import Group
from django.utils import timezone

from accounts.models import User
from club.models import Evening
from games import services
from games.models import Game
from tests.factories import make_evening, make_member, sign_up_many

# Twelve seats: 1 boss, 2 mafia, commissar, doctor, 7 civilians.
LINEUP = ["boss", "mafia", "mafia", "commissar", "doctor"] + ["civilian"] * 7


def make_host(**fields: object) -> User:
    host = make_member(**fields)
    host.groups.add(Group.objects.get(name="Hosts"))
    return User.objects.get(pk=host.pk)  # a fresh instance: no stale permission cache


def evening_with_players(count: int = 12) -> tuple[Evening, list[User]]:
    evening = make_evening(
        starts_at=timezone.now() + timedelta(hours=1), opens_at=timezone.now() - timedelta(days=1)
    )
    players = [result.registration.member for result in sign_up_many(evening, count)]
    return evening, players


def start_game(
    host: User, evening: Evening, players: list[User], roles: list[str] = LINEUP
) -> Game:
    pairs = zip(players, roles, strict=True)
    seats = {n: (member.pk, role) for n, (member, role) in enumerate(pairs, 1)}
    return services.game_create(host=host, evening_id=evening.pk, seats=seats)


def record(game: Game, host: User, *events: dict) -> None:
    for event in events:
        game.refresh_from_db()
        services.game_record_event(
            game_id=game.pk, author=host, event=event, seq=game.last_seq + 1, client_id=None
        )
    game.refresh_from_db()


# Seat 1 is the boss, 2 and 3 mafia, 4 commissar, 5 doctor. Day 1 ends with nobody out;
# the mafia kill 6 on night 1; on day 2 seat 2 is voted out.
OPENING = [
    {"type": "day", "n": 1},
    {"type": "night", "n": 1},
    {"type": "check", "by": 1, "target": 4},
    {"type": "kill", "by": "mafia", "target": 6},
    {"type": "check", "by": 4, "target": 2},
    {"type": "heal", "target": 7},
    {"type": "day", "n": 2},
]
