"""/api/v1/games: the same services as the host's screen."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from ninja import Field, Router, Schema, Status

from accounts.models import User
from club.doors.requests import ApiRequest
from club.kernel.errors import RefusalCode, Refused
from club.kernel.schemas import ERRORS
from games import access, protocols, starting, taps
from games.models import Ruleset
from games.queries import game_view
from games.ratings.publication import hidden_names, visible_nicks
from games.ratings.services import game_rated_set
from games.reasons import as_references, with_texts
from games.recording import GameView
from games.starting import GuestAt, Player, seatable

router = Router(tags=["games"])


class SeatIn(Schema):
    """One seat: who sits in it, by exactly one of `member_id`, `nick` (a member) or
    `guest_id` (one of the evening's guests, as GET …/players lists them), and the card."""

    seat: int = Field(..., ge=1, le=30)
    member_id: int | None = None
    nick: str | None = Field(None, max_length=64)
    guest_id: int | None = None
    role: str = Field(..., min_length=1, max_length=32)


class GameIn(Schema):
    evening_id: int
    ruleset: str = Field("club", pattern="^club$")
    table: int = Field(1, ge=1, le=99, description="Which of the evening's open tables.")
    seats: list[SeatIn] = Field(..., min_length=1, max_length=30)


class SeatOut(Schema):
    seat: int
    nick: str  # «Player N» to whoever may not see the name (games/access.py)
    guest_id: int | None = Field(
        None,
        description="The evening's guest in this seat, told to whoever sees the seat's name.",
    )
    role: str | None  # null while the game runs, except for its host
    alive: bool
    fouls: int
    immune: bool


class PresentOut(Schema):
    """One of the evening's seated people a table's new game may seat: a member (`member_id`,
    `nick`) or a guest (`guest_id`, `name`), as the host's «Новая игра» offers them."""

    member_id: int | None
    nick: str | None
    guest_id: int | None
    name: str | None
    attendance_confirmed: bool
    came: bool


class PromptOut(Schema):
    phase: str
    n: int
    step: str | None
    legal: list[str]
    speaker: int | None
    seconds: int | None
    question: str | None
    candidates: list[int]
    wake: str | None


class GameOut(Schema):
    id: int
    evening_id: int | None  # null for an online game
    table: int
    number: int
    ruleset: str
    status: str
    winner: str | None
    seq: int
    # False: a practice game, scored but in no rating and no season's table (PATCH it).
    rated: bool
    seats: list[SeatOut]
    next: PromptOut
    eliminated: list[dict[str, Any]]


class GameEditIn(Schema):
    rated: bool = Field(
        ...,
        description="False: a practice game, scored but counted in no rating and no "
        "season's table; a change replays the ratings.",
    )


class EventIn(Schema):
    """A protocol event (PROTOCOL.md) plus `seq`, the number it will get, `client_id`, and
    `confirmed` (false: an event that removes a player or ends the game is refused with
    code "confirm" and what it would do, as the host's screen asks)."""

    model_config = {"extra": "allow"}
    type: str = Field(..., max_length=32)
    seq: int | None = None
    client_id: str | None = Field(None, min_length=1, max_length=64)
    confirmed: bool = True


def _out(request: ApiRequest, view: GameView) -> GameOut:
    state, prompt = view.club_state, view.prompt
    roles = access.sees_roles(request.auth, view.game, view.seats)
    nick = visible_nicks(view.seats, view.game, request.auth)
    named = access.runs(request.auth, view.game, view.seats)
    night = prompt.phase == "night"
    return GameOut(
        id=view.game.pk,
        evening_id=view.game.evening_id,
        table=view.game.table,
        number=view.game.number,
        ruleset=view.game.ruleset,
        status=view.game.status,
        winner=view.game.winner or None,
        seq=access.seq_shown(view.log, view.game.last_seq, at_night=night, sees_night=roles),
        rated=view.game.rated,
        seats=[
            SeatOut(
                seat=s.number,
                nick=nick[s.number],
                guest_id=s.guest_id
                if s.guest_id is not None
                and access.seat_name_visible(s, request.auth, runs_game=named)
                else None,
                role=s.role if roles else None,
                alive=s.number in state.alive,
                fouls=state.fouls.get(s.number, 0),
                immune=s.number in state.immune_now,
            )
            for s in view.seats
        ],
        next=PromptOut(
            phase=prompt.phase,
            n=prompt.n,
            step=prompt.step,
            # What remains of a night is the host's (or what the recorder may tap).
            legal=list(prompt.legal) if roles or not night else [],
            speaker=prompt.speaker,
            seconds=prompt.seconds,
            question=prompt.question,
            candidates=list(prompt.candidates),
            wake=prompt.wake if roles else None,
        ),
        eliminated=[dict(e.as_dict()) for e in state.eliminated],
    )


def _view(game_id: int) -> GameView:
    view = game_view(game_id)
    if view is None:
        raise Refused(_("There is no such game."), RefusalCode.NOT_FOUND)
    if view.game.ruleset == Ruleset.ONLINE:
        raise Refused(
            _("An online game: its table is at /api/v1/online-games/{id}."), RefusalCode.NOT_FOUND
        )
    return view


def _player(seat: SeatIn) -> Player:
    """Who `seat` names: a member by id or nickname, or one of the evening's guests;
    whether they may sit at this table is the service's to say, as for the host's screen."""
    named = [seat.member_id, seat.nick, seat.guest_id]
    if sum(given is not None for given in named) != 1:
        raise Refused(
            _("Seat %(seat)d: give one of member_id, nick or guest_id.") % {"seat": seat.seat},
            RefusalCode.INVALID,
            seat=seat.seat,
        )
    if seat.guest_id is not None:
        return GuestAt(seat.guest_id)
    if seat.member_id is not None:
        return seat.member_id
    member = User.objects.by_nickname(seat.nick or "")
    if member is None:
        raise Refused(
            _("Seat %(seat)d: no member has this nickname.") % {"seat": seat.seat},
            RefusalCode.INVALID,
            seat=seat.seat,
        )
    return member.pk


@router.post("/games", response={201: GameOut, **ERRORS})
def game_create(request: ApiRequest, payload: GameIn) -> Status[GameOut]:
    """Start a game of the evening at one of its open tables (`table`, 1 by default), as
    the host's «Новая игра» does: the same service, the same refusals."""
    access.refuse_unless_may_host(request.auth)
    seats = {seat.seat: (_player(seat), seat.role) for seat in payload.seats}
    if len(seats) != len(payload.seats):
        raise Refused(_("Each seat number is given once."), RefusalCode.INVALID)
    game = starting.game_create(
        host=request.auth, evening_id=payload.evening_id, seats=seats, table=payload.table
    )
    return Status(201, _out(request, _view(game.pk)))


@router.get("/evenings/{evening_id}/players", response={200: list[PresentOut], **ERRORS})
def game_players(request: ApiRequest, evening_id: int, table: int = 1) -> list[PresentOut]:
    """Hosts: whom a new game at `table` may seat (the evening's confirmed members and
    guests, in the order they signed up, but for those playing at the other table now)."""
    present = seatable(host=request.auth, evening_id=evening_id, table=table)
    return [
        PresentOut(
            member_id=p.member.pk if p.member else None,
            nick=p.member.nickname if p.member else None,
            guest_id=p.guest.pk if p.guest else None,
            name=p.guest.name if p.guest else None,
            attendance_confirmed=p.attendance_confirmed,
            came=p.came,
        )
        for p in present
    ]


@router.get("/games/{game_id}", response={200: GameOut, **ERRORS})
def game_detail(request: ApiRequest, game_id: int) -> GameOut:
    return _out(request, _view(game_id))


@router.patch("/games/{game_id}", response={200: GameOut, **ERRORS})
def game_edit(request: ApiRequest, game_id: int, payload: GameEditIn) -> GameOut:
    """Its host or an admin marks the game rated or unrated (the game's page does too)."""
    view = _view(game_id)
    game_rated_set(game_id=view.game.pk, rated=payload.rated, by=request.auth)
    return _out(request, _view(game_id))


# The body is read by games/taps.py, as the host screen's tap is: the schema documents it.
EVENT_BODY = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": EventIn.model_json_schema()}},
    }
}


@router.post(
    "/games/{game_id}/events",
    response={200: GameOut, 201: GameOut, **ERRORS},
    openapi_extra=EVENT_BODY,
)
def game_event(request: ApiRequest, game_id: int) -> Status[GameOut]:
    """One event, read and recorded as the host screen's tap (games/taps.py): the same
    refusals with the same body and status; recorded as sent unless `confirmed` is false."""
    recorded = taps.tap_record(
        game_id=game_id,
        author=request.auth,
        raw=request.body,
        nested=False,
        confirmed_unless_said=True,
    )
    return Status(201 if recorded.created else 200, _out(request, recorded.view))


@router.get("/games/{game_id}/protocol", response={200: dict[str, Any], **ERRORS})
def game_protocol(request: ApiRequest, game_id: int) -> dict[str, Any]:
    view = _view(game_id)
    if not access.sees_roles(request.auth, view.game, view.seats):
        raise Refused(_("The protocol is published when the game ends."), RefusalCode.FORBIDDEN)
    document = protocols.game_protocol(view.game, view.seats, view.log)
    nick = visible_nicks(view.seats, view.game, request.auth)
    for seat in document["seats"]:
        seat["nick"] = nick[seat["seat"]]
    # A host's reason keeps its references to seats ({seat:N}); a nickname the reader may
    # not see, written in words before the check, is given as a reference too.
    hidden = hidden_names(view.seats, nick).hidden()
    document["events"] = [
        with_texts(event, lambda text: as_references(text, hidden)) for event in document["events"]
    ]
    return document
