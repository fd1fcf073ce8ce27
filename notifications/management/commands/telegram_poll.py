"""Run the bot by long polling: the same handlers as the webhook, for a machine without a
public address (a laptop, staging). Stop it with Ctrl-C."""

import logging
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from notifications.bot import process_update
from notifications.telegram import process_bot

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Receive Telegram updates by long polling and handle them as the webhook does."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="one round of polling, then stop")

    def handle(self, *args: Any, once: bool, **options: Any) -> None:
        if not settings.TELEGRAM_BOT_TOKEN:
            raise CommandError(
                "Set TELEGRAM_BOT_TOKEN first (without it the bot is in console mode)."
            )
        offset: int | None = None
        process_bot.run(
            lambda bot: bot.delete_webhook()
        )  # polling and a webhook exclude each other
        while True:
            updates = process_bot.run(
                lambda bot, offset=offset: bot.get_updates(
                    offset=offset,
                    timeout=0 if once else 50,
                    allowed_updates=["message", "callback_query"],
                )
            )
            for update in updates:
                offset = update.update_id + 1
                try:
                    answer = process_update(update.to_dict())
                except Exception:
                    logger.exception("An update could not be handled")
                    continue
                if answer:
                    method = answer.pop("method")
                    process_bot.run(
                        lambda bot, m=method, a=answer: bot.do_api_request(m, api_kwargs=a)
                    )
            if once:
                return
