"""A scored game with every kind of line, for the tests of its lines on the pages and of
the report after it: the town's win, the best move of night 1's victim, and the host's
extra points to the commissar; the twelve players named so a test can look for them."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games.models import Game
from tests.games.recording import OPENING, TOWN_WINS, Table, record, record_unscreened, start_game

# Seat 4 is the commissar of the sample line-up; seats 1–3 are black. Seat 6, a civilian
# shot on night 1, names the best move; the host gives seat 4 extra points after the end.
COMMISSAR = 4
BEST_MOVE = {"type": "best_move", "by": 6, "targets": [1, 2, 9]}
NICKS = [
    "Ворон", "Лиса", "Барон", "Шериф", "Тень", "Кот Бегемот",
    "Северянка", "Ватсон", "Граф", "Пчела", "Мята", "Оса",
]  # fmt: skip


def named(players: list[User]) -> list[User]:
    for player, nick in zip(players, NICKS, strict=True):
        player.nickname = nick
        player.save()
    return players


def played(table: Table, *extra: dict[str, Any]) -> tuple[Game, list[User]]:
    """The town's win with the best move of night 1's victim and, after the end, `extra`;
    not yet analysed."""
    host, evening, players = table
    named(players)
    game = start_game(host, evening, players)
    opening = len(OPENING)
    record(game, host, *TOWN_WINS[:opening], BEST_MOVE, *TOWN_WINS[opening:])
    # The extra points' reasons name players in words, as a host wrote them before the
    # check: the pages screen them as they show.
    record_unscreened(game, host, *extra)
    assert game.finished
    return game, players


# Extra points with a reason that names seat 2's player as the host wrote it.
BONUS = {"type": "bonus", "seat": COMMISSAR, "points": 0.3, "reason": "вёл город, Лиса молчала"}
