"""/api/v1/tournaments: the same services as the admin and the pages (create, register,
seat, start a table's game, the seating and the standings)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated

from django.utils.translation import gettext as _
from ninja import Field, Query, Router, Schema, Status

from club import services as club_services
from club.doors.requests import ApiRequest
from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import Moment
from club.kernel.schemas import ERRORS
from club.models import RegistrationSource
from tournaments import queries, services
from tournaments.models import Tournament
from tournaments.seating.generator import DEFAULT_EFFORT

router = Router(tags=["tournaments"])


class TournamentIn(Schema):
    name: str = Field(..., min_length=1, max_length=120)
    starts_at: Moment
    ends_on: date
    venue: str = Field(..., min_length=1, max_length=128)
    preset: str = Field(..., min_length=1, max_length=32)
    # Whole numbers are strict: true is not 1, nor "10" ten.
    tables: int = Field(..., ge=1, le=10, strict=True)
    rounds: int = Field(..., ge=1, le=30, strict=True)
    table_size: int = Field(10, ge=7, le=15, strict=True)
    capacity: int | None = Field(None, ge=1, le=500, strict=True)
    opens_at: Moment | None = None
    final_players: int = Field(10, ge=0, le=150, strict=True)
    final_rounds: int = Field(0, ge=0, le=10, strict=True)
    # JSON as Python reads it takes NaN and Infinity: refused as such, not by the bounds.
    final_weight: float = Field(1.0, ge=0.1, le=5.0, allow_inf_nan=False)
    hide_final: bool = False


class TournamentOut(Schema):
    id: int
    name: str
    evening_id: int
    starts_at: datetime
    ends_on: date
    venue: str
    preset: str
    tables: int
    rounds: int
    table_size: int
    final_players: int
    final_rounds: int
    seed: int


class TableOut(Schema):
    id: int
    table: int
    judge: str
    game_id: int | None
    seats: list[str]  # names in seat order, as the caller may see them


class RoundOut(Schema):
    number: int
    stage: str
    weight: float
    tables: list[TableOut]


class StandingOut(Schema):
    place: int
    name: str
    points: float
    games: int
    wins: int
    ci: float | None


class StandingsOut(Schema):
    games: int
    of: int
    hidden_final: bool
    rows: list[StandingOut]


class SeatedOut(Schema):
    rounds_seated: int


class RegistrationOut(Schema):
    status: str
    position: int | None
    seat: int | None


class GameStartedOut(Schema):
    game_id: int


def _tournament(tournament_id: int) -> Tournament:
    tournament = (
        Tournament.objects.select_related("evening", "preset").filter(pk=tournament_id).first()
    )
    if tournament is None:
        raise Refused(_("There is no such tournament."), RefusalCode.NOT_FOUND)
    return tournament


def _out(t: Tournament) -> TournamentOut:
    return TournamentOut(
        id=t.pk,
        name=t.name,
        evening_id=t.evening_id,
        starts_at=t.evening.starts_at,
        ends_on=t.ends_on,
        venue=t.evening.venue,
        preset=t.preset.code,
        tables=t.tables,
        rounds=t.rounds,
        table_size=t.table_size,
        final_players=t.final_players,
        final_rounds=t.final_rounds,
        seed=t.seed,
    )


@router.post("/tournaments", response={201: TournamentOut, **ERRORS})
def tournament_create(request: ApiRequest, payload: TournamentIn) -> Status[TournamentOut]:
    plan = services.TournamentPlan(**payload.dict())
    tournament = services.tournament_create(plan=plan, actor=request.auth)
    return Status(201, _out(_tournament(tournament.pk)))


@router.get("/tournaments/{tournament_id}", response={200: TournamentOut, **ERRORS})
def tournament_detail(request: ApiRequest, tournament_id: int) -> TournamentOut:
    return _out(_tournament(tournament_id))


@router.post(
    "/tournaments/{tournament_id}/registration",
    response={200: RegistrationOut, 201: RegistrationOut, **ERRORS},
)
def tournament_register(request: ApiRequest, tournament_id: int) -> Status[RegistrationOut]:
    """The evening's own sign-up: a seat while there are places, then the reserve."""
    tournament = _tournament(tournament_id)
    result = club_services.registration_create(
        member=request.auth, evening_id=tournament.evening_id, source=RegistrationSource.API
    )
    body = RegistrationOut(
        status=result.registration.status, position=result.position, seat=result.seat
    )
    return Status(201 if result.created else 200, body)


# The generator's work, as a percentage of its default (about a minute at the most for
# the largest tournaments): an organiser who wants the seating sooner asks for less.
Effort = Annotated[int, Query(ge=1, le=DEFAULT_EFFORT)]


@router.post("/tournaments/{tournament_id}/seating", response={200: SeatedOut, **ERRORS})
def tournament_seat(
    request: ApiRequest, tournament_id: int, effort: Effort = DEFAULT_EFFORT
) -> SeatedOut:
    """Seat the qualifying rounds not begun yet. `effort` (1–100, default 100): the share of
    the generator's default work, for a seating sooner; the search keeps the best seating
    it has found at any point, so less work gives a seating as good as that much search."""
    seated = services.tournament_seat(
        tournament_id=_tournament(tournament_id).pk, actor=request.auth, effort=effort
    )
    return SeatedOut(rounds_seated=seated)


@router.get("/tournaments/{tournament_id}/seating", response={200: list[RoundOut], **ERRORS})
def tournament_seating(request: ApiRequest, tournament_id: int) -> list[RoundOut]:
    page = queries.tournament_page(_tournament(tournament_id), request.auth, as_of=None)
    return [
        RoundOut(
            number=r.round.number,
            stage=r.round.stage,
            weight=r.round.weight,
            tables=[
                TableOut(
                    id=t.table.pk,
                    table=t.table.number,
                    judge=t.judge,
                    game_id=t.table.game_id,
                    seats=[seat.name for seat in t.seats],
                )
                for t in r.tables
            ],
        )
        for r in page.rounds
    ]


@router.get("/tournaments/{tournament_id}/standings", response={200: StandingsOut, **ERRORS})
def tournament_standings(
    request: ApiRequest, tournament_id: int, as_of: int | None = None
) -> StandingsOut:
    page = queries.tournament_page(_tournament(tournament_id), request.auth, as_of=as_of)
    return StandingsOut(
        games=page.standings.games,
        of=page.standings.of,
        hidden_final=page.standings.hidden_final,
        rows=[
            StandingOut(
                place=row.standing.place,
                name=row.name,
                points=row.standing.points,
                games=row.standing.sums.games,
                wins=row.standing.sums.wins,
                ci=row.standing.ci,
            )
            for row in page.rows
        ],
    )


@router.post("/tournaments/tables/{table_id}/game", response={201: GameStartedOut, **ERRORS})
def table_game_start(request: ApiRequest, table_id: int) -> Status[GameStartedOut]:
    game = services.table_game_start(table_id=table_id, host=request.auth)
    return Status(201, GameStartedOut(game_id=game.pk))


class AnnouncedOut(Schema):
    told: int


class FinalOut(Schema):
    finalists: int


@router.post(
    "/tournaments/{tournament_id}/rounds/{number}/announce",
    response={200: AnnouncedOut, **ERRORS},
)
def round_announce(request: ApiRequest, tournament_id: int, number: int) -> AnnouncedOut:
    round_ = _tournament(tournament_id).round_set.filter(number=number).first()
    if round_ is None:
        raise Refused(_("There is no such round."), RefusalCode.NOT_FOUND)
    return AnnouncedOut(told=services.round_announce(round_id=round_.pk, actor=request.auth))


@router.post("/tournaments/{tournament_id}/final", response={200: FinalOut, **ERRORS})
def tournament_final(
    request: ApiRequest, tournament_id: int, effort: Effort = DEFAULT_EFFORT
) -> FinalOut:
    """Seat the final from the standings; `effort` as for the seating."""
    finalists = services.tournament_final(
        tournament_id=_tournament(tournament_id).pk, actor=request.auth, effort=effort
    )
    return FinalOut(finalists=len(finalists))


@router.post("/tournaments/{tournament_id}/finish", response={200: TournamentOut, **ERRORS})
def tournament_finish(request: ApiRequest, tournament_id: int) -> TournamentOut:
    services.tournament_finish(tournament_id=_tournament(tournament_id).pk, actor=request.auth)
    return _out(_tournament(tournament_id))
