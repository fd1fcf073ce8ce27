"""The parts of a Telegram update the bot acts on; anything else is not for it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Incoming:
    update_id: int
    telegram_id: int
    chat_id: int
    username: str
    text: str = ""  # a message's text
    callback_id: str = ""  # a button press
    data: str = ""  # the pressed button's callback data
    language: str = ""  # the sender's Telegram app's language ("en", "pt-br", …; may be absent)


def parse_update(raw: object) -> Incoming | None:
    """The parts of an update the bot acts on, or None for anything else."""
    if not isinstance(raw, dict) or not _id(raw.get("update_id")):
        return None
    update_id = raw["update_id"]
    if isinstance(message := raw.get("message"), dict):
        sender, chat = message.get("from"), message.get("chat")
        if (
            not isinstance(sender, dict)
            or not isinstance(chat, dict)
            or chat.get("type") != "private"
        ):
            return None
        text = message.get("text")
        if not _id(sender.get("id")) or not _id(chat.get("id")) or not isinstance(text, str):
            return None
        return Incoming(
            update_id,
            sender["id"],
            chat["id"],
            str(sender.get("username") or "")[:64],
            text=text[:1000],
            language=_language(sender),
        )
    if isinstance(callback := raw.get("callback_query"), dict):
        sender = callback.get("from")
        data, callback_id = callback.get("data"), callback.get("id")
        if not isinstance(sender, dict) or not _id(sender.get("id")):
            return None
        if not isinstance(data, str) or not isinstance(callback_id, str):
            return None
        return Incoming(
            update_id,
            sender["id"],
            sender["id"],
            str(sender.get("username") or "")[:64],
            callback_id=callback_id,
            data=data[:64],
            language=_language(sender),
        )
    return None


def _id(value: object) -> bool:
    """A Telegram id: a whole number a database's bigint holds (Telegram's fit in 52 bits;
    a larger one is not Telegram's, and would fail the query instead of being ignored)."""
    return type(value) is int and -(2**63) <= value < 2**63


def _language(sender: dict[str, object]) -> str:
    """The sender's `language_code`, an IETF tag when Telegram sends one ("" otherwise)."""
    code = sender.get("language_code")
    return code[:16] if isinstance(code, str) else ""
