from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse
from telegram import Bot, BotCommand

from notifications.telegram import process_bot

COMMANDS = [
    BotCommand("evening", "Ближайший вечер и моё место"),
    BotCommand("online", "Моя онлайн-игра: голос, фаст, выстрел, проверка"),
    BotCommand("say", "Пост в дневной ветке онлайн-игры"),
    BotCommand("settings", "Публикация ника, напоминания"),
    BotCommand("help", "Что умеет бот"),
]


class Command(BaseCommand):
    help = "Point Telegram at this site's webhook (with the secret token) and set the commands."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.TELEGRAM_BOT_TOKEN or not settings.TELEGRAM_WEBHOOK_SECRET:
            raise CommandError("Set TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET first.")
        url = settings.SITE_URL + reverse("telegram_webhook")

        async def setup(bot: Bot) -> None:
            await bot.set_webhook(
                url=url,
                secret_token=settings.TELEGRAM_WEBHOOK_SECRET,
                allowed_updates=["message", "callback_query"],
            )
            await bot.set_my_commands(COMMANDS)

        process_bot.run(setup)
        self.stdout.write(f"Webhook set to {url}; {len(COMMANDS)} commands set.")
