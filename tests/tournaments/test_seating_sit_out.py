"""The seating generator where players sit out some rounds (issue 38 item 7): the rules
still hold in such shapes (one table and several, tables of 10–13, unequal games, pairs
kept apart, absences), and the annealing over who sits out when (sitout.py) evens the pairs
of a small case that the tabu search cannot touch (one table: no swaps), seeded."""

from __future__ import annotations

import random

import pytest

from tests.tournaments.seating_helpers import assert_valid, games_of
from tournaments.seating import SeatingProblem, figures, generate
from tournaments.seating.attendance import choose_players
from tournaments.seating.sitout import SitOutSearch
from tournaments.seating.tables import TableSearch
from tournaments.seating.tally import tally

QUICK = 5  # effort: these tests check rules, not how even the seating is (bench/seating.py)


def absent(pattern: dict[int, tuple[int, ...]]) -> frozenset[tuple[int, int]]:
    return frozenset((player, round_) for player, rounds in pattern.items() for round_ in rounds)


@pytest.mark.parametrize(
    ("problem", "games"),
    [
        # One table of 10, half sit out: 9 games each.
        (SeatingProblem(20, 18, 1, 10), {9}),
        # One table of 12, one sits out a round: 180 seats for 13 players.
        (SeatingProblem(13, 15, 1, 12), {13, 14}),
        # Two tables of 12: 288 seats for 28 players.
        (SeatingProblem(28, 12, 2, 12), {10, 11}),
        # One table of 13, 8 rounds.
        (SeatingProblem(15, 8, 1, 13), {6, 7}),
        # Six tables of 11, 20 rounds.
        (SeatingProblem(70, 20, 6, 11), {18, 19}),
    ],
)
def test_the_games_are_as_equal_as_the_seats_allow(
    problem: SeatingProblem, games: set[int]
) -> None:
    seating = generate(problem, 7, QUICK)
    assert_valid(problem, seating)
    assert set(games_of(problem, seating)) == games


def test_pairs_kept_apart_never_meet_where_players_sit_out() -> None:
    apart = frozenset({(0, 1), (2, 3), (0, 4)})
    problem = SeatingProblem(24, 10, 2, 10, keep_apart=apart)
    seating = generate(problem, 11, QUICK)
    assert_valid(problem, seating)  # the pairs kept apart among the rules it checks
    for tables in seating:
        for players in tables:
            for first, second in apart:
                assert not (first in players and second in players)
    assert set(games_of(problem, seating)) == {8, 9}  # 200 seats, 24 players


def test_the_absent_sit_out_and_the_games_stay_as_even_as_they_allow() -> None:
    """40 players, 9 rounds on 3 tables of 11 (33 seats a round: 297 for 40 players, 7 or
    8 games). Player 0 misses three rounds and can still play 6 of the 6 rounds left, so
    plays 6; the others 7 or 8."""
    away = absent({0: (0, 1, 2), 1: (4,), 2: (8,), 3: (0, 8), 4: (5,)})
    problem = SeatingProblem(40, 9, 3, 11, absent=away)
    seating = generate(problem, 5, QUICK)
    assert_valid(problem, seating)
    games = games_of(problem, seating)
    for player, round_ in away:
        assert all(player not in players for players in seating[round_])
    assert games[0] == 6
    assert set(games[1:]) == {7, 8}


def test_a_pair_kept_apart_and_absences_on_five_tables_of_12() -> None:
    """66 players, 8 rounds of 60 seats (7 or 8 games): player 2, away for two rounds,
    plays the 6 left; the rest 7 or 8."""
    problem = SeatingProblem(
        66, 8, 5, 12, keep_apart=frozenset({(0, 1)}), absent=absent({2: (0, 1), 3: (7,)})
    )
    seating = generate(problem, 3, QUICK)
    assert_valid(problem, seating)
    games = games_of(problem, seating)
    assert games[2] == 6
    assert set(games[:2] + games[3:]) == {7, 8}


def test_the_same_seed_gives_the_same_seating_where_players_sit_out() -> None:
    problem = SeatingProblem(23, 9, 2, 10, keep_apart=frozenset({(5, 6)}))
    assert generate(problem, 99, QUICK) == generate(problem, 99, QUICK)
    assert generate(problem, 99, QUICK) != generate(problem, 100, QUICK)


def one_table(seed: int) -> tuple[SeatingProblem, TableSearch]:
    problem = SeatingProblem(16, 8, 1, 10)
    rng = random.Random(seed)
    plans = problem.plans()
    played = tally(problem.players, problem.tables, problem.table_size, problem.played)
    playing = choose_players(plans, problem.table_size, played.games.tolist(), rng)
    return problem, TableSearch(problem, plans, playing, played, rng)


def pair_deviation(problem: SeatingProblem, state: TableSearch) -> float:
    seating = tuple(tuple(tuple(players) for players in round_) for round_ in state.rounds())
    return figures(problem, seating).pair_deviation


def test_the_sit_out_exchange_evens_the_pairs_at_one_table() -> None:
    """16 players, 8 rounds at one table of 10: who sits out when is all there is to
    choose, so only the exchange across two rounds can improve the greedy start. Seeded,
    it lowers the cost and the pair deviation, and keeps every player's games."""
    for seed in (1, 2, 3):
        problem, state = one_table(seed)
        cost, deviation, games = state.cost(), pair_deviation(problem, state), list(state.games)
        SitOutSearch(state).run(20_000)
        assert state.cost() < cost
        assert pair_deviation(problem, state) < deviation
        assert state.games == games
