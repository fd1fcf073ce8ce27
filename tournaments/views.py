"""A tournament's pages: the list, a tournament's page (its seating by table, «where I
play», its standings «as of game N», printable), and a table's «start the game»."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from club.doors.requests import MemberRequest, SiteRequest
from club.doors.responses import answers_refusals
from club.kernel.parsing import whole_number
from tournaments import queries, services
from tournaments.models import Table, Tournament


@require_GET
def tournament_list(request: SiteRequest) -> HttpResponse:
    tournaments = Tournament.objects.select_related("evening", "preset").order_by(
        "-evening__starts_at"
    )
    return render(request, "tournaments/list.html", {"tournaments": tournaments})


@require_GET
def tournament_detail(request: SiteRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(
        Tournament.objects.select_related("evening", "preset"), pk=tournament_id
    )
    as_of = whole_number(request.GET.get("as_of", ""), low=0, high=10_000)
    page = queries.tournament_page(tournament, request.user, as_of=as_of)
    return render(request, "tournaments/detail.html", {"page": page, "as_of": as_of})


def _back_to_table(table_id: int) -> str:
    table = Table.objects.select_related("round").filter(pk=table_id).first()
    if table is None:
        return reverse("tournaments")
    return reverse("tournament", args=[table.round.tournament_id]) + f"#round-{table.round.number}"


@login_required
@require_POST
@answers_refusals(back=_back_to_table)
def table_start(request: MemberRequest, table_id: int) -> HttpResponse:
    """The table's judge (or an admin) starts its game, then records it on the host's screen."""
    game = services.table_game_start(table_id=table_id, host=request.user)
    return redirect("game", game.pk)
