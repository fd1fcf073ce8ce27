"""The one way a service says no: `Refused`, with nothing changed.

Every door turns it into its own answer with one handler: the API into JSON with the
status (club/doors/api.py), a page into its message (club/doors/responses.py), the bot
into a reply or a toast (bot/dispatch.py). The message is already in the
user's language: services build it with gettext under the request's active language.

A refusal's reason is a `RefusalCode`, one of a short list a door or a client may branch
on; its HTTP status follows from the code, so a raising site names the reason only. The
list, with each code's status, is in docs/architecture.md («The one error»). An event the
rules engine refused carries the engine's own `RuleCode` (games/rules/errors.py) instead,
to the error body unchanged: `not_day`, not `invalid`; its status is `invalid`'s, 422.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from django.utils.functional import Promise

from games.rules.errors import RuleCode


class RefusalCode(StrEnum):
    """Why a request is refused. The values are part of the API (the `code` of every error
    body) and of the host's screen (`confirm`, `stale`): keep them."""

    INVALID = "invalid"  # the request cannot be done as asked: fix it and send it again
    UNREADABLE = "unreadable"  # the body or the address could not be read at all
    UNAUTHENTICATED = "unauthenticated"  # nobody logged in, or an unknown token (the API)
    FORBIDDEN = "forbidden"  # not for this member: another role's action
    BANNED = "banned"  # the account is blocked, at every door
    SUSPENDED = "suspended"  # the membership is suspended: no sign-up, no play, no hosting
    UNDERAGE = "underage"  # under the club's age on the evening's date
    NOT_FOUND = "not_found"  # no such thing (or not one this member may know of)
    CONFLICT = "conflict"  # the thing's state does not allow it now (details may say more)
    NOT_OPEN = "not_open"  # the evening's sign-up opens later: try again then
    CLOSED = "closed"  # the evening's sign-up is over: closed, cancelled or taken place
    STALE = "stale"  # another device wrote first: reload (the game's log moved on)
    LATE_MODKILL = "late_modkill"  # an inactivity modkill too close to the night: an override
    UNREPLAYABLE = "unreplayable"  # the game's stored record no longer replays (changed since)
    TOO_LARGE = "too_large"  # the body is over the door's limit
    CONFIRM = "confirm"  # done only once the person confirms it (the host's «are you sure»)
    THROTTLED = "throttled"  # too many attempts: `retry_after` seconds

    @property
    def status(self) -> int:
        """The HTTP status every door answers this refusal with."""
        return STATUS[self]


STATUS: dict[RefusalCode, int] = {
    RefusalCode.INVALID: 422,
    RefusalCode.UNREADABLE: 400,
    RefusalCode.UNAUTHENTICATED: 401,
    RefusalCode.FORBIDDEN: 403,
    RefusalCode.BANNED: 403,
    RefusalCode.SUSPENDED: 403,
    RefusalCode.UNDERAGE: 403,
    RefusalCode.NOT_FOUND: 404,
    RefusalCode.CONFLICT: 409,
    RefusalCode.NOT_OPEN: 409,
    RefusalCode.CLOSED: 409,
    RefusalCode.STALE: 409,
    RefusalCode.LATE_MODKILL: 409,
    RefusalCode.UNREPLAYABLE: 409,
    RefusalCode.TOO_LARGE: 413,
    RefusalCode.CONFIRM: 428,
    RefusalCode.THROTTLED: 429,
}

# Why a request is refused: the door's reason, or the rules engine's for a refused event.
type Code = RefusalCode | RuleCode


def status_of(code: Code) -> int:
    """The HTTP status of a refusal with `code`: an engine's refusal is the request that
    cannot be done as asked (the event at this point of the game), `invalid`'s 422."""
    return code.status if isinstance(code, RefusalCode) else RefusalCode.INVALID.status


# What a JSON door answers on a failure that is no refusal (a bug, logged): not a code a
# service may raise, so not a RefusalCode.
INTERNAL = "internal"


def error_body(detail: str, code: str, details: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The one error body of every JSON door (the API, the host screen's tap): the message
    in the reader's language, the code, and the refusal's details beside them."""
    return {**(details or {}), "detail": detail, "code": str(code)}


class Refused(Exception):
    """A request the club will not do, and why, for the person who asked.

    `code` names the reason for the doors and the tests, and gives the HTTP status (an
    event the engine refused: the rule's own code, games.rules_text.rule_refused);
    The code is required: a refusal that said nothing would read `invalid` at every door,
    whatever its reason (mypy strict catches a raise without one).
    `details` carries what a door may show beside the message (the game's last sequence
    number, the server's upload offset, a form's fields).
    """

    def __init__(self, message: str | Promise, code: Code, /, **details: Any) -> None:
        super().__init__(message)
        self.message = str(message)
        self.code: Code = code if isinstance(code, RuleCode) else RefusalCode(code)
        self.details = details

    @property
    def status(self) -> int:
        return status_of(self.code)

    def body(self, *, tap: bool = False) -> dict[str, Any]:
        """The JSON doors' answer: `{"detail", "code", ...details}`. The host screen's tap
        door adds `error`, the same message under the name its script reads
        (static/games/host/queue.js, dialogs.js) until the script reads `detail`."""
        body = error_body(self.message, self.code, self.details)
        return {**body, "error": self.message} if tap else body

    def __repr__(self) -> str:
        return f"Refused({self.code!r}, {self.status}, {self.message!r})"
