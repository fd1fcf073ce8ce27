import logging
import re
from collections.abc import Callable

from django.conf import settings
from django.db import DatabaseError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    JsonResponse,
    StreamingHttpResponse,
)
from django.middleware.locale import LocaleMiddleware
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.languages import supported_language
from club.doors import csp
from club.kernel import bodies, tenancy
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import storable_text

logger = logging.getLogger(__name__)


class ClubMiddleware:
    """Which club a request is for (club/kernel/tenancy.py): `/c/<slug>/…` is that club's,
    any other address the first club's, so a single-club site keeps its addresses. The
    prefix is taken off the path the views see and put into the script prefix, so every
    address the club's pages reverse stays inside the club."""

    PREFIX = re.compile(r"^/c/(?P<slug>[-\w]+)(?P<rest>/.*)?$")
    # Doors that are no club's: the health check must answer with the database down, and
    # the API's schema is the same for every club.
    WITHOUT_CLUB = ("/healthz", "/api/v1/openapi.json")

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.path_info in self.WITHOUT_CLUB:
            return self.get_response(request)
        match = self.PREFIX.match(request.path_info)
        club = Club.by_slug(match["slug"]) if match is not None else None
        if match is None or club is None:
            with tenancy.club_scope(tenancy.first_club_id()):
                request.club = Club.current()  # type: ignore[attr-defined]
                if match is not None:  # an address no club has
                    return render(request, "404.html", status=404)
                return self.get_response(request)
        if match["rest"] is None:
            return redirect(f"{request.path}/")
        request.path_info = match["rest"]
        with tenancy.club_scope(club):
            request.club = club  # type: ignore[attr-defined]
            return self.get_response(request)


class HeadMiddleware:
    """HEAD is answered wherever GET is (uptime monitors ask with it): the view runs as for
    a GET, since Django's require_GET and the API's GET operations answer a HEAD with 405,
    and the body is dropped; the headers, Content-Length included, stay the GET's."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method != "HEAD":
            return self.get_response(request)
        request.method = "GET"
        try:
            response: HttpResponseBase = self.get_response(request)
        finally:
            request.method = "HEAD"
        if isinstance(response, StreamingHttpResponse):
            response.streaming_content = []  # a file stays open until the response closes
        elif isinstance(response, HttpResponse):
            response.headers["Content-Length"] = str(len(response.content))
            response.content = b""
        return response


class SiteErrorPagesMiddleware:
    """Off production DEBUG stays on (the developers' conveniences of `make run`), but a
    page that is not found reads as the site's own «Не найдено», not Django's technical
    page listing the site's URLs: whoever tries the demo sees what a member would. (Without
    DEBUG, Django renders templates/404.html itself and this does nothing.)"""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # No view matched the address: Django's technical 404 under DEBUG.
        if (
            settings.DEBUG
            and response.status_code == 404
            and getattr(request, "resolver_match", None) is None
        ):
            return self.not_found(request)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if settings.DEBUG and isinstance(exception, Http404):
            return self.not_found(request)
        return None

    @staticmethod
    def not_found(request: HttpRequest) -> HttpResponse:
        return render(request, "404.html", status=404)


# The language of the Telegram app that opened the club's Mini App in this session (its
# signed launch data's `language_code`, set by accounts/miniapp.py).
APP_LANGUAGE = "miniapp_language"


class ClubLocaleMiddleware(LocaleMiddleware):
    """Russian unless the member chose otherwise with the language switch (a cookie), or,
    until they choose, the language of the Telegram app the club's Mini App runs in.

    Django's own middleware would follow the browser's Accept-Language, which would show
    English to many Russian-speaking members whose phones are set to English; Telegram's
    language is one its user chose for the messenger itself.
    """

    def process_request(self, request: HttpRequest) -> None:
        session = getattr(request, "session", None)
        language = (
            supported_language(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
            or (supported_language(session.get(APP_LANGUAGE)) if session is not None else None)
            or settings.LANGUAGE_CODE
        )
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()


class ClubTimezoneMiddleware:
    """Every moment a page shows or reads from a form is in the club's time zone (the
    settings row's), whatever the server's TIME_ZONE says."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    # The API writes moments with their offset, and the health check must answer without
    # the database: neither needs the club's zone.
    WITHOUT_ZONE = ("/api/", "/healthz", "/static/")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.startswith(self.WITHOUT_ZONE):
            return self.get_response(request)
        try:
            zone = Club.current().zone
        except DatabaseError:  # the page fails on its own terms, not on the zone
            return self.get_response(request)
        with timezone.override(zone):
            return self.get_response(request)


class MiniAppMiddleware:
    """A browser the club's app opened in Telegram (the session's "miniapp" flag, set by
    accounts/miniapp.py) gets every page in the app's frame (templates/base.html reads
    `request.miniapp`), with Telegram's Mini App script allowed by the page's policy."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.miniapp = bool(request.session.get("miniapp"))  # type: ignore[attr-defined]
        response = self.get_response(request)
        if request.miniapp:  # type: ignore[attr-defined]
            own = getattr(response, "_csp_config", None)
            response._csp_config = csp.mini_app_policy(own)  # type: ignore[attr-defined]
        return response


class BodyLimitMiddleware:
    """Each door's body bound (club/kernel/bodies.py), checked before CSRF's check or a view reads
    the body, and refused in the door's own form."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        door = bodies.door_of(request.path_info)
        if door is not None:
            try:
                bodies.refuse_unreadable(request, door)
            except Refused as refusal:
                return self.refused(request, door, refusal)
        return self.get_response(request)

    @staticmethod
    def refused(request: HttpRequest, door: bodies.Door, refusal: Refused) -> HttpResponse:
        if door.answer in (bodies.Answer.API, bodies.Answer.TAP, bodies.Answer.APP):
            # The tap's and the Mini App's scripts show the message they find in `error`.
            return JsonResponse(
                refusal.body(tap=door.answer != bodies.Answer.API), status=refusal.status
            )
        if door.answer == bodies.Answer.WEBHOOK:
            # Acknowledged, or Telegram would send the same update again and again.
            logger.warning("Telegram webhook: an update refused (%s)", refusal.code)
            return HttpResponse(status=200)
        return render(request, "400.html", {"message": refusal.message}, status=refusal.status)


class StorableInputMiddleware:
    """The rule for texts (club/kernel/parsing.py) on every request's path and query: a NUL or a
    lone surrogate there is refused with a message, before any view or the admin's filters
    hand it to the database (which would fail with an error page)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        texts = [request.path, *request.GET.keys()]
        texts += (value for values in request.GET.lists() for value in values[1])
        if all(storable_text(text) for text in texts):
            return self.get_response(request)
        message = _("The address holds a NUL character or a broken one, which is not allowed.")
        refusal = Refused(message, RefusalCode.UNREADABLE)
        if request.path_info.startswith("/api/"):
            return JsonResponse(refusal.body(), status=refusal.status)
        return render(request, "400.html", {"message": message}, status=refusal.status)
