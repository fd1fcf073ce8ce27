"""A seating's counts, the figures' and the generator's common ground: how often each pair
met, each player's games, seats and tables, and the tables each player could expect."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

# The searches' costs are kept on a grid of 2⁻²⁰: sums of such numbers are exact in floating
# point whatever their order (a matrix product's order depends on the machine's BLAS), so
# the same seed makes the same choices on every machine.
GRID = 2.0**20


def on_grid(values: FloatArray) -> FloatArray:
    snapped: FloatArray = np.round(values * GRID) / GRID
    return snapped


class Tally:
    """Counts over any rounds of a seating, each round given as its tables of players in
    seat order. `meetings` has a zero diagonal; `expected_tables[p, t]` is the sum over the
    rounds p plays of 1/n for each of the round's n tables: a player spread evenly sits at
    each table that often."""

    def __init__(self, players: int, tables: int, table_size: int) -> None:
        self.meetings: IntArray = np.zeros((players, players), dtype=np.int64)
        self.games: IntArray = np.zeros(players, dtype=np.int64)
        self.seats: IntArray = np.zeros((players, table_size), dtype=np.int64)
        self.tables: IntArray = np.zeros((players, tables), dtype=np.int64)
        self.expected_tables: FloatArray = np.zeros((players, tables), dtype=np.float64)
        self._share = [np.zeros(tables) for _ in range(tables + 1)]
        for n in range(1, tables + 1):
            self._share[n][:n] = 1.0 / n

    def add_round(self, tables: Sequence[Sequence[int]]) -> None:
        share = self._share[len(tables)]
        for table, players in enumerate(tables):
            seated = np.asarray(players, dtype=np.int64)
            self.meetings[np.ix_(seated, seated)] += 1
            self.meetings[seated, seated] -= 1
            self.games[seated] += 1
            self.seats[seated, np.arange(len(seated))] += 1
            self.tables[seated, table] += 1
            self.expected_tables[seated] += share

    def share(self, tables: int) -> FloatArray:
        """A player's expected share of each table in a round of `tables` tables."""
        return self._share[tables]


def tally(
    players: int, tables: int, table_size: int, rounds: Sequence[Sequence[Sequence[int]]]
) -> Tally:
    counts = Tally(players, tables, table_size)
    for round_ in rounds:
        counts.add_round(round_)
    return counts
