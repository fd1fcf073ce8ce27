"""Properties of the seating generator over random small problems, with Hypothesis: every
seating it returns keeps the rules and the generator's promises (or the problem is refused
for a reason it names), its games are as equal as any choice of who plays could make them,
the same seed gives the same seating, and the exact assignment is the cheapest."""

from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tests.tournaments.seating_helpers import assert_valid, games_of
from tournaments.seating import RoundPlan, SeatingError, SeatingProblem, generate
from tournaments.seating.assignment import cheapest_assignment

SETTINGS = settings(
    max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
QUICK = 2


@st.composite
def problems(
    draw: st.DrawFn, constrained: bool = True, largest: int = 4, most_rounds: int = 4
) -> SeatingProblem | None:
    """A small problem, or None when its absences leave a round without a table (the one
    refusal these problems can meet)."""
    size = draw(st.integers(1, largest))
    tables = draw(st.integers(1, 3))
    players = draw(st.integers(size, tables * size + 4))
    rounds = draw(st.integers(1, most_rounds))
    pairs = [(a, b) for a in range(players) for b in range(a + 1, players)]
    every = [(p, r) for p in range(players) for r in range(rounds)]
    bars = [(p, r, t) for p, r in every for t in range(tables)]
    keep_apart: frozenset[tuple[int, int]] = frozenset()
    absent: frozenset[tuple[int, int]] = frozenset()
    forbidden: frozenset[tuple[int, int, int]] = frozenset()
    if constrained:
        if pairs:
            keep_apart = frozenset(draw(st.lists(st.sampled_from(pairs), max_size=3)))
        absent = frozenset(draw(st.lists(st.sampled_from(every), max_size=players)))
        forbidden = frozenset(draw(st.lists(st.sampled_from(bars), max_size=4)))
    try:
        return SeatingProblem(players, rounds, tables, size, keep_apart, absent, forbidden)
    except SeatingError as refused:
        assert refused.code == "round_not_filled"
        return None


@SETTINGS
@given(st.data(), st.integers(0, 2**32 - 1))
def test_every_seating_keeps_the_rules(data: st.DataObject, seed: int) -> None:
    problem = data.draw(problems())
    if problem is None:
        event("refused: a round cannot fill a table")
        return
    try:
        seating = generate(problem, seed, QUICK)
    except SeatingError as refused:
        # Constraints this tight may leave no seating (e.g. a pair to keep apart at a
        # round's only table); the refusal says which rule broke.
        assert refused.code == "unsatisfiable"
        event("refused: no seating keeps the constraints")
        return
    event("seated")
    assert_valid(problem, seating)


@SETTINGS
@given(st.data(), st.integers(0, 2**32 - 1))
def test_without_constraints_games_differ_by_one_at_most(data: st.DataObject, seed: int) -> None:
    problem = data.draw(problems(constrained=False))
    assert problem is not None  # without absences every round fills a table
    seating = generate(problem, seed, QUICK)
    assert_valid(problem, seating)
    games = games_of(problem, seating)
    seats = problem.rounds * min(problem.tables, problem.players // problem.table_size)
    seats *= problem.table_size
    assert max(games) - min(games) == (0 if seats % problem.players == 0 else 1)


def least_squares(problem: SeatingProblem) -> int:
    """The least sum of squared games over every choice of who plays each round."""
    choices = [
        itertools.combinations(plan.able, plan.tables * problem.table_size)
        for plan in problem.plans()
    ]
    least = None
    for chosen in itertools.product(*choices):
        games = [0] * problem.players
        for players in chosen:
            for player in players:
                games[player] += 1
        total = sum(g * g for g in games)
        least = total if least is None else min(least, total)
    assert least is not None
    return least


@SETTINGS
@given(st.data(), st.integers(0, 2**32 - 1))
def test_games_are_as_equal_as_absences_allow(data: st.DataObject, seed: int) -> None:
    """Against every choice of who plays (tiny problems, one table): the generator's games
    have the least sum of squares, so no player could give a game to one with two fewer."""
    size = data.draw(st.integers(1, 3))
    players = data.draw(st.integers(size, size + 3))
    rounds = data.draw(st.integers(1, 4))
    every = [(p, r) for p in range(players) for r in range(rounds)]
    absent = frozenset(data.draw(st.lists(st.sampled_from(every), max_size=players + 2)))
    try:
        problem = SeatingProblem(players, rounds, 1, size, absent=absent)
    except SeatingError:
        return
    games = games_of(problem, generate(problem, seed, QUICK))
    assert sum(g * g for g in games) == least_squares(problem)


@settings(max_examples=examples(25), deadline=None)
@given(st.data(), st.integers(0, 2**32 - 1))
def test_the_same_seed_gives_the_same_seating(data: st.DataObject, seed: int) -> None:
    problem = data.draw(problems())
    if problem is None:
        return
    try:
        first = generate(problem, seed, QUICK)
    except SeatingError:
        return
    assert generate(problem, seed, QUICK) == first


@SETTINGS
@given(st.lists(st.lists(st.integers(0, 20), min_size=5, max_size=5), min_size=5, max_size=5))
def test_the_assignment_is_the_cheapest(rows: list[list[int]]) -> None:
    n = len(rows)
    chosen = cheapest_assignment(rows)
    assert sorted(chosen) == list(range(n))
    best = min(sum(rows[r][c[r]] for r in range(n)) for c in itertools.permutations(range(n)))
    assert sum(rows[r][chosen[r]] for r in range(n)) == best


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(1, 5))
def test_the_assignment_of_any_size(seed: int, n: int) -> None:
    rng = random.Random(seed)
    rows = [[rng.random() for _ in range(n)] for _ in range(n)]
    chosen = cheapest_assignment(rows)
    best = min(sum(rows[r][c[r]] for r in range(n)) for c in itertools.permutations(range(n)))
    assert abs(sum(rows[r][chosen[r]] for r in range(n)) - best) < 1e-9


def round_can_be_seated(problem: SeatingProblem, plan: RoundPlan) -> bool:
    """Whether some choice of players fills the round's tables keeping every constraint
    (every way tried: tiny problems only)."""

    def fill(table: int, left: list[int]) -> bool:
        if table == plan.tables:
            return True
        for group in itertools.combinations(left, problem.table_size):
            if any((p, plan.round, table) in problem.forbidden_tables for p in group):
                continue
            if any(a in group and b in group for a, b in problem.keep_apart):
                continue
            if fill(table + 1, [p for p in left if p not in group]):
                return True
        return False

    return fill(0, list(plan.able))


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_seating_is_found_whenever_one_exists(data: st.DataObject) -> None:
    """At the default effort, against every way to seat each round of a tiny problem: the
    generator refuses as unsatisfiable exactly the problems no seating fits."""
    problem = data.draw(problems(largest=3, most_rounds=3))
    if problem is None:
        return
    possible = all(round_can_be_seated(problem, plan) for plan in problem.plans())
    event("possible" if possible else "impossible")
    try:
        generate(problem, 1)
    except SeatingError as refused:
        assert refused.code == "unsatisfiable"
        assert not possible
    else:
        assert possible
