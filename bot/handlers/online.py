"""The online game: /online (the member's table and the buttons the engine allows now),
/say (a post in the day's thread) and the game's buttons (vote, fast, shoot, check)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from bot.cards import ONLINE_BUTTONS, online_card
from bot.chat import Chat
from bot.payloads import CallbackAnswer, PlayerAction
from club.kernel.parsing import whole_number


def _online_game(chat: Chat) -> int | None:
    """The member's running online game, the latest started if more than one."""
    from games.models import GameStatus, Ruleset, Seat

    assert chat.member is not None
    seat = (
        Seat.objects.filter(
            member=chat.member, game__ruleset=Ruleset.ONLINE, game__status=GameStatus.RUNNING
        )
        .order_by("-game__started_at")
        .first()
    )
    return seat.game_id if seat else None


def _online_act(chat: Chat, game_id: int, event: PlayerAction) -> str:
    """The action, answered with what it did and what remains."""
    from games.online import services as online_play

    assert chat.member is not None
    return online_play.online_act(game_id=game_id, user=chat.member, event=event).answer


def on_online(chat: Chat, _argument: str) -> None:
    if chat.member is None:
        chat.not_linked()
        return
    game_id = _online_game(chat)
    if game_id is None:
        chat.reply(_("You are not in a running online game."))
        return
    chat.reply(*online_card(game_id, chat.member))


def on_say(chat: Chat, text: str) -> None:
    if chat.member is None:
        chat.not_linked()
        return
    game_id = _online_game(chat)
    if game_id is None or not text:
        chat.reply(_("Write /say and your post, in a running online game."))
        return
    chat.reply(_online_act(chat, game_id, {"type": "post", "text": text[:4000]}))


def on_online_button(chat: Chat, action: str, argument: str) -> CallbackAnswer:
    """Callback data "<action>:<game>:<target>" (bot/cards.py's ONLINE_BUTTONS)."""
    game, _colon, raw = argument.partition(":")
    game_id = whole_number(game, low=1)
    if game_id is None or not raw:
        return chat.toast(_("This button no longer works."))
    number = whole_number(raw)
    kind, field = ONLINE_BUTTONS[action]
    event: PlayerAction = {"type": kind}
    if kind == "fast" and raw == "0":
        event = {"type": "unfast"}
    elif field:  # "target", the one field a button fills
        event["target"] = raw if number is None else number
    return chat.toast(_online_act(chat, game_id, event))
