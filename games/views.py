"""The host's screens (start a game, record it) and the public game page."""

from __future__ import annotations

import random
import uuid
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from club.errors import Refused
from club.models import Evening
from club.parsing import whole_number
from club.requests import MemberRequest, SiteRequest
from club.responses import action_answer
from games import access, forms, services
from games.models import Role, Ruleset
from games.queries import GameView, game_view
from games.ratings import stats
from games.ratings.publication import published_analysis, visible_nicks
from games.recordings.views import recording_part
from games.timeline import describe


def _require_host(request: SiteRequest) -> None:
    if not access.may_host(request.user):
        raise PermissionDenied(_("Only the club's hosts and admins start games."))


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request: MemberRequest, evening_id: int) -> HttpResponse:
    """Step 1: who plays, the line-up, random or by hand. Step 2 (`confirm`): the table,
    seat by seat, as dealt or as the host set it; starting it creates the game."""
    _require_host(request)
    evening = get_object_or_404(Evening, pk=evening_id)
    present = services.present_members(evening)
    roles = list(Role.objects.all())
    context: dict[str, Any] = {"evening": evening, "present": present, "roles": roles}
    if request.method == "GET":
        context["lineup"] = services.suggested_lineup(min(len(present), 15) or 12)
        context["chosen"] = {m.pk for m in present[:15]}
        return render(request, "games/new.html", context)
    chosen = [m for m in present if str(m.pk) in request.POST.getlist("players")]
    lineup = {r.code: _count(request.POST.get(f"role_{r.code}")) for r in roles}
    lineup = {code: count for code, count in lineup.items() if count}
    context.update(lineup=lineup, chosen={m.pk for m in chosen})
    if "start" in request.POST:
        return _start(request, evening, context)
    try:
        rng = random.Random()
        members = list(chosen)
        if request.POST.get("seating") != "manual":
            rng.shuffle(members)
        numbers = list(range(1, len(members) + 1))
        dealt = services.deal(lineup, numbers, rng) if request.POST.get("deal") != "manual" else {}
    except Refused as refusal:
        context["error"] = refusal.message
        return render(request, "games/new.html", context, status=422)
    context["table"] = [
        {"number": n, "member": m, "role": dealt.get(n, "")}
        for n, m in zip(numbers, members, strict=True)
    ]
    return render(request, "games/confirm.html", context)


def _count(raw: str | None) -> int:
    return whole_number(raw, high=30) or 0


def _start(request: MemberRequest, evening: Evening, context: dict[str, Any]) -> HttpResponse:
    seats: dict[int, tuple[int, str]] = {}
    post = request.POST
    for number in range(1, 31):
        member, role = post.get(f"member_{number}"), post.get(f"role_at_{number}")
        if member is None:
            continue
        if whole_number(member, low=1) is None or not role:
            context["error"] = _("Choose a member and a role for seat %(seat)d.") % {"seat": number}
            return render(request, "games/new.html", context, status=422)
        seats[number] = (int(member.strip()), role)
    try:
        game = services.game_create(host=request.user, evening_id=evening.pk, seats=seats)
    except Refused as refusal:
        context["error"] = refusal.message
        return render(request, "games/new.html", context, status=422)
    return redirect("game", game_id=game.pk)


def _board_context(request: SiteRequest, view: GameView, **extra: Any) -> dict[str, Any]:
    state, prompt = view.club_state, view.prompt
    nick = visible_nicks(view.seats, view.game, request.user)
    runs = access.runs(request.user, view.game, view.seats)
    recording = runs and not view.game.finished
    role_names = stats.role_names()
    modes: list[tuple[str, str]] = []
    if recording and prompt.phase == "day":
        if "nominate" in prompt.legal:
            modes.append(("nominate", _("Nominate")))
        modes += [("foul", _("Foul")), ("extension", _("Под фол"))]
    elif recording and prompt.phase == "night":
        for _order, slot in state.night_slots():
            modes.append((slot, _night_label(slot, role_names)))
        modes.append(("foul", _("Foul")))
    seats = [
        {
            "seat": seat,
            "nick": nick[seat.number],
            "role_name": role_names.get(seat.role, seat.role),
            "foul_marks": "●" * state.fouls.get(seat.number, 0),
            "alive": seat.number in state.alive,
            "immune": seat.number in state.immune_now,
            "nominated": seat.number in state.nominees,
            "speaking": seat.number == prompt.speaker,
        }
        for seat in view.seats
    ]
    return {
        "view": view,
        "game": view.game,
        "state": state,
        "prompt": prompt,
        "seats": seats,
        "recording": recording,
        "show_roles": view.game.finished or runs,
        "modes": modes,
        "mode": _chosen_mode(extra.pop("mode", None), modes),
        "wake_name": _wake_name(prompt.wake, role_names),
        "eliminated": [(out, REASONS.get(out.reason, out.reason)) for out in state.eliminated],
        "check_results": [
            (check, CHECK_RESULTS.get(check.result, check.result)) for check in state.checks
        ],
        "client_id": uuid.uuid4().hex,
        "timeline": [describe(event, nick, role_names) for event in view.events],
        "last_words": sorted(state.last_words_due),
        "winner_name": role_names.get(view.game.winner, view.game.winner),
        "role_names": role_names,
        **extra,
    }


REASONS = {
    "voted": gettext_lazy("voted out"),
    "car_crash": gettext_lazy("both voted out"),
    "fouls": gettext_lazy("three fouls"),
    "killed": gettext_lazy("killed"),
    "kamikaze": gettext_lazy("taken by the kamikaze"),
    "swindler": gettext_lazy("taken by the swindler"),
}
CHECK_RESULTS = {
    "red": gettext_lazy("red"),
    "black": gettext_lazy("black"),
    "commissar": gettext_lazy("the commissar"),
    "not_commissar": gettext_lazy("not the commissar"),
}


def _chosen_mode(asked: str | None, modes: list[tuple[str, str]]) -> str:
    """The mode the host chose, while it is still on offer; else the first one."""
    offered = [code for code, _label in modes]
    return asked if asked in offered else (offered[0] if offered else "")


def _wake_name(wake: str | None, role_names: dict[str, str]) -> str:
    if wake is None:
        return ""
    if whole_number(wake) is not None:
        return _("seat %(seat)s") % {"seat": wake}
    return role_names.get("doctor" if wake == "heal" else wake, wake)


def _night_label(slot: str, role_names: dict[str, str]) -> str:
    """A night slot ("check:boss", "kill:mafia", "heal", "action:7") as a mode button."""
    kind, _colon, who = slot.partition(":")
    labels = {"check": _("Check"), "kill": _("Kill"), "heal": _("Heal"), "action": _("Action")}
    label = labels.get(kind, kind)
    if kind == "action":
        return f"{label}: {_('seat')} {who}"
    return f"{label}: {role_names.get(who, who)}" if who else label


@require_GET
def game_detail(request: SiteRequest, game_id: int) -> HttpResponse:
    view = game_view(game_id)
    if view is None:
        raise Http404
    if view.game.ruleset == Ruleset.ONLINE:
        return _online_result(request, view)
    context = _board_context(request, view, mode=request.GET.get("mode"))
    if request.htmx:
        return render(request, "games/game.html#board", context)
    if view.game.finished:
        context["analysis"] = published_analysis(view, request.user, context["role_names"])
    if access.runs(request.user, view.game, view.seats):
        context["recording_part"] = recording_part(view.game)
    return render(request, "games/game.html", context)


@login_required
@require_POST
def game_event(request: MemberRequest, game_id: int) -> HttpResponse:
    """One tap. htmx gets the board back; a plain post is redirected to the game page."""
    view = game_view(game_id)
    if view is None:
        raise Http404
    if not access.runs(request.user, view.game, view.seats):
        raise PermissionDenied(_("Only the game's host records it."))
    refusal = None
    try:
        event = forms.event_from_post(request.POST, view)
        seq = whole_number(request.POST.get("seq", ""))
        if seq is None:
            raise forms.BadForm("seq")
        services.game_record_event(
            game_id=game_id,
            author=request.user,
            event=event,
            seq=seq,
            client_id=request.POST.get("client_id") or None,
        )
    except forms.BadForm:
        refusal = Refused(_("That did not look like a tap on this screen; try again."))
    except Refused as refused:
        refusal = refused
    mode = request.POST.get("mode")
    url = reverse("game", args=[game_id])

    def board(error: str | None, _done: str | None) -> HttpResponse:
        fresh = game_view(game_id)
        assert fresh is not None
        context = _board_context(request, fresh, mode=mode, error=error)
        # A refusal is still a board to show, with its message (recorder.js lets htmx swap it).
        return render(request, "games/game.html#board", context)

    return action_answer(
        request, refusal=refusal, done=None, back=f"{url}?mode={mode}" if mode else url, part=board
    )


def _online_result(request: SiteRequest, view: GameView) -> HttpResponse:
    """An online game's public page is its analysis once it ends; until then its table is
    its players' (/online/<id>/)."""
    if not view.game.finished:
        return redirect("online_game", game_id=view.game.pk)
    context = {"game": view.game, "analysis": published_analysis(view, request.user)}
    return render(request, "games/online_result.html", context)
