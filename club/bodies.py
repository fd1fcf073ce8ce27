"""How large a body each door reads, refused before a byte of it is read or parsed.

Django's own bound (DATA_UPLOAD_MAX_MEMORY_SIZE, 2.5 MB) keeps a body in memory; these are
the doors' own, far smaller, so a member cannot make a worker read and parse megabytes
where a tap needs a few hundred bytes. The figures are in docs/deploy.md.
"""

from __future__ import annotations

import re

from django.http import HttpRequest
from django.utils.translation import gettext as _

from club.errors import Refused
from club.parsing import whole_number

KB = 1024
# A tap of the host's screen: one event, its sequence number and client id (< 1 KB).
TAP_BYTES = 16 * KB
# A Telegram update: a message of 4,096 characters with its entities and the message it
# replies to stays well under this.
WEBHOOK_BYTES = 64 * KB
# Every JSON body of /api/v1: the largest, a game of 30 seats, is under 5 KB.
API_JSON_BYTES = 64 * KB
# The API's doors that take raw bytes, not JSON: a recording's chunks, bounded by the
# chunk size its own door checks (and Django's 2.5 MB).
API_RAW_PATHS = re.compile(r"^/api/v1/recordings/[0-9]+/chunk$")
# A protocol file for the admin's import, with the form around it.
PROTOCOL_FILE_BYTES = 2_000_000
PROTOCOL_FORM_BYTES = PROTOCOL_FILE_BYTES + 64 * KB

TOO_LARGE = 413


def api_limit(path: str) -> int | None:
    """The bound on a body sent to `path` of the API, or None for a door of raw bytes."""
    if not path.startswith("/api/") or API_RAW_PATHS.match(path):
        return None
    return API_JSON_BYTES


def refuse_if_larger(request: HttpRequest, limit: int) -> None:
    """Refuse a body longer than `limit` by its declared length, before it is read. A body
    sent without a length is not read at all (WSGI gives a view only the declared bytes)."""
    declared = whole_number(request.META.get("CONTENT_LENGTH") or "0")
    if declared is None or declared > limit:
        raise Refused(
            _("The request is too large: at most %(kb)d KB.") % {"kb": limit // KB},
            "too_large",
            TOO_LARGE,
        )
