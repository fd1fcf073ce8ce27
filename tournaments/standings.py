"""A tournament's standings: each finished game of its tables scored by the tournament's
preset (its newest version, as games.ratings.whatif scores a season under a preset), a
game's points times its round's weight, first-night compensation over the tournament's
games when the preset has it, ordered by points and then the preset's tie-breakers
(docs/scoring.md), «as of game N» when asked."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from games.models import GameEvent, GameStatus, Seat
from games.ratings.presets import tournament_scheme
from games.ratings.stats import Sums
from games.ratings.whatif import seats_scored
from games.rules.log import effective_events
from games.rules.rounding import rounded
from games.rules.scoring import first_night_compensation
from tournaments.models import Stage, Table, Tournament


@dataclass
class Standing:
    registration_id: int
    member_id: int | None
    guest_id: int | None
    sums: Sums = field(default_factory=Sums)
    weighted: float = 0.0  # the games' points, each times its round's weight
    ci: float | None = None  # first-night compensation, when the preset has it
    place: int = 0

    @property
    def points(self) -> float:
        return rounded(self.weighted + (self.ci or 0.0))


@dataclass(frozen=True)
class Standings:
    rows: list[Standing]
    games: int  # the finished games counted
    of: int  # the finished games in all
    hidden_final: bool  # the final's games are left out until its last one ends


def _finished_tables(tournament: Tournament) -> list[Table]:
    """The tournament's tables whose game has ended, in the order the games ended."""
    return list(
        Table.objects.filter(round__tournament=tournament, game__status=GameStatus.FINISHED)
        .select_related("round", "game")
        .order_by("game__ended_at", "game_id")
    )


def tournament_standings(
    tournament: Tournament, *, as_of: int | None = None, show_final: bool = True
) -> Standings:
    """The standings after the first `as_of` finished games (all when None); with
    `show_final` False and the tournament's results hidden during the final, the final's
    games count only once the tournament is finished."""
    tables = _finished_tables(tournament)
    hide = not show_final and tournament.hide_final and tournament.finished_at is None
    if hide:
        tables = [t for t in tables if t.round.stage != Stage.FINAL]
    counted = tables if as_of is None else tables[: max(0, as_of)]
    # The scheme its games are scored by on every page (games/ratings/presets.py).
    scheme = tournament_scheme(tournament.preset).scheme()
    game_ids = [t.game_id for t in counted if t.game_id is not None]
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(game_id__in=game_ids).order_by("game_id", "number"):
        seats[seat.game_id].append(seat)
    logs: dict[int, list[dict[str, Any]]] = defaultdict(list)
    rows = GameEvent.objects.filter(game_id__in=game_ids).order_by("game_id", "seq")
    for game_id, payload in rows.values_list("game_id", "payload"):
        logs[game_id].append(payload)
    standing: dict[int, Standing] = {}
    for table in counted:
        game = table.game
        assert game is not None  # the query's filter
        scored = seats_scored(game, seats[game.pk], effective_events(logs[game.pk]), scheme)
        for seat in seats[game.pk]:
            registration_id = table.players[seat.number - 1]
            row = standing.setdefault(
                registration_id, Standing(registration_id, seat.member_id, seat.guest_id)
            )
            if seat.number in scored:
                row.sums.add(scored[seat.number])
                row.weighted += scored[seat.number].points * table.round.weight
    ordered = _ordered(
        list(standing.values()), scheme.tie_breakers, scheme.first_night_compensation
    )
    return Standings(ordered, len(counted), len(tables), hide)


def _ordered(rows: list[Standing], tie_breakers: tuple[str, ...], cap: float) -> list[Standing]:
    for row in rows:
        if cap > 0:
            each = first_night_compensation(row.sums.first_night_kills, row.sums.games, cap)
            row.ci = rounded(each * row.sums.first_night_losses)
    # All equal: the earlier sign-up first (a place shared all the same).
    rows.sort(
        key=lambda row: (
            -row.points,
            *(-v for v in row.sums.tie_breakers(tie_breakers)),
            row.registration_id,
        )
    )
    place = 0
    previous: tuple[float, ...] | None = None
    for n, row in enumerate(rows, 1):
        key = (row.points, *row.sums.tie_breakers(tie_breakers))
        if key != previous:  # all equal: the same place
            place, previous = n, key
        row.place = place
    return rows
