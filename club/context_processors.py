from django.conf import settings
from django.http import HttpRequest


def club(request: HttpRequest) -> dict[str, object]:
    return {
        "telegram_console_mode": settings.TELEGRAM_CONSOLE_MODE,
        "telegram_bot_username": settings.TELEGRAM_BOT_USERNAME,
        # The login popup is opened with the bot's numeric id, the token's first part.
        "telegram_bot_id": settings.TELEGRAM_BOT_TOKEN.partition(":")[0]
        if settings.TELEGRAM_BOT_USERNAME
        else "",
    }
