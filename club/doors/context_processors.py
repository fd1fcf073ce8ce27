from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from accounts.telegram_webapp import mini_app_demo_on
from club.identity import THEME_COLOR, identity
from club.kernel.bots import club_bot
from club.kernel.tenancy import NoClubInScope


def club(request: HttpRequest) -> dict[str, object]:
    try:
        bot = club_bot()  # the bot of the club the page is for
    except NoClubInScope:  # a page for no club (the 404 of an address no club has)
        bot = None
    return {
        # The club's name and mark for the header, the title and the icons; read when a
        # template first asks (the settings row is kept in the process for a few seconds).
        "club": SimpleLazyObject(identity),
        "theme_color": THEME_COLOR,
        "telegram_console_mode": bot is None or bot.console,
        "telegram_bot_username": bot.username if bot else "",
        # The embedded site's stand-in for Telegram's Mini App script (DEBUG, no bot).
        "mini_app_demo": bot is not None and mini_app_demo_on(),
        # The login popup is opened with the bot's numeric id, the token's first part.
        "telegram_bot_id": bot.bot_id if bot and bot.username else "",
    }
