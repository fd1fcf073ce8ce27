"""The tournament seating generator against the field's (issue #29, issue 38 item 7,
docs/benchmarks.md).

The cases: the field's standard tournaments at tables of 10 where everyone plays every round
(10 players × 10 rounds on 1 table, 20 × 10 on 2, 30 × 10 on 3, 40 × 12 on 4, 50 × 10 on 5),
then shapes where players sit out some rounds: 20 × 18 at one table of 10; 28 × 12 on two
tables of 12 (unequal games: 288 seats for 28 players); 24 × 10 on two tables of 10 with
two pairs kept apart; 40 × 9 on three tables of 11 with absences; 13 × 15 at one table of 12;
66 × 8 on five tables of 12 with a pair kept apart and absences. For each, three seatings and
their figures (tournaments.seating.figures: pair deviation, pairs that never met, seat
deviation, games spread, table deviation), the constraints each breaks, its CPU seconds, and
what no seating can beat where that is known (`bounds`):

- `ours`: tournaments.seating.generate at its default effort;
- `random`: 1,000 random seatings, the best kept by the generator's own cost
  (tournaments.seating.cost.seating_cost): each draws who plays each round as the generator
  does (the games as equal as the absences allow) and deals the players who play to the
  tables at random, seat 1 first;
- `mafplacement`: a search in the manner of DimTom's MafPlacement (github.com/dimtom/
  MafPlacement: solve.cpp, schedule.cpp, random_optimizer.cpp, seat_optimizer.cpp), with the
  move it lacks where players sit out, given the CPU seconds ours took. Its start: who plays
  as above, the players of each round dealt to the tables in order. Its player score: over
  pairs of players, the squared difference between the times they met and S−1 times the
  mean games over P−1, plus 300 for each pair never met (MafPlacement's k[0]), plus 10,000
  for each meeting of a pair kept apart. Its moves: a random round, then either two of its
  tables and a random seat at each, the two players swapped (MafPlacement's
  randomSeatChange), or, where players sit out, a player who plays it and one who sits it
  out, exchanged with a round where the first sits out and the second plays (each keeps
  their games); half and half where both are possible. A move is kept when the score does
  not rise (MafPlacement keeps only a fall; keeping ties too walks the score's plateaus and
  made it stronger on every case here). 10 restarts from the start in 5/8 of the time, then
  its seat score (over players and seats, the squared difference between the times in the
  seat and G/S) with swaps of two seats of a random game, kept when it does not rise (3
  restarts from the best tables in 3/8 of the time). Plain Python lists, as ours, so the two
  differ as searches, not as implementations.

Bounds: the pair deviation of any seating with these tables is at least the larger of (a)
the meetings in whole numbers: the tables give a fixed number of meetings, a pair kept apart
meets 0 times, and the rest is best spread as evenly as whole numbers allow; (b) where every
player plays the same number of games G: the matrix of meetings plus the games on its
diagonal has the eigenvalue S·G on the all-ones vector and rank at most the number of tables
(one fewer for each further round where everyone plays), which bounds its sum of squares
from below. The seat deviation of a player with g games is at least r·(S−r)/S with
r = g mod S; the bound sums it over the games ours gives.

Deterministic apart from the MafPlacement rows, which depend on the CPU time they are given.
Prints one JSON line.
Run: uv run python bench/seating.py [CASE ...]    (a case by its name, e.g. 30x10x3 or 20x18x1)
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import Seating, SeatingProblem, figures, generate
from tournaments.seating.attendance import choose_players
from tournaments.seating.cost import seating_cost
from tournaments.seating.tally import tally

TABLE_SIZE = 10
SEED = 2026
RANDOM_DRAWS = 1000
# MafPlacement's main.cpp: 10 stages of 500,000 player swaps, 3 stages of 1,000,000 seat swaps.
PLAYER_STAGES, SEAT_STAGES = 10, 3
PLAYER_SHARE = 5 / 8
NEVER_MET = 300.0
APART_PRICE = 10_000.0
BARRED_PRICE = 10_000.0
CLOCK_EVERY = 1000


@dataclass(frozen=True)
class Case:
    name: str
    problem: SeatingProblem
    note: str


def _absent(pattern: dict[int, tuple[int, ...]]) -> frozenset[tuple[int, int]]:
    return frozenset((player, round_) for player, rounds in pattern.items() for round_ in rounds)


CASES = (
    *(
        Case(f"{p}x{r}x{t}", SeatingProblem(p, r, t, TABLE_SIZE), "everyone plays every round")
        for p, r, t in ((10, 10, 1), (20, 10, 2), (30, 10, 3), (40, 12, 4), (50, 10, 5))
    ),
    Case("20x18x1", SeatingProblem(20, 18, 1, 10), "one table of 10, half sit out each round"),
    Case("28x12x2s12", SeatingProblem(28, 12, 2, 12), "two tables of 12, unequal games"),
    Case(
        "24x10x2apart",
        SeatingProblem(24, 10, 2, 10, keep_apart=frozenset({(0, 1), (2, 3)})),
        "two tables of 10, two pairs kept apart",
    ),
    Case(
        "40x9x3s11absent",
        SeatingProblem(
            40, 9, 3, 11, absent=_absent({0: (0, 1, 2), 1: (4,), 2: (8,), 3: (0, 8), 4: (5,)})
        ),
        "three tables of 11, absences",
    ),
    Case("13x15x1s12", SeatingProblem(13, 15, 1, 12), "one table of 12, one sits out a round"),
    Case(
        "66x8x5s12",
        SeatingProblem(
            66,
            8,
            5,
            12,
            keep_apart=frozenset({(0, 1)}),
            absent=_absent({2: (0, 1), 3: (7,)}),
        ),
        "five tables of 12, a pair kept apart, absences",
    ),
)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def who_plays(problem: SeatingProblem, rng: random.Random) -> list[tuple[list[int], list[int]]]:
    """Each round's players who play (in a random order) and who sit out, the games as
    equal as the absences allow (the generator's own choice, attendance.py)."""
    plans = problem.plans()
    playing = choose_players(plans, problem.table_size, [0] * problem.players, rng)
    rounds = []
    for plan, plays in zip(plans, playing, strict=True):
        on = [p for p in plan.able if plays[p]]
        rng.shuffle(on)
        rounds.append((on, [p for p in plan.able if not plays[p]]))
    return rounds


def dealt(problem: SeatingProblem, rounds: list[tuple[list[int], list[int]]]) -> Seating:
    size = problem.table_size
    return tuple(
        tuple(tuple(on[t * size : (t + 1) * size]) for t in range(len(on) // size))
        for on, _ in rounds
    )


def best_random(problem: SeatingProblem) -> Seating:
    rng = random.Random(SEED)
    draws = (dealt(problem, who_plays(problem, rng)) for _ in range(RANDOM_DRAWS))
    return min(draws, key=lambda seating: seating_cost(problem, seating))


class MafPlacement:
    """The MafPlacement-style search with the sit-out exchange (the module's docstring)."""

    def __init__(self, problem: SeatingProblem, rng: random.Random, seconds: float) -> None:
        self.problem = problem
        self.rng = rng
        self.seconds = seconds
        size, players = problem.table_size, problem.players
        start = who_plays(problem, rng)
        self.start = [
            ([on[t * size : (t + 1) * size] for t in range(len(on) // size)], sitting)
            for on, sitting in start
        ]
        seats = sum(len(on) for on, _ in start)
        self.games = seats / players
        self.target = (size - 1) * self.games / (players - 1)
        self.price = [
            (m - self.target) ** 2 + (NEVER_MET if m == 0 else 0.0)
            for m in range(problem.rounds + 2)
        ]
        self.apart = {(a, b) for a, b in problem.keep_apart} | {
            (b, a) for a, b in problem.keep_apart
        }

    def pair_price(self, p: int, x: int, met: int) -> float:
        return self.price[met] + (APART_PRICE * met if (p, x) in self.apart else 0.0)

    def solve(self) -> Seating:
        share = PLAYER_SHARE
        best: list[tuple[list[list[int]], list[int]]] = self.start
        best_score = float("inf")
        for _ in range(PLAYER_STAGES):
            rounds = [([list(t) for t in tables], list(s)) for tables, s in self.start]
            score = self.search_players(rounds, self.seconds * share / PLAYER_STAGES)
            if score < best_score:
                best, best_score = rounds, score
        games = [list(t) for tables, _ in best for t in tables]
        seated = self.solve_seats(games, self.seconds * (1 - share))
        out = []
        k = 0
        for tables, _ in best:
            out.append(tuple(tuple(seated[k + t]) for t in range(len(tables))))
            k += len(tables)
        return tuple(out)

    def search_players(
        self, rounds: list[tuple[list[list[int]], list[int]]], seconds: float
    ) -> float:
        problem, rng, size = self.problem, self.rng, self.problem.table_size
        players = problem.players
        met = [[0] * players for _ in range(players)]
        where: list[list[int]] = []
        for tables, sitting in rounds:
            row = [-2] * players
            for t, table in enumerate(tables):
                for p in table:
                    row[p] = t
                    for x in table:
                        if x != p:
                            met[p][x] += 1
            for p in sitting:
                row[p] = -1
            where.append(row)
        price = self.pair_price
        movable = [i for i, (tables, sitting) in enumerate(rounds) if len(tables) > 1 or sitting]
        deadline = time.process_time() + seconds
        done = 0
        while movable and (done % CLOCK_EVERY or time.process_time() < deadline):
            done += 1
            i = movable[int(rng.random() * len(movable))]
            tables, sitting = rounds[i]
            if len(tables) > 1 and (not sitting or rng.random() < 0.5):
                a = int(rng.random() * len(tables))
                b = (a + 1 + int(rng.random() * (len(tables) - 1))) % len(tables)
                sa, sb = int(rng.random() * size), int(rng.random() * size)
                p, q = tables[a][sa], tables[b][sb]
                changes = {(p, x): -1 for x in tables[a] if x != p}
                changes.update({(q, x): -1 for x in tables[b] if x != q})
                changes.update({(q, x): 1 for x in tables[a] if x != p})
                changes.update({(p, x): 1 for x in tables[b] if x != q})
                moved = (((i, a, sa), q), ((i, b, sb), p))
            else:
                a = int(rng.random() * len(tables))
                sa = int(rng.random() * size)
                p = tables[a][sa]
                q = sitting[int(rng.random() * len(sitting))]
                options = [j for j, row in enumerate(where) if row[p] == -1 and row[q] >= 0]
                if not options:
                    continue
                j = options[int(rng.random() * len(options))]
                c = where[j][q]
                sc = rounds[j][0][c].index(q)
                changes = {}
                for x in tables[a]:
                    if x != p:
                        changes[(p, x)] = changes.get((p, x), 0) - 1
                        changes[(q, x)] = changes.get((q, x), 0) + 1
                for x in rounds[j][0][c]:
                    if x != q:
                        changes[(p, x)] = changes.get((p, x), 0) + 1
                        changes[(q, x)] = changes.get((q, x), 0) - 1
                moved = (((i, a, sa), q), ((j, c, sc), p))
            delta = sum(
                price(p_, x, met[p_][x] + change) - price(p_, x, met[p_][x])
                for (p_, x), change in changes.items()
                if change
            )
            if delta > 0:
                continue
            for (p_, x), change in changes.items():
                met[p_][x] += change
                met[x][p_] += change
            for (r, t, slot), player in moved:
                gone = rounds[r][0][t][slot]
                rounds[r][0][t][slot] = player
                if where[r][player] == -1:  # an exchange: the two trade sitting out
                    out = rounds[r][1]
                    out[out.index(player)] = gone
                    where[r][gone] = -1
                where[r][player] = t
        upper = [(p, x) for p in range(players) for x in range(p + 1, players)]
        return sum(price(p, x, met[p][x]) for p, x in upper)

    def solve_seats(self, start: list[list[int]], seconds: float) -> list[list[int]]:
        best, best_score = start, float("inf")
        for _ in range(SEAT_STAGES):
            games = [list(g) for g in start]
            score = self.search_seats(games, seconds / SEAT_STAGES)
            if score < best_score:
                best, best_score = games, score
        return best

    def search_seats(self, games: list[list[int]], seconds: float) -> float:
        size, rng, players = self.problem.table_size, self.rng, self.problem.players
        counts = [[0] * size for _ in range(players)]
        played = [0] * players
        for game in games:
            for seat, p in enumerate(game):
                counts[p][seat] += 1
                played[p] += 1
        deadline = time.process_time() + seconds
        done = 0
        while done % CLOCK_EVERY or time.process_time() < deadline:
            done += 1
            game = games[int(rng.random() * len(games))]
            s1, s2 = int(rng.random() * size), int(rng.random() * size)
            if s1 == s2:
                continue
            p, q = game[s1], game[s2]
            tp, tq = played[p] / size, played[q] / size
            cp, cq = counts[p], counts[q]
            before = (
                (cp[s1] - tp) ** 2 + (cp[s2] - tp) ** 2 + (cq[s2] - tq) ** 2 + (cq[s1] - tq) ** 2
            )
            after = (
                (cp[s1] - 1 - tp) ** 2
                + (cp[s2] + 1 - tp) ** 2
                + (cq[s2] - 1 - tq) ** 2
                + (cq[s1] + 1 - tq) ** 2
            )
            if after <= before:
                cp[s1] -= 1
                cp[s2] += 1
                cq[s2] -= 1
                cq[s1] += 1
                game[s1], game[s2] = q, p
        return sum((c - played[p] / size) ** 2 for p in range(players) for c in counts[p])


def bounds(problem: SeatingProblem, ours: Seating) -> dict[str, float]:
    """What no seating with these tables can beat (the module's docstring)."""
    size, players = problem.table_size, problem.players
    tables = [len(round_) for round_ in ours]
    seats = sum(tables) * size
    target = seats / players * (size - 1) / (players - 1)
    pairs = players * (players - 1) // 2
    meetings = sum(tables) * size * (size - 1) // 2
    free = pairs - len(problem.keep_apart)
    low, extra = divmod(meetings, free)
    whole = extra * (low + 1 - target) ** 2 + (free - extra) * (low - target) ** 2
    whole += len(problem.keep_apart) * target**2
    pair = whole
    counts = tally(players, problem.tables, size, ours)
    if counts.games.min() == counts.games.max():
        games = int(counts.games[0])
        everyone = sum(1 for n in tables if n * size == players)
        rank = sum(tables) - max(0, everyone - 1)
        top = size * games
        trace = players * games
        if rank > 1:
            squares = top**2 + (trace - top) ** 2 / (rank - 1) - players * games**2
            spectral = squares / 2 - 2 * target * meetings + pairs * target**2
            pair = max(pair, spectral)
    seat = sum((g % size) * (size - g % size) / size for g in counts.games.tolist())
    return {"pair_deviation": round(pair, 2), "seat_deviation": round(seat, 2)}


def broken(problem: SeatingProblem, seating: Seating) -> int:
    """Meetings of pairs kept apart, players at tables barred to them, absent players seated."""
    count = 0
    for round_, tables in enumerate(seating):
        for table, players in enumerate(tables):
            seated = set(players)
            count += sum(a in seated and b in seated for a, b in problem.keep_apart)
            count += sum((p, round_, table) in problem.forbidden_tables for p in players)
            count += sum((p, round_) in problem.absent for p in players)
    return count


def measured(make: Callable[[], Seating]) -> tuple[Seating, float]:
    started = time.process_time()
    seating = make()
    return seating, time.process_time() - started


def row(problem: SeatingProblem, seating: Seating, seconds: float) -> dict[str, float | int]:
    values = {
        k: round(v, 2) if isinstance(v, float) else v
        for k, v in asdict(figures(problem, seating)).items()
    }
    return {**values, "broken": broken(problem, seating), "cpu_seconds": round(seconds, 2)}


FIGURES = (
    "pair_deviation",
    "pairs_never_met",
    "seat_deviation",
    "games_spread",
    "table_deviation",
    "broken",
)


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


def run_case(case: Case) -> dict[str, object]:
    problem = case.problem
    ours, ours_seconds = measured(lambda: generate(problem, SEED))
    log(f"{case.name}: ours {ours_seconds:.1f} CPU s")
    drawn, random_seconds = measured(lambda: best_random(problem))
    placement = MafPlacement(problem, random.Random(SEED), ours_seconds)
    theirs, theirs_seconds = measured(placement.solve)
    rows = {
        "ours": row(problem, ours, ours_seconds),
        "random": row(problem, drawn, random_seconds),
        "mafplacement": row(problem, theirs, theirs_seconds),
    }
    return {
        "case": case.name,
        "shape": case.note,
        **rows,
        "bounds": bounds(problem, ours),
        "against_random": verdict(rows["ours"], rows["random"]),
        "against_mafplacement": verdict(rows["ours"], rows["mafplacement"]),
    }


def main() -> None:
    wanted = sys.argv[1:]
    unknown = set(wanted) - {case.name for case in CASES}
    if unknown:
        sys.exit(
            f"No such case: {', '.join(sorted(unknown))}; the cases: "
            + ", ".join(case.name for case in CASES)
        )
    cases = [c for c in CASES if not wanted or c.name in wanted]
    load = os.getloadavg()[0]
    results = [run_case(case) for case in cases]
    loads = {"load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2)}
    print(json.dumps({**loads, "cases": results}, ensure_ascii=False))


if __name__ == "__main__":
    main()
