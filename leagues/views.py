"""The platform's pages, which no club owns: the clubs, a league with its series, the
platform's rating. They answer at the site's root (and under any club's prefix alike) and
read across clubs on purpose (leagues/queries.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from club.doors.requests import MemberRequest, SiteRequest
from club.doors.responses import answers_refusals
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import whole_number
from leagues import queries, services
from leagues.models import League, LeagueMembership
from leagues.people import administers


@require_GET
def club_list(request: SiteRequest) -> HttpResponse:
    return render(request, "leagues/clubs.html", {"cards": queries.clubs_listed()})


@require_GET
def league_detail(request: SiteRequest, slug: str) -> HttpResponse:
    league = get_object_or_404(League, slug=slug)
    page = queries.league_page(league, request.user)
    viewer = request.user if isinstance(request.user, User) else None
    answerable = [m for m in page.invited if administers(viewer, m.club)]
    desk = queries.league_desk(league) if services.runs_league(viewer, league) else None
    context = {"page": page, "answerable": answerable, "desk": desk}
    return render(request, "leagues/league.html", context)


def _back_to_the_league(slug: str) -> str:
    return reverse("league", args=[slug])


@login_required
@require_POST
@answers_refusals(back=_back_to_the_league)
def league_manage(request: MemberRequest, slug: str) -> HttpResponse:
    """The league's admin at its page: invite a club, add a tournament of one of its clubs
    to a series, or say whether its clubs' rated games count (the form's `action`)."""
    league = get_object_or_404(League, slug=slug)
    action = request.POST.get("action")
    if action == "invite":
        club = Club.objects.filter(pk=whole_number(request.POST.get("club"), low=1) or 0).first()
        if club is None:
            raise Refused(_("There is no such club."), RefusalCode.NOT_FOUND)
        services.league_invite(league=league, club=club, by=request.user)
        messages.success(request, _("The club is invited: its admin answers on this page."))
    elif action == "stage":
        series = league.series.filter(pk=whole_number(request.POST.get("series"), low=1) or 0)
        found = series.first()
        if found is None:
            raise Refused(_("There is no such series."), RefusalCode.NOT_FOUND)
        tournament_id = whole_number(request.POST.get("tournament"), low=1) or 0
        services.series_tournament_add(series=found, tournament_id=tournament_id, by=request.user)
        messages.success(request, _("The tournament is in the series."))
    elif action == "accepts":
        accepts = request.POST.get("accepts") == "1"
        services.league_accepts_set(league=league, accepts=accepts, by=request.user)
        messages.success(request, _("Saved."))
    else:
        raise Refused(_("Unknown action."), RefusalCode.INVALID)
    return redirect("league", league.slug)


def _back_to_league(membership_id: int) -> str:
    row = LeagueMembership.objects.select_related("league").filter(pk=membership_id).first()
    return reverse("league", args=[row.league.slug]) if row is not None else reverse("clubs")


@login_required
@require_POST
@answers_refusals(back=_back_to_league)
def league_invitation_answer(request: MemberRequest, membership_id: int) -> HttpResponse:
    """The invited club's admin says yes or no to the league (the form's `answer`)."""
    row = services.league_answer(
        membership_id=membership_id, accept=request.POST.get("answer") == "accept", by=request.user
    )
    return redirect("league", row.league.slug)


@require_GET
def rating_page(request: SiteRequest) -> HttpResponse:
    return render(request, "leagues/rating.html", {"rows": queries.platform_rating(request.user)})
