"""The cheapest assignment of n rows to n columns (the Hungarian method, O(n³)), for the
small square tables of costs the seats give (n = table size)."""

from __future__ import annotations

from collections.abc import Sequence


def cheapest_assignment(cost: Sequence[Sequence[float]]) -> list[int]:
    """column[row] minimising the sum of cost[row][column[row]] (Kuhn–Munkres with
    potentials, as in e-maxx's formulation; rows and columns counted from 1 inside)."""
    n = len(cost)
    infinity = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (n + 1)
    match = [0] * (n + 1)  # match[column] = row
    way = [0] * (n + 1)
    for row in range(1, n + 1):
        match[0] = row
        column = 0
        least = [infinity] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[column] = True
            current = match[column]
            delta = infinity
            nearest = 0
            for j in range(1, n + 1):
                if used[j]:
                    continue
                reduced = cost[current - 1][j - 1] - u[current] - v[j]
                if reduced < least[j]:
                    least[j] = reduced
                    way[j] = column
                if least[j] < delta:
                    delta = least[j]
                    nearest = j
            for j in range(n + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            column = nearest
            if match[column] == 0:
                break
        while column:
            previous = way[column]
            match[column] = match[previous]
            column = previous
    result = [0] * n
    for j in range(1, n + 1):
        result[match[j] - 1] = j - 1
    return result
