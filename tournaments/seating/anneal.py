"""Simulated annealing's clock: a temperature that falls geometrically from `hot` to
`cold` over a fixed number of moves (a count, never wall-clock time, so a run is the same
on any machine), and the acceptance rule."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

# How many moves share one temperature before it falls a step.
STEP = 256


def anneal(moves: int, hot: float, cold: float, move: Callable[[float], None]) -> None:
    """Make `moves` calls of `move(temperature)`, cooling from `hot` to `cold`."""
    if moves <= 0:
        return
    steps = max(1, moves // STEP)
    factor = (cold / hot) ** (1.0 / steps) if hot > cold > 0 else 1.0
    temperature = hot
    done = 0
    while done < moves:
        batch = min(STEP, moves - done)
        for _ in range(batch):
            move(temperature)
        done += batch
        temperature *= factor


def accepts(delta: float, temperature: float, rng: random.Random) -> bool:
    """Metropolis: a move that does not worsen the cost is taken; a worse one with the
    chance exp(-delta / temperature)."""
    if delta <= 0:
        return True
    if temperature <= 0:
        return False
    return rng.random() < math.exp(-delta / temperature)
