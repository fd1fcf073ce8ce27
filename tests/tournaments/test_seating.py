"""The seating generator (tournaments/seating, docs/tournament-seating.md): refusals of
impossible problems, the invariants of its seatings, equal games, determinism from the
seed, the re-seat that keeps the played rounds, the figures on hand-worked seatings, and
its searches' running costs against the cost made afresh."""

from __future__ import annotations

import ast
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.tournaments.seating_helpers import assert_valid, games_of
from tournaments.seating import (
    SeatingError,
    SeatingFigures,
    SeatingProblem,
    attendance,
    check,
    figures,
    generate,
)
from tournaments.seating import seats as seats_module
from tournaments.seating import sitout as sitout_module
from tournaments.seating.attendance import choose_players
from tournaments.seating.cost import seating_cost
from tournaments.seating.seats import SeatSearch, seat_weights
from tournaments.seating.sitout import SitOutSearch
from tournaments.seating.tables import TableSearch
from tournaments.seating.tabu import TabuSearch
from tournaments.seating.tally import GRID, tally

ROOT = Path(__file__).resolve().parents[2]
QUICK = 5  # effort: the tests check rules, not how even the seating is


def refusal(code: str, **fields: object) -> str:
    with pytest.raises(SeatingError) as raised:
        SeatingProblem(**fields)  # type: ignore[arg-type]
    assert isinstance(raised.value, ValueError)
    assert raised.value.code == code
    return str(raised.value)


# Refusals.


def test_sizes_must_be_positive_whole_numbers() -> None:
    base: dict[str, object] = {"players": 20, "rounds": 3, "tables": 2, "table_size": 10}
    for name, bad in (("players", 0), ("rounds", -1), ("tables", 0), ("table_size", True)):
        message = refusal("size", **{**base, name: bad})
        assert name.replace("_", " ") in message and "positive whole number" in message


def test_too_few_players_for_one_table() -> None:
    assert refusal("too_few_players", players=9, rounds=1, tables=1, table_size=10) == (
        "9 players cannot fill a table of 10."
    )


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"keep_apart": frozenset({(0, 20)})}, "no_such_player"),
        ({"keep_apart": frozenset({(3, 3)})}, "apart_from_self"),
        ({"absent": frozenset({(0, 3)})}, "no_such_round"),
        ({"absent": frozenset({(-1, 0)})}, "no_such_player"),
        ({"forbidden_tables": frozenset({(0, 0, 2)})}, "no_such_table"),
        ({"forbidden_tables": frozenset({(0, 5, 0)})}, "no_such_round"),
    ],
)
def test_constraints_must_name_real_players_rounds_and_tables(
    fields: dict[str, object], code: str
) -> None:
    refusal(code, players=20, rounds=3, tables=2, table_size=10, **fields)


ROUND = (tuple(range(10)), tuple(range(10, 20)))


@pytest.mark.parametrize(
    ("played", "code"),
    [
        ((ROUND,) * 4, "too_many_played"),
        (((tuple(range(9)),),), "table_not_full"),
        (((tuple(range(10)), tuple(range(9, 19))),), "seated_twice"),
        (((tuple(range(11, 21)),),), "no_such_player"),
        (((*ROUND, tuple(range(20, 30))),), "table_count"),
        (((),), "table_count"),
    ],
)
def test_played_rounds_must_be_valid(played: tuple[object, ...], code: str) -> None:
    refusal(code, players=20, rounds=3, tables=2, table_size=10, played=played)


def test_a_round_that_absences_leave_without_a_table_is_refused() -> None:
    message = refusal(
        "round_not_filled",
        players=12,
        rounds=3,
        tables=1,
        table_size=10,
        absent=frozenset({(0, 1), (1, 1), (2, 1)}),
    )
    assert message == "Round 1 cannot fill a table: 9 players can play it, a table needs 10."


def test_a_player_barred_from_every_table_cannot_play_the_round() -> None:
    refusal(
        "round_not_filled",
        players=10,
        rounds=2,
        tables=1,
        table_size=10,
        forbidden_tables=frozenset({(4, 0, 0)}),
    )


def test_fewer_players_play_fewer_tables() -> None:
    """25 players: two tables of 10; with 6 absent from round 1, one table."""
    absent = frozenset((p, 1) for p in range(6))
    problem = SeatingProblem(25, 3, 3, 10, absent=absent)
    assert [plan.tables for plan in problem.plans()] == [2, 1, 2]
    seating = generate(problem, 1, QUICK)
    assert_valid(problem, seating)


def test_a_bar_that_empties_a_table_plays_one_table_fewer() -> None:
    """20 players, 2 tables; in round 0 player 3 may sit at neither: one table plays."""
    bars = frozenset({(3, 0, 0), (3, 0, 1)})
    problem = SeatingProblem(20, 2, 2, 10, forbidden_tables=bars)
    assert [plan.tables for plan in problem.plans()] == [1, 2]
    assert 3 not in problem.plans()[0].able


def test_a_problem_whose_constraints_cannot_be_kept_is_refused() -> None:
    """Ten players at one table of ten: a pair to keep apart must meet."""
    problem = SeatingProblem(10, 2, 1, 10, keep_apart=frozenset({(0, 1)}))
    with pytest.raises(SeatingError) as raised:
        generate(problem, 1, QUICK)
    assert raised.value.code == "unsatisfiable"
    assert str(raised.value) == (
        "No seating was found that keeps players 0 and 1 apart: the best one found seats them "
        "together at table 0 in round 0."
    )


def test_effort_must_be_positive() -> None:
    with pytest.raises(SeatingError, match="effort"):
        generate(SeatingProblem(10, 1, 1, 10), 1, 0)


# Invariants, equal games, constraints.


@pytest.mark.parametrize(
    ("players", "rounds", "tables", "size"),
    [(10, 3, 1, 10), (20, 4, 2, 10), (23, 5, 2, 10), (26, 3, 3, 8), (13, 6, 1, 12), (31, 4, 2, 15)],
)
def test_every_round_is_valid_and_games_are_as_equal_as_the_numbers_allow(
    players: int, rounds: int, tables: int, size: int
) -> None:
    problem = SeatingProblem(players, rounds, tables, size)
    seating = generate(problem, 7, QUICK)
    assert_valid(problem, seating)
    games = games_of(problem, seating)
    seats = rounds * min(tables, players // size) * size
    assert max(games) - min(games) == (0 if seats % players == 0 else 1)
    assert sum(games) == seats


def test_keep_apart_absences_and_bars_are_kept() -> None:
    keep_apart = frozenset({(0, 1), (0, 2), (1, 2), (5, 9), (10, 11)})
    absent = frozenset({(3, 0), (4, 1), (4, 2), (17, 3)})
    bars = frozenset({(5, 0, 0), (6, 1, 1), (7, 2, 2), (0, 3, 0), (1, 3, 1)})
    problem = SeatingProblem(33, 4, 3, 10, keep_apart, absent, bars)
    for seed in range(3):
        seating = generate(problem, seed, QUICK)
        assert_valid(problem, seating)
        # 4 rounds of 30 seats: players 3 and 17 miss a round and play the other three,
        # player 4 misses two and plays two; the other 112 seats go 3 or 4 to each.
        games = games_of(problem, seating)
        assert (games[3], games[17], games[4]) == (3, 3, 2)
        assert {g for p, g in enumerate(games) if p not in (3, 4, 17)} == {3, 4}


def test_the_sitting_out_goes_first_to_those_who_miss_rounds_later() -> None:
    """11 players at one table of 10 over 2 rounds; player 10 cannot come to round 1, so
    they play round 0 and someone else sits it out: every player has a game."""
    problem = SeatingProblem(11, 2, 1, 10, absent=frozenset({(10, 1)}))
    seating = generate(problem, 3, QUICK)
    assert 10 in seating[0][0]
    assert min(games_of(problem, seating)) == 1


def test_balancing_moves_games_along_a_chain_of_swaps(monkeypatch: pytest.MonkeyPatch) -> None:
    """4 players at one table of 2 over 4 rounds; player 0 misses round 2, player 1
    rounds 2 and 3, player 2 rounds 1 and 3. The greedy pass alone leaves 1 and 3 games
    apart; a chain of swaps evens them to 2 each."""
    problem = SeatingProblem(4, 4, 1, 2, absent=frozenset({(0, 2), (1, 2), (1, 3), (2, 1), (2, 3)}))

    def games(playing: list[list[bool]]) -> list[int]:
        return [sum(plays[p] for plays in playing) for p in range(4)]

    assert games(choose_players(problem.plans(), 2, [0] * 4, random.Random(1))) == [2] * 4
    monkeypatch.setattr(attendance, "_move_a_game", lambda *args: False)
    greedy = games(choose_players(problem.plans(), 2, [0] * 4, random.Random(1)))
    assert max(greedy) - min(greedy) == 2


def test_generated_rounds_count_the_played_rounds_games() -> None:
    """21 players, 2 tables: player 20 joined after round 2; they play every later round."""
    first = generate(SeatingProblem(20, 3, 2, 10), 5, QUICK)
    problem = SeatingProblem(21, 6, 2, 10, played=first)
    seating = generate(problem, 5, QUICK)
    assert_valid(problem, seating)
    assert all(20 in {p for table in tables for p in table} for tables in seating[3:])
    assert games_of(problem, seating)[20] == 3


# Determinism and re-seat.


def test_the_same_seed_gives_the_same_seating() -> None:
    problem = SeatingProblem(23, 4, 2, 10, keep_apart=frozenset({(0, 1)}))
    assert generate(problem, 2026, QUICK) == generate(problem, 2026, QUICK)
    assert generate(problem, 2026, QUICK) != generate(problem, 2027, QUICK)


def test_lists_are_welcome_and_kept_as_tuples() -> None:
    played = [[list(range(10)), list(range(10, 20))]]
    problem = SeatingProblem(20, 2, 2, 10, played=played)  # type: ignore[arg-type]
    assert problem.played == (ROUND,)
    assert hash(problem) == hash(SeatingProblem(20, 2, 2, 10, played=(ROUND,)))


def test_a_reseat_keeps_the_played_rounds_verbatim_and_drops_a_player() -> None:
    problem = SeatingProblem(30, 6, 3, 10)
    planned = generate(problem, 11, QUICK)
    # Player 7 leaves after round 2; players 7's seat goes to the others.
    dropped = SeatingProblem(
        30, 6, 3, 10, absent=frozenset((7, r) for r in range(3, 6)), played=planned[:3]
    )
    reseated = generate(dropped, 11, QUICK)
    assert reseated[:3] == planned[:3]
    assert_valid(dropped, reseated)
    later = {p for tables in reseated[3:] for table in tables for p in table}
    assert 7 not in later
    # 29 players for 20 seats a round: two tables play the later rounds.
    assert [len(tables) for tables in reseated[3:]] == [2, 2, 2]


def test_when_every_round_was_played_the_seating_is_the_played_rounds() -> None:
    played = generate(SeatingProblem(20, 2, 2, 10), 1, QUICK)
    assert generate(SeatingProblem(20, 2, 2, 10, played=played), 2, QUICK) == played


def test_a_reseat_counts_the_played_meetings() -> None:
    """Two tables, two rounds; the first round played. The generated round mixes the
    tables: each player meets at least four of those they did not meet in round 0."""
    problem = SeatingProblem(20, 2, 2, 10, played=(ROUND,))
    seating = generate(problem, 1, 20)
    for table in seating[1]:
        from_first = sum(p < 10 for p in table)
        assert 4 <= from_first <= 6


SECOND = (tuple(range(5)) + tuple(range(15, 20)), tuple(range(5, 15)))


@pytest.mark.parametrize(
    ("rule", "seating", "code"),
    [
        ({}, (ROUND,), "round_count"),
        ({}, (SECOND, SECOND), "played_changed"),
        ({}, (ROUND, (ROUND[0],) * 2), "seated_twice"),
        ({"absent": frozenset({(18, 1)})}, (ROUND, SECOND), "absent_seated"),
        ({"forbidden_tables": frozenset({(7, 1, 1)})}, (ROUND, SECOND), "table_barred"),
        ({"keep_apart": frozenset({(0, 19)})}, (ROUND, SECOND), "kept_apart_together"),
    ],
)
def test_check_refuses_what_breaks_the_rules(
    rule: dict[str, object], seating: object, code: str
) -> None:
    problem = SeatingProblem(20, 2, 2, 10, played=(ROUND,), **rule)  # type: ignore[arg-type]
    with pytest.raises(SeatingError) as raised:
        check(problem, seating)  # type: ignore[arg-type]
    assert raised.value.code == code


def test_check_takes_a_seating_that_keeps_the_rules() -> None:
    rules = {
        "absent": frozenset({(18, 0)}),  # a played round is history
        "forbidden_tables": frozenset({(7, 1, 0), (0, 0, 0)}),
        "keep_apart": frozenset({(0, 5)}),  # together in the played round only
    }
    problem = SeatingProblem(20, 2, 2, 10, played=(ROUND,), **rules)  # type: ignore[arg-type]
    check(problem, (ROUND, SECOND))


# Figures, worked by hand.


def test_figures_of_a_tiny_seating() -> None:
    """4 players, tables of 2, one table a round: {0, 1} then {2, 3}. One game each, so
    the target is 1·(2−1)/(4−1) = 1/3 meetings a pair: the two pairs that met deviate by
    2/3, the four that did not by 1/3, a sum of 8/9 + 4/9. Each player sat once in one of
    two seats: (1 − 1/2)² + (0 − 1/2)² = 1/2 each."""
    problem = SeatingProblem(4, 2, 1, 2)
    seating = (((0, 1),), ((2, 3),))
    assert figures(problem, seating) == SeatingFigures(
        pair_deviation=pytest.approx(4 / 3),  # type: ignore[arg-type]
        pairs_never_met=4,
        seat_deviation=2.0,
        games_spread=0,
        table_deviation=0.0,
    )


def test_table_deviation_counts_each_players_even_share() -> None:
    """Tables of one, two tables: player 0 at table 0 twice (an even share is once each:
    1 + 1), players 1 and 2 once at one table (1/4 + 1/4 each), player 3 never played."""
    problem = SeatingProblem(4, 2, 2, 1)
    seating = (((0,), (1,)), ((0,), (2,)))
    result = figures(problem, seating)
    assert result.table_deviation == 3.0
    assert result.games_spread == 2
    assert result.pair_deviation == 0.0  # the target is 0 at tables of one
    assert result.pairs_never_met == 6


def test_seat_weights_follow_mafiaratings() -> None:
    assert seat_weights(10) == [4.0, 3.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0]
    assert seat_weights(2) == [4.0, 3.0]
    assert seat_weights(1) == [4.0]


def test_seat_one_goes_round_when_games_equal_seats() -> None:
    """10 players, 10 rounds at one table of 10: every player in every seat once."""
    problem = SeatingProblem(10, 10, 1, 10)
    seating = generate(problem, 4, 20)
    assert figures(problem, seating).seat_deviation == 0.0
    for player in range(10):
        assert sorted(tables[0].index(player) for tables in seating) == list(range(10))


# The searches' running costs.


def searched_problem() -> SeatingProblem:
    return SeatingProblem(
        27,
        5,
        3,
        8,
        keep_apart=frozenset({(0, 1), (2, 3)}),
        absent=frozenset({(4, 2), (5, 3)}),
        forbidden_tables=frozenset({(6, 2, 0), (7, 3, 1), (8, 4, 2)}),
        played=((tuple(range(8)), tuple(range(8, 16)), tuple(range(16, 24))),),
    )


def started(problem: SeatingProblem) -> TableSearch:
    rng = random.Random(3)
    played = tally(problem.players, problem.tables, problem.table_size, problem.played)
    playing = choose_players(problem.plans(), problem.table_size, played.games.tolist(), rng)
    return TableSearch(problem, problem.plans(), playing, played, rng)


def test_the_annealings_changes_add_up_to_the_cost(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every move taken (all are, here) changes the cost made afresh by the change the
    move computed: swaps, exchanges of sitting out across two rounds, hand-overs."""
    state = started(searched_problem())
    search = SitOutSearch(state)
    monkeypatch.setattr(sitout_module, "_accepts", lambda *args: True)
    monkeypatch.setattr(sitout_module, "HAND_OVER_SHARE", 0.2)
    taken = 0
    for _ in range(400):
        before = state.cost()
        change = search.propose(1.0)
        search.write_back()
        if change is not None:
            taken += 1
        assert state.cost() - before == pytest.approx(change or 0.0, abs=1e-6)
    assert taken > 200


def test_the_tabu_search_ends_on_the_best_seating_it_saw() -> None:
    state = started(searched_problem())
    start = state.cost()
    search = TabuSearch(state)
    search.run(200)
    assert state.cost() < start
    fresh = state.cost()
    state.restore(state.snapshot())
    assert state.cost() == pytest.approx(fresh)


def test_the_tabu_steps_change_the_cost_by_what_they_computed() -> None:
    state = started(searched_problem())
    search = TabuSearch(state)
    current = best = state.cost()
    for step in range(150):
        rounds = search._rounds_to_weigh()
        deltas = search._swap_deltas(rounds, step, current, best)
        lowest = float(deltas.min())
        k, p, q = search._one_of(deltas, lowest)
        search._make_swap(step, int(rounds[k]), p, q)
        assert state.cost() - current == pytest.approx(lowest, abs=1e-6)
        current = state.cost()
        best = min(best, current)
        settled = search.settle_labels()
        assert state.cost() - current == pytest.approx(settled, abs=1e-6)
        current = state.cost()


def test_the_tabu_steps_are_exact_whatever_the_order_of_the_sums() -> None:
    """Every change a tabu step weighs is a whole multiple of 2⁻²² (the grid, and the tables'
    weight 1/4), so however the machine's BLAS orders a matrix product's sums it finds the
    same numbers, and the same seed makes the same choices everywhere."""
    state = started(searched_problem())
    search = TabuSearch(state)
    for step in range(20):
        rounds = search._rounds_to_weigh()
        deltas = search._swap_deltas(rounds, step, 0.0, 0.0)
        finite = deltas[np.isfinite(deltas)] * GRID * 4
        assert finite.size and (finite == np.round(finite)).all()
        k, p, q = search._one_of(deltas, float(deltas.min()))
        search._make_swap(step, int(rounds[k]), p, q)
    labels = search._relabel_deltas()
    finite = labels[np.isfinite(labels)] * GRID * 4
    assert finite.size and (finite == np.round(finite)).all()


def test_the_seat_searchs_changes_add_up(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = searched_problem()
    state = started(problem)
    played = tally(problem.players, problem.tables, problem.table_size, problem.played)
    games = games_of(problem, problem.played + tuple(tuple(map(tuple, r)) for r in state.rounds()))
    seats = SeatSearch(problem.table_size, state.rounds(), played, games, random.Random(2))
    changes: list[float] = []

    def take(delta: float, temperature: float, rng: random.Random) -> bool:
        changes.append(delta)
        return True

    monkeypatch.setattr(seats_module, "accepts", take)
    for _ in range(300):
        before = seats.cost()
        seats._move(1.0)
        assert seats.cost() - before == pytest.approx(changes[-1], abs=1e-6)
    before = seats.cost()
    seats.settle(5)
    assert seats.cost() <= before
    seating = problem.played + seats.rounds()
    assert seating_cost(problem, seating) == pytest.approx(state.cost() + seats.cost())


# The house's rule for the generator.


def test_the_generator_imports_the_standard_library_and_numpy_alone() -> None:
    for path in sorted((ROOT / "tournaments" / "seating").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "numpy", f"{path.name}: {name}"
