"""The club's HTTP API, /api/v1: django-ninja, session (with CSRF) or bearer-token auth.

Every error is JSON `{"detail": "...", "code": "...", ...details}` with its status, from one
handler (`on_error`); an unexpected failure is logged and answered as JSON too, never as an
HTML page.
"""

import logging
import re
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser

from accounts.api import router as accounts_router
from club.api_evenings import router as evenings_router
from club.doors.api_auth import MEMBERS
from club.kernel import parsing
from club.kernel.errors import INTERNAL, RefusalCode, Refused, error_body
from games.api import router as games_router
from games.online.api import router as online_router
from games.ratings.api import router as published_router
from games.recordings.api import router as recordings_router
from history.api import router as history_router
from live.api import router as live_router
from tournaments.api import router as tournaments_router

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


# Pydantic's messages are English: the common kinds of error, in the reader's language,
# with pydantic's context (its `ctx`: the bound, the length, the choices). A kind not named
# here keeps pydantic's words; a validator's own ValueError keeps its (translated) text.
VALIDATION_MESSAGES: dict[str, StrOrPromise] = {
    "missing": gettext_lazy("required"),
    "extra_forbidden": gettext_lazy("not a field this takes"),
    "json_invalid": gettext_lazy("not valid JSON"),
    "string_type": gettext_lazy("must be text"),
    "int_type": gettext_lazy("must be a whole number"),
    "int_parsing": gettext_lazy("must be a whole number"),
    "int_from_float": gettext_lazy("must be a whole number"),
    "int_parsing_size": gettext_lazy("must be a whole number"),
    "float_type": gettext_lazy("must be a number"),
    "float_parsing": gettext_lazy("must be a number"),
    "bool_type": gettext_lazy("must be true or false"),
    "bool_parsing": gettext_lazy("must be true or false"),
    "list_type": gettext_lazy("must be a list"),
    "dict_type": gettext_lazy("must be an object"),
    "model_type": gettext_lazy("must be an object"),
    "model_attributes_type": gettext_lazy("must be an object"),
    "datetime_type": gettext_lazy("must be a date and time (ISO 8601)"),
    "datetime_parsing": gettext_lazy("must be a date and time (ISO 8601)"),
    "datetime_from_date_parsing": gettext_lazy("must be a date and time (ISO 8601)"),
    "date_type": gettext_lazy("must be a date (YYYY-MM-DD)"),
    "date_parsing": gettext_lazy("must be a date (YYYY-MM-DD)"),
    "date_from_datetime_parsing": gettext_lazy("must be a date (YYYY-MM-DD)"),
    "date_from_datetime_inexact": gettext_lazy("must be a date (YYYY-MM-DD)"),
    "time_parsing": gettext_lazy("must be a time (HH:MM)"),
    "uuid_parsing": gettext_lazy("must be a UUID"),
    "greater_than": gettext_lazy("must be greater than %(gt)s"),
    "greater_than_equal": gettext_lazy("must be at least %(ge)s"),
    "less_than": gettext_lazy("must be less than %(lt)s"),
    "less_than_equal": gettext_lazy("must be at most %(le)s"),
    "string_too_short": gettext_lazy("its length must be at least %(min_length)s"),
    "string_too_long": gettext_lazy("its length must be at most %(max_length)s"),
    "too_short": gettext_lazy("the number of items must be at least %(min_length)s"),
    "too_long": gettext_lazy("the number of items must be at most %(max_length)s"),
    "literal_error": gettext_lazy("must be one of: %(expected)s"),
    "enum": gettext_lazy("must be one of: %(expected)s"),
    "string_pattern_mismatch": gettext_lazy("is not in the expected form"),
    "finite_number": gettext_lazy("must be a finite number"),
}


def _message(error: dict[str, Any]) -> str:
    context: dict[str, Any] = dict(error.get("ctx", {}))
    kind = str(error.get("type", ""))
    if kind == "value_error" and context.get("error") is not None:
        # A validator's own reason (club/kernel/parsing.py: already the reader's language),
        # without pydantic's English "Value error, " before it.
        return str(context["error"])
    template = VALIDATION_MESSAGES.get(kind)
    if template is None:
        return str(error.get("msg", ""))
    if "expected" in context:  # pydantic's "'a', 'b' or 'c'": its "or" is English
        context["expected"] = str(context["expected"]).replace(" or ", ", ")
    for bound in ("gt", "ge", "lt", "le"):  # 0.1 is «0,1» in Russian
        if isinstance(context.get(bound), int | float) and not isinstance(context[bound], bool):
            context[bound] = number_format(context[bound])
    try:
        return str(template) % context
    except (KeyError, TypeError, ValueError):  # a context pydantic did not give: its words
        return str(error.get("msg", ""))


# Where django-ninja says a value came from, before its name: ("body", "payload", "capacity"),
# ("query", "sort"). The reader knows where they put it; the name is what they need.
SOURCES = ("body", "query", "path", "form", "header", "cookie")
# Where a value may be one of several types, pydantic names the branch it tried after the
# field («options.a.bool»): the reader wrote «options.a».
UNION_BRANCH = re.compile(
    r"^(bool|int|float|str|none|(list|dict|literal|nullable|function-\w+)\[.*\])$"
)


def describe_error(error: dict[str, Any]) -> str:
    """One of pydantic's errors as the reader reads it: «capacity: обязательное поле»."""
    loc = [str(part) for part in error.get("loc", ())]
    if loc[:1] and loc[0] in SOURCES:
        loc = loc[1:]
    if loc[:1] == ["payload"]:
        loc = loc[1:]
    if len(loc) > 1 and UNION_BRANCH.match(loc[-1]):
        loc = loc[:-1]
    where = ".".join(loc)
    if not where and error.get("type") == "missing":
        return _("The request needs a JSON body.")
    return f"{where}: {_message(error)}" if where else _message(error)


# The reason of an HttpError (django-ninja's own, or a door's), by its status.
CODE_OF_STATUS: dict[int, RefusalCode] = {
    400: RefusalCode.UNREADABLE,
    401: RefusalCode.UNAUTHENTICATED,
    403: RefusalCode.FORBIDDEN,
    404: RefusalCode.NOT_FOUND,
    409: RefusalCode.CONFLICT,
    413: RefusalCode.TOO_LARGE,
    422: RefusalCode.INVALID,
    428: RefusalCode.CONFIRM,
    429: RefusalCode.THROTTLED,
}


def _unreadable_body(exc: HttpError) -> Refused:
    """django-ninja's one English message of its own, for a body it could not parse: the
    reader's reason when it is ours (club/kernel/parsing.py), else "not JSON"."""
    reason = exc.__cause__
    if isinstance(reason, parsing.UnstorableText):
        return Refused(reason.message, RefusalCode.INVALID)
    if isinstance(reason, parsing.Unreadable):
        return Refused(reason.message, RefusalCode.UNREADABLE)
    return Refused(_("The request body is not valid JSON."), RefusalCode.UNREADABLE)


def _refusal_of(exc: Exception) -> Refused | None:
    """Every failure an endpoint can end in, as the refusal it answers; None for a bug."""
    if isinstance(exc, Refused):
        return exc
    if isinstance(exc, ValidationError):
        # A union's branches can say the same thing of one value: said once.
        details = "; ".join(dict.fromkeys(describe_error(error) for error in exc.errors))
        return Refused(_("Invalid input: %(details)s") % {"details": details}, RefusalCode.INVALID)
    if isinstance(exc, AuthenticationError):
        return Refused(
            _("Log in, or send a valid token in the header Authorization: Bearer <token>."),
            RefusalCode.UNAUTHENTICATED,
        )
    if isinstance(exc, HttpError):
        if exc.status_code == 400 and str(exc).startswith("Cannot parse request body"):
            return _unreadable_body(exc)
        if exc.status_code == 403 and str(exc) == "CSRF check Failed":
            return Refused(
                _("The page's security token is missing or old: reload the page and try again."),
                RefusalCode.FORBIDDEN,
            )
        code = CODE_OF_STATUS.get(exc.status_code)
        return Refused(str(exc), code) if code is not None else None
    if isinstance(exc, Http404):
        return Refused(_("Not found."), RefusalCode.NOT_FOUND)
    if isinstance(exc, PermissionDenied):
        return Refused(str(exc) or _("This is not yours to do."), RefusalCode.FORBIDDEN)
    return None


# django-ninja looks a handler up by the exception's class (its own defaults for
# ValidationError, HttpError and Http404 included): the one function for each.
@api.exception_handler(Exception)
@api.exception_handler(Refused)
@api.exception_handler(ValidationError)
@api.exception_handler(HttpError)
@api.exception_handler(Http404)
@api.exception_handler(PermissionDenied)
def on_error(request: HttpRequest, exc: Exception) -> HttpResponse:
    """The API's one error handler: every error is JSON `{"detail", "code", ...details}`
    (club.kernel.errors.error_body) with the refusal's status; an unexpected failure is
    logged and answered the same way, with the code "internal" and 500."""
    refusal = _refusal_of(exc)
    if refusal is None:
        logger.error("Unhandled error in %s %s", request.method, request.path, exc_info=exc)
        return api.create_response(request, error_body(_("Internal error."), INTERNAL), status=500)
    return api.create_response(request, refusal.body(), status=refusal.status)


api.add_router("/", accounts_router)
api.add_router("/", evenings_router)
api.add_router("/", games_router)
api.add_router("/", published_router)
api.add_router("/", recordings_router)
api.add_router("/", online_router)
api.add_router("/", tournaments_router)
api.add_router("/", live_router)
api.add_router("/", history_router)
