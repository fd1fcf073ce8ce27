"""Who sits at which table in each generated round: the state the searches share, its
greedy start and its annealing.

The cost, kept up to date move by move with numpy rows:
- pairs: over the pairs of players, a price of the times they met (played rounds included):
  the squared difference from the target G·(S−1)/(P−1), plus NEVER_MET for a pair that
  never met; looked up in a table, so a move's change is a sum of look-ups;
- tables: TABLE_WEIGHT × the sum over players and tables of (times at the table − the even
  share)², so a player's games spread over the tables (and their judges);
- games: GAMES_WEIGHT × the sum of squared games; it changes only when a game moves from one
  player to another, which only a constraint can be worth;
- constraints: a pair to keep apart counts as having met APART times already, so sharing a
  table costs about 2·APART; a player at a table barred to them costs BARRED.

The greedy start seats each round's players, the most constrained first, each at the table
where they add the least cost. The tabu search (tabu.py) then swaps players between tables;
where players sit out, an annealing (sitout.py) then also changes who sits out when.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .problem import RoundPlan, SeatingProblem
from .tally import FloatArray, IntArray, Tally, on_grid

APART = 1000
BARRED = 2000.0
TABLE_WEIGHT = 0.25  # a power of two keeps the costs on the grid (tally.GRID)
# The price of uneven games: GAMES_WEIGHT × the sum of squared games, so a move that takes
# a game from one player and gives it to another with as many costs 2·GAMES_WEIGHT. Above
# anything the pairs or the tables can gain, below a broken constraint.
GAMES_WEIGHT = 200.0

# A pair that never meets costs this much more than its squared deviation says.
NEVER_MET = 8.0
# The meetings matrix's diagonal: an index whose price changes are 0.
DIAGONAL = -1
CANNOT_PLAY = -2
SITS_OUT = -1


@dataclass(frozen=True)
class Snapshot:
    members: IntArray
    table_of: IntArray
    slot_of: IntArray
    sitters: list[list[int]]


class TableSearch:
    """The players of each generated round at its tables, and the cost of it."""

    def __init__(
        self,
        problem: SeatingProblem,
        plans: Sequence[RoundPlan],
        playing: Sequence[Sequence[bool]],
        played: Tally,
        rng: random.Random,
    ) -> None:
        players, size = problem.players, problem.table_size
        rounds = len(plans)
        self.size = size
        self.rng = rng
        self.counts = [plan.tables for plan in plans]
        self.shares = [on_grid(played.share(n)) for n in self.counts]
        self.members: IntArray = np.full((rounds, problem.tables, size), -1, dtype=np.int64)
        self.table_of: IntArray = np.full((rounds, players), CANNOT_PLAY, dtype=np.int64)
        self.slot_of: IntArray = np.zeros((rounds, players), dtype=np.int64)
        self.sitters: list[list[int]] = [[] for _ in plans]
        self.apart = np.zeros((players, players), dtype=np.int64)
        for first, second in problem.keep_apart:
            self.apart[first, second] = self.apart[second, first] = 1
        self.played_pairs: IntArray = played.meetings + APART * self.apart
        np.fill_diagonal(self.played_pairs, DIAGONAL)
        self.pairs = self.played_pairs.copy()
        self.price = pair_prices(played, problem, plans)
        # The change of a pair's price when it meets once more, or once less; the last entry
        # (the diagonal's) is 0.
        self.up = np.append(self.price[1:] - self.price[:-1], [0.0, 0.0])
        self.down = np.append([0.0], self.price[:-1] - self.price[1:])
        self.down = np.append(self.down, 0.0)
        self.played_deviation = on_grid(played.tables - played.expected_tables)
        self.deviation = self.played_deviation.copy()
        self.barred = np.zeros((rounds, players, problem.tables), dtype=np.float64)
        first = problem.first_generated
        for player, round_, table in problem.forbidden_tables:
            if round_ >= first:
                self.barred[round_ - first, player, table] = 1.0
        self.played_games = played.games.tolist()
        self.games = list(self.played_games)
        for i, plan in enumerate(plans):
            self._start_round(i, plan, playing[i])
        self.swap_rounds = [i for i, n in enumerate(self.counts) if n >= 2]
        self.exchange_rounds = [i for i, sitting in enumerate(self.sitters) if sitting]
        self.movable = sorted(set(self.swap_rounds) | set(self.exchange_rounds))

    # The greedy start.

    def _start_round(self, i: int, plan: RoundPlan, playing: Sequence[bool]) -> None:
        # A shuffle by the seed's draws (random() is the one draw Python keeps the same
        # from version to version).
        draw = {p: self.rng.random() for p in plan.able}
        chosen = sorted((p for p in plan.able if playing[p]), key=draw.__getitem__)
        # The most constrained first, while every table still has room for them.
        chosen.sort(key=lambda p: -(self.apart[p].sum() + self.barred[i, p].sum()))
        fill = [0] * self.counts[i]
        for player in chosen:
            table = min(
                (t for t in range(self.counts[i]) if fill[t] < self.size),
                key=lambda t: (self._joining_cost(i, player, t, fill[t]), fill[t], t),
            )
            self._seat(i, player, table, fill[table])
            self.games[player] += 1
            fill[table] += 1
        for player in plan.able:
            if not playing[player]:
                self.table_of[i, player] = SITS_OUT
                self.slot_of[i, player] = len(self.sitters[i])
                self.sitters[i].append(player)

    def _joining_cost(self, i: int, player: int, table: int, filled: int) -> float:
        seated = self.members[i, table, :filled]
        return float(
            self.up[self.pairs[player, seated]].sum()
            + TABLE_WEIGHT * 2 * self.deviation[player, table]
            + BARRED * self.barred[i, player, table]
        )

    def _seat(self, i: int, player: int, table: int, slot: int) -> None:
        seated = self.members[i, table, :slot]
        self.pairs[player, seated] += 1
        self.pairs[seated, player] += 1
        self.members[i, table, slot] = player
        self.table_of[i, player] = table
        self.slot_of[i, player] = slot
        self.deviation[player] -= self.shares[i]
        self.deviation[player, table] += 1

    # The search.

    def cost(self) -> float:
        """The whole cost, computed afresh (the moves keep only its changes)."""
        upper = np.triu_indices(len(self.pairs), k=1)
        pairs = float(self.price[self.pairs[upper]].sum())
        tables = TABLE_WEIGHT * float((self.deviation**2).sum())
        barred = 0.0
        for i, n in enumerate(self.counts):
            for table in range(n):
                barred += float(self.barred[i, self.members[i, table], table].sum())
        games = GAMES_WEIGHT * float(sum(g * g for g in self.games))
        return pairs + tables + BARRED * barred + games

    def apply_swap(self, i: int, a: int, slot_a: int, b: int, slot_b: int) -> None:
        members, deviation = self.members[i], self.deviation
        at_a, at_b = members[a], members[b]
        p, q = int(at_a[slot_a]), int(at_b[slot_b])
        others_a = at_a[at_a != p]
        others_b = at_b[at_b != q]
        self._meet(p, others_a, -1)
        self._meet(q, others_a, 1)
        self._meet(q, others_b, -1)
        self._meet(p, others_b, 1)
        deviation[p, a] -= 1
        deviation[p, b] += 1
        deviation[q, b] -= 1
        deviation[q, a] += 1
        members[a, slot_a], members[b, slot_b] = q, p
        self.table_of[i, p], self.table_of[i, q] = b, a
        self.slot_of[i, p], self.slot_of[i, q] = slot_b, slot_a

    def _meet(self, player: int, others: IntArray, change: int) -> None:
        self.pairs[player, others] += change
        self.pairs[others, player] += change

    def apply_relabel(self, i: int, a: int, b: int) -> None:
        group_a = self.members[i, a].copy()
        group_b = self.members[i, b].copy()
        deviation = self.deviation
        deviation[group_a, a] -= 1
        deviation[group_a, b] += 1
        deviation[group_b, b] -= 1
        deviation[group_b, a] += 1
        self.members[i, a], self.members[i, b] = group_b, group_a
        self.table_of[i, group_a], self.table_of[i, group_b] = b, a

    def snapshot(self) -> Snapshot:
        return Snapshot(
            self.members.copy(),
            self.table_of.copy(),
            self.slot_of.copy(),
            [list(sitting) for sitting in self.sitters],
        )

    def restore(self, saved: Snapshot) -> None:
        """Go back to a snapshot's seating, its counts made afresh."""
        self.members = saved.members.copy()
        self.table_of = saved.table_of.copy()
        self.slot_of = saved.slot_of.copy()
        self.sitters = [list(sitting) for sitting in saved.sitters]
        self.pairs = self.played_pairs.copy()
        self.deviation = self.played_deviation.copy()
        self.games = list(self.played_games)
        for i, n in enumerate(self.counts):
            for table in range(n):
                seated = self.members[i, table]
                for player in seated:
                    self.games[int(player)] += 1
                self.pairs[np.ix_(seated, seated)] += 1
                self.pairs[seated, seated] -= 1
                self.deviation[seated] -= self.shares[i]
                self.deviation[seated, table] += 1

    def rounds(self) -> list[list[list[int]]]:
        """Each generated round's tables of players (in no seat order yet)."""
        return [
            [[int(p) for p in self.members[i, t]] for t in range(n)]
            for i, n in enumerate(self.counts)
        ]


def pair_prices(played: Tally, problem: SeatingProblem, plans: Sequence[RoundPlan]) -> FloatArray:
    """A pair's price by the times it met: the squared deviation from the target, plus
    NEVER_MET for a pair that never met. Long enough for a pair kept apart (APART more)."""
    seats = int(played.games.sum()) + sum(plan.tables for plan in plans) * problem.table_size
    games = seats / problem.players
    target = games * (problem.table_size - 1) / max(1, problem.players - 1)
    times = np.arange(APART + problem.rounds + 2, dtype=np.float64)
    prices = (times - target) ** 2
    prices[0] += NEVER_MET
    return on_grid(prices)
