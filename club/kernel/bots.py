"""Which Telegram bot speaks for a club: its token, its @username and its webhook's secret.

Each club has its own bot (Telegram paces a bot at about 30 messages a second, so a hundred
clubs' Sundays through one bot would take minutes). The first club may leave its own empty
and use the server's TELEGRAM_BOT_TOKEN / TELEGRAM_BOT_USERNAME / TELEGRAM_WEBHOOK_SECRET,
so a single-club install keeps working as before. A club with neither is in console mode:
its messages are written to the log instead of sent.

Every reader of a bot's identity asks `club_bot()` (the club in scope) or `club_bot(club)`:
the outbox's sender and pace, the webhook's secret, the Mini App's signature, the login
widget, the deep links into the bot.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from club.kernel import tenancy
from club.kernel.clubs import Club


@dataclass(frozen=True)
class ClubBot:
    club_id: int
    token: str  # "" in console mode
    username: str  # without the @; "" when not known
    secret: str  # the webhook's X-Telegram-Bot-Api-Secret-Token; "" when none is set
    console: bool  # no bot: messages go to the log
    mini_app_name: str = ""  # the Mini App's short name BotFather gave this bot, if any

    @property
    def bot_id(self) -> str:
        """The bot's numeric id, the token's first part: it names the bot in the pace's
        keys and in the login widget, and never reveals the token."""
        return self.token.partition(":")[0]


def club_bot(club: Club | None = None) -> ClubBot:
    """The bot of `club` (default: the club in scope)."""
    club = club if club is not None else Club.current()
    if club.telegram_bot_token:
        return ClubBot(
            club.pk,
            club.telegram_bot_token,
            club.telegram_bot_username,
            club.telegram_webhook_secret,
            console=False,
        )
    if club.pk == tenancy.first_club_id():
        token = str(settings.TELEGRAM_BOT_TOKEN)
        return ClubBot(
            club.pk,
            token,
            str(settings.TELEGRAM_BOT_USERNAME),
            str(settings.TELEGRAM_WEBHOOK_SECRET),
            # The setting, not the token alone: a test or the embedded site may keep the
            # console with a token set.
            console=bool(settings.TELEGRAM_CONSOLE_MODE) or not token,
            mini_app_name=str(settings.TELEGRAM_MINI_APP_NAME),
        )
    return ClubBot(club.pk, "", "", "", console=True)


def club_address(name: str, club: Club | None = None) -> str:
    """The absolute address of a club's page by its url name (an un-namespaced one), the
    same in a request, a worker or a command: Telegram is given it (the webhook, the Mini
    App's button), and outside a request reverse() knows no club's prefix. The first club's
    pages keep their addresses without /c/<slug>/."""
    from django.urls import get_resolver

    club = club if club is not None else Club.current()
    prefix = "/" if club.pk == tenancy.first_club_id() else f"/c/{club.slug}/"
    return f"{settings.SITE_URL}{prefix}{get_resolver().reverse(name)}"
