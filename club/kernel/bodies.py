"""How large a body each door reads, refused before a byte of it is read or parsed.

Django's own bound (DATA_UPLOAD_MAX_MEMORY_SIZE, 2.5 MB) keeps a body in memory; these are
the doors' own, far smaller, so a member cannot make a worker read and parse megabytes
where a tap needs a few hundred bytes. One middleware (club.doors.middleware.BodyLimitMiddleware)
checks every request against this table before any view, CSRF's check included, reads the
body; each door answers a refusal in its own form. The figures are in docs/deploy.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from django.http import HttpRequest
from django.utils.translation import gettext as _

from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import whole_number

KB = 1024
MB = 1024 * KB


class Answer(StrEnum):
    """How a door says no: the API's JSON, the host screen's tap JSON, the webhook's
    acknowledgement (or Telegram sends the update again), a page."""

    API = "api"
    TAP = "tap"
    WEBHOOK = "webhook"
    PAGE = "page"
    APP = "app"  # the Mini App's launch check: JSON whose `error` its script shows


@dataclass(frozen=True)
class Door:
    path: re.Pattern[str]
    limit: int
    answer: Answer
    json: bool  # a JSON door: its body is read as it came, before anything parses a form
    # The size the refusal names, where the limit keeps room for what comes with the body:
    # the one the service behind the door says too, not a second figure beside it.
    told: int = 0


# The first door whose path matches is the request's; a path in none has Django's bound.
DOORS: tuple[Door, ...] = (
    # A tap of the host's screen: one event, its sequence number and client id (< 1 KB).
    Door(re.compile(r"^/games/[0-9]+/tap/$"), 16 * KB, Answer.TAP, json=True),
    # A Telegram update: a message of 4,096 characters with its entities and the message it
    # replies to stays well under this.
    Door(re.compile(r"^/telegram/webhook/$"), 64 * KB, Answer.WEBHOOK, json=True),
    # A recording's chunks are raw bytes, bounded by the chunk size (2 MB) its door checks.
    Door(
        re.compile(r"^/api/v1/recordings/[0-9]+/chunk$"),
        2560 * KB,
        Answer.API,
        json=False,
        told=2 * MB,  # games.recordings.services.CHUNK_BYTES
    ),
    # Every other JSON body of /api/v1: the largest, a game of 30 seats, is under 5 KB.
    Door(re.compile(r"^/api/"), 64 * KB, Answer.API, json=True),
    # The organiser's line-up forms: the largest, a message of 1,000 characters, is under
    # 10 KB percent-encoded, a guest's form under 1 KB.
    Door(re.compile(r"^/evenings/[0-9]+/lineup/"), 16 * KB, Answer.PAGE, json=False),
    # The doors anyone may post to without an account: logging in, signing up, a password's
    # reset and its new password, the Telegram Login Widget's return (accounts/urls.py);
    # the largest, the sign-up with two long passwords, is under 2 KB percent-encoded.
    Door(
        re.compile(r"^/accounts/(login|signup|password/reset|telegram/login)/"),
        16 * KB,
        Answer.PAGE,
        json=False,
    ),
    # The Mini App's launch data (Telegram's signed init data: under 4 KB with the longest
    # names and photo address), then its join and link forms (under 1 KB).
    Door(re.compile(r"^/tg/auth/$"), 16 * KB, Answer.APP, json=False),
    Door(re.compile(r"^/tg/(join|link)/$"), 16 * KB, Answer.PAGE, json=False),
    # The language switch (Django's set_language: a language and the page to return to).
    Door(re.compile(r"^/i18n/"), 16 * KB, Answer.PAGE, json=False),
    # A protocol file for the admin's import (2 MB), with the form around it.
    Door(re.compile(r"^/admin/games/game/import/$"), 2_000_000 + 64 * KB, Answer.PAGE, False),
    # A club's history file (history/views.py: 50 MB), with the form around it; Django keeps
    # an upload over FILE_UPLOAD_MAX_MEMORY_SIZE (2.5 MB) in a temporary file, not memory.
    Door(
        re.compile(r"^/history/import/$"), 50 * MB + 64 * KB, Answer.PAGE, json=False, told=50 * MB
    ),
)
PROTOCOL_FILE_BYTES = 2_000_000


def door_of(path: str) -> Door | None:
    return next((door for door in DOORS if door.path.match(path)), None)


def too_large(door: Door) -> str:
    if door.told:
        return _("The request is too large: at most %(mb)d MB.") % {"mb": door.told // MB}
    return _("The request is too large: at most %(kb)d KB.") % {"kb": door.limit // KB}


def refuse_unreadable(request: HttpRequest, door: Door) -> None:
    """Refuse a body longer than the door's limit by its declared length, before it is
    read (a body sent without a length is not read at all: WSGI gives a view only the
    declared bytes). At a JSON door the body, now known to be small, is read as it came:
    a multipart one parsed as a form first (CSRF's check does) could not be read again,
    a 500; read first, it is refused as the JSON it is not."""
    declared = whole_number(request.META.get("CONTENT_LENGTH") or "0")
    if declared is None or declared > door.limit:
        raise Refused(too_large(door), RefusalCode.TOO_LARGE)
    if door.json:
        request.body  # noqa: B018 (kept by the request for whoever reads it next)
