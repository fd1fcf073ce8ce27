"""The shape of an event as it arrives from a phone, the API or an imported file.

The engine decides whether an event is allowed; this only makes sure it carries the fields
its type knows and nothing else, with times that parse, so the log holds clean protocol
events (PROTOCOL.md).
"""

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from games.log import UNDO
from games.rules.errors import ProtocolError

COMMON = {"type", "at", "note"}
FIELDS: dict[str, set[str]] = {
    "day": {"n"},
    "night": {"n"},
    "nominate": {"by", "target"},
    "votes": {"counts", "voters"},
    "first_day_expel": {"for"},
    "hands": {"counts", "voters"},
    "expel_both": {"for"},
    "foul": {"seat", "reason"},
    "extension": {"seat"},
    "check": {"by", "target"},
    "kill": {"by", "target"},
    "heal": {"target"},
    "action": {"by", "target", "kind"},
    "speech": {"seat", "start", "end", "limit"},
    "last_word": {"seat", "start", "end"},
    UNDO: set(),
}
# The online ruleset's events (PROTOCOL.md), judged by games/rules/online.py.
ONLINE_FIELDS: dict[str, set[str]] = {
    "day": {"n"},
    "night": {"n"},
    "vote": {"voter", "target"},
    "fast": {"voter"},
    "unfast": {"voter"},
    "shot": {"by", "target"},
    "don_check": {"target"},
    "com_check": {"target"},
    "warning": {"seat", "reason"},
    "modkill": {"seat", "reason"},
    "revote": {"voter", "target"},
    "post": {"seat", "text"},
    "extend": {"minutes"},
    "day_end": set(),
    "night_end": set(),
}
TEXT_MAX = 200
MAX_SPEECH_SECONDS = 600


def _time(value: Any, key: str) -> datetime:
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise ProtocolError(
            f"Поле «{key}» — время ISO 8601 с часовым поясом.",
            f"Field `{key}` is an ISO 8601 time with a time zone.",
        )
    return moment


def normalize(raw: Any, ruleset: str = "club") -> dict[str, Any]:
    """The event as it will be stored, or ProtocolError saying what is wrong with it."""
    if not isinstance(raw, Mapping):
        raise ProtocolError("Событие должно быть объектом.", "An event must be an object.")
    known = ONLINE_FIELDS if ruleset == "online" else FIELDS
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in known:
        raise ProtocolError(f"Неизвестный тип события: {kind!r}.", f"Unknown event type: {kind!r}.")
    unknown = set(raw) - known[kind] - COMMON
    if unknown:
        names = ", ".join(sorted(unknown))
        raise ProtocolError(
            f"Лишние поля в событии «{kind}»: {names}.", f"Unknown fields in `{kind}`: {names}."
        )
    event = dict(raw)
    for key in ("note", "reason", "kind"):
        if key in event and (not isinstance(event[key], str) or len(event[key]) > TEXT_MAX):
            raise ProtocolError(
                f"Поле «{key}» — текст до {TEXT_MAX} символов.",
                f"Field `{key}` is a text of up to {TEXT_MAX} characters.",
            )
    if "at" in event:
        _time(event["at"], "at")
    if "start" in event or "end" in event or kind == "speech":
        start, end = _time(event.get("start"), "start"), _time(event.get("end"), "end")
        if not 0 <= (end - start).total_seconds() <= MAX_SPEECH_SECONDS:
            raise ProtocolError(
                "Речь кончается после начала и длится не больше 10 минут.",
                "A speech ends after it starts and lasts 10 minutes at most.",
            )
    if kind == "speech":
        limit = event.get("limit")
        if type(limit) is not int or not 1 <= limit <= MAX_SPEECH_SECONDS:
            raise ProtocolError(
                "Поле «limit» — секунды на речь (1–600).",
                "Field `limit` is the seconds allowed for the speech (1–600).",
            )
    return event
