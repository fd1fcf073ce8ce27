"""Point Telegram at each club's webhook (with that club's secret) and set its bot's
commands and menu button: `--club <slug>` (default: the first club) or `--all`."""

import secrets
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from telegram import Bot, BotCommand, MenuButtonWebApp, WebAppInfo

from bot.management.clubs import add_club_arguments, chosen_clubs
from club.kernel.bots import ClubBot, club_address, club_bot
from club.kernel.clubs import Club
from club.kernel.tenancy import club_scope, first_club_id
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
    help = (
        "Point Telegram at a club's webhook (with the club's secret) and set its bot's "
        "commands: --club <address> (default: the first club) or --all."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_club_arguments(parser, every=True)

    def handle(self, *args: Any, **options: Any) -> None:
        every = bool(options["all"])
        clubs = chosen_clubs(slug=options["club"], every=every)
        done = 0
        for each in clubs:
            with club_scope(each):
                bot = _ready(each)
                if bot is None:
                    if not every:
                        raise CommandError(
                            "Set TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET first (or the "
                            f"club's own bot token) for the club {each.slug!r}."
                        )
                    self.stdout.write(f"{each.slug}: no bot (console mode), skipped.")
                    continue
                self.stdout.write(f"{each.slug}: {_set_up(bot)}")
                done += 1
        if every:
            self.stdout.write(f"{done} of {len(clubs)} clubs' bots set up.")


def _ready(club: Club) -> ClubBot | None:
    """The club's bot, with its username and secret made when the club gave only a token
    (the username from Telegram's getMe, a random secret kept on the club); None without
    a bot, or for the first club on the server's token without TELEGRAM_WEBHOOK_SECRET."""
    bot = club_bot(club)
    if not bot.token:
        return None
    if not club.telegram_bot_token:  # the server's bot: its secret is the server's setting
        return bot if bot.secret and club.pk == first_club_id() else None
    changed: list[str] = []
    if not club.telegram_webhook_secret:
        club.telegram_webhook_secret = secrets.token_urlsafe(32)
        changed.append("telegram_webhook_secret")
    if not club.telegram_bot_username:

        async def get_me(telegram: Bot) -> str:
            return str((await telegram.get_me()).username or "")

        club.telegram_bot_username = process_bot.run(get_me, token=bot.token)
        changed.append("telegram_bot_username")
    if changed:
        club.save(update_fields=changed)
    return club_bot(club)


def _set_up(bot: ClubBot) -> str:
    url = club_address("telegram_webhook")
    app = club_address("mini_app_start")

    async def setup(telegram: Bot) -> None:
        await telegram.set_webhook(
            url=url,
            secret_token=bot.secret,
            allowed_updates=["message", "callback_query", "my_chat_member"],
        )
        await telegram.set_my_commands(COMMANDS)
        if app.startswith("https://"):  # Telegram opens only https in a Mini App
            button = MenuButtonWebApp(MENU_BUTTON, WebAppInfo(app))
            await telegram.set_chat_menu_button(menu_button=button)

    process_bot.run(setup, token=bot.token)
    said = f"Webhook set to {url}; {len(COMMANDS)} commands set"
    if app.startswith("https://"):
        said += f"; the menu button opens the club's app at {app}"
    else:
        said += "; no menu button (the club's app needs an https SITE_URL)"
    return said + "."
