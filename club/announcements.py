"""What the club tells its Telegram group about an evening: that sign-up is open (with a
button into the bot), and the line-up. Written to the outbox like every message."""

from django.conf import settings
from django.db import transaction

from club import queries, texts
from club.club_settings import ClubSettings
from club.models import Evening
from notifications.services import notification_enqueue


def evening_announce_signup(*, evening_id: int) -> int | None:
    """Tell the club's group that sign-up is open, with a button into the bot on this
    evening. Once per evening (the dedupe key); None when the club has no group set."""
    club = ClubSettings.load()
    evening = Evening.objects.filter(pk=evening_id).first()
    if evening is None or club.telegram_group_chat_id is None:
        return None
    buttons = []
    if settings.TELEGRAM_BOT_USERNAME:
        url = f"https://t.me/{settings.TELEGRAM_BOT_USERNAME}?start=e{evening.pk}"
        buttons = [[{"text": texts.ok_playing_label(), "url": url}]]
    with transaction.atomic():
        return notification_enqueue(
            dedupe_key=f"announce:signup:{evening.pk}",
            chat_id=club.telegram_group_chat_id,
            text=texts.signup_open(
                when=texts.evening_when(evening, club), capacity=evening.capacity
            ),
            buttons=buttons,
        )


def evening_announce_lineup(*, evening_id: int) -> int | None:
    """Post the evening's line-up (players by seat order of sign-up, then the reserve) to
    the club's group. Sign-up lists keep nicknames (RULES.md §C)."""
    club = ClubSettings.load()
    evening = Evening.objects.filter(pk=evening_id).first()
    if evening is None or club.telegram_group_chat_id is None:
        return None
    current = queries.evening_lineup(evening)
    with transaction.atomic():
        return notification_enqueue(
            dedupe_key=f"announce:lineup:{evening.pk}",
            chat_id=club.telegram_group_chat_id,
            text=texts.lineup(
                when=texts.evening_when(evening, club),
                players=[r.member.nickname for r in current.confirmed],
                reserve=[r.member.nickname for r in current.reserve],
            ),
        )
