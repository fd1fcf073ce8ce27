"""Which channels a message to a member goes by: the member's choice (accounts.NotifyBy)
read against what can reach them now.

- auto: Telegram when it is linked and the bot is not blocked, email otherwise;
- telegram / email: that channel only, reachable or not (the row then ends «skipped», so
  the admin sees a member who cannot be told);
- both: every channel that can reach them (an unreachable one adds nothing).

A member nothing can reach still gets one row, which ends «skipped»: the outbox records
that the member was not told, rather than nothing at all.

A message may leave email out (`email=False`): a step of something the member follows on
the site anyway, too frequent for an inbox (an online game's phases: the letters it does
send are games/online/announce.py's BY_EMAIL). Its channels are the member's without email,
so a member only email reaches gets no row for it at all: not told by choice, not skipped.

The first channel's row carries the message's dedupe key as given, so the key means "this
member was told this" whichever channel told them, and a repeat of the key writes nothing
even after the member changed their choice; a second channel's row adds the channel to the
key (`row_key`).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.models import NotifyBy, User
from notifications.models import NotificationChannel, TelegramBlock


def telegram_reaches(member: User) -> bool:
    """Linked to Telegram, and the bot of the club in scope not blocked by them (a block
    is per club's bot: notifications.TelegramBlock)."""
    if member.telegram_id is None:
        return False
    return not TelegramBlock.objects.filter(telegram_id=member.telegram_id).exists()


def email_reaches(member: User) -> bool:
    return bool(member.email)


def member_channels(member: User, *, email: bool = True) -> list[NotificationChannel]:
    """The channels a message to `member` goes by, the first one first: never empty unless
    the message leaves email out (`email=False`) and email is the member's only channel."""
    channels = _chosen_channels(member)
    return channels if email else [c for c in channels if c != NotificationChannel.EMAIL]


def _chosen_channels(member: User) -> list[NotificationChannel]:
    telegram, email = telegram_reaches(member), email_reaches(member)
    match member.notify_by:
        case NotifyBy.TELEGRAM:
            return [NotificationChannel.TELEGRAM]
        case NotifyBy.EMAIL:
            return [NotificationChannel.EMAIL]
        case NotifyBy.BOTH if telegram or email:
            reachable = (
                (NotificationChannel.TELEGRAM, telegram),
                (NotificationChannel.EMAIL, email),
            )
            return [channel for channel, reaches in reachable if reaches]
        case _ if not telegram and email:
            return [NotificationChannel.EMAIL]
    return [NotificationChannel.TELEGRAM]


def reaching_channels(member: User) -> list[NotificationChannel]:
    """The channels a message to `member` actually arrives by now: their choice
    (member_channels) less what cannot reach them."""
    reaches = {
        NotificationChannel.TELEGRAM: telegram_reaches,
        NotificationChannel.EMAIL: email_reaches,
    }
    return [channel for channel in member_channels(member) if reaches[channel](member)]


def how_told(member: User) -> str:
    """How the club's news of a seat reaches the member, as a page promises it: the bot,
    a letter, both, or nothing (and what to do about it). An email-only member is not
    promised a message from a bot they never met."""
    match reaching_channels(member):
        case [NotificationChannel.TELEGRAM]:
            return _("The bot tells you.")
        case [NotificationChannel.EMAIL]:
            return _("A letter to %(email)s tells you.") % {"email": member.email}
        case []:
            return _("Nothing can tell you yet: link Telegram or add an email in your settings.")
    return _("The bot and a letter tell you.")


def row_key(dedupe_key: str, channel: str, *, first: bool) -> str:
    """The row's dedupe key: the message's key for the first channel, with the channel
    added for another."""
    return dedupe_key if first else f"{dedupe_key}:{channel}"
