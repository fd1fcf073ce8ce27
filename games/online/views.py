"""The online game's pages: the hosts' list and form, and the table each player plays at
(htmx refreshes it; every form also works as a plain post)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import MembershipStatus, User
from club.club_settings import ClubSettings
from club.errors import Refused
from club.parsing import parse_moment, whole_number
from club.requests import MemberRequest, SiteRequest
from club.responses import action_answer
from games.access import may_host
from games.models import Game, Ruleset
from games.online import services as online_play
from games.online.table import Table, online_table, table_view

WORDS = {"pass", "hang_all", "pardon_all"}


@login_required
@require_GET
def online_list(request: MemberRequest) -> HttpResponse:
    games = (
        Game.objects.filter(ruleset=Ruleset.ONLINE)
        .filter(Q(seats__member=request.user) | Q(host=request.user))
        .distinct()
        .select_related("online")
        .order_by("-started_at")[:50]
    )
    return render(
        request, "games/online_list.html", {"games": games, "hosting": may_host(request.user)}
    )


@login_required
@require_http_methods(["GET", "POST"])
def online_new(request: MemberRequest) -> HttpResponse:
    if not may_host(request.user):
        raise PermissionDenied(_("Only the club's hosts and admins start games."))
    members = User.objects.filter(is_active=True, status=MembershipStatus.ACTIVE).order_by(
        "nickname"
    )
    context: dict[str, Any] = {"members": members, "chosen": set()}
    if request.method == "POST":
        picked = (whole_number(v, low=1) for v in request.POST.getlist("members"))
        chosen = [member_id for member_id in picked if member_id is not None]
        context["chosen"] = set(chosen)
        try:
            game = online_play.online_game_create(
                host=request.user,
                member_ids=chosen,
                starts_at=_moment(request.POST.get("starts_at")),
                day_minutes=_minutes(request.POST.get("day_minutes"), 720),
                night_minutes=_minutes(request.POST.get("night_minutes"), 240),
            )
        except Refused as refusal:
            context["error"] = refusal.message
            return render(request, "games/online_new.html", context, status=422)
        messages.success(request, _("The game is created and the roles are dealt."))
        return redirect("online_game", game_id=game.pk)
    return render(request, "games/online_new.html", context)


def _moment(raw: str | None) -> datetime:
    moment = parse_moment(raw, zone=ClubSettings.load().zone)
    if moment is None:
        raise Refused(_("Give the start as a date and a time."))
    return moment


def _minutes(raw: str | None, default: int) -> int:
    """A phase's length from the form: its default when left empty."""
    if not raw or not raw.strip():
        return default
    minutes = whole_number(raw, high=10**6)
    if minutes is None:
        raise Refused(_("A phase's length is a whole number of minutes."))
    return minutes


def _table_context(
    request: SiteRequest, game_id: int, found: Table | None = None, **extra: Any
) -> dict[str, Any]:
    found = found or online_table(game_id)
    if found is None:
        raise Http404
    if not found.seen_by(request.user):
        raise PermissionDenied(_("Only the game's players and host see its table."))
    now = timezone.now()
    return {
        "game": found.game,
        "view": table_view(found, request.user),
        "chat_open": found.table.starts_at - online_play.MAFIA_CHAT <= now < found.table.starts_at,
        **extra,
    }


@login_required
@require_GET
def online_game(request: MemberRequest, game_id: int) -> HttpResponse:
    context = _table_context(request, game_id)
    template = "games/online.html#table" if request.htmx else "games/online.html"
    return render(request, template, context)


def _event(post: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"type": post.get("type", "")}
    target = post.get("target")
    if target is not None:
        event["target"] = target if target in WORDS else whole_number(target, low=1)
    for key in ("seat", "minutes"):
        number = whole_number(post.get(key, ""), low=1)
        if number is not None:
            event[key] = number
    for key in ("text", "reason"):
        if post.get(key):
            event[key] = post[key]
    return event


@login_required
@require_POST
def online_act(request: MemberRequest, game_id: int) -> HttpResponse:
    refusal, found = None, None
    try:
        found = online_play.online_act(
            game_id=game_id, user=request.user, event=_event(request.POST)
        )
    except Refused as refused:
        refusal = refused

    def table(error: str | None, _done: str | None) -> HttpResponse:
        context = _table_context(request, game_id, found, error=error)
        return render(request, "games/online.html#table", context)

    back = reverse("online_game", args=[game_id])
    return action_answer(request, refusal=refusal, done=None, back=back, part=table)


@login_required
@require_POST
def online_chat(request: MemberRequest, game_id: int) -> HttpResponse:
    refusal = None
    try:
        online_play.online_mafia_say(
            game_id=game_id, user=request.user, text=request.POST.get("text", "")
        )
    except Refused as refused:
        refusal = refused
    back = reverse("online_game", args=[game_id])
    return action_answer(request, refusal=refusal, done=None, back=back)
