"""Verification of a Telegram Mini App's launch data (`Telegram.WebApp.initData`).

Telegram signs the query string it hands the Mini App with HMAC-SHA256: the key is
HMAC-SHA256(key "WebAppData", message the bot token), the message every field but `hash`
as `key=value` lines sorted by key (the values URL-decoded).
https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import parse_qsl, urlencode

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.telegram_login import CLOCK_SKEW_SECONDS, TelegramIdentity, signature_matches
from club.kernel.bots import club_bot
from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import loads, whole_number

MAX_INIT_DATA = 4096  # Telegram's is a few hundred bytes; anything far longer is not it


@dataclass(frozen=True)
class MiniAppLaunch:
    identity: TelegramIdentity
    start_param: str  # what a t.me/…?startapp= link carried ("" when opened otherwise)
    language: str  # the user's Telegram language ("ru", "en", …)


def mini_app_demo_on() -> bool:
    """The embedded site's developer page (accounts/miniapp.mini_app_demo) works only under
    DEBUG with no real bot, where the settings give a demo token (production never does)."""
    return bool(settings.DEBUG and settings.TELEGRAM_MINI_APP_DEMO_TOKEN and not club_bot().token)


def mini_app_token() -> str:
    """The token launches are signed with: the bot of the club in scope (each club's app
    opens from its own bot, and a launch another club's bot signed is not genuine here),
    or on the embedded site's developer page (mini_app_demo_on) the demo token."""
    token = club_bot().token
    if token:
        return token
    return str(settings.TELEGRAM_MINI_APP_DEMO_TOKEN) if mini_app_demo_on() else ""


def _secret(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def mini_app_sign(
    *, bot_token: str, telegram_id: int, first_name: str, language: str, now: datetime
) -> str:
    """Launch data as Telegram signs it, for the embedded site's developer page only (with
    the demo token): the same fields and signature mini_app_read checks."""
    user = {"id": telegram_id, "first_name": first_name[:64], "language_code": language}
    fields = {
        "query_id": f"DEMO{telegram_id}{int(now.timestamp() * 1000)}",
        "user": json.dumps(user, separators=(",", ":"), ensure_ascii=False),
        "auth_date": str(int(now.timestamp())),
    }
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    fields["hash"] = hmac.new(_secret(bot_token), check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


def mini_app_read(init_data: str, *, bot_token: str, now: datetime) -> MiniAppLaunch:
    """The Telegram user a genuine launch names, whatever its age (mini_app_refuse_if_old
    says whether it is fresh): the signature is always checked, and a launch signed in the
    future (beyond the clocks' skew) is refused. A Refused otherwise."""
    if not bot_token:
        raise Refused(_("The Telegram Mini App is not set up on this site."), RefusalCode.INVALID)
    if not isinstance(init_data, str) or not init_data or len(init_data) > MAX_INIT_DATA:
        raise Refused(_("Open the club's app from Telegram."), RefusalCode.INVALID)
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise Refused(_("The Telegram launch data is malformed."), RefusalCode.INVALID) from None
    fields = dict(pairs)
    received = fields.pop("hash", "")
    if not received or len(fields) != len(pairs) - 1 or "\x00" in init_data:
        raise Refused(_("The Telegram launch data is malformed."), RefusalCode.INVALID)
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    expected = hmac.new(_secret(bot_token), check.encode(), hashlib.sha256).hexdigest()
    if not signature_matches(expected, received):
        raise Refused(_("The Telegram launch data is not genuine."), RefusalCode.INVALID)
    auth_date = whole_number(fields.get("auth_date", ""))
    try:
        # Signed by Telegram, so taken as it is, but with what a database cannot store
        # (a NUL, a lone surrogate) made storable: the join form shows and keeps the name.
        user = loads(fields.get("user", ""), replace_unstorable=True)
    except ValueError:
        user = None
    telegram_id = whole_number(str(user.get("id", ""))) if isinstance(user, dict) else None
    if auth_date is None or telegram_id is None or telegram_id < 1:
        raise Refused(_("The Telegram launch data is malformed."), RefusalCode.INVALID)
    if now.timestamp() - auth_date < -CLOCK_SKEW_SECONDS:
        raise Refused(
            _("The club's app was opened too long ago: open it from Telegram again."),
            RefusalCode.INVALID,
        )
    assert isinstance(user, dict)
    return MiniAppLaunch(
        identity=TelegramIdentity(
            telegram_id=telegram_id,
            username=str(user.get("username", ""))[:64],
            first_name=str(user.get("first_name", ""))[:64],
            signature=expected,
            signed_at=datetime.fromtimestamp(auth_date, UTC),
        ),
        start_param=fields.get("start_param", "")[:64],
        language=str(user.get("language_code", ""))[:8],
    )


def mini_app_refuse_if_old(launch: MiniAppLaunch, *, now: datetime, max_age_seconds: int) -> None:
    """A launch is taken within its age (TELEGRAM_MINI_APP_MAX_AGE_SECONDS) of signing; only
    the session it opened goes on with it later (Telegram's «Reload», accounts/miniapp.py)."""
    if now.timestamp() - launch.identity.signed_at.timestamp() > max_age_seconds:
        raise Refused(
            _("The club's app was opened too long ago: open it from Telegram again."),
            RefusalCode.INVALID,
        )
