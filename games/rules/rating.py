"""Elo across games, with a red track and a black track (docs/scoring.md).

As mafiaratings keeps it: a player has one rating for the games they play red and another
for the games they play black, since the two sides are different crafts. A game is a match
between the red team (the mean of its players' red ratings) and the black team (the mean of
its players' black ratings); every player of a side moves by the same amount,
K × (score − expected). A loner (maniac, нагнетатель) is in neither match; a game a loner
wins is a draw between red and black, who both failed.

Pure Python: the caller gives the games in the order they were played.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

INITIAL = 1500.0
K = 20.0  # the step of a club that plays three games a week: a season moves a rating ~100
RED, BLACK = "red", "black"


@dataclass(frozen=True)
class Change:
    before: float
    after: float


def expected(rating: float, opponent: float) -> float:
    """The chance Elo gives `rating` against `opponent`."""
    return 1.0 / (1.0 + float(10.0 ** ((opponent - rating) / 400.0)))


def match(
    red: Mapping[Hashable, float], black: Mapping[Hashable, float], winner: str, k: float = K
) -> dict[Hashable, Change]:
    """One game: `red`/`black` map each player of the side to their rating on its track;
    `winner` is "red", "black" or anything else (a loner's win: a draw)."""
    if not red or not black:
        return {}
    red_mean = sum(red.values()) / len(red)
    black_mean = sum(black.values()) / len(black)
    red_expected = expected(red_mean, black_mean)
    red_score = {RED: 1.0, BLACK: 0.0}.get(winner, 0.5)
    red_step = k * (red_score - red_expected)
    changes: dict[Hashable, Change] = {}
    for player, rating in red.items():
        changes[player] = Change(rating, rating + red_step)
    for player, rating in black.items():
        changes[player] = Change(rating, rating - red_step)  # a zero-sum match
    return changes


@dataclass(frozen=True)
class Played:
    """One player in one game, as the replay reads it."""

    key: Hashable  # what the caller calls this row (its id)
    game: Hashable
    player: Hashable
    track: str  # "red", "black", or "" for a loner
    winner: str  # the game's winner


def replay(rows: Iterable[Played], k: float = K) -> dict[Hashable, Change]:
    """Every row's rating before and after, from the rows of all games in playing order
    (rows of one game together). Loners' rows get no change."""
    ratings: dict[tuple[Hashable, str], float] = {}
    changes: dict[Hashable, Change] = {}
    game: list[Played] = []

    def settle() -> None:
        sides: dict[str, dict[Hashable, float]] = {RED: {}, BLACK: {}}
        keys: dict[Hashable, Hashable] = {}
        for row in game:
            if row.track in sides:
                sides[row.track][row.player] = ratings.get((row.player, row.track), INITIAL)
                keys[row.player] = row.key
        for player, change in match(sides[RED], sides[BLACK], game[0].winner, k).items():
            track = RED if player in sides[RED] else BLACK
            ratings[(player, track)] = change.after
            changes[keys[player]] = change

    for row in rows:
        if game and row.game != game[0].game:
            settle()
            game = []
        game.append(row)
    if game:
        settle()
    return changes
