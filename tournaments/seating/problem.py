"""The problem a seating solves, checked as it is built, and the refusal it raises.

Conventions (docs/tournament-seating.md says them for organisers):
- players are 0..P-1, rounds 0..R-1, tables 0..T-1 and seats 0..S-1 (seat 1 is index 0);
- `played` holds the first rounds, already played: they are kept verbatim and only the
  rounds after them are generated;
- a table that plays has exactly `table_size` players (Mafia needs the full table);
- a generated round plays as many full tables as its players can fill, at most `tables`,
  numbered from the first; whoever does not fit sits the round out. A player absent from a
  round, or barred from every table that plays in it, cannot play it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# rounds → tables → players in seat order (seat 1 first)
Seating = tuple[tuple[tuple[int, ...], ...], ...]


def gettext_noop(message: str) -> str:
    """Marks a refusal's template for the translation catalogues (makemessages finds the
    name); the generator itself stays free of Django."""
    return message


class SeatingError(ValueError):
    """A problem with no valid seating, or a seating that breaks the problem's rules.

    `code` names the reason, `template` is the English message with %(name)s parameters
    from `params`: a page renders the template through gettext in the reader's language,
    `str(error)` is the English text."""

    def __init__(self, code: str, template: str, /, **params: Any) -> None:
        self.code = code
        self.template = template
        self.params = params
        super().__init__(template % params)


@dataclass(frozen=True)
class RoundPlan:
    """How a generated round fills its tables: `tables` tables play, chosen from the
    players in `able` (present and allowed at one of those tables at least)."""

    round: int
    tables: int
    able: tuple[int, ...]

    @property
    def seats(self) -> int:
        return len(self.able)


@dataclass(frozen=True)
class SeatingProblem:
    players: int  # P; players are 0..P-1
    rounds: int  # R
    tables: int  # T tables per round at most
    table_size: int  # seats per table (10 in tournaments; clubs 12-15)
    keep_apart: frozenset[tuple[int, int]] = frozenset()  # pairs never at one table
    absent: frozenset[tuple[int, int]] = frozenset()  # (player, round) cannot play
    # (player, round, table) the player may not sit at: e.g. the table's judge is listed
    # against the player
    forbidden_tables: frozenset[tuple[int, int, int]] = frozenset()
    played: Seating = ()  # the first rounds, already played, kept as they are (re-seat)

    def __post_init__(self) -> None:
        # Lists are welcome (JSON gives them); the problem keeps tuples, so it hashes.
        played = tuple(tuple(tuple(table) for table in round_) for round_ in self.played)
        object.__setattr__(self, "played", played)
        _check_sizes(self)
        _check_constraints(self)
        _check_played(self)
        self.plans()  # refuses a round that cannot fill a table

    @property
    def first_generated(self) -> int:
        """The first round the generator makes (the rounds before it were played)."""
        return len(self.played)

    def plans(self) -> tuple[RoundPlan, ...]:
        """How each generated round fills its tables (the module's docstring says how)."""
        return tuple(_plan_round(self, r) for r in range(self.first_generated, self.rounds))


_SIZES = {
    "players": gettext_noop("The number of players must be a positive whole number."),
    "rounds": gettext_noop("The number of rounds must be a positive whole number."),
    "tables": gettext_noop("The number of tables must be a positive whole number."),
    "table_size": gettext_noop("The table size must be a positive whole number."),
}


def _check_sizes(problem: SeatingProblem) -> None:
    for name, message in _SIZES.items():
        value = getattr(problem, name)
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise SeatingError("size", message, name=name)
    if problem.players < problem.table_size:
        raise SeatingError(
            "too_few_players",
            gettext_noop("%(players)s players cannot fill a table of %(size)s."),
            players=problem.players,
            size=problem.table_size,
        )


def _player(problem: SeatingProblem, player: int) -> None:
    if not 0 <= player < problem.players:
        raise SeatingError(
            "no_such_player",
            gettext_noop("There is no player %(player)s: players are 0 to %(last)s."),
            player=player,
            last=problem.players - 1,
        )


def _round(problem: SeatingProblem, round_: int) -> None:
    if not 0 <= round_ < problem.rounds:
        raise SeatingError(
            "no_such_round",
            gettext_noop("There is no round %(round)s: rounds are 0 to %(last)s."),
            round=round_,
            last=problem.rounds - 1,
        )


def _table(problem: SeatingProblem, table: int) -> None:
    if not 0 <= table < problem.tables:
        raise SeatingError(
            "no_such_table",
            gettext_noop("There is no table %(table)s: tables are 0 to %(last)s."),
            table=table,
            last=problem.tables - 1,
        )


def _check_constraints(problem: SeatingProblem) -> None:
    for first, second in problem.keep_apart:
        _player(problem, first)
        _player(problem, second)
        if first == second:
            raise SeatingError(
                "apart_from_self",
                gettext_noop("Player %(player)s cannot be kept apart from themselves."),
                player=first,
            )
    for player, round_ in problem.absent:
        _player(problem, player)
        _round(problem, round_)
    for player, round_, table in problem.forbidden_tables:
        _player(problem, player)
        _round(problem, round_)
        _table(problem, table)


def _check_played(problem: SeatingProblem) -> None:
    if len(problem.played) > problem.rounds:
        raise SeatingError(
            "too_many_played",
            gettext_noop("%(played)s rounds were played, but the tournament has %(rounds)s."),
            played=len(problem.played),
            rounds=problem.rounds,
        )
    for round_, tables in enumerate(problem.played):
        check_round_shape(problem, round_, tables)


def check_round_shape(
    problem: SeatingProblem, round_: int, tables: tuple[tuple[int, ...], ...]
) -> None:
    """A round's tables are at most T, each full, with real players each seated once."""
    if not 1 <= len(tables) <= problem.tables:
        raise SeatingError(
            "table_count",
            gettext_noop("Round %(round)s has %(count)s tables: it needs 1 to %(tables)s."),
            round=round_,
            count=len(tables),
            tables=problem.tables,
        )
    seen: set[int] = set()
    for table, players in enumerate(tables):
        if len(players) != problem.table_size:
            raise SeatingError(
                "table_not_full",
                gettext_noop(
                    "Table %(table)s of round %(round)s has %(count)s players, not %(size)s."
                ),
                table=table,
                round=round_,
                count=len(players),
                size=problem.table_size,
            )
        for player in players:
            _player(problem, player)
            if player in seen:
                raise SeatingError(
                    "seated_twice",
                    gettext_noop("Player %(player)s is seated twice in round %(round)s."),
                    player=player,
                    round=round_,
                )
            seen.add(player)


def _plan_round(problem: SeatingProblem, round_: int) -> RoundPlan:
    present = [p for p in range(problem.players) if (p, round_) not in problem.absent]
    able = tuple(present)
    tables = min(problem.tables, len(able) // problem.table_size)
    while tables > 0:
        # A player barred from every table that plays sits out; fewer players may fill
        # fewer tables, which may bar more players: repeat until the count holds.
        able = tuple(
            p
            for p in present
            if any((p, round_, t) not in problem.forbidden_tables for t in range(tables))
        )
        fits = min(problem.tables, len(able) // problem.table_size)
        if fits == tables:
            return RoundPlan(round_, tables, able)
        tables = fits
    raise SeatingError(
        "round_not_filled",
        gettext_noop(
            "Round %(round)s cannot fill a table: %(count)s players can play it, a table "
            "needs %(size)s."
        ),
        round=round_,
        count=len(able),
        size=problem.table_size,
    )
