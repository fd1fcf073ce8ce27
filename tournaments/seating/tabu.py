"""Tabu search over the tables. Each step evaluates every swap of two players between two
tables of a round, in all the generated rounds at once (numpy over rounds × players ×
players), and makes the best swap that is not tabu, even when it worsens the cost: so it
climbs out of the local minima where a descent stops. A player who left a table may not go
back to it in that round for a few steps (the tenure, drawn from the seed), unless the move
beats the best seating seen; the best seating seen is the result. On a large problem a step
evaluates a draw of the rounds (ELEMENTS bounds a step's arrays), so a step stays cheap.

Every LABELS_EVERY steps and at the end, the tables' labels are settled: two tables of a
round swap their players while that lowers the cost (the tables' spread and the bars; who
meets whom stays). The costs are TableSearch's (tables.py)."""

from __future__ import annotations

import numpy as np

from .tables import BARRED, TABLE_WEIGHT, TableSearch
from .tally import FloatArray, IntArray

TENURE = 5
LABELS_EVERY = 50
# The most rounds × players × players a step evaluates.
ELEMENTS = 30_000
EPSILON = 1e-9


class TabuSearch:
    def __init__(self, state: TableSearch) -> None:
        self.state = state
        rounds, players = state.table_of.shape
        self.tables = state.members.shape[1]
        self.playing = state.table_of >= 0
        self.swap_rounds = np.asarray(state.swap_rounds, dtype=np.int64)
        self.per_step = max(1, min(len(self.swap_rounds), ELEMENTS // (players * players)))
        self.player_index = np.arange(players)[None, :]
        # until[r, x, t]: the step from which player x may move back to table t in round r.
        self.until: IntArray = np.zeros((rounds, players, self.tables), dtype=np.int64)
        counts = np.asarray(state.counts)
        first, second = np.triu_indices(self.tables, k=1)
        self.label_pairs = (first, second)
        self.can_relabel = second[None, :] < counts[:, None]  # rounds × pairs of tables

    def run(self, steps: int) -> None:
        state = self.state
        if steps <= 0 or not len(self.swap_rounds):
            return
        # The cost relative to the start: the steps' changes are exact (tally.GRID), so the
        # comparisons are the same on every machine.
        current = best = 0.0
        saved = state.snapshot()
        for step in range(steps):
            if step % LABELS_EVERY == 0:
                current += self.settle_labels()
            rounds = self._rounds_to_weigh()
            swaps = self._swap_deltas(rounds, step, current, best)
            lowest = float(swaps.min())
            if lowest == np.inf:
                continue
            k, p, q = self._one_of(swaps, lowest)
            self._make_swap(step, int(rounds[k]), p, q)
            current += lowest
            if current < best - EPSILON:
                best = current
                saved = state.snapshot()
        state.restore(saved)
        self.settle_labels()

    def _rounds_to_weigh(self) -> IntArray:
        """All the rounds with two tables or more, or a draw of per_step of them."""
        if self.per_step == len(self.swap_rounds):
            return self.swap_rounds
        draws = [self.state.rng.random() for _ in self.swap_rounds]
        chosen = sorted(range(len(draws)), key=draws.__getitem__)[: self.per_step]
        picked: IntArray = self.swap_rounds[np.sort(chosen)]
        return picked

    def _one_of(self, deltas: FloatArray, lowest: float) -> tuple[int, ...]:
        """One of the best moves, drawn by the seed (ties are common: the costs are mostly
        whole numbers)."""
        ties = np.flatnonzero(deltas.ravel() <= lowest + EPSILON)
        chosen = int(ties[int(self.state.rng.random() * len(ties))])
        return tuple(int(k) for k in np.unravel_index(chosen, deltas.shape))

    def _swap_deltas(self, rounds: IntArray, step: int, current: float, best: float) -> FloatArray:
        """deltas[k, x, y]: the change of the cost if x and y swap tables in round
        rounds[k] (inf where they cannot, or may not)."""
        state = self.state
        playing = self.playing[rounds]
        table = np.where(playing, state.table_of[rounds], 0)
        count, players = table.shape
        at = np.zeros((count, players, self.tables))
        at[np.arange(count)[:, None], self.player_index, table] = playing
        up = state.up[state.pairs]
        down = state.down[state.pairs]
        # x's pairs' change on joining y's table, and on leaving their own.
        their = np.broadcast_to(table[:, None, :], (count, players, players))
        joining = np.take_along_axis(up @ at, their, 2)
        leaving = np.take_along_axis(down @ at, table[:, :, None], 2)[:, :, 0]
        deltas = leaving[:, :, None] + leaving[:, None, :] + joining + joining.transpose(0, 2, 1)
        deltas -= 2 * up
        # The tables' spread: x's deviation at y's table, and at their own.
        deviation = state.deviation[:, table].transpose(1, 0, 2)
        own = state.deviation[self.player_index, table]
        deltas += TABLE_WEIGHT * (
            2 * (deviation + deviation.transpose(0, 2, 1) - own[:, :, None] - own[:, None, :]) + 4
        )
        barred = np.take_along_axis(state.barred[rounds], their, 2)
        own_barred = np.take_along_axis(state.barred[rounds], table[:, :, None], 2)[:, :, 0]
        deltas += BARRED * (
            barred + barred.transpose(0, 2, 1) - own_barred[:, :, None] - own_barred[:, None, :]
        )
        tabu = np.take_along_axis(self.until[rounds], their, 2) > step
        tabu |= tabu.transpose(0, 2, 1)
        allowed = playing[:, :, None] & playing[:, None, :]
        allowed &= table[:, :, None] != table[:, None, :]
        allowed &= ~tabu | (current + deltas < best - EPSILON)
        return np.where(allowed, deltas, np.inf)

    def _make_swap(self, step: int, i: int, p: int, q: int) -> None:
        state = self.state
        a, b = int(state.table_of[i, p]), int(state.table_of[i, q])
        state.apply_swap(i, a, int(state.slot_of[i, p]), b, int(state.slot_of[i, q]))
        self.until[i, p, a] = step + self._tenure()
        self.until[i, q, b] = step + self._tenure()

    def _tenure(self) -> int:
        return TENURE + int(self.state.rng.random() * TENURE)

    def settle_labels(self) -> float:
        """Swap tables' labels while that lowers the cost; the change of the cost. Not a
        move of the tabu search: a label swap changes the cost little, and the search would
        spend its steps on them in a local minimum of the swaps."""
        change = 0.0
        self.playing = self.state.table_of >= 0  # the annealing may have changed who plays
        while True:
            deltas = self._relabel_deltas()
            lowest = float(deltas.min()) if deltas.size else 0.0
            if lowest >= -EPSILON:
                return change
            i, k = self._one_of(deltas, lowest)
            first, second = self.label_pairs
            self.state.apply_relabel(i, int(first[k]), int(second[k]))
            change += lowest

    def _relabel_deltas(self) -> FloatArray:
        """deltas[r, k]: the change of the cost if the k-th pair of tables of round r swap
        their players."""
        state = self.state
        table = np.where(self.playing, state.table_of, 0)
        rounds, players = table.shape
        at = np.zeros((rounds, players, self.tables))
        at[np.arange(rounds)[:, None], self.player_index, table] = self.playing
        groups = at.transpose(0, 2, 1)
        # sums[r, t, u]: over the players at table t, their deviation (bars) at table u.
        sums = groups @ state.deviation
        bars = groups @ state.barred
        a, b = self.label_pairs
        deltas = TABLE_WEIGHT * (
            2 * (sums[:, a, b] - sums[:, a, a] + sums[:, b, a] - sums[:, b, b]) + 4 * state.size
        )
        deltas += BARRED * (bars[:, a, b] - bars[:, a, a] + bars[:, b, a] - bars[:, b, b])
        return np.where(self.can_relabel, deltas, np.inf)
