"""/api/v1/history/export/…: the same exports as the pages' links (history/exports/doors.py),
for a token or a session; `as` chooses the file, `published` the names as anybody reads
them."""

from __future__ import annotations

from typing import Annotated, Literal

from django.http import StreamingHttpResponse
from ninja import Query, Router

from club.doors.requests import ApiRequest
from club.kernel.schemas import ERRORS
from history.exports.doors import export_response
from history.exports.scopes import Kind

router = Router(tags=["history"])

As = Literal["csv", "protocol", "exchange"]
# The file's format, `?as=` as on the pages.
AsQuery = Annotated[As, Query(alias="as")]
FILE = {200: None, **ERRORS}


@router.get("/history/export", response=FILE)
def club_export(
    request: ApiRequest, as_: AsQuery = "csv", published: bool = False
) -> StreamingHttpResponse:
    return export_response(Kind.CLUB, "", as_, request.auth, published=published)


@router.get("/history/export/seasons/{season}", response=FILE)
def season_export(
    request: ApiRequest, season: str, as_: AsQuery = "csv", published: bool = False
) -> StreamingHttpResponse:
    return export_response(Kind.SEASON, season, as_, request.auth, published=published)


@router.get("/history/export/tournaments/{tournament_id}", response=FILE)
def tournament_export(
    request: ApiRequest,
    tournament_id: int,
    as_: AsQuery = "csv",
    published: bool = False,
) -> StreamingHttpResponse:
    return export_response(
        Kind.TOURNAMENT, str(tournament_id), as_, request.auth, published=published
    )


@router.get("/history/export/players/{member_id}", response=FILE)
def player_export(
    request: ApiRequest, member_id: int, as_: AsQuery = "csv", published: bool = False
) -> StreamingHttpResponse:
    return export_response(Kind.PLAYER, str(member_id), as_, request.auth, published=published)
