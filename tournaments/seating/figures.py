"""How good a seating is (the bench's figures), and whether it keeps the problem's rules."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .problem import Seating, SeatingError, SeatingProblem, check_round_shape, gettext_noop
from .tally import Tally, tally


@dataclass(frozen=True)
class SeatingFigures:
    """Lower is better for each; 0 is a perfect spread.

    - pair_deviation: the sum over pairs of players of the squared difference between the
      times they met at a table and the target G·(S−1)/(P−1), with G the mean games per
      player, S the table size and P the players;
    - pairs_never_met: pairs of players who never sat at one table;
    - seat_deviation: the sum over players and seats of the squared difference between the
      times the player sat in that seat and their games / S (seats unweighted here; the
      generator weighs seat 1 and the last seats more, docs/tournament-seating.md);
    - games_spread: the most games a player plays minus the fewest;
    - table_deviation: the sum over players and tables of the squared difference between
      the times the player sat at that table and their even share of it.
    """

    pair_deviation: float
    pairs_never_met: int
    seat_deviation: float
    games_spread: int
    table_deviation: float


def pair_target(counts: Tally, table_size: int) -> float:
    players = len(counts.games)
    if players < 2:
        return 0.0
    return float(counts.games.mean()) * (table_size - 1) / (players - 1)


def figures(problem: SeatingProblem, seating: Seating) -> SeatingFigures:
    """The figures of a whole seating, the played rounds included."""
    counts = tally(problem.players, problem.tables, problem.table_size, seating)
    upper = np.triu_indices(problem.players, k=1)
    meetings = counts.meetings[upper]
    target = pair_target(counts, problem.table_size)
    seat_target = counts.games[:, None] / problem.table_size
    return SeatingFigures(
        pair_deviation=float(((meetings - target) ** 2).sum()),
        pairs_never_met=int((meetings == 0).sum()),
        seat_deviation=float(((counts.seats - seat_target) ** 2).sum()),
        games_spread=int(counts.games.max() - counts.games.min()),
        table_deviation=float(((counts.tables - counts.expected_tables) ** 2).sum()),
    )


def check(problem: SeatingProblem, seating: Seating) -> None:
    """Raise SeatingError if the seating breaks a rule of the problem: a round count other
    than R, a played round changed, a table not full, a player seated twice in a round, or,
    in a generated round, an absent player seated, a player at a table barred to them or a
    pair to keep apart at one table. The played rounds are history: the constraints apply
    to the rounds after them."""
    if len(seating) != problem.rounds:
        raise SeatingError(
            "round_count",
            gettext_noop("The seating has %(count)s rounds, not %(rounds)s."),
            count=len(seating),
            rounds=problem.rounds,
        )
    for round_, tables in enumerate(seating):
        check_round_shape(problem, round_, tables)
        if round_ < problem.first_generated:
            if tables != problem.played[round_]:
                raise SeatingError(
                    "played_changed",
                    gettext_noop("Round %(round)s was played and cannot change."),
                    round=round_,
                )
        else:
            _check_constraints(problem, round_, tables)


def _check_constraints(
    problem: SeatingProblem, round_: int, tables: tuple[tuple[int, ...], ...]
) -> None:
    for table, players in enumerate(tables):
        for player in players:
            if (player, round_) in problem.absent:
                raise SeatingError(
                    "absent_seated",
                    gettext_noop("Player %(player)s is absent from round %(round)s."),
                    player=player,
                    round=round_,
                )
            if (player, round_, table) in problem.forbidden_tables:
                raise SeatingError(
                    "table_barred",
                    gettext_noop(
                        "Player %(player)s may not sit at table %(table)s in round %(round)s."
                    ),
                    player=player,
                    table=table,
                    round=round_,
                )
        seated = set(players)
        for first, second in problem.keep_apart:
            if first in seated and second in seated:
                raise SeatingError(
                    "kept_apart_together",
                    gettext_noop(
                        "Players %(first)s and %(second)s must be kept apart but share table "
                        "%(table)s in round %(round)s."
                    ),
                    first=first,
                    second=second,
                    table=table,
                    round=round_,
                )
