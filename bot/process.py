"""The Telegram bot's conversation: one update in, replies out through the outbox.

The same `process_update` serves the webhook and long polling. Nothing is held in memory:
who a Telegram user is comes from the member table, a sign-up in progress from
BotConversation, an evening from its id in the button's callback data, so every button
works again after a restart. updates.py reads an update, dispatch.py acts on it (through
the same services as the site), cards.py renders what the bot shows.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from accounts.languages import member_language, speaking
from bot.dispatch import Bot
from bot.groups import group_membership_record, parse_membership
from bot.payloads import CallbackAnswer
from bot.updates import parse_update
from notifications.models import TelegramBlock, TelegramUpdate


def process_update(raw: object) -> CallbackAnswer | None:
    """Handle one update once. Returns a Bot API call to make at once, if any (the answer
    to a button press), which the webhook puts in its response. An update whose handling
    fails raises, and is not recorded as handled: the caller has it delivered again."""
    membership = parse_membership(raw)
    if membership is not None:
        group_membership_record(membership)  # the same twice changes nothing: no dedupe
        return None
    incoming = parse_update(raw)
    if incoming is None:
        return None
    try:
        with transaction.atomic():
            TelegramUpdate.objects.create(update_id=incoming.update_id)
    except IntegrityError:
        return None  # a repeat delivery: already handled, or being handled now
    # Whoever writes to the bot has not blocked it (any more).
    TelegramBlock.objects.filter(telegram_id=incoming.telegram_id).delete()
    try:
        bot = Bot(incoming)
        # The member's language; a Telegram user who is not one yet, their Telegram's.
        with speaking(member_language(bot.member) if bot.member else incoming.language):
            return bot.handle()
    except Exception:
        # Not handled: the id is forgotten, so Telegram's next delivery of it is handled.
        # (Its replies' dedupe keys carry the update id: none is sent twice.)
        TelegramUpdate.objects.filter(update_id=incoming.update_id).delete()
        raise
