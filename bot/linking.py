"""«Connect Telegram» on the site: a single-use code in a t.me deep link, which the bot
reads back (bot/dispatch.py) to tie the Telegram account to the member who made it."""

import secrets
from datetime import timedelta

from django.utils import timezone

from accounts.models import User
from notifications.models import TelegramLinkCode

LINK_CODE_LIFETIME_MINUTES = 10


def telegram_link_code_create(*, member: User) -> str:
    """A single-use code for https://t.me/<bot>?start=<code> (at most 64 characters)."""
    code = secrets.token_urlsafe(24)  # 32 characters of [A-Za-z0-9_-], as deep links allow
    TelegramLinkCode.objects.create(
        code=code,
        member=member,
        expires_at=timezone.now() + timedelta(minutes=LINK_CODE_LIFETIME_MINUTES),
    )
    return code
