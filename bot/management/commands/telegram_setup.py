from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse
from telegram import Bot, BotCommand, MenuButtonWebApp, WebAppInfo

from notifications.telegram import process_bot

MENU_BUTTON = "Клуб"  # the menu button beside the message field opens the club's app
COMMANDS = [
    BotCommand("evening", "Ближайший вечер и моё место"),
    BotCommand("online", "Моя онлайн-игра: голос, фаст, выстрел, проверка"),
    BotCommand("say", "Пост в дневной ветке онлайн-игры"),
    BotCommand("tournament", "Где я играю в турнире и моё место в таблице"),
    BotCommand("settings", "Публикация ника, напоминания, отчёты после игр"),
    BotCommand("help", "Что умеет бот"),
]


class Command(BaseCommand):
    help = "Point Telegram at this site's webhook (with the secret token) and set the commands."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.TELEGRAM_BOT_TOKEN or not settings.TELEGRAM_WEBHOOK_SECRET:
            raise CommandError("Set TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET first.")
        url = settings.SITE_URL + reverse("telegram_webhook")

        app = settings.SITE_URL + reverse("mini_app_start")

        async def setup(bot: Bot) -> None:
            await bot.set_webhook(
                url=url,
                secret_token=settings.TELEGRAM_WEBHOOK_SECRET,
                allowed_updates=["message", "callback_query", "my_chat_member"],
            )
            await bot.set_my_commands(COMMANDS)
            if app.startswith("https://"):  # Telegram opens only https in a Mini App
                button = MenuButtonWebApp(MENU_BUTTON, WebAppInfo(app))
                await bot.set_chat_menu_button(menu_button=button)

        process_bot.run(setup)
        said = f"Webhook set to {url}; {len(COMMANDS)} commands set"
        if app.startswith("https://"):
            said += f"; the menu button opens the club's app at {app}"
        else:
            said += "; no menu button (the club's app needs an https SITE_URL)"
        self.stdout.write(said + ".")
