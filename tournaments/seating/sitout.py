"""Where players sit out: a simulated annealing over who plays when and at which table,
after the tabu search (tabu.py) has settled the tables as they were drawn.

Its moves, each weighed exactly by TableSearch's cost (tables.py):
- a swap of two players between two tables of a round;
- an exchange across two rounds: p plays round i and sits out round j, q sits out i and
  plays j; q takes p's seat in i and p takes q's in j, so each keeps their games (a player
  who sits out meets nobody, so who sits out when is what evens the pairs on one table);
- where a constraint may need it (pairs kept apart, tables barred), a hand-over: a player
  of a round sits it out in favour of one who sat it out, a game moving from one to the
  other at GAMES_WEIGHT's price.

The temperature falls geometrically from HOT to COLD over the moves, the best seating seen
is kept. Plain Python lists, not numpy rows: a move touches two tables of 10–15 players, and
numpy's overhead per call would be most of its cost. The sums run in one fixed order, so the
same seed makes the same choices on every machine; the count of moves, never the clock,
ends the search."""

from __future__ import annotations

import math
from collections.abc import Callable

from .tables import BARRED, CANNOT_PLAY, GAMES_WEIGHT, SITS_OUT, TABLE_WEIGHT, TableSearch

HOT = 0.8
COLD = 0.05
# Runs of annealing, each from the best seating the ones before it saw.
ANNEALINGS = 4
# A round that has both: the share of exchanges among its moves (the rest are swaps).
EXCHANGE_SHARE = 0.5
# Of the moves in a round where players sit out, the share of hand-overs (only when the
# problem has pairs kept apart or tables barred).
HAND_OVER_SHARE = 0.05
# How many moves share one temperature before it falls a step.
STEP = 1024


class SitOutSearch:
    """The seating of a TableSearch as lists, annealed, then written back to it."""

    def __init__(self, state: TableSearch) -> None:
        self.state = state
        self.rng = state.rng
        self.size = state.size
        self.counts = list(state.counts)
        self.price: list[float] = state.price.tolist()
        self.pairs: list[list[int]] = state.pairs.tolist()
        self.deviation: list[list[float]] = state.deviation.tolist()
        self.shares: list[list[float]] = [share.tolist() for share in state.shares]
        self.barred: list[list[list[float]]] = state.barred.tolist()
        self.games: list[int] = list(state.games)
        self.tables: list[list[list[int]]] = [
            [[int(p) for p in state.members[i, t]] for t in range(n)]
            for i, n in enumerate(self.counts)
        ]
        self.sitters = [list(sitting) for sitting in state.sitters]
        self.table_of: list[list[int]] = state.table_of.tolist()
        self.rounds = list(state.movable)
        self.constrained = bool(state.apart.any() or state.barred.any())

    # The moves' changes of the cost.

    def swap_delta(self, i: int, a: int, p: int, b: int, q: int) -> float:
        """p at table a and q at table b of round i trade tables."""
        price, row_p, row_q = self.price, self.pairs[p], self.pairs[q]
        delta = 0.0
        for x in self.tables[i][a]:
            if x != p:
                delta += price[row_p[x] - 1] - price[row_p[x]]
                delta += price[row_q[x] + 1] - price[row_q[x]]
        for x in self.tables[i][b]:
            if x != q:
                delta += price[row_q[x] - 1] - price[row_q[x]]
                delta += price[row_p[x] + 1] - price[row_p[x]]
        dev_p, dev_q = self.deviation[p], self.deviation[q]
        delta += TABLE_WEIGHT * (2 * (dev_p[b] - dev_p[a] + dev_q[a] - dev_q[b]) + 4)
        bars = self.barred[i]
        delta += BARRED * (bars[p][b] + bars[q][a] - bars[p][a] - bars[q][b])
        return delta

    def _pair_changes(self, i: int, a: int, p: int, j: int, c: int, q: int) -> dict[int, int]:
        """The change of p's meetings with each other player when p leaves table a of
        round i and takes q's seat at table c of round j (q's are the opposite)."""
        changes: dict[int, int] = {}
        for x in self.tables[i][a]:
            if x != p:
                changes[x] = -1
        for x in self.tables[j][c]:
            if x != q:
                changes[x] = changes.get(x, 0) + 1
        return changes

    def exchange_delta(self, i: int, a: int, p: int, j: int, c: int, q: int) -> float:
        """p (at table a of round i, sitting out j) and q (sitting out i, at table c of
        round j) trade: q plays i at p's seat, p plays j at q's."""
        price, row_p, row_q = self.price, self.pairs[p], self.pairs[q]
        delta = 0.0
        for x, change in self._pair_changes(i, a, p, j, c, q).items():
            if change:
                delta += price[row_p[x] + change] - price[row_p[x]]
                delta += price[row_q[x] - change] - price[row_q[x]]
        # p's deviation moves by v = share_i − share_j − e_a + e_c, q's by −v.
        share_i, share_j = self.shares[i], self.shares[j]
        dev_p, dev_q = self.deviation[p], self.deviation[q]
        spread = 0.0
        for t in range(len(dev_p)):
            v = share_i[t] - share_j[t] - (t == a) + (t == c)
            if v:
                spread += 2 * (dev_p[t] - dev_q[t]) * v + 2 * v * v
        delta += TABLE_WEIGHT * spread
        delta += BARRED * (
            self.barred[i][q][a]
            - self.barred[i][p][a]
            + self.barred[j][p][c]
            - self.barred[j][q][c]
        )
        return delta

    def hand_over_delta(self, i: int, a: int, p: int, q: int) -> float:
        """q, sitting out round i, takes p's seat at table a; p sits out (a game moves)."""
        price, row_p, row_q = self.price, self.pairs[p], self.pairs[q]
        delta = 0.0
        for x in self.tables[i][a]:
            if x != p:
                delta += price[row_p[x] - 1] - price[row_p[x]]
                delta += price[row_q[x] + 1] - price[row_q[x]]
        share = self.shares[i]
        dev_p, dev_q = self.deviation[p], self.deviation[q]
        spread = 0.0
        for t in range(len(dev_p)):
            v = share[t] - (t == a)  # p's change; q's is −v
            if v:
                spread += 2 * (dev_p[t] - dev_q[t]) * v + 2 * v * v
        delta += TABLE_WEIGHT * spread
        delta += BARRED * (self.barred[i][q][a] - self.barred[i][p][a])
        delta += GAMES_WEIGHT * (2 * (self.games[q] - self.games[p]) + 2)
        return delta

    # The moves themselves.

    def _meet(self, player: int, others: list[int], change: int) -> None:
        row = self.pairs[player]
        for x in others:
            if x != player:
                row[x] += change
                self.pairs[x][player] += change

    def swap(self, i: int, a: int, p: int, b: int, q: int) -> None:
        at_a, at_b = self.tables[i][a], self.tables[i][b]
        self._meet(p, at_a, -1)
        self._meet(q, at_b, -1)
        at_a[at_a.index(p)], at_b[at_b.index(q)] = q, p
        self._meet(q, at_a, 1)
        self._meet(p, at_b, 1)
        self.deviation[p][a] -= 1
        self.deviation[p][b] += 1
        self.deviation[q][b] -= 1
        self.deviation[q][a] += 1
        self.table_of[i][p], self.table_of[i][q] = b, a

    def replace(self, i: int, a: int, leaving: int, coming: int) -> None:
        """`coming` (sitting round i out) takes the seat of `leaving` at table a."""
        seated = self.tables[i][a]
        self._meet(leaving, seated, -1)
        seated[seated.index(leaving)] = coming
        self._meet(coming, seated, 1)
        share = self.shares[i]
        dev_leaving, dev_coming = self.deviation[leaving], self.deviation[coming]
        for t, part in enumerate(share):
            dev_leaving[t] += part
            dev_coming[t] -= part
        dev_leaving[a] -= 1
        dev_coming[a] += 1
        sitting = self.sitters[i]
        sitting[sitting.index(coming)] = leaving
        self.table_of[i][leaving], self.table_of[i][coming] = SITS_OUT, a

    def exchange(self, i: int, a: int, p: int, j: int, c: int, q: int) -> None:
        self.replace(i, a, p, q)
        self.replace(j, c, q, p)

    def hand_over(self, i: int, a: int, p: int, q: int) -> None:
        self.replace(i, a, p, q)
        self.games[p] -= 1
        self.games[q] += 1

    # The annealing.

    def propose(self, temperature: float) -> float | None:
        """Draw a move, make it if the annealing accepts it; the change of the cost, or None
        when no move was made."""
        rng = self.rng
        i = self.rounds[int(rng.random() * len(self.rounds))]
        n, sitting = self.counts[i], self.sitters[i]
        pick = rng.random()
        if sitting and (n < 2 or pick < EXCHANGE_SHARE):
            a = int(rng.random() * n)
            p = self.tables[i][a][int(rng.random() * self.size)]
            q = sitting[int(rng.random() * len(sitting))]
            if self.constrained and rng.random() < HAND_OVER_SHARE:
                delta = self.hand_over_delta(i, a, p, q)
                if _accepts(delta, temperature, rng.random):
                    self.hand_over(i, a, p, q)
                    return delta
                return None
            table_of = self.table_of
            options = [j for j in self.rounds if table_of[j][p] == SITS_OUT and table_of[j][q] >= 0]
            if not options:
                return None
            j = options[int(rng.random() * len(options))]
            c = self.table_of[j][q]
            delta = self.exchange_delta(i, a, p, j, c, q)
            if _accepts(delta, temperature, rng.random):
                self.exchange(i, a, p, j, c, q)
                return delta
            return None
        a = int(rng.random() * n)
        b = (a + 1 + int(rng.random() * (n - 1))) % n
        p = self.tables[i][a][int(rng.random() * self.size)]
        q = self.tables[i][b][int(rng.random() * self.size)]
        delta = self.swap_delta(i, a, p, b, q)
        if _accepts(delta, temperature, rng.random):
            self.swap(i, a, p, b, q)
            return delta
        return None

    def run(self, moves: int) -> None:
        """Anneal over `moves` moves, in ANNEALINGS runs from HOT to COLD, each from the best
        seating the runs before it saw; then write the best back to the TableSearch."""
        if moves <= 0 or not self.rounds:
            return
        for _ in range(ANNEALINGS):
            self._anneal(moves // ANNEALINGS)
            self.__init__(self.state)  # type: ignore[misc]

    def _anneal(self, moves: int) -> None:
        steps = max(1, moves // STEP)
        factor = (COLD / HOT) ** (1.0 / steps)
        temperature = HOT
        current = best = 0.0
        kept = self._copy()
        done = 0
        while done < moves:
            batch = min(STEP, moves - done)
            for _ in range(batch):
                current += self.propose(temperature) or 0.0
            done += batch
            temperature *= factor
            # The best is looked for between batches: copying the seating after every
            # better move would cost more than the moves.
            if current < best - 1e-9:
                best = current
                kept = self._copy()
        self._write_back(kept)

    def write_back(self) -> None:
        """Write the seating as it is now back to the TableSearch."""
        self._write_back(self._copy())

    def _copy(self) -> tuple[list[list[list[int]]], list[list[int]]]:
        return [[list(t) for t in r] for r in self.tables], [list(s) for s in self.sitters]

    def _write_back(self, kept: tuple[list[list[list[int]]], list[list[int]]]) -> None:
        state = self.state
        tables, sitters = kept
        for i, round_ in enumerate(tables):
            state.table_of[i][state.table_of[i] != CANNOT_PLAY] = SITS_OUT
            for t, players in enumerate(round_):
                for slot, player in enumerate(players):
                    state.members[i, t, slot] = player
                    state.table_of[i, player] = t
                    state.slot_of[i, player] = slot
            for slot, player in enumerate(sitters[i]):
                state.slot_of[i, player] = slot
        state.sitters = [list(s) for s in sitters]
        state.restore(state.snapshot())


def _accepts(delta: float, temperature: float, draw: Callable[[], float]) -> bool:
    """Metropolis: a change that does not worsen the cost is taken; a worse one with the
    chance exp(−delta / temperature)."""
    return delta <= 0 or draw() < math.exp(-delta / temperature)
