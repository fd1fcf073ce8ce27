"""The export's links on the pages: a season's, a tournament's and the club's games for
its organisers and admins, a player's games for the player and the organisers
(history/exports/scopes.py says who). `?as=` chooses the file (csv, protocol, exchange);
`?published=1` writes the names as anybody reads them, for a file to send out."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from club.doors.requests import MemberRequest
from club.doors.responses import answers_refusals
from history.exports.doors import export_response
from history.exports.scopes import Kind


def _export(request: MemberRequest, kind: Kind, key: str) -> StreamingHttpResponse:
    return export_response(
        kind,
        key,
        request.GET.get("as"),
        request.user,
        published=request.GET.get("published") == "1",
    )


@login_required
@require_GET
@answers_refusals()
def season_export(request: MemberRequest, season: str) -> StreamingHttpResponse | HttpResponse:
    return _export(request, Kind.SEASON, season)


@login_required
@require_GET
@answers_refusals()
def tournament_export(
    request: MemberRequest, tournament_id: int
) -> StreamingHttpResponse | HttpResponse:
    return _export(request, Kind.TOURNAMENT, str(tournament_id))


@login_required
@require_GET
@answers_refusals()
def player_export(request: MemberRequest, member_id: int) -> StreamingHttpResponse | HttpResponse:
    return _export(request, Kind.PLAYER, str(member_id))


@login_required
@require_GET
@answers_refusals()
def club_export(request: MemberRequest) -> StreamingHttpResponse | HttpResponse:
    return _export(request, Kind.CLUB, "")
