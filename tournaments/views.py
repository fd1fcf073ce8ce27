"""A tournament's pages: the list, a tournament's page (its seating by table, «where I
play», its standings «as of game N», printable), and a table's «start the game»."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from club.doors.requests import MemberRequest, SiteRequest
from club.doors.responses import answers_refusals
from club.kernel.errors import Refused
from club.kernel.parsing import whole_number
from games import live_evening
from games.ratings.publication import published_points
from games.views import etagged, screen_words
from tournaments import live as live_standings
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


# --- live standings (tournaments/live.py, docs/live.md) -----------------------------------


def _live_read(request: SiteRequest, tournament_id: int) -> tuple[live_evening.Served, bool]:
    """The live standings for this reader, and whether they are theirs alone: the reader is
    looked up only when a members-only game makes the members' frame differ."""
    kept = live_standings.standings_read(tournament_id)
    member = kept["differs"] and request.user.is_authenticated
    return live_evening.served(kept, member=member, scores=published_points), kept["differs"]


@require_GET
def tournament_live_json(request: SiteRequest, tournament_id: int) -> HttpResponse:
    """The live standings as JSON, with their ETag: a poller that has it gets 304."""
    try:
        served, private = _live_read(request, tournament_id)
    except Refused as refusal:
        return JsonResponse(refusal.body(), status=refusal.status)
    return etagged(request, served.etag, served.body, private=private)


@require_GET
@answers_refusals()
def tournament_live(request: SiteRequest, tournament_id: int) -> HttpResponse:
    """The standings following the games by themselves, the final's table on top while the
    final is played (static/tournaments/live.js draws them from the JSON above)."""
    tournament = get_object_or_404(Tournament.objects.select_related("evening"), pk=tournament_id)
    served, _private = _live_read(request, tournament_id)
    words = screen_words() | {
        "round": _("Round %(round)s, table %(table)s"),
        "final": _("The final, game %(number)s"),
        "guest_n": _("Guest %(n)s"),
        "hidden_final": _(
            "The final's results are hidden until its last game ends: the standings stop at "
            "the qualifying rounds."
        ),
        "no_games": _("No game has ended yet."),
        "playing": _("Being played now"),
        "points": _("Points"),
        "games": _("Games"),
        "wins": _("Wins"),
        "ci": _("Ci"),
        "follow": _("Follow the game live"),
    }
    context = {
        "tournament": tournament,
        "screen": json.loads(served.body),
        "words": words,
        "url": reverse("tournament_live_json", args=[tournament_id]),
    }
    return render(request, "tournaments/live.html", context)
