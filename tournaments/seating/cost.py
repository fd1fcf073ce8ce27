"""The generator's whole cost of a seating, computed afresh: what its searches lower move by
move (tables.py and seats.py say each term). The bench keeps its best random draw by it."""

from __future__ import annotations

import numpy as np

from .problem import Seating, SeatingProblem
from .seats import seat_groups
from .tables import APART, BARRED, GAMES_WEIGHT, TABLE_WEIGHT, pair_prices
from .tally import tally


def seating_cost(problem: SeatingProblem, seating: Seating) -> float:
    counts = tally(problem.players, problem.tables, problem.table_size, seating)
    played = tally(problem.players, problem.tables, problem.table_size, problem.played)
    prices = pair_prices(played, problem, problem.plans())
    upper = np.triu_indices(problem.players, k=1)
    meetings = counts.meetings.copy()
    for first, second in problem.keep_apart:
        meetings[first, second] += APART
        meetings[second, first] += APART
    cost = float(prices[meetings[upper]].sum())
    cost += TABLE_WEIGHT * float(((counts.tables - counts.expected_tables) ** 2).sum())
    barred = sum(
        (player, round_, table) in problem.forbidden_tables
        for round_ in range(problem.first_generated, len(seating))
        for table, players in enumerate(seating[round_])
        for player in players
    )
    cost += BARRED * barred
    cost += GAMES_WEIGHT * float((counts.games.astype(np.float64) ** 2).sum())
    groups = seat_groups(problem.table_size)
    for player in range(problem.players):
        row = counts.seats[player]
        games = float(counts.games[player])
        for weight, seats in groups:
            share = games * len(seats) / problem.table_size
            cost += weight * (float(row[list(seats)].sum()) - share) ** 2
    return cost
