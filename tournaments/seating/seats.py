"""The seat order at each generated table: every player in each seat as evenly as their
games allow, seat 1 and the last seats weighted, as mafiaratings weighs them.

A player's seat cost sums, over groups of seats, weight × (times in the group − the even
share of the group)², the share being games × group size / table size:
- each seat alone, × 4 × the seat's weight: seat 1 × 4 (first to speak on day one), seat 2
  × 3, the last seat × 2 (last to speak), the others × 1;
- neighbouring pairs of seats (1–2, 3–4, ...) × 2;
- the halves of the table (the first ⌊S/2⌋ seats and the rest) × 1.
Which players share a table is settled; the search only reorders each table (simulated
annealing swapping two seats of one table), with the played rounds' seats counted."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .anneal import accepts, anneal
from .assignment import cheapest_assignment
from .tally import Tally

SINGLE = 4.0
PAIR = 2.0
HALF = 1.0
HOT = 6.0
COLD = 0.02


def seat_weights(size: int) -> list[float]:
    """Seat 1 × 4, seat 2 × 3, the last seat × 2, the others × 1 (earlier rules win on a
    short table)."""
    weights = [1.0] * size
    weights[-1] = 2.0
    if size > 1:
        weights[1] = 3.0
    weights[0] = 4.0
    return weights


def seat_groups(size: int) -> list[tuple[float, tuple[int, ...]]]:
    """The groups of seats and their weights."""
    groups: list[tuple[float, tuple[int, ...]]] = [
        (SINGLE * w, (s,)) for s, w in enumerate(seat_weights(size))
    ]
    groups += [(PAIR, (s, s + 1)) for s in range(0, size - 1, 2)]
    if size > 1:
        half = size // 2
        groups += [(HALF, tuple(range(half))), (HALF, tuple(range(half, size)))]
    return groups


class SeatSearch:
    def __init__(
        self,
        table_size: int,
        tables: Sequence[Sequence[Sequence[int]]],
        played: Tally,
        games: Sequence[int],
        rng: random.Random,
    ) -> None:
        """`tables`: each generated round's tables of players; `games`: each player's
        games in the whole tournament (their seat shares follow from it)."""
        self.size = table_size
        self.rng = rng
        self.groups = seat_groups(table_size)
        self.weight = [w for w, _ in self.groups]
        self.share = [[g * len(seats) / table_size for _, seats in self.groups] for g in games]
        self.leaving: list[list[list[int]]] = []
        self.joining: list[list[list[int]]] = []
        for a in range(table_size):
            self.leaving.append([])
            self.joining.append([])
            for b in range(table_size):
                self.leaving[a].append(self._only(a, b))
                self.joining[a].append(self._only(b, a))
        self.groups_of = [self._groups_of(seat) for seat in range(table_size)]
        self.orders = [list(table) for round_ in tables for table in round_]
        self.shape = [len(round_) for round_ in tables]
        # The times each player sat in each group of seats.
        self.sums = [[0] * len(self.groups) for _ in games]
        seats = played.seats.tolist()
        for player, row in enumerate(seats):
            self.sums[player] = [sum(row[s] for s in group) for _, group in self.groups]
        for order in self.orders:
            for seat, player in enumerate(order):
                for g in self._groups_of(seat):
                    self.sums[player][g] += 1

    def _groups_of(self, seat: int) -> list[int]:
        return [g for g, (_, seats) in enumerate(self.groups) if seat in seats]

    def _only(self, seat: int, other: int) -> list[int]:
        """The groups that hold `seat` but not `other`."""
        return [g for g in self._groups_of(seat) if other not in self.groups[g][1]]

    def cost(self) -> float:
        """The whole seat cost, computed afresh."""
        return sum(
            self.weight[g] * (sums[g] - shares[g]) ** 2
            for sums, shares in zip(self.sums, self.share, strict=True)
            for g in range(len(self.groups))
        )

    def _moving(self, player: int, a: int, b: int) -> float:
        """The change of the player's cost if they move from seat a to seat b."""
        sums, shares, weight = self.sums[player], self.share[player], self.weight
        delta = 0.0
        for g in self.leaving[a][b]:
            delta += weight[g] * (1.0 - 2.0 * (sums[g] - shares[g]))
        for g in self.joining[a][b]:
            delta += weight[g] * (1.0 + 2.0 * (sums[g] - shares[g]))
        return delta

    def _move_player(self, player: int, a: int, b: int) -> None:
        sums = self.sums[player]
        for g in self.leaving[a][b]:
            sums[g] -= 1
        for g in self.joining[a][b]:
            sums[g] += 1

    def run(self, moves: int) -> None:
        if self.orders and self.size > 1:
            anneal(moves, HOT, COLD, self._move)

    def _move(self, temperature: float) -> None:
        rng = self.rng
        order = self.orders[int(rng.random() * len(self.orders))]
        a = int(rng.random() * self.size)
        b = (a + 1 + int(rng.random() * (self.size - 1))) % self.size
        p, q = order[a], order[b]
        delta = self._moving(p, a, b) + self._moving(q, b, a)
        if accepts(delta, temperature, rng):
            self._move_player(p, a, b)
            self._move_player(q, b, a)
            order[a], order[b] = q, p

    def settle(self, sweeps: int) -> None:
        """Reseat each table in its best order given all the other tables (an exact
        assignment), table after table, until a sweep changes nothing (at most `sweeps`)."""
        for _ in range(sweeps):
            if not any([self._reseat(order) for order in self.orders]):
                return

    def _reseat(self, order: list[int]) -> bool:
        for seat, player in enumerate(order):
            self._add(player, seat, -1)
        # costs[k][s]: what seating the table's k-th player in seat s adds to their cost.
        costs = [[self._adding(player, seat) for seat in range(self.size)] for player in order]
        seats = cheapest_assignment(costs)
        better = sum(costs[k][seats[k]] for k in range(self.size)) < (
            sum(costs[k][k] for k in range(self.size)) - 1e-9
        )
        if better:
            order[:] = [order[seats.index(seat)] for seat in range(self.size)]
        for seat, player in enumerate(order):
            self._add(player, seat, 1)
        return better

    def _add(self, player: int, seat: int, change: int) -> None:
        sums = self.sums[player]
        for g in self.groups_of[seat]:
            sums[g] += change

    def _adding(self, player: int, seat: int) -> float:
        sums, shares, weight = self.sums[player], self.share[player], self.weight
        return sum(weight[g] * (1.0 + 2.0 * (sums[g] - shares[g])) for g in self.groups_of[seat])

    def rounds(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Each generated round's tables in seat order."""
        result = []
        start = 0
        for count in self.shape:
            result.append(tuple(tuple(order) for order in self.orders[start : start + count]))
            start += count
        return tuple(result)
