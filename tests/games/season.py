"""A club's history generated in bulk: members, weekly evenings and random legal games,
analysed by the real analysis. For the query-count tests and bench/pages.py."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.contrib.auth.hashers import make_password
from django.utils import timezone

from accounts.models import Membership, User
from club.kernel import tenancy
from club.models import Evening, EveningStatus
from games.models import Game, GameEvent, GameStatus, Seat
from games.ratings import analysis
from games.rules.options import ClubOptions
from games.rules.simulate import random_game
from tests.games.recording import make_host

GAMES_PER_EVENING = 20


@dataclass(frozen=True)
class History:
    host: User
    members: list[User]
    games: list[Game]


def seed_history(
    *,
    games: int,
    members: int | list[User],
    seed: int = 1,
    last_evening: datetime | None = None,
) -> History:
    """`games` finished and analysed games on weekly evenings back from `last_evening`,
    played by `members` (new members when it is a number)."""
    rng = random.Random(seed)
    host = make_host()
    password = make_password(None)
    club_members = (
        members
        if isinstance(members, list)
        else User.objects.bulk_create(
            User(
                nickname=f"Член {seed}-{n}",
                email=f"m{seed}-{n}@example.com",
                birth_date=date(1990, 1, 1),
                password=password,
            )
            for n in range(members)
        )
    )
    if not isinstance(members, list):  # the club's members, as signing up makes them
        club_id = tenancy.scoped_club_id() or tenancy.first_club_id()
        Membership.objects.bulk_create(
            Membership(user=member, club_id=club_id) for member in club_members
        )
    last = last_evening or timezone.now() - timedelta(days=1)
    evenings = Evening.objects.bulk_create(
        Evening(
            starts_at=last - timedelta(weeks=week),
            opens_at=last - timedelta(weeks=week, days=6),
            venue="GrandDaddy",
            capacity=15,
            status=EveningStatus.FINISHED,
        )
        for week in range((games + GAMES_PER_EVENING - 1) // GAMES_PER_EVENING)
    )
    options = ClubOptions().to_dict()
    played = [random_game(rng) for _ in range(games)]
    rows = []
    for index, generated in enumerate(played):
        evening = evenings[index // GAMES_PER_EVENING]
        number = index % GAMES_PER_EVENING + 1
        rows.append(
            Game(
                evening=evening,
                number=number,
                host=host,
                options=options,
                lineup={},
                immune=generated.immune,
                status=GameStatus.FINISHED,
                winner=generated.game.winner or "",
                last_seq=len(generated.events),
                ended_at=evening.starts_at + timedelta(minutes=30 * number),
            )
        )
    created = Game.objects.bulk_create(rows, batch_size=1000)
    seats, events = [], []
    for game, generated in zip(created, played, strict=True):
        table = rng.sample(club_members, len(generated.seats))
        seats += [
            Seat(game=game, number=n, member=member, role=generated.seats[n])
            for n, member in zip(sorted(generated.seats), table, strict=True)
        ]
        events += [
            GameEvent(game=game, seq=seq, type=event["type"], payload=event)
            for seq, event in enumerate(generated.events, start=1)
        ]
    Seat.objects.bulk_create(seats, batch_size=5000)
    GameEvent.objects.bulk_create(events, batch_size=5000)
    analysis.analyses_rebuild()
    return History(host, club_members, created)
