"""What the seating tests share: the invariants every generated seating keeps."""

from __future__ import annotations

from tournaments.seating import Seating, SeatingProblem, check


def games_of(problem: SeatingProblem, seating: Seating) -> list[int]:
    games = [0] * problem.players
    for tables in seating:
        for players in tables:
            for player in players:
                games[player] += 1
    return games


def assert_valid(problem: SeatingProblem, seating: Seating) -> None:
    """The rules (check), and the generator's own promises: a generated round plays the
    tables its players can fill, and nobody who could play sits out while a table lacks
    players (every table is full, so that is the table count)."""
    check(problem, seating)
    for plan in problem.plans():
        tables = seating[plan.round]
        assert len(tables) == plan.tables
        assert {p for players in tables for p in players} <= set(plan.able)
        for table, players in enumerate(tables):
            assert len(players) == problem.table_size
            for first, second in problem.keep_apart:
                assert not (first in players and second in players)
            for player in players:
                assert (player, plan.round) not in problem.absent
                assert (player, plan.round, table) not in problem.forbidden_tables
    assert seating[: problem.first_generated] == problem.played
