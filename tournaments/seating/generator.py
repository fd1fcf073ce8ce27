"""generate(): who plays each round, then at which table, then in which seat."""

from __future__ import annotations

import random

from .attendance import choose_players
from .figures import check
from .problem import Seating, SeatingError, SeatingProblem, gettext_noop
from .seats import SeatSearch
from .sitout import SitOutSearch
from .tables import TableSearch
from .tabu import TabuSearch
from .tally import tally

# The work at effort 100 (the default; it scales in proportion): tabu steps per generated
# round; where players sit out, annealing moves over who sits out when (sitout.py) per seat
# to fill, at most SIT_OUT_MOST in all (about 15 CPU s on the project's machine, so the
# largest tournaments stay well inside the organiser's minute); annealing moves over the
# seats per seat to fill; and at most this many sweeps of exact reseating, table by table.
DEFAULT_EFFORT = 100
TABU_STEPS = 1000
SIT_OUT_MOVES = 20_000
SIT_OUT_MOST = 4_000_000
SEAT_MOVES = 1000
SEAT_SWEEPS = 20


def generate(problem: SeatingProblem, seed: int, effort: int = DEFAULT_EFFORT) -> Seating:
    """A seating of the problem: the played rounds as they are, then the generated rounds.

    Who plays each round (attendance.py), then who sits at which table (a greedy start,
    the tabu search of tabu.py, then where players sit out an annealing that also changes
    who sits out when: sitout.py), then the order around each table (seats.py). The
    same (problem, seed, effort) give the same seating on any machine: the searches count
    their steps, in proportion to the effort, never the clock. Raises SeatingError when
    no seating was found that keeps every constraint (the problem's own checks refuse the
    impossible numbers before)."""
    if effort < 1:
        raise SeatingError(
            "effort", gettext_noop("The effort must be at least 1, not %(effort)s."), effort=effort
        )
    rng = random.Random(seed)
    plans = problem.plans()
    played = tally(problem.players, problem.tables, problem.table_size, problem.played)
    playing = choose_players(plans, problem.table_size, played.games.tolist(), rng)
    slots = sum(plan.tables for plan in plans) * problem.table_size
    tables = TableSearch(problem, plans, playing, played, rng)
    tabu = TabuSearch(tables)
    tabu.run(effort * TABU_STEPS * len(plans) // 100)
    if tables.exchange_rounds:
        SitOutSearch(tables).run(effort * min(SIT_OUT_MOVES * slots, SIT_OUT_MOST) // 100)
        tabu.settle_labels()
    seats = SeatSearch(problem.table_size, tables.rounds(), played, tables.games, rng)
    seats.run(effort * SEAT_MOVES * slots // 100)
    seats.settle(SEAT_SWEEPS)
    seating = problem.played + seats.rounds()
    try:
        check(problem, seating)
    except SeatingError as broken:
        # Only the constraints the search weighs can be left broken: a pair kept apart, or
        # a bar (the absent never play, and every table is filled by construction).
        if broken.code not in _UNKEPT:
            raise
        raise SeatingError("unsatisfiable", _UNKEPT[broken.code], **broken.params) from broken
    return seating


_UNKEPT = {
    "kept_apart_together": gettext_noop(
        "No seating was found that keeps players %(first)s and %(second)s apart: the best one "
        "found seats them together at table %(table)s in round %(round)s."
    ),
    "table_barred": gettext_noop(
        "No seating was found that keeps player %(player)s away from table %(table)s in round "
        "%(round)s."
    ),
}
