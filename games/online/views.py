"""The online game's pages: the hosts' list and form, and the table each player plays at
(htmx refreshes it; every form also works as a plain post)."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import roles
from club.doors.requests import MemberRequest, SiteRequest
from club.doors.responses import action_answer, answers_refusals
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import parse_moment, whole_number
from games import access
from games.access import may_host
from games.models import Game, Ruleset, Seat, Spectators
from games.online import services as online_play
from games.online import texts
from games.online.models import MafiaMessage
from games.online.table import Table, TableView, online_table_seen, table_view
from games.rules.online import OnlineOptions

WORDS = {"pass", "hang_all", "pardon_all"}
# The page's choices that name whom: their lists start empty, so a press without a choice
# is refused here instead of voting for whoever was listed first (and spending the day's
# one change of vote).
CHOSEN = {"vote", "revote"}


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
@answers_refusals()
def online_new(request: MemberRequest) -> HttpResponse:
    access.refuse_unless_may_host(request.user)
    # The host runs the game and may not play in it: not offered.
    members = roles.club_members().exclude(pk=request.user.pk).order_by("nickname")
    context: dict[str, Any] = {
        "members": members,
        "chosen": set(),
        "readings": _readings(request.POST if request.method == "POST" else None),
        "fast_night_choices": online_play.FAST_NIGHT_MINUTES,
    }
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
                fast_night_minutes=_minutes(request.POST.get("fast_night_minutes"), 5),
                options={row["name"]: row["value"] for row in context["readings"]},
            )
        except Refused as refusal:  # the form shows the message in place
            context["error"] = refusal.message
            return render(request, "games/online_new.html", context, status=refusal.status)
        messages.success(request, _("The game is created and the roles are dealt."))
        return redirect("online_game", game_id=game.pk)
    return render(request, "games/online_new.html", context)


def _readings(post: Any) -> list[dict[str, Any]]:
    """The ruleset's options as the form's rows, each at its default or as posted (a
    checkbox sends "1" after a hidden "0"; a number or a word the form offers)."""
    labels, choices = texts.reading_labels(), texts.reading_choices()
    defaults = OnlineOptions()
    rows = []
    for name, label in labels.items():
        default = getattr(defaults, name)
        value = default
        if post is not None and name in post:
            raw = post.getlist(name)[-1]
            if isinstance(default, bool):
                value = raw == "1"
            elif isinstance(default, int):
                number = whole_number(raw, high=20)
                value = default if number is None else number
            else:
                value = raw
        kind = "bool" if isinstance(default, bool) else type(default).__name__
        rows.append(
            {"name": name, "label": label, "kind": kind, "value": value, "default": default,
             "choices": choices.get(name, [])}
        )  # fmt: skip
    return rows


def _moment(raw: str | None) -> datetime:
    moment = parse_moment(raw, zone=Club.current().zone)
    if moment is None:
        raise Refused(_("Give the start as a date and a time."), RefusalCode.INVALID)
    return moment


def _minutes(raw: str | None, default: int) -> int:
    """A phase's length from the form: its default when left empty."""
    if not raw or not raw.strip():
        return default
    minutes = whole_number(raw, high=10**6)
    if minutes is None:
        raise Refused(_("A phase's length is a whole number of minutes."), RefusalCode.INVALID)
    return minutes


def _table_page(game_id: int) -> str:
    return reverse("online_game", args=[game_id])


def _found(request: SiteRequest, game_id: int) -> Table:
    return online_table_seen(game_id, request.user)


def _signature(view: TableView) -> str:
    """What the viewer's action forms depend on: they are drawn again only when it
    changes, so a vote being chosen is left alone while others play."""
    parts = (
        view.phase, view.n, view.open, view.status, view.my_actions, view.my_vote,
        view.my_votes_cast, [s.seat for s in view.alive], view.catastrophe, view.host,
        view.my_seat_alive,
    )  # fmt: skip
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def _table_context(request: SiteRequest, found: Table, **extra: Any) -> dict[str, Any]:
    view = table_view(found, request.user)
    now = timezone.now()
    return {
        "game": found.game,
        "view": view,
        "seq": found.game.last_seq,
        "seen": len(view.story),
        "signature": _signature(view),
        "chat_open": found.table.starts_at - online_play.MAFIA_CHAT <= now < found.table.starts_at,
        "chat_count": len(view.mafia_chat or []),
        "spectators_choices": Spectators.choices,
        **extra,
    }


@login_required
@require_GET
@answers_refusals()
def online_game(request: MemberRequest, game_id: int) -> HttpResponse:
    context = _table_context(request, _found(request, game_id))
    return render(request, "games/online.html", context)


@login_required
@require_GET
@answers_refusals()
def online_live(request: MemberRequest, game_id: int) -> HttpResponse:
    """What changed since the page's last look (its `seq`, the story lines it has, its
    forms' signature): nothing (204), or the parts that changed, each swapped in its place;
    the post box is never among them."""
    seq = whole_number(request.GET.get("seq", ""))
    seen = whole_number(request.GET.get("seen", ""))
    chat = whole_number(request.GET.get("chat", "")) or 0
    # The cheap look first (no fold of the log): who may ask, and whether anything moved.
    game = Game.objects.filter(pk=game_id, ruleset=Ruleset.ONLINE).select_related("host").first()
    if game is None:
        raise Refused(_("There is no such game."), RefusalCode.NOT_FOUND)
    seats = list(Seat.objects.filter(game=game))
    access.refuse_unless_sees_table(request.user, game, seats)
    mine, host = access.seat_of(request.user, seats), access.runs(request.user, game, seats)
    chat_now = (
        MafiaMessage.objects.filter(game=game).count()
        if access.sees_mafia_chat(mine, host=host)
        else 0  # the same count the page was drawn with: none, for those who do not read it
    )
    if seq == game.last_seq and seen is not None and chat == chat_now:
        return HttpResponse(status=204)
    found = _found(request, game_id)
    context = _table_context(request, found)
    context["new_lines"] = context["view"].story[seen or 0 :] if seen is not None else []
    context["forms_changed"] = request.GET.get("sig") != context["signature"]
    return render(request, "games/online_live.html", context)


def _event(post: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"type": post.get("type", "")}
    target = post.get("target")
    if event["type"] in CHOSEN and not target:
        raise Refused(_("Choose whom you vote for first."), RefusalCode.INVALID)
    if target is not None:
        event["target"] = target if target in WORDS else whole_number(target, low=1)
    for key in ("seat", "minutes"):
        number = whole_number(post.get(key, ""), low=1)
        if number is not None:
            event[key] = number
    for key in ("text", "reason", "override"):
        if post.get(key):
            event[key] = post[key]
    if post.get("inactivity"):
        event["inactivity"] = True
    return event


@login_required
@require_POST
@answers_refusals(back=_table_page)
def online_act(request: MemberRequest, game_id: int) -> HttpResponse:
    """An action from the page: htmx gets the changed parts back (the answer beside the
    forms), a plain post the answer and the page again."""
    refusal, acted = None, None
    try:
        event = _event(request.POST)
        acted = online_play.online_act(game_id=game_id, user=request.user, event=event)
    except Refused as refused:
        refusal = refused

    def parts(error: str | None, done: str | None) -> HttpResponse:
        found = acted.table if acted else _found(request, game_id)
        context = _table_context(request, found, error=error, answer=done)
        seen = whole_number(request.POST.get("seen", ""))
        context["new_lines"] = context["view"].story[seen or 0 :] if seen is not None else []
        context["forms_changed"] = True
        context["posted"] = acted is not None and acted.event["type"] == "post"
        # After the player's own vote its list starts empty again (not kept as chosen):
        # pressing «Сменить голос» on the same name would spend the one change for nothing.
        context["voted"] = acted is not None and acted.event["type"] == "vote"
        return render(request, "games/online_live.html", context)

    back = reverse("online_game", args=[game_id])
    answer = acted.answer if acted else None
    return action_answer(request, refusal=refusal, done=answer, back=back, part=parts)


@login_required
@require_POST
@answers_refusals(back=_table_page)
def online_chat(request: MemberRequest, game_id: int) -> HttpResponse:
    online_play.online_mafia_say(
        game_id=game_id, user=request.user, text=request.POST.get("text", "")
    )
    return action_answer(request, refusal=None, done=None, back=_table_page(game_id))
