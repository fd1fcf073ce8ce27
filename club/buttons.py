"""The evening's buttons in Telegram: labels and callback data defined once, for the bot's
evening card and for the club's reminders, and read back when a member presses one."""

from __future__ import annotations

from django.conf import settings

from club import texts
from club.kernel.bots import club_address, club_bot
from club.kernel.parsing import whole_number

Button = dict[str, str]

SIGN_UP, CONFIRM, CANCEL, UNDO = "su", "cf", "cx", "cu"
# «Не смогу» asks first, as on the site: «Да, не смогу» gives the place up (then «Вернуть»),
# «Нет, остаюсь» keeps it.
LEAVE, STAY = "cy", "cn"
ACTIONS = (SIGN_UP, CONFIRM, CANCEL, UNDO, LEAVE, STAY)


def sign_up(evening_id: int) -> Button:
    return {"text": texts.ok_playing_label(), "callback_data": f"{SIGN_UP}:{evening_id}"}


def confirm(evening_id: int) -> Button:
    return {"text": texts.confirm_labels()[0], "callback_data": f"{CONFIRM}:{evening_id}"}


def cancel(evening_id: int) -> Button:
    return {"text": texts.confirm_labels()[1], "callback_data": f"{CANCEL}:{evening_id}"}


def leave(evening_id: int) -> Button:
    return {"text": texts.leave_labels()[0], "callback_data": f"{LEAVE}:{evening_id}"}


def stay(evening_id: int) -> Button:
    return {"text": texts.leave_labels()[1], "callback_data": f"{STAY}:{evening_id}"}


def undo(evening_id: int) -> Button:
    return {"text": texts.undo_label(), "callback_data": f"{UNDO}:{evening_id}"}


def mini_app(evening_id: int) -> Button | None:
    """«Открыть в приложении клуба» in a private chat: the club's app on this evening.
    Telegram opens only https addresses in a Mini App: none for a site without one."""
    if not settings.SITE_URL.startswith("https://") or not club_bot().username:
        return None
    url = f"{club_address('mini_app_start')}?startapp=evening-{evening_id}"
    return {"text": texts.open_in_app_label(), "web_app": url}


def pressed(data: str) -> tuple[str, int] | None:
    """(action, evening id) of an evening button's callback data, or None for another."""
    action, _colon, argument = data.partition(":")
    evening_id = whole_number(argument, low=1)
    if action not in ACTIONS or evening_id is None:
        return None
    return action, evening_id
