"""The platform's pages, which no club owns: the clubs, a league with its series, the
platform's rating. They answer at the site's root (and under any club's prefix alike) and
read across clubs on purpose (leagues/queries.py)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from club.doors.requests import MemberRequest, SiteRequest
from club.doors.responses import answers_refusals
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
    return render(request, "leagues/league.html", {"page": page, "answerable": answerable})


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
