"""The stream overlays' doors: the pages OBS's browser source shows and their feed
(live/overlays.py), and making and revoking an overlay's link where the organiser works
(templates/live/_links.html; docs/live.md «Stream overlays»)."""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from club.doors.requests import SiteRequest
from club.kernel.errors import RefusalCode, Refused
from club.kernel.throttle import client_address
from games.ratings import stats
from games.ratings.publication import published_points, published_points_of
from games.timeline import REASONS
from games.views import poller_holds
from live import overlays
from live.links import LinkTarget, link_make, link_open, link_revoke, link_used
from live.models import LinkKind
from live.views import KEYED_HEADERS

# The overlays' sizes for OBS's browser source: width × height in CSS pixels.
SIZES = {"full": (1920, 1080), "strip": (1920, 260), "bar": (1920, 100)}
LANGUAGES = ("ru", "en")


def _opened(request: SiteRequest, key: str, what: str) -> LinkTarget:
    target = link_open(key, LinkKind.OVERLAY)
    try:  # the address as a GenericIPAddressField keeps it, or none
        address: str | None = str(ipaddress.ip_address(client_address(request)))
    except ValueError:
        address = None
    link_used(target, what=what, ip=address, user_agent=request.headers.get("User-Agent", ""))
    return target


def overlay_json(request: SiteRequest, key: str) -> HttpResponse:
    """The overlay's feed with its ETag: a poller that has it gets 304, read from the
    cache alone. A revoked or guessed key: the API's error body, 404, alike."""
    if request.method != "GET":
        return JsonResponse(
            Refused(_("Only GET reads this."), RefusalCode.INVALID).body(), status=405
        )
    try:
        feed = overlays.overlay_feed(
            _opened(request, key, "feed"), scores=published_points, points=published_points_of
        )
    except Refused as refusal:
        return _keyed(JsonResponse(refusal.body(), status=refusal.status))
    if poller_holds(request.headers.get("If-None-Match", ""), feed.etag):
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(feed.body, content_type="application/json")
    response["ETag"] = feed.etag
    response["Cache-Control"] = "no-cache"
    return _keyed(response)


def _keyed[R: HttpResponse](response: R) -> R:
    for header, value in KEYED_HEADERS.items():
        response[header] = value
    return response


def _words() -> dict[str, Any]:
    """The overlay's words in the language of the page (the snapshot holds codes only)."""
    return {
        "player": _("Player %(seat)s"),
        "guest": _("guest"),
        # An unnamed guest of a tournament's, numbered as its page numbers them.
        "guest_n": _("Guest %(n)d").replace("%(n)d", "%(seat)s"),
        "round_table": _("Round %(round)s: table %(table)s"),
        "setup": _("Before day 1"),
        "day": _("Day %(n)s"),
        "night": _("Night %(n)s"),
        "over": _("The game is over"),
        "game": _("Game %(number)s"),
        "table": _("Table %(n)s"),
        "speaker": _("Speaking: seat %(seat)s"),
        "last_word": _("Last word: seat %(seat)s"),
        "defence": _("Defence: seat %(seat)s"),
        "nominees": _("Nominated: %(seats)s"),
        "votes": _("The vote over: %(seats)s"),
        "first_day_expel": _("Expel anyone at all? (%(seats)s)"),
        "hands": _("Show of hands over: %(seats)s"),
        "runoff": _("Runoff, round %(round)s: %(seats)s"),
        "expel_both": _("Expel both? (%(seats)s)"),
        "expelled": _("Leaves: %(seats)s"),
        "no_one": _("Nobody leaves"),
        "winner_red": _("Winner: the red (town)"),
        "winner_black": _("Winner: the black (mafia)"),
        "not_shown": _("This game is not shown live."),
        "waiting": _("No game is under way here yet."),
        "standings": _("Standings"),
        "next": _("Next game"),
        "points": _("points"),
        "fouls": _("fouls"),
        "reasons": {code: str(text) for code, text in REASONS.items()},
        # The cards, shown once the game is over (the snapshot has none before).
        "roles": {code: str(name) for code, name in stats.role_names().items()},
    }


@require_GET
def overlay_page(request: SiteRequest, key: str, size: str) -> HttpResponse:
    """An overlay of one size for OBS's browser source: a transparent page drawn by
    static/live/overlay.js from the feed. ?lang=ru|en, else the club's language."""
    if size not in SIZES:
        return _not_found_page(request)
    # OBS keeps no cookie: the language is the address's, else the club's.
    language = request.GET.get("lang", "")
    language = language if language in LANGUAGES else settings.LANGUAGE_CODE
    with translation.override(language):
        request.LANGUAGE_CODE = language
        try:
            _opened(request, key, "page")
        except Refused as refusal:
            return _not_found_page(request, refusal)
        width, height = SIZES[size]
        context = {
            "size": size,
            "width": width,
            "height": height,
            "feed_url": reverse("overlay_json", args=[key]),
            "words": _words(),
        }
        return _keyed(render(request, "live/overlay.html", context))


def _not_found_page(request: SiteRequest, refusal: Refused | None = None) -> HttpResponse:
    refusal = refusal or Refused(
        _("This link does not work: it was revoked, or never made."), RefusalCode.NOT_FOUND
    )
    return _keyed(
        render(
            request, "live/overlay_gone.html", {"message": refusal.message}, status=refusal.status
        )
    )


# --- making and revoking (templates/live/_links.html on the game's, the evening's and the
# tournament's pages) ----------------------------------------------------------------------


def _back(request: SiteRequest) -> str:
    """The page the form was on (a path of this site), else the home page."""
    back = request.POST.get("back", "")
    allowed = url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()})
    return back if back.startswith("/") and allowed else reverse("home")


def _number(request: SiteRequest, name: str) -> int | None:
    value = request.POST.get(name, "")
    if not value:
        return None
    if not value.isdigit() or len(value) > 9:
        raise Refused(_("This form was sent garbled: open the page again."), RefusalCode.INVALID)
    return int(value)


def overlay_urls(request: SiteRequest, key: str) -> list[dict[str, Any]]:
    """The link's overlays, each size's address to paste into OBS."""
    return [
        {
            "size": size,
            "width": width,
            "height": height,
            "url": request.build_absolute_uri(reverse("overlay_page", args=[key, size])),
        }
        for size, (width, height) in SIZES.items()
    ]


@require_POST
def overlay_link_make(request: SiteRequest) -> HttpResponse:
    """Make an overlay's link (a game's, an evening table's or a tournament's) and show its
    key once, as the addresses of its overlays; a refusal is said back on the form's page."""
    try:
        author = _author(request)
        link, key = link_make(
            author=author,
            kind=LinkKind.OVERLAY,
            game_id=_number(request, "game"),
            evening_id=_number(request, "evening"),
            table=_number(request, "table"),
            tournament_id=_number(request, "tournament"),
            label=request.POST.get("label", ""),
        )
    except Refused as refusal:
        messages.error(request, refusal.message)
        return redirect(_back(request))
    context = {"link": link, "urls": overlay_urls(request, key), "back": _back(request)}
    response = render(request, "live/made.html", context)
    # The key is on this page only: no cache or history keeps it.
    response["Cache-Control"] = "no-store"
    return response


@require_POST
def overlay_link_revoke(request: SiteRequest, link_id: int) -> HttpResponse:
    """Revoke an overlay's link: its overlays go blank within 30 s at most."""
    try:
        link_revoke(author=_author(request), link_id=link_id)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("The link is revoked: its overlays go blank."))
    return redirect(_back(request))


def _author(request: SiteRequest) -> User:
    if not isinstance(request.user, User):
        raise Refused(_("Sign in first."), RefusalCode.UNAUTHENTICATED)
    return request.user
