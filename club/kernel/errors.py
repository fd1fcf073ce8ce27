"""The one way a service says no: `Refused`, with nothing changed.

Every door turns it into its own answer with one handler: the API into JSON with the
status (club/doors/api.py), a page into its message (club/doors/responses.py), the bot
into a reply or a toast (notifications/bot/dispatch.py). The message is already in the
user's language: services build it with gettext under the request's active language.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise

# The statuses a refusal may carry; 422 unless the refusal says otherwise.
FORBIDDEN, NOT_FOUND, CONFLICT, INVALID, TOO_MANY = 403, 404, 409, 422, 429
CONFIRM = 428  # done only once the person confirms it (the host's «are you sure»)


class Refused(Exception):
    """A request the club will not do, and why, for the person who asked.

    `code` names the reason for the doors and the tests ("not_found", "stale", ...);
    `status` is its HTTP answer; `details` carries what a door may show beside the message
    (the game's last sequence number, the server's upload offset).
    """

    def __init__(
        self, message: str | Promise, code: str = "invalid", status: int = INVALID, **details: Any
    ) -> None:
        super().__init__(message)
        self.message = str(message)
        self.code = code
        self.status = status
        self.details = details

    def __repr__(self) -> str:
        return f"Refused({self.code!r}, {self.status}, {self.message!r})"
