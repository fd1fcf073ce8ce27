"""Tabu search over the tables: each step evaluates every swap of two players between
tables of one round, and every swap of two tables' labels, in all generated rounds at once
(numpy over rounds × players × players), and makes the best one that is not tabu, even when
it worsens the cost; so it climbs out of the local minima a descent stops in. A player who
left a table may not return to it in that round for a few steps (the tenure, drawn from the
seed), unless the move beats the best seating seen. The best seating seen is the result.

The costs are TableSearch's (tables.py), so its greedy start, its annealing and this search
lower the same thing."""

from __future__ import annotations

import numpy as np

from .tables import BARRED, TABLE_WEIGHT, TableSearch
from .tally import FloatArray, IntArray

TENURE = 5
LABELS_EVERY = 50
EPSILON = 1e-9


class TabuSearch:
    def __init__(self, state: TableSearch) -> None:
        self.state = state
        rounds, players = state.table_of.shape
        self.tables = state.members.shape[1]
        self.playing = state.table_of >= 0
        both = self.playing[:, :, None] & self.playing[:, None, :]
        self.can_pair = both
        self.round_index = np.arange(rounds)[:, None]
        self.player_index = np.arange(players)[None, :]
        # until[r, x, t]: the step from which player x may move back to table t in round r.
        self.until: IntArray = np.zeros((rounds, players, self.tables), dtype=np.int64)
        counts = np.asarray(state.counts)
        a, b = np.triu_indices(self.tables, k=1)
        self.label_pairs = (a, b)
        self.can_relabel = b[None, :] < counts[:, None]  # rounds × table pairs

    def run(self, steps: int) -> None:
        state = self.state
        if steps <= 0 or not state.swap_rounds:
            return
        current = best = state.cost()
        saved = state.snapshot()
        for step in range(steps):
            delta = self._step(step, current, best)
            if delta is None:
                break
            current += delta
            if current < best - EPSILON:
                best = current
                saved = state.snapshot()
        state.restore(saved)
        self._settle_labels()

    def _step(self, step: int, current: float, best: float) -> float | None:
        """Make the best swap allowed; the change of the cost, or None if there is none.
        Every LABELS_EVERY steps, the tables' labels are settled first."""
        change = self._settle_labels() if step % LABELS_EVERY == 0 else 0.0
        swaps = self._swap_deltas(step, current + change, best)
        lowest = float(swaps.min()) if swaps.size else np.inf
        if lowest == np.inf:
            return None if change == 0.0 else change
        self._make_swap(step, self._one_of(swaps, lowest))
        return change + lowest

    def _settle_labels(self) -> float:
        """Swap tables' labels while that lowers the cost (who meets whom stays). Not a
        move of the tabu search: a label swap's change is small, and the search would spend
        its steps on them in a local minimum of the swaps."""
        change = 0.0
        while True:
            deltas = self._relabel_deltas()
            if not deltas.size or float(deltas.min()) >= -EPSILON:
                return change
            lowest = float(deltas.min())
            i, k = self._one_of(deltas, lowest)
            a, b = self.label_pairs
            self.state.apply_relabel(i, int(a[k]), int(b[k]))
            change += lowest

    def _one_of(self, deltas: FloatArray, lowest: float) -> tuple[int, ...]:
        """One of the best moves, drawn by the seed (ties are common: the costs are whole
        numbers)."""
        ties = np.flatnonzero(deltas.ravel() <= lowest + EPSILON)
        chosen = int(ties[int(self.state.rng.random() * len(ties))])
        return tuple(int(k) for k in np.unravel_index(chosen, deltas.shape))

    def _swap_deltas(self, step: int, current: float, best: float) -> FloatArray:
        """deltas[r, x, y]: the change of the cost if x and y of round r swap tables (inf
        where they cannot or may not)."""
        state = self.state
        table = np.where(self.playing, state.table_of, 0)
        rounds, players = table.shape
        at = np.zeros((rounds, players, self.tables))
        at[self.round_index, self.player_index, table] = self.playing
        up = state.up[state.pairs]
        down = state.down[state.pairs]
        joining = up @ at  # joining[r, x, t]: x's pairs' change on joining table t
        leaving = np.take_along_axis(down @ at, table[:, :, None], 2)[:, :, 0]
        their = np.broadcast_to(table[:, None, :], (rounds, players, players))
        cross = np.take_along_axis(joining, their, 2)  # x joins y's table
        deltas = leaving[:, :, None] + leaving[:, None, :] + cross + cross.transpose(0, 2, 1)
        deltas -= 2 * up
        deviation = state.deviation[:, table].transpose(1, 0, 2)  # D[x, table of y]
        own_deviation = state.deviation[self.player_index, table]
        deltas += TABLE_WEIGHT * (
            2 * (deviation + deviation.transpose(0, 2, 1))
            - 2 * (own_deviation[:, :, None] + own_deviation[:, None, :])
            + 4
        )
        barred = np.take_along_axis(state.barred, their, 2)
        own_barred = np.take_along_axis(state.barred, table[:, :, None], 2)[:, :, 0]
        deltas += BARRED * (
            barred + barred.transpose(0, 2, 1) - own_barred[:, :, None] - own_barred[:, None, :]
        )
        tabu = np.take_along_axis(self.until, their, 2) > step
        tabu |= tabu.transpose(0, 2, 1)
        allowed = self.can_pair & (table[:, :, None] != table[:, None, :])
        allowed &= ~tabu | (current + deltas < best - EPSILON)
        return np.where(allowed, deltas, np.inf)

    def _relabel_deltas(self) -> FloatArray:
        """deltas[r, k]: the change of the cost if the k-th pair of tables of round r swap
        labels."""
        state = self.state
        table = np.where(self.playing, state.table_of, 0)
        rounds, players = table.shape
        at = np.zeros((rounds, players, self.tables))
        at[self.round_index, self.player_index, table] = self.playing
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

    def _tenure(self) -> int:
        return TENURE + int(self.state.rng.random() * TENURE)

    def _make_swap(self, step: int, move: tuple[int, ...]) -> None:
        i, p, q = move
        state = self.state
        a, b = int(state.table_of[i, p]), int(state.table_of[i, q])
        state.apply_swap(i, a, int(state.slot_of[i, p]), b, int(state.slot_of[i, q]))
        self.until[i, p, a] = step + self._tenure()
        self.until[i, q, b] = step + self._tenure()
