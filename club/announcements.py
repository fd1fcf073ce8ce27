"""What the club tells its Telegram group about an evening: that sign-up is open (with a
button into the bot), and the line-up. Written to the outbox like every message, in the
club's language (the group has many readers)."""

from datetime import timedelta

from django.conf import settings
from django.db import transaction

from accounts.languages import speaking
from club import queries, texts
from club.kernel.bots import club_bot
from club.kernel.clubs import Club
from club.models import Evening
from notifications.models import Notification
from notifications.services import chat_post_sync, notification_enqueue


def evening_announce_signup(*, evening_id: int) -> int | None:
    """Tell the club's group that sign-up is open, with a button into the bot on this
    evening. Once per evening (the dedupe key); None when the club has no group set."""
    club = Club.current()
    evening = Evening.objects.filter(pk=evening_id).first()
    if evening is None or club.telegram_group_chat_id is None:
        return None
    buttons = []
    # The group has no one reader: the club's language, whoever's message is being written.
    with speaking(settings.LANGUAGE_CODE), transaction.atomic():
        bot = club_bot(club).username
        if bot:
            url = f"https://t.me/{bot}?start=e{evening.pk}"
            buttons = [[{"text": texts.ok_playing_label(), "url": url}], *_open_in_app(evening)]
        return notification_enqueue(
            dedupe_key=f"announce:signup:{evening.pk}",
            chat_id=club.telegram_group_chat_id,
            text=texts.signup_open(
                when=texts.evening_when(evening, club), capacity=evening.capacity
            ),
            buttons=buttons,
        )


# The line-up is one message per evening, edited as seats and the reserve change: at most
# one edit every few seconds (the outbox keeps the group's twenty a minute besides).
LINEUP_PAUSE = timedelta(seconds=3)


def mini_app_link(evening: Evening) -> str | None:
    """A t.me link that opens the club's app on this evening (its `startapp`) in the club's
    own bot, or None without a bot: the named Mini App when BotFather gave it a short name,
    else the bot's main Mini App."""
    bot = club_bot()
    if not bot.username:
        return None
    app = f"/{bot.mini_app_name}" if bot.mini_app_name else ""
    return f"https://t.me/{bot.username}{app}?startapp=evening-{evening.pk}"


def _open_in_app(evening: Evening) -> list[list[dict[str, str]]]:
    link = mini_app_link(evening)
    return [[{"text": texts.open_in_app_label(), "url": link}]] if link else []


def evening_lineup_sync(*, evening_id: int) -> int | None:
    """Keep the evening's line-up in the club's group: posted at the first sign-up, then the
    same message edited as seats and the reserve change. None when the club has no group,
    or nothing changed. It names every member by nickname, one who refused publication too:
    a sign-up list is a roster, not a published result (RULES.md §C); the game's analysis
    post (games/ratings/publication.py) is where they are «Игрок N»."""
    club = Club.current()
    evening = Evening.objects.filter(pk=evening_id).first()
    if evening is None or club.telegram_group_chat_id is None:
        return None
    current = queries.evening_lineup(evening)
    key = f"announce:lineup:{evening.pk}"
    if (
        not current.confirmed
        and not current.reserve
        and not Notification.objects.filter(dedupe_key=key).exists()
    ):
        return None  # nobody yet: nothing to post
    with speaking(settings.LANGUAGE_CODE):  # the group's language
        return chat_post_sync(
            dedupe_key=key,
            chat_id=club.telegram_group_chat_id,
            text=texts.lineup(
                when=texts.evening_when(evening, club),
                players=[r.listed_name for r in current.confirmed],
                reserve=[r.listed_name for r in current.reserve],
            ),
            buttons=_open_in_app(evening),
            pause=LINEUP_PAUSE,
        )
