"""Finished club games written straight into the database as the recording leaves them
(seats, the event log, the engine's verdict) and analysed as the worker does: for the
tests of the facts and statistics of play (games/ratings/play_facts.py, play.py), which
need many games by the same people and never an evening's immunity between them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from accounts.models import User
from club.models import Evening, Guest
from games.models import Game, GameEvent, GameStatus, Seat
from games.ratings import analysis
from games.rules.club import ClubGame
from games.rules.options import ClubOptions
from games.rules.simulate import SAMPLE_LINEUP, SAMPLE_TOWN_WINS
from tests.factories import make_evening

LINEUP = list(SAMPLE_LINEUP)  # 1 boss, 2–3 mafia, 4 commissar, 5 doctor, 6–12 civilians

# The town's win with every fact in it: on day 1 seat 5 (the doctor) nominates seat 2 (black)
# and seat 2 nominates seat 7 (red); the hands are tapped voter by voter: seats 5–11 on
# seat 2 (reds on black), seats 1–4 and 12 on seat 7 (blacks on red, and two reds on red);
# seat 9 takes a foul. Night 1: the commissar (4) checks seat 2 (black), the mafia kill
# seat 6, who names seats 1, 2 and 9 as the best move (two black). Then the sample's days:
# the commissar nominates 2, 3 and 1 and the town wins on day 4.
FACTS_GAME: list[dict[str, Any]] = [
    {"type": "day", "n": 1},
    {"type": "foul", "seat": 9},
    {"type": "nominate", "by": 5, "target": 2},
    {"type": "nominate", "by": 2, "target": 7},
    {
        "type": "votes",
        "voters": {
            **{str(seat): 2 for seat in range(5, 12)},
            **{str(seat): 7 for seat in (1, 2, 3, 4, 12)},
        },
    },
    {"type": "first_day_expel", "for": 3},
    *SAMPLE_TOWN_WINS[1:7],  # night 1 to day 2
    {"type": "best_move", "by": 6, "targets": [1, 2, 9]},
    *SAMPLE_TOWN_WINS[7:],
]

# Black wins on day 4: night 1 kills seat 6, the town expels its own every day.
BLACK_WINS: list[dict[str, Any]] = [
    {"type": "day", "n": 1},
    {"type": "night", "n": 1},
    {"type": "kill", "by": "mafia", "target": 6},
    {"type": "day", "n": 2},
    {"type": "nominate", "by": 7, "target": 8},
    {"type": "votes", "counts": {"8": 7}},
    {"type": "night", "n": 2},
    {"type": "kill", "by": "mafia", "target": 9},
    {"type": "day", "n": 3},
    {"type": "nominate", "by": 10, "target": 11},
    {"type": "votes", "counts": {"11": 6}},
    {"type": "night", "n": 3},
    {"type": "kill", "by": "mafia", "target": 12},
    {"type": "day", "n": 4},
    {"type": "nominate", "by": 4, "target": 5},
    {"type": "votes", "counts": {"5": 5}},
]


def game_played(
    players: Sequence[User | Guest],
    *,
    host: User,
    events: Sequence[Mapping[str, Any]] = FACTS_GAME,
    evening: Evening | None = None,
    started_at: datetime | None = None,
    minutes: int = 60,
) -> Game:
    """A finished, analysed game: `players` in seats 1… with the sample's roles."""
    state = ClubGame(dict(enumerate(LINEUP, 1)))
    for event in events:
        state.apply(event)
    assert state.finished, "a test's game is played to its end"
    if evening is None:
        starts_at = timezone.now() - timedelta(days=1)
        evening = make_evening(starts_at=starts_at, opens_at=starts_at - timedelta(days=6))
    started_at = started_at or evening.starts_at
    game = Game.objects.create(
        evening=evening,
        number=Game.objects.filter(evening=evening).count() + 1,
        host=host,
        options=ClubOptions().to_dict(),
        lineup={},
        immune=[],
        status=GameStatus.FINISHED,
        winner=state.winner or "",
        last_seq=len(events),
        ended_at=started_at + timedelta(minutes=minutes),
    )
    # started_at is set on creation (auto_now_add): a test's game started when it says.
    Game.objects.filter(pk=game.pk).update(started_at=started_at)
    Seat.objects.bulk_create(
        Seat(game=game, number=n, role=role, member=p if isinstance(p, User) else None,
             guest=p if isinstance(p, Guest) else None)
        for n, (p, role) in enumerate(zip(players, LINEUP, strict=True), 1)
    )  # fmt: skip
    GameEvent.objects.bulk_create(
        GameEvent(game=game, seq=seq, type=event["type"], payload=dict(event))
        for seq, event in enumerate(events, start=1)
    )
    assert analysis.game_analysis_build(game_id=game.pk)
    return game
