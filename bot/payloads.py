"""The shapes of what the bot hands on: the answer to a button press (a Bot API call the
webhook returns as its response, or long polling makes), and an online game's action as a
player's door sends it. Buttons are the outbox's (`notifications.services.Buttons`: rows
of {"text", "callback_data" or "url"})."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict


class CallbackAnswer(TypedDict):
    """answerCallbackQuery's parameters: the toast shown on the pressed button."""

    method: Literal["answerCallbackQuery"]
    callback_query_id: str
    text: str  # at most 200 characters, as Telegram shows them


class PlayerAction(TypedDict):
    """An action in the online game (games.online.services.online_act): the engine's event
    without the actor's seat, which the service fills in from the member."""

    type: str  # vote, revote, fast, unfast, shot, don_check, com_check, post
    target: NotRequired[int | str]  # a seat, or a word: "pass", "hang_all", "pardon_all"
    text: NotRequired[str]  # a post's
