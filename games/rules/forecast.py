"""How well a rating system foresees the club's own games: before each game is rated, the
system's chance that red wins it, scored by log-loss against what happened (docs/scoring.md
«How sure a rating is»).

A simulation can only say which system finds skill under the skill it assumes; this measure
assumes nothing about skill or points. It is prequential: each game is foreseen from the
games before it alone, so every game is held out when it is judged, and the figure grows
truer with every game the club records.

The chance of a red win has two parts: the club's base rate (red's share of the decided
games so far, with one win and one loss added so that the first game is a coin), and the
system's judgement of the two teams, read as if the sides were equal (Elo's expected score,
OpenSkill's chance of the better performance). They add in log-odds: a table of equals wins
at the base rate, and the system's edge moves it from there. Games a loner won (neither red
nor black) and games with a side of guests only are not foreseen, and are still rated.

Pure Python, as the rest of games/rules.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.rules.rating import BLACK, RED, BaseRate, Played, Rater, games_of, logistic, logit

# A chance is kept this far from 0 and 1, so one surprise costs at most ~14 nats, not ∞.
EDGE = 1e-6
COIN = math.log(2)  # the log-loss of always saying ½


@dataclass(frozen=True)
class Forecast:
    """A system's record at foreseeing the club's games."""

    games: int  # the games foreseen (decided between red and black)
    log_loss: float  # the system's mean log-loss, in nats (lower is better)
    base_log_loss: float  # the base rate's alone (the same games)

    @property
    def coin(self) -> float:
        return COIN

    @property
    def gain(self) -> float:
        """How much the ratings add to the base rate: positive when they help."""
        return self.base_log_loss - self.log_loss


__all__ = ["Forecast", "Tally", "combined", "forecast", "logistic", "logit", "loss"]


def combined(base: float, edge: float) -> float:
    """Red's chance from the base rate and the system's chance between equal sides."""
    p = logistic(logit(base) + logit(min(max(edge, EDGE), 1.0 - EDGE)))
    return min(max(p, EDGE), 1.0 - EDGE)


def loss(p: float, red_won: bool) -> float:
    return -math.log(p if red_won else 1.0 - p)


class Tally:
    """A system's foresight, game by game: `foresee` each game before it is rated."""

    def __init__(self) -> None:
        self.base = BaseRate()
        self.total = self.base_total = 0.0

    def foresee(self, game: Sequence[Played], system: Rater) -> None:
        winner = game[0].winner
        edge = system.red_chance(game)
        if edge is None or winner not in (RED, BLACK):
            return
        red_won = winner == RED
        base = self.base.red
        self.total += loss(combined(base, edge), red_won)
        self.base_total += loss(base, red_won)
        self.base.record(winner)

    def result(self) -> Forecast:
        decided = self.base.decided
        if not decided:
            return Forecast(0, COIN, COIN)
        return Forecast(decided, self.total / decided, self.base_total / decided)


def forecast(rows: Iterable[Played], system: Rater) -> Forecast:
    """Fold the club's games (in playing order) through `system`, foreseeing each before
    rating it."""
    tally = Tally()
    for game in games_of(rows):
        tally.foresee(game, system)
        system.rate(game)
    return tally.result()
