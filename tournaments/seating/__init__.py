"""The tournament seating generator (issue #29): a pure module, the standard library and
numpy only, so the site, the bench and the tests share it (docs/tournament-seating.md).

    problem = SeatingProblem(players=30, rounds=10, tables=3, table_size=10)
    seating = generate(problem, seed=2026)      # rounds → tables → players, seat 1 first
    figures(problem, seating)                   # how even it is
    check(problem, seating)                     # raises SeatingError if a rule is broken
"""

from .figures import SeatingFigures, check, figures
from .generator import DEFAULT_EFFORT, generate
from .problem import RoundPlan, Seating, SeatingError, SeatingProblem

__all__ = [
    "DEFAULT_EFFORT",
    "RoundPlan",
    "Seating",
    "SeatingError",
    "SeatingFigures",
    "SeatingProblem",
    "check",
    "figures",
    "generate",
]
