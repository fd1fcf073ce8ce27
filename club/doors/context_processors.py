from django.conf import settings
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from accounts.telegram_webapp import mini_app_demo_on
from club.identity import THEME_COLOR, identity


def club(request: HttpRequest) -> dict[str, object]:
    return {
        # The club's name and mark for the header, the title and the icons; read when a
        # template first asks (the settings row is kept in the process for a few seconds).
        "club": SimpleLazyObject(identity),
        "theme_color": THEME_COLOR,
        "telegram_console_mode": settings.TELEGRAM_CONSOLE_MODE,
        "telegram_bot_username": settings.TELEGRAM_BOT_USERNAME,
        # The embedded site's stand-in for Telegram's Mini App script (DEBUG, no bot).
        "mini_app_demo": mini_app_demo_on(),
        # The login popup is opened with the bot's numeric id, the token's first part.
        "telegram_bot_id": settings.TELEGRAM_BOT_TOKEN.partition(":")[0]
        if settings.TELEGRAM_BOT_USERNAME
        else "",
    }
