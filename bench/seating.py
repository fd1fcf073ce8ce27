"""The tournament seating generator against the field's (issue #29, docs/benchmarks.md).

The field's standard cases, tables of 10: 10 players × 10 rounds on 1 table, 20 × 10 on 2,
30 × 10 on 3, 40 × 12 on 4, 50 × 10 on 5. For each, three seatings and their figures
(tournaments.seating.figures: pair deviation, pairs that never met, seat deviation, games
spread, table deviation) and seconds:

- `ours`: tournaments.seating.generate at its default effort;
- `random`: 1,000 random seatings (each round a random permutation of the players dealt to
  the tables in order, seat 1 first), the best kept by the generator's own cost
  (tournaments.seating.cost.seating_cost);
- `mafplacement`: a re-implementation of DimTom's MafPlacement (github.com/dimtom/
  MafPlacement, solve.cpp, schedule.cpp, random_optimizer.cpp, seat_optimizer.cpp), given
  the wall time ours took. Its start: tables filled in turn from a cyclic list of the players
  (createInitialSchedule). Its player score: over players, the mean squared difference between
  the times they met each other player and 9·G/(P−1), plus 300 for each player never met
  (k[0] = 300; k has 4 entries, read past its end as 0 here). Its search: a random round, two
  of its tables, a random seat at each, the players swapped, kept only if the score falls
  (10 restarts from the start in 5/8 of the time). Then its seat score (over players, the mean
  squared difference between the times in each seat and G/10) with swaps of two seats of a
  random game, kept only if it falls (3 restarts from the best tables in 3/8 of the time;
  all of it on one table, where there are no players to swap).
  Both scores are kept up to date move by move as ours are (numpy rows), so the two are
  compared as searches, not as implementations.

Deterministic apart from the baseline's clock. Prints one JSON line.
Run: uv run python bench/seating.py [CASE ...]    (a case is PLAYERS×ROUNDS×TABLES, e.g. 30x10x3)
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import Seating, SeatingProblem, figures, generate
from tournaments.seating.cost import seating_cost

CASES = ((10, 10, 1), (20, 10, 2), (30, 10, 3), (40, 12, 4), (50, 10, 5))
TABLE_SIZE = 10
SEED = 2026
RANDOM_DRAWS = 1000
# MafPlacement's main.cpp: 10 stages of 500,000 player swaps, 3 stages of 1,000,000 seat swaps.
PLAYER_STAGES, SEAT_STAGES = 10, 3
PLAYER_SHARE = 5 / 8
NEVER_MET = 300.0
CLOCK_EVERY = 1000


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def random_seating(problem: SeatingProblem, rng: random.Random) -> Seating:
    players = list(range(problem.players))
    rounds = []
    for _ in range(problem.rounds):
        rng.shuffle(players)
        rounds.append(
            tuple(
                tuple(players[t * problem.table_size : (t + 1) * problem.table_size])
                for t in range(problem.tables)
            )
        )
    return tuple(rounds)


def best_random(problem: SeatingProblem) -> Seating:
    rng = random.Random(SEED)
    draws = (random_seating(problem, rng) for _ in range(RANDOM_DRAWS))
    return min(draws, key=lambda seating: seating_cost(problem, seating))


class MafPlacement:
    """MafPlacement's schedule: games[g] = the players of game g in seat order, the games of
    round r being r·T ... r·T + T − 1."""

    def __init__(self, problem: SeatingProblem, rng: random.Random) -> None:
        self.problem = problem
        self.rng = rng
        size = problem.table_size
        players = problem.players
        self.games_per_player = problem.rounds * problem.tables * size / players
        self.target = (size - 1) * self.games_per_player / (players - 1)
        self.seat_target = self.games_per_player / size
        # createInitialSchedule: each table takes the next players of a cyclic list.
        order = [k % players for k in range(problem.rounds * problem.tables * size)]
        self.start = np.array(order, dtype=np.int64).reshape(-1, size)

    # The player score as a sum over pairs: each unordered pair counts for both players.
    def pair_price(self, met: np.ndarray) -> np.ndarray:
        price = 2 * (met - self.target) ** 2 / (self.problem.players - 1)
        return price + np.where(met == 0, 2 * NEVER_MET, 0.0)

    def meetings(self, games: np.ndarray) -> np.ndarray:
        met = np.zeros((self.problem.players, self.problem.players), dtype=np.int64)
        for game in games:
            met[np.ix_(game, game)] += 1
        np.fill_diagonal(met, 0)
        return met

    def player_score(self, met: np.ndarray) -> float:
        upper = np.triu_indices(self.problem.players, k=1)
        return float(self.pair_price(met[upper]).sum())

    def solve_players(self, seconds: float) -> np.ndarray:
        best, best_score = self.start.copy(), float("inf")
        if self.problem.tables < 2:
            return best
        for _ in range(PLAYER_STAGES):
            games = self.start.copy()
            met = self.meetings(games)
            self.swap_players(games, met, seconds / PLAYER_STAGES)
            score = self.player_score(met)
            if score < best_score:
                best, best_score = games, score
        return best

    def swap_players(self, games: np.ndarray, met: np.ndarray, seconds: float) -> None:
        tables, size, rng = self.problem.tables, self.problem.table_size, self.rng
        deadline = time.perf_counter() + seconds
        done = 0
        while done % CLOCK_EVERY or time.perf_counter() < deadline:
            done += 1
            round_ = int(rng.random() * self.problem.rounds)
            a = int(rng.random() * tables)
            b = (a + 1 + int(rng.random() * (tables - 1))) % tables
            g1, g2 = round_ * tables + a, round_ * tables + b
            s1, s2 = int(rng.random() * size), int(rng.random() * size)
            p, q = int(games[g1, s1]), int(games[g2, s2])
            others1 = games[g1][games[g1] != p]
            others2 = games[g2][games[g2] != q]
            before = self.pair_price(
                np.concatenate((met[p, others1], met[q, others2], met[p, others2], met[q, others1]))
            ).sum()
            after = self.pair_price(
                np.concatenate(
                    (
                        met[p, others1] - 1,
                        met[q, others2] - 1,
                        met[p, others2] + 1,
                        met[q, others1] + 1,
                    )
                )
            ).sum()
            if after < before:
                for player, others, change in (
                    (p, others1, -1),
                    (q, others2, -1),
                    (p, others2, 1),
                    (q, others1, 1),
                ):
                    met[player, others] += change
                    met[others, player] += change
                games[g1, s1], games[g2, s2] = q, p

    def seat_counts(self, games: np.ndarray) -> np.ndarray:
        counts = np.zeros((self.problem.players, self.problem.table_size), dtype=np.int64)
        for game in games:
            counts[game, np.arange(len(game))] += 1
        return counts

    def seat_score(self, counts: np.ndarray) -> float:
        return float(((counts - self.seat_target) ** 2).sum() / self.problem.table_size)

    def solve_seats(self, start: np.ndarray, seconds: float) -> np.ndarray:
        best, best_score = start, float("inf")
        for _ in range(SEAT_STAGES):
            games = start.copy()
            counts = self.seat_counts(games)
            self.swap_seats(games, counts, seconds / SEAT_STAGES)
            score = self.seat_score(counts)
            if score < best_score:
                best, best_score = games, score
        return best

    def swap_seats(self, games: np.ndarray, counts: np.ndarray, seconds: float) -> None:
        size, rng, target = self.problem.table_size, self.rng, self.seat_target
        deadline = time.perf_counter() + seconds
        done = 0
        while done % CLOCK_EVERY or time.perf_counter() < deadline:
            done += 1
            g = int(rng.random() * len(games))
            s1, s2 = int(rng.random() * size), int(rng.random() * size)
            if s1 == s2:
                continue
            p, q = int(games[g, s1]), int(games[g, s2])
            # p from seat s1 to s2, q from s2 to s1: the squares before and after.
            c = (counts[p, s1], counts[p, s2], counts[q, s2], counts[q, s1])
            before = sum((x - target) ** 2 for x in c)
            after = sum((x + d - target) ** 2 for x, d in zip(c, (-1, 1, -1, 1), strict=True))
            if after < before:
                counts[p, s1] -= 1
                counts[p, s2] += 1
                counts[q, s2] -= 1
                counts[q, s1] += 1
                games[g, s1], games[g, s2] = q, p

    def solve(self, seconds: float) -> Seating:
        # On one table there are no players to swap: the seats take all the time.
        share = PLAYER_SHARE if self.problem.tables > 1 else 0.0
        tables = self.solve_players(seconds * share)
        games = self.solve_seats(tables, seconds * (1 - share))
        t = self.problem.tables
        return tuple(
            tuple(tuple(int(p) for p in games[r * t + k]) for k in range(t))
            for r in range(self.problem.rounds)
        )


def measured(make: Callable[[], Seating]) -> tuple[Seating, float]:
    started = time.perf_counter()
    seating = make()
    return seating, time.perf_counter() - started


def row(problem: SeatingProblem, seating: Seating, seconds: float) -> dict[str, float | int]:
    values = {
        k: round(v, 2) if isinstance(v, float) else v
        for k, v in asdict(figures(problem, seating)).items()
    }
    return {**values, "seconds": round(seconds, 2)}


FIGURES = ("pair_deviation", "pairs_never_met", "seat_deviation", "games_spread", "table_deviation")


def verdict(ours: dict[str, float | int], theirs: dict[str, float | int]) -> dict[str, str]:
    """Each figure of ours against a baseline's: better, equal or worse (lower is better)."""
    return {
        name: "better"
        if ours[name] < theirs[name]
        else "equal"
        if ours[name] == theirs[name]
        else "worse"
        for name in FIGURES
    }


def run_case(players: int, rounds: int, tables: int) -> dict[str, object]:
    problem = SeatingProblem(players, rounds, tables, TABLE_SIZE)
    ours, ours_seconds = measured(lambda: generate(problem, SEED))
    log(f"{players}×{rounds} on {tables}: ours {ours_seconds:.1f} s")
    drawn, random_seconds = measured(lambda: best_random(problem))
    placement = MafPlacement(problem, random.Random(SEED))
    theirs, theirs_seconds = measured(lambda: placement.solve(ours_seconds))
    rows = {
        "ours": row(problem, ours, ours_seconds),
        "random": row(problem, drawn, random_seconds),
        "mafplacement": row(problem, theirs, theirs_seconds),
    }
    return {
        "case": f"{players}x{rounds}x{tables}",
        **rows,
        "against_random": verdict(rows["ours"], rows["random"]),
        "against_mafplacement": verdict(rows["ours"], rows["mafplacement"]),
    }


def main() -> None:
    wanted = sys.argv[1:]
    cases = [c for c in CASES if not wanted or "x".join(map(str, c)) in wanted]
    load = os.getloadavg()[0]
    results = [run_case(*case) for case in cases]
    loads = {"load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2)}
    print(json.dumps({**loads, "cases": results}, ensure_ascii=False))


if __name__ == "__main__":
    main()
