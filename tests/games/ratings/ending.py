"""Random legal games that are over but not yet analysed, each ending after the one before:
what the worker takes one by one as games end. Some have guests at the table (no score,
but a seat that counts), some are unrated, some at a tournament's table (another K). For
tests/games/ratings/test_incremental.py and bench/game_end.py."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime, timedelta

from accounts.models import User
from club.models import Evening, EveningStatus, Guest
from games.models import Game, GameEvent, GameStatus, Seat
from games.ratings.models import ScoringPreset
from games.rules.options import ClubOptions
from games.rules.simulate import random_game
from tests.games.recording import make_host
from tournaments.models import Round, Stage, Table, Tournament

GAMES_PER_EVENING = 20
GAP = timedelta(minutes=30)


def games_to_end(
    *,
    games: int,
    members: Sequence[User],
    after: datetime,
    seed: int = 1,
    guests: float = 0.1,
    unrated: float = 0.1,
    tournament: float = 0.1,
) -> list[Game]:
    """`games` finished games ending every half hour after `after`, in the order they end;
    each seat a guest with chance `guests`, each game unrated with chance `unrated` and at
    a tournament's table with chance `tournament`."""
    rng = random.Random(seed)
    host = make_host()
    evenings = [
        Evening.objects.create(
            starts_at=after + GAP * GAMES_PER_EVENING * n,
            opens_at=after - timedelta(days=6),
            venue="GrandDaddy",
            capacity=15,
            status=EveningStatus.FINISHED,
        )
        for n in range((games + GAMES_PER_EVENING - 1) // GAMES_PER_EVENING + 1)
    ]
    # The tournament's own evening (one each), its one round and a table for each of its games.
    cup = Tournament.objects.create(
        name=f"Кубок {seed}",
        evening=evenings.pop(),
        ends_on=after.date(),
        preset=ScoringPreset.objects.club(),
    )
    round_ = Round.objects.create(tournament=cup, number=1, stage=Stage.QUALIFYING)
    # A guest for each seat number, so that a table may seat several.
    seated_guests = Guest.objects.bulk_create(Guest(name=f"Гость {n}") for n in range(1, 16))
    options = ClubOptions().to_dict()
    created = []
    for index in range(games):
        generated = random_game(rng)
        at_cup = rng.random() < tournament
        evening = cup.evening if at_cup else evenings[index // GAMES_PER_EVENING]
        game = Game.objects.create(
            evening=evening,
            number=index + 1,
            host=host,
            options=options,
            lineup={},
            immune=generated.immune,
            status=GameStatus.FINISHED,
            winner=generated.game.winner or "",
            last_seq=len(generated.events),
            ended_at=after + GAP * (index + 1),
            rated=rng.random() >= unrated,
        )
        if at_cup:
            Table.objects.create(round=round_, number=index + 1, game=game)
        table = rng.sample(list(members), len(generated.seats))
        Seat.objects.bulk_create(
            Seat(game=game, number=n, role=generated.seats[n], member=member)
            if rng.random() >= guests
            else Seat(game=game, number=n, role=generated.seats[n], guest=seated_guests[n - 1])
            for n, member in zip(sorted(generated.seats), table, strict=True)
        )
        GameEvent.objects.bulk_create(
            GameEvent(game=game, seq=seq, type=event["type"], payload=event)
            for seq, event in enumerate(generated.events, start=1)
        )
        created.append(game)
    return created
