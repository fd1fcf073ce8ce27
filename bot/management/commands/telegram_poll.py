"""Run a club's bot by long polling: the same handlers as the webhook, for a machine without
a public address (a laptop, staging). `--club <slug>` (default: the first club); one
process per club's bot. Stop it with Ctrl-C."""

import logging
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from telegram import Bot, Update

from bot.management.clubs import add_club_arguments, chosen_clubs
from bot.payloads import CallbackAnswer
from bot.process import process_update
from club.kernel import parsing
from club.kernel.bots import club_bot
from club.kernel.tenancy import club_scope
from notifications.telegram import process_bot

logger = logging.getLogger(__name__)
RETRY_SECONDS = 5


class Command(BaseCommand):
    help = "Receive Telegram updates by long polling and handle them as the webhook does."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="one round of polling, then stop")
        add_club_arguments(parser, every=False)

    def handle(self, *args: Any, once: bool, club: str, **options: Any) -> None:
        (chosen,) = chosen_clubs(slug=club)
        with club_scope(chosen):
            if not club_bot(chosen).token:
                raise CommandError(
                    "Set TELEGRAM_BOT_TOKEN (or the club's own bot token) first: without it "
                    "the club's bot is in console mode."
                )
            self._poll(once=once)

    def _poll(self, *, once: bool) -> None:
        """Fetch and handle the club in scope's updates, through its bot."""
        offset: int | None = None

        async def forget_the_webhook(bot: Bot) -> bool:
            return await bot.delete_webhook()  # polling and a webhook exclude each other

        async def fetch(bot: Bot) -> tuple[Update, ...]:
            return await bot.get_updates(
                offset=offset,
                timeout=0 if once else 50,
                allowed_updates=["message", "callback_query", "my_chat_member"],
            )

        process_bot.run(forget_the_webhook)
        while True:
            for update in process_bot.run(fetch):
                try:
                    answer = process_update(parsing.storable(update.to_dict()))
                except Exception:
                    # Not handled: fetched again (the offset stays) after a pause.
                    logger.exception("An update could not be handled; trying it again")
                    time.sleep(RETRY_SECONDS)
                    break
                offset = update.update_id + 1
                if answer:
                    # The call the webhook would return in its response (a button's toast).

                    async def call(bot: Bot, given: CallbackAnswer = answer) -> bool:
                        return await bot.answer_callback_query(
                            given["callback_query_id"], text=given["text"]
                        )

                    process_bot.run(call)
            if once:
                return
