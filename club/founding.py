"""A new club in minutes (#41, item 8): a platform admin founds a club with its first club
admin; that admin sets the club up in a guided form (club/doors/club_setup.py): its
settings, its bot (the token asked of Telegram's getMe, which names the bot), its email
sender, and then its first evening.

Nothing is half-made: a club's settings are checked whole (Club.clean) and its bot is asked
before anything is saved, so a refused token leaves the club as it was."""

from __future__ import annotations

import asyncio
import re
import secrets
from dataclasses import dataclass
from datetime import date, datetime

from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from telegram import Bot
from telegram import error as tg
from telegram.request import HTTPXRequest

from accounts import services as accounts
from accounts.models import Role, User
from club.kernel import tenancy
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.models import Evening
from club.scheduling import evening_ensure_next
from notifications.telegram import api_base_url

# A token as @BotFather gives it («123456789:AA…»): the digits of the bot's id, a colon,
# and a key of URL-safe letters. Anything else is refused before it is put in an address.
TOKEN_SHAPE = re.compile(r"^[0-9]{1,20}:[A-Za-z0-9_-]{1,100}$")


@dataclass(frozen=True)
class BotIdentity:
    username: str


def bot_identity(token: str) -> BotIdentity:
    """Ask Telegram who the bot of `token` is (getMe); a refusal says what is wrong."""
    if not TOKEN_SHAPE.fullmatch(token):
        raise Refused(
            _("This is not a bot token: @BotFather gives one like «123456789:AAE…»."),
            RefusalCode.INVALID,
        )

    async def ask() -> str:
        bot = Bot(
            token,
            base_url=api_base_url(),
            request=HTTPXRequest(connect_timeout=5, read_timeout=10),
        )
        try:
            me = await bot.get_me()
        finally:
            await bot.shutdown()
        return me.username or ""

    try:
        username = asyncio.run(ask())
    except tg.InvalidToken as error:
        raise Refused(
            _("Telegram does not know this token: copy it again from @BotFather."),
            RefusalCode.INVALID,
        ) from error
    except (tg.NetworkError, tg.TimedOut) as error:
        raise Refused(
            _("Telegram did not answer; nothing was saved. Try again in a minute."),
            RefusalCode.CONFLICT,
        ) from error
    except tg.TelegramError as error:
        raise Refused(
            _("Telegram refused this token (%(reason)s); nothing was saved.")
            % {"reason": error.message},
            RefusalCode.INVALID,
        ) from error
    return BotIdentity(username=username)


def new_webhook_secret() -> str:
    """The secret Telegram sends back with every update to the club's webhook (its
    X-Telegram-Bot-Api-Secret-Token: letters, digits, _ and -)."""
    return secrets.token_urlsafe(32)


def club_settings_save(club: Club, *, token_changed: bool) -> Club:
    """Save a club's settings, checked whole (Club.clean); a new bot token is asked of
    Telegram first, which names the bot, and gets a new webhook secret. A refusal saves
    nothing."""
    try:
        club.full_clean()
    except ValidationError as error:
        raise Refused(" ".join(error.messages), RefusalCode.INVALID) from error
    club.telegram_bot_token = club.telegram_bot_token.strip()
    if token_changed:
        if club.telegram_bot_token:
            club.telegram_bot_username = bot_identity(club.telegram_bot_token).username
            club.telegram_webhook_secret = new_webhook_secret()
        else:
            club.telegram_bot_username = club.telegram_webhook_secret = ""
    club.save()
    return club


@dataclass(frozen=True)
class NewAdmin:
    """The first club admin: an existing account by its nickname, or a new one."""

    nickname: str
    email: str = ""
    birth_date: date | None = None


@dataclass(frozen=True)
class Founded:
    club: Club
    admin: User
    # A new account's address to set its password (an invitation), else None.
    invitation_path: str | None


def club_found(*, club: Club, admin: NewAdmin) -> Founded:
    """Make `club` (unsaved, its settings the defaults but for what the platform admin
    gave) and its first admin: the account of that nickname, or a new account with that
    email and birth date, which gets an invitation to set its password."""
    existing = User.objects.filter(nickname__iexact=admin.nickname.strip()).first()
    with transaction.atomic():
        try:
            club.full_clean()
        except ValidationError as error:
            raise Refused(" ".join(error.messages), RefusalCode.INVALID) from error
        member = _new_admin_account(admin, club) if existing is None else existing
        club.save()
        tenancy.clubs_changed()
        accounts.member_set_role(member=member, role=Role.ADMIN, club=club)
    invitation = None
    if existing is None:
        uid = urlsafe_base64_encode(force_bytes(member.pk))
        token = default_token_generator.make_token(member)
        # At the new club's address: the pages the new admin lands on are their club's.
        with tenancy.club_scope(club):
            invitation = reverse("accounts:password_reset_confirm", args=[uid, token])
    return Founded(club=club, admin=member, invitation_path=invitation)


def _new_admin_account(admin: NewAdmin, club: Club) -> User:
    if not admin.email or admin.birth_date is None:
        raise Refused(
            _(
                "No account has the nickname «%(nickname)s»: give the new admin's email and "
                "birth date to make one."
            )
            % {"nickname": admin.nickname},
            RefusalCode.INVALID,
        )
    nickname = accounts.nickname_clean(admin.nickname)
    email = accounts.email_clean(admin.email)
    # The sign-up's age rule, the new club's.
    birth_date = accounts.birth_date_clean(admin.birth_date, club=club)
    # No password until the invitation's link sets one.
    return User.objects.create_user(nickname, email=email, birth_date=birth_date)


def first_evening(club: Club, *, now: datetime) -> Evening:
    """The club's first evening: its next weekly start, as the schedule makes every week's
    (club/scheduling.py); the evening already there, if one is ahead."""
    with tenancy.club_scope(club):
        made = evening_ensure_next(now=now, club=club)
        if made is not None:
            return made
        ahead = Evening.objects.filter(starts_at__gt=now).order_by("starts_at").first()
        if ahead is None:  # the slot holds a cancelled or moved evening
            raise Refused(
                _("The next weekly slot is taken by a cancelled evening: add one in the admin."),
                RefusalCode.CONFLICT,
            )
        return ahead
