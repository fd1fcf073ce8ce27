"""The club's HTTP API, /api/v1: django-ninja, session (with CSRF) or bearer-token auth.

Every error is JSON `{"detail": "..."}` with a 4xx status; an unexpected failure is logged
and answered as JSON too, never as an HTML page.
"""

import logging
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser

from accounts.api import router as accounts_router
from club.api_evenings import router as evenings_router
from club.doors.api_auth import MEMBERS
from club.kernel import parsing
from club.kernel.errors import RefusalCode, Refused
from games.api import router as games_router
from games.online.api import router as online_router
from games.ratings.api import router as published_router
from games.recordings.api import router as recordings_router

logger = logging.getLogger(__name__)


class BoundedParser(Parser):
    """JSON bodies with a bound on nesting (club/kernel/parsing.py): deeper is a 400, not a
    crash."""

    def parse_body(self, request: HttpRequest) -> Any:
        return parsing.loads(request.body)


api = NinjaAPI(
    title="Mafia club API",
    version="1",
    urls_namespace="api",
    auth=MEMBERS,
    parser=BoundedParser(),
)


def _describe(error: dict[str, Any]) -> str:
    where = ".".join(str(part) for part in error.get("loc", ()) if part not in ("body", "payload"))
    return f"{where}: {error.get('msg', '')}" if where else str(error.get("msg", ""))


@api.exception_handler(ValidationError)
def on_validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    details = "; ".join(_describe(error) for error in exc.errors)
    return api.create_response(
        request, {"detail": _("Invalid input: %(details)s") % {"details": details}}, status=422
    )


@api.exception_handler(HttpError)
def on_http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    detail, status = str(exc), exc.status_code
    # django-ninja's one English message of its own, for a body it could not parse: the
    # reader's reason when it is ours (club/kernel/parsing.py), else "not JSON".
    if status == 400 and detail.startswith("Cannot parse request body"):
        reason = exc.__cause__
        if isinstance(reason, parsing.Unreadable):
            detail = reason.message
            status = (
                RefusalCode.INVALID.status if isinstance(reason, parsing.UnstorableText) else 400
            )
        else:
            detail = _("The request body is not valid JSON.")
    return api.create_response(request, {"detail": detail}, status=status)


@api.exception_handler(AuthenticationError)
def on_authentication_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return api.create_response(
        request,
        {"detail": _("Log in, or send a valid token in the header Authorization: Bearer <token>.")},
        status=401,
    )


@api.exception_handler(Refused)
def on_refused(request: HttpRequest, exc: Refused) -> HttpResponse:
    """A service said no: its message, its status, and what the caller may need to go on
    (the server's upload offset, the game's last sequence number)."""
    return api.create_response(request, {"detail": exc.message, **exc.details}, status=exc.status)


@api.exception_handler(Exception)
def on_unexpected_error(request: HttpRequest, exc: Exception) -> HttpResponse:
    logger.exception("Unhandled error in %s %s", request.method, request.path)
    return api.create_response(request, {"detail": _("Internal error.")}, status=500)


api.add_router("/", accounts_router)
api.add_router("/", evenings_router)
api.add_router("/", games_router)
api.add_router("/", published_router)
api.add_router("/", recordings_router)
api.add_router("/", online_router)
