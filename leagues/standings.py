"""A series' standings: each finished tournament of the series gives its players the points
of their final place (Series.points_by_place), and a player's series points are the sum over
the series' tournaments, in whichever of the league's clubs they played.

A tournament counts once it is finished (its places no longer move); the ones still running
are listed without points. A guest of a tournament has no account to carry points from one
club to another: only members are in the series' table. Places are the tournament's own
(tournaments/standings.py, read in its club's scope, since the scoring reads the club's
settings), ties sharing a place and its points."""

from __future__ import annotations

from dataclasses import dataclass, field

from club.kernel.tenancy import club_scope
from leagues.models import Series
from tournaments.models import Tournament
from tournaments.standings import tournament_standings


@dataclass
class SeriesRow:
    member_id: int
    points: float = 0.0
    tournaments: int = 0
    best_place: int = 0  # the best tournament place, the first tie-breaker
    places: dict[int, int] = field(default_factory=dict)  # tournament id → place
    place: int = 0
    name: str = ""  # the nickname a page may show ("": «a player»), leagues/queries.py


@dataclass(frozen=True)
class SeriesStandings:
    series: Series
    rows: list[SeriesRow]
    finished: list[Tournament]  # counted, in the order they were played
    running: list[Tournament]  # not yet counted


def tournament_places(tournament: Tournament) -> dict[int, int]:
    """Each member's final place in a tournament (by member id)."""
    with club_scope(tournament.club):
        standings = tournament_standings(tournament, show_final=True)
    return {row.member_id: row.place for row in standings.rows if row.member_id is not None}


def series_standings(series: Series) -> SeriesStandings:
    tournaments = list(
        Tournament.all_clubs.filter(pk__in=series.stages.values("tournament_id"))
        .select_related("evening", "club")
        .order_by("evening__starts_at", "pk")
    )
    finished = [t for t in tournaments if t.finished_at is not None]
    running = [t for t in tournaments if t.finished_at is None]
    rows: dict[int, SeriesRow] = {}
    for tournament in finished:
        for member_id, place in tournament_places(tournament).items():
            row = rows.setdefault(member_id, SeriesRow(member_id))
            row.points += series.points_for(place)
            row.tournaments += 1
            row.best_place = min(row.best_place or place, place)
            row.places[tournament.pk] = place
    ordered = sorted(rows.values(), key=lambda r: (-r.points, r.best_place, r.member_id))
    previous: tuple[float, int] | None = None
    for n, row in enumerate(ordered, 1):
        key = (row.points, row.best_place)
        if key != previous:
            row.place, previous = n, key
        else:
            row.place = ordered[n - 2].place
    return SeriesStandings(series, ordered, finished, running)
