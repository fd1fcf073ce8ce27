"""/api/v1/online-games: the online game, for its players and its host (RULES.md §D).

`GET` shows the game as the caller may see it (their own role, the mafia's chat for the
mafia, their checks' answers); `POST …/actions` takes a protocol event of the online
ruleset (PROTOCOL.md): the player's own seat is filled in, the engine judges it.
"""

from __future__ import annotations

from typing import Literal

from ninja import Field, Router, Schema, Status

from club.doors.requests import ApiRequest
from club.kernel import parsing
from club.kernel.parsing import Moment
from club.kernel.schemas import ERRORS
from games.online import services as online_play
from games.online.table import Table, TableView, online_table_seen, table_view

router = Router(tags=["online"])


class OnlineGameIn(Schema):
    member_ids: list[int] = Field(..., min_length=10, max_length=10)
    starts_at: Moment
    day_minutes: int = Field(720, ge=10, le=10080)
    night_minutes: int = Field(240, ge=10, le=10080)
    fast_night_minutes: Literal[5, 10] = 5
    # The readings RULES.md leaves open (docs/protocol.md); left out: the defaults.
    options: dict[str, bool | int | str] = Field(default_factory=dict, max_length=40)


class ActionIn(Schema):
    """An online protocol event: `type` and its fields (`target`, `text`, `seat`, `minutes`)."""

    model_config = {"extra": "allow"}
    type: str = Field(..., max_length=16)


class ChatIn(Schema):
    text: str = Field(..., min_length=1, max_length=2000)


def _table(request: ApiRequest, game_id: int) -> Table:
    return online_table_seen(game_id, request.auth)


def _view(request: ApiRequest, found: Table) -> TableView:
    return table_view(found, request.auth)


@router.post("/online-games", response={201: TableView, **ERRORS})
def online_game_create(request: ApiRequest, payload: OnlineGameIn) -> Status[TableView]:
    game = online_play.online_game_create(
        host=request.auth,
        member_ids=payload.member_ids,
        starts_at=payload.starts_at,
        day_minutes=payload.day_minutes,
        night_minutes=payload.night_minutes,
        fast_night_minutes=payload.fast_night_minutes,
        options=payload.options,
    )
    return Status(201, _view(request, _table(request, game.pk)))


@router.get("/online-games/{game_id}", response={200: TableView, **ERRORS})
def online_game_detail(request: ApiRequest, game_id: int) -> TableView:
    return _view(request, _table(request, game_id))


@router.post("/online-games/{game_id}/actions", response={200: TableView, **ERRORS})
def online_game_act(request: ApiRequest, game_id: int, payload: ActionIn) -> TableView:
    # The event's own fields depend on its type: read them off the body as sent.
    event = parsing.loads(request.body)
    acted = online_play.online_act(game_id=game_id, user=request.auth, event=event)
    return _view(request, acted.table)


@router.post("/online-games/{game_id}/mafia-chat", response={200: TableView, **ERRORS})
def online_mafia_chat(request: ApiRequest, game_id: int, payload: ChatIn) -> TableView:
    online_play.online_mafia_say(game_id=game_id, user=request.auth, text=payload.text)
    return _view(request, _table(request, game_id))
