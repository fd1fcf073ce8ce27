"""Throttles for the doors someone could hammer: the login, password reset, sign-up and the
bot. Counted by django-ratelimit in the cache (Redis in production, shared by every
process), in fixed windows per key: a member's login, a client's address, a Telegram chat.

A login is throttled on failures only: ten wrong passwords for one account, or thirty from
one address, in a quarter of an hour, and even the right password waits for the window to
pass (the password reset still works). The webhook is never throttled by address: every
update comes from Telegram's own servers; the bot counts per chat instead.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage

from club.kernel import tenancy
from club.kernel.cache import CACHE, CACHE_FAILURES
from club.kernel.errors import RefusalCode, Refused

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    group: str
    rate: str  # django-ratelimit's "count/period": "10/15m"
    # Counted apart in each club (the club in scope): a door each club has its own of. An
    # account, an address or an email is the platform's and counts across the clubs.
    per_club: bool = False


LOGIN_PER_ACCOUNT = Limit("login-account", "10/15m")
LOGIN_PER_ADDRESS = Limit("login-address", "30/15m")
PASSWORD_RESET_PER_ADDRESS = Limit("password-reset-address", "5/h")
PASSWORD_RESET_PER_EMAIL = Limit("password-reset-email", "3/h")
# Joining the club from one address: a venue's Wi-Fi is one address for a whole newcomers'
# night, so what counts is the members made (as generous as the Mini App's opening per
# address), with a higher bound on attempts (a form with a typo is an attempt).
SIGN_UP_PER_ADDRESS = Limit("sign-up-address", "300/15m")
SIGN_UP_ATTEMPTS_PER_ADDRESS = Limit("sign-up-attempt-address", "1000/15m")
# Each club's bot is its own door: a member busy with one club's bot keeps the other's.
BOT_PER_CHAT = Limit("bot-chat", "30/m", per_club=True)
MINI_APP_PER_USER = Limit("mini-app-user", "120/m")
# A venue's Wi-Fi is one address for the whole table opening the app at once.
MINI_APP_PER_ADDRESS = Limit("mini-app-address", "300/15m")


def _usage(limit: Limit, value: str, *, count: bool) -> dict[str, Any] | None:
    """The window's uses, or None (no limit) when the cache cannot be read: a throttle
    fails open, so a cache that is down locks nobody out; the log and /healthz say so."""
    if not CACHE.closed:
        return None
    if limit.per_club:
        value = f"{tenancy.current_club_id()}:{value}"
    try:
        usage: dict[str, Any] | None = get_usage(
            None, group=limit.group, key=lambda _group, _request: value, rate=limit.rate,
            increment=count,
        )  # fmt: skip
        return usage
    except CACHE_FAILURES:
        logger.warning("Throttle %s: the cache does not answer; not counted", limit.group)
        CACHE.failed()
        return None


def count(limit: Limit, value: str) -> int:
    """Count one use; returns the seconds left in the window if this use is over the limit,
    else 0."""
    usage = _usage(limit, value, count=True)
    if usage is None or not usage["should_limit"]:
        return 0
    return max(1, int(usage["time_left"]))


def waiting(limit: Limit, value: str) -> int:
    """Seconds until `value` may try again (0: it may now), without counting a use: the
    window's uses have reached the limit."""
    usage = _usage(limit, value, count=False)
    if usage is None or usage["count"] < usage["limit"]:
        return 0
    return max(1, int(usage["time_left"]))


def refusal(seconds: int) -> Refused:
    """What the member reads when a throttle holds: how long to wait, in minutes."""
    minutes = max(1, math.ceil(seconds / 60))
    return Refused(
        ngettext(
            "Too many attempts. Please try again in %(minutes)d minute.",
            "Too many attempts. Please try again in %(minutes)d minutes.",
            minutes,
        )
        % {"minutes": minutes},
        RefusalCode.THROTTLED,
        retry_after=seconds,
    )


def refuse_if_over(limit: Limit, value: str) -> None:
    """Count a use, and refuse it when it is over the limit."""
    seconds = count(limit, value)
    if seconds:
        raise refusal(seconds)


def client_address(request: HttpRequest) -> str:
    """The client's address: behind the site's own proxy (DJANGO_BEHIND_PROXY), the one
    that proxy appended to X-Forwarded-For, which a client cannot forge; else the peer."""
    if settings.BEHIND_PROXY:
        forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", ""))
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1][:64]
    return str(request.META.get("REMOTE_ADDR", "") or "unknown")


def ratelimit_address(request: HttpRequest) -> str:
    """django-ratelimit's "ip" key (RATELIMIT_IP_META_KEY): the same address as ours."""
    return client_address(request)
