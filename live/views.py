"""The producer's view's doors (docs/live.md «The producer's view»): its page and its poll,
opened by a secret link only, and making and revoking those links from the game's page.

The view is never reachable from a public page: its address is the key, shown once to
whoever made it; every answer says `private, no-store` (no proxy or browser keeps the
cards), `no-referrer` (the key never leaves in a Referer) and `noindex`. A revoked, a
guessed or an overlay's key is refused alike: 404 with the API's error body.
"""

from __future__ import annotations

import ipaddress
import json

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from club.doors.requests import MemberRequest, SiteRequest
from club.doors.responses import action_answer, answers_refusals, refusal_page
from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import whole_number
from club.kernel.throttle import client_address
from games.timeline import CHECK_RESULTS
from games.views import live_words, poller_holds
from live.links import (
    LinkTarget,
    link_make,
    link_open,
    link_revoke,
    link_used,
    producer_link_of,
)
from live.models import MAX_DELAY_SECONDS, LinkKind
from live.producer import producer_read

# What every answer to a keyed address says: the key never leaves in a Referer, and no
# search engine keeps the address (the overlays' answers too, live/overlay_views.py).
KEYED_HEADERS = {"Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex, nofollow"}
SECRET_HEADERS = {"Cache-Control": "private, no-store", **KEYED_HEADERS}


def _secret[R: HttpResponse](response: R) -> R:
    for header, value in SECRET_HEADERS.items():
        response[header] = value
    return response


def _address(request: SiteRequest) -> str | None:
    address = client_address(request)
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None


def _used(request: SiteRequest, target: LinkTarget, what: str) -> None:
    user_agent = str(request.headers.get("User-Agent", ""))
    link_used(target, what=what, ip=_address(request), user_agent=user_agent)


def _opened(key: str) -> LinkTarget:
    target = link_open(key, LinkKind.PRODUCER)
    assert target.game_id is not None  # a producer's link is a game's (live.models)
    return target


@require_GET
def producer_json(request: SiteRequest, key: str) -> HttpResponse:
    """The producer's snapshot as JSON, as old as the link's delay, with its ETag: a poller
    that holds it gets 304 from the cache alone while the link is kept there."""
    holds = request.headers.get("If-None-Match", "")
    try:
        target = _opened(key)
        assert target.game_id is not None
        entry = producer_read(
            target.game_id, target.delay_seconds, held=lambda etag: poller_holds(holds, etag)
        )
    except Refused as refusal:
        return _secret(JsonResponse(refusal.body(), status=refusal.status))
    _used(request, target, "poll")
    if entry["body"] is None:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(entry["body"], content_type="application/json")
    response["ETag"] = entry["etag"]
    return _secret(response)


@require_GET
def producer_page(request: SiteRequest, key: str) -> HttpResponse:
    """The producer's page: static/live/producer.js draws the cards, the night and the
    public table from the JSON above."""
    try:
        target = _opened(key)
        assert target.game_id is not None
        entry = producer_read(target.game_id, target.delay_seconds)
    except Refused as refusal:
        return _secret(refusal_page(request, refusal))
    _used(request, target, "page")
    assert entry["body"] is not None
    words = {
        **live_words(),
        "title": _("Producer's view"),
        "delay": _("Shown %(seconds)s s late"),
        "no_delay": _("Shown as it happens"),
        "pending": _("Nothing to show yet: this view shows the table %(seconds)s s late."),
        "night_now": _("Night %(n)s, as it happens"),
        "night_last": _("The night before: night %(n)s"),
        "nothing_yet": _("Nobody has acted yet."),
        "waiting": _("Still to wake: %(roles)s"),
        "checks": _("Checks"),
        "check_row": _("%(role)s (seat %(by)s) checks seat %(target)s: %(result)s"),
        "kill_row": _("%(role)s shoots seat %(target)s"),
        "heal_row": _("%(role)s (seat %(by)s) heals seat %(target)s"),
        "action_row": _("%(role)s (seat %(by)s) aims at seat %(target)s"),
        "idle_row": _("%(role)s wakes and does nothing"),
        "mafia": _("The mafia"),
        "results": {code: str(text) for code, text in CHECK_RESULTS.items()},
        "best_move": _("Best move of seat %(by)s: %(seats)s"),
        # Shown when the poll answers 404: the link was revoked while the page was open.
        "revoked": _("This link does not work: it was revoked, or never made."),
    }
    context = {
        "url": reverse("live_producer_json", args=[key]),
        "snapshot": json.loads(entry["body"]),
        "words": words,
        "delay": target.delay_seconds,
        "result_url": _back(target.game_id),
    }
    return _secret(render(request, "live/producer.html", context))


def _back(game_id: int, **_rest: object) -> str:
    return reverse("game", args=[game_id]) + "?public=1"


@login_required
@require_POST
@answers_refusals(back=_back)
def producer_link_make(request: MemberRequest, game_id: int) -> HttpResponse:
    """Make a producer's link to the game: its address is shown here once, never again."""
    raw = request.POST.get("delay", "0") or "0"
    delay = whole_number(raw, low=0, high=MAX_DELAY_SECONDS)
    if delay is None:
        raise Refused(
            _("The delay is from 0 to %(most)d seconds.") % {"most": MAX_DELAY_SECONDS},
            RefusalCode.INVALID,
        )
    link, key = link_make(
        author=request.user,
        kind=LinkKind.PRODUCER,
        game_id=game_id,
        delay_seconds=delay,
        label=request.POST.get("label", ""),
    )
    context = {
        "link": link,
        "address": request.build_absolute_uri(reverse("live_producer", args=[key])),
        "back": _back(game_id),
    }
    return _secret(render(request, "live/producer_made.html", context))


@login_required
@require_POST
@answers_refusals(back=_back)
def producer_link_revoke(request: MemberRequest, game_id: int, link_id: int) -> HttpResponse:
    """Revoke a producer's link of this game: it answers «not found» from now on. Another
    game's link or an overlay's is «not found» here, as in the API: nothing is revoked."""
    producer_link_of(game_id=game_id, link_id=link_id)
    link = link_revoke(author=request.user, link_id=link_id)
    return action_answer(
        request,
        refusal=None,
        done=_("The link %(start)s… is revoked.") % {"start": link.key_start},
        back=_back(link.game_id or game_id),
    )
