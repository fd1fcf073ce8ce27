"""Verification of the Telegram Login Widget's signed data.

Telegram signs the fields it sends with HMAC-SHA256: the key is SHA256(bot token), the
message is every received field but `hash`, as `key=value` lines sorted by key.
https://core.telegram.org/widgets/login#checking-authorization
"""

import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from django.utils.translation import gettext as _

from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import storable, whole_number

# The fields the widget sends; anything else in the query string is not signed data.
WIDGET_FIELDS = frozenset(
    {"id", "first_name", "last_name", "username", "photo_url", "auth_date", "hash"}
)
# Tolerance for a clock that runs a little ahead of ours.
CLOCK_SKEW_SECONDS = 60


@dataclass(frozen=True)
class TelegramIdentity:
    telegram_id: int
    username: str
    first_name: str
    signature: str  # Telegram's hash of the payload: what makes it single-use
    signed_at: datetime


def _data_check_string(fields: Mapping[str, str]) -> str:
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")


def signature_matches(expected: str, received: str) -> bool:
    """Whether a received hex signature is the expected one, in constant time and in any
    letter case. Compared as bytes: hmac.compare_digest raises TypeError on a str that is
    not ASCII, and a forged `hash=é` is a wrong signature like any other, not a 500."""
    received_bytes = received.lower().encode("utf-8", errors="replace")
    return hmac.compare_digest(expected.encode(), received_bytes)


def telegram_login_verify(
    query: Mapping[str, str], *, bot_token: str, now: datetime, max_age_seconds: int
) -> TelegramIdentity:
    if not bot_token:
        raise Refused(_("Telegram login is not set up on this site."), RefusalCode.INVALID)
    fields = {key: value for key, value in query.items() if key in WIDGET_FIELDS}
    received_hash = fields.get("hash", "")
    if not received_hash or "id" not in fields or "auth_date" not in fields:
        raise Refused(_("The Telegram login data is incomplete."), RefusalCode.INVALID)
    secret = hashlib.sha256(bot_token.encode()).digest()
    expected = hmac.new(secret, _data_check_string(fields).encode(), hashlib.sha256).hexdigest()
    if not signature_matches(expected, received_hash):
        raise Refused(_("The Telegram login data is not genuine."), RefusalCode.INVALID)
    auth_date = whole_number(fields["auth_date"])
    telegram_id = whole_number(fields["id"], low=1)
    if auth_date is None or telegram_id is None:
        raise Refused(_("The Telegram login data is malformed."), RefusalCode.INVALID)
    age = now.timestamp() - auth_date
    if age > max_age_seconds or age < -CLOCK_SKEW_SECONDS:
        raise Refused(
            _("The Telegram login has expired. Please log in again."), RefusalCode.INVALID
        )
    return TelegramIdentity(
        telegram_id=telegram_id,
        # Kept as the member's: what a database cannot store is made storable.
        username=storable(fields.get("username", ""))[:64],
        first_name=storable(fields.get("first_name", "")),
        signature=expected,
        signed_at=datetime.fromtimestamp(auth_date, UTC),
    )
