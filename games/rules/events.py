"""The shape of an event as it arrives from a phone, the API, the bot or an imported file.

The engine decides whether an event is allowed; this only makes sure it carries the fields
its type knows and nothing else, with texts and times a database can hold, so the log holds
clean protocol events (PROTOCOL.md). Every door goes through it: the host's taps, online
actions, and every event of an imported or replayed protocol.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Literal, cast, overload

from games.rules.errors import ProtocolError, gettext_noop
from games.rules.event_types import ClubEntry, EventCommon, OnlineEvent


def _fields(union: typing.TypeAliasType) -> dict[str, set[str]]:
    """Each kind's own field names (the common ones apart), from the TypedDicts of a
    ruleset's union (games/rules/event_types.py): the shape is written there once."""
    fields: dict[str, set[str]] = {}
    pending: list[object] = [union]
    while pending:
        hint = pending.pop(0)
        if isinstance(hint, typing.TypeAliasType):
            pending[:0] = [hint.__value__]
        elif typing.get_origin(hint) in (typing.Union, types.UnionType):
            pending[:0] = typing.get_args(hint)
        else:
            hints = typing.get_type_hints(hint)
            (kind,) = typing.get_args(hints["type"])
            fields[kind] = set(hints) - COMMON
    return fields


COMMON = {"type", *typing.get_type_hints(EventCommon)}
FIELDS = _fields(ClubEntry)  # the undo's included: the host's log holds it
# The online ruleset's events (PROTOCOL.md), judged by games/rules/online/.
ONLINE_FIELDS = _fields(OnlineEvent)
TEXT_MAX = 200
POST_MAX = 4000
MAX_SPEECH_SECONDS = 600
# A time in the protocol: ISO 8601 with an offset a database can store (PostgreSQL's
# ±15:59), in years a club plays in, so every later reading of it works.
MAX_OFFSET = timedelta(hours=15, minutes=59)
EARLIEST_YEAR, LATEST_YEAR = 1900, 2999
# A seat number, a count or a minute is a small whole number; a larger one is a typo or an
# attack, and would overflow a database integer further on.
NUMBER_MAX = 100_000


# Why a moment is refused, in English (the engine's words; the site says them in the
# reader's language: club.kernel.parsing).
NO_ZONE = "a time zone is required"
OFFSET_BEYOND = "the time zone offset is beyond ±15:59"
YEAR_OUTSIDE = f"the year is outside {EARLIEST_YEAR}–{LATEST_YEAR}"


def moment_problem(moment: datetime) -> str | None:
    """Why an aware datetime cannot be a club's moment, in English, or None if it can."""
    offset = moment.utcoffset()
    if offset is None:
        return NO_ZONE
    if abs(offset) > MAX_OFFSET:
        return OFFSET_BEYOND
    if not EARLIEST_YEAR <= moment.year <= LATEST_YEAR:
        return YEAR_OUTSIDE
    return None


# The one rule for every text from outside: what a database cannot store is refused (or,
# where it cannot be refused, replaced by U+FFFD): NUL, which PostgreSQL's text and jsonb
# refuse, and a lone surrogate, which JSON's "\ud800" decodes to and no UTF-8 can carry.
# Every door applies it through club.kernel.parsing; it lives here, pure, so the engine's own
# check of an event's texts is the same rule.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable_text(text: str) -> bool:
    if "\x00" in text:
        return False
    # Most texts are ASCII, which holds no surrogate: the regular expression only for the rest.
    return text.isascii() or UNSTORABLE.search(text) is None


def _time(value: object, key: str) -> datetime:
    moment = None
    if isinstance(value, str) and len(value) <= 64:
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            moment = None
    if moment is None or moment_problem(moment) is not None:
        raise ProtocolError(
            gettext_noop("Field `%(key)s` is an ISO 8601 time with a time zone (up to ±15:59)."),
            key=key,
        )
    return moment


def _clean_values(pending: list[tuple[object, str]]) -> None:
    """Every text in the event, keys included, storable (no NUL, no lone surrogate), and
    every number a small whole one or a plain float. `pending` holds
    (value, where) pairs; the walk is a loop, so no nesting can exhaust the stack."""
    while pending:
        item, place = pending.pop()
        if isinstance(item, str):
            if not storable_text(item):
                raise ProtocolError(
                    gettext_noop("Field `%(where)s` holds a NUL character, which is not allowed."),
                    where=place,
                )
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, (int, float)):
            # NaN compares false with everything: it fails the range too.
            if not -NUMBER_MAX <= item <= NUMBER_MAX:
                raise ProtocolError(
                    gettext_noop("Field `%(where)s`: not a usable number."), where=place
                )
        elif isinstance(item, (list, tuple)):
            pending.extend((child, place) for child in item)
        elif isinstance(item, (dict, Mapping)):  # dict first, in C: the ABC is slow
            for key, child in item.items():
                pending.append((key, place))
                pending.append((child, f"{place}.{key}"))
        else:
            raise ProtocolError(
                gettext_noop("Field `%(where)s`: an unexpected value."), where=place
            )


@overload
def normalize(raw: object, ruleset: Literal["club"] = "club") -> ClubEntry: ...
@overload
def normalize(raw: object, ruleset: Literal["online"]) -> OnlineEvent: ...
@overload
def normalize(raw: object, ruleset: str) -> ClubEntry | OnlineEvent: ...


def normalize(raw: object, ruleset: str = "club") -> ClubEntry | OnlineEvent:
    """The event as it will be stored, or ProtocolError saying what is wrong with it.

    Its type is its ruleset's union of kinds: every field is one its kind knows, its texts
    and times storable; the values of the rest (seats, counts) the engine judges as it
    reads them (games/rules/event_types.py)."""
    if not isinstance(raw, dict) and not isinstance(raw, Mapping):  # dict: the ABC is slow
        raise ProtocolError(gettext_noop("An event must be an object."))
    known = ONLINE_FIELDS if ruleset == "online" else FIELDS
    kind = raw.get("type")
    if kind is None:  # «unknown type None» would name Python's word for nothing
        raise ProtocolError(gettext_noop("An event needs its `type`."))
    if not isinstance(kind, str) or kind not in known:
        raise _unknown_type(kind)
    if not raw.keys() <= known[kind] | COMMON:
        raise _unknown_fields(kind, raw.keys(), known[kind] | COMMON)
    event = dict(raw)
    _clean_values([(value, str(key)) for key, value in event.items()])
    if kind in ("bonus", "disqualify"):
        _shape_judged(event)
    for key in ("note", "reason", "kind", "override"):
        if key in event and (not isinstance(event[key], str) or len(event[key]) > TEXT_MAX):
            raise ProtocolError(
                gettext_noop("Field `%(key)s` is a text of up to %(TEXT_MAX)s characters."),
                key=key,
                TEXT_MAX=TEXT_MAX,
            )
    if "inactivity" in event and type(event["inactivity"]) is not bool:
        raise ProtocolError(gettext_noop("`inactivity` is true or false."))
    if "text" in event and (not isinstance(event["text"], str) or len(event["text"]) > POST_MAX):
        raise ProtocolError(gettext_noop("A post's text is up to 4000 characters."))
    _check_times(event, kind)
    return cast("ClubEntry | OnlineEvent", event)


def _shape_judged(event: dict[str, object]) -> None:
    """A bonus or a disqualification as it is kept: its reason trimmed (the engine requires
    one), a bonus's whole points as a float (the same points whichever way a client wrote
    them)."""
    reason, points = event.get("reason"), event.get("points")
    if isinstance(reason, str):
        event["reason"] = reason.strip()
    if type(points) is int:
        event["points"] = float(points)


def _check_times(event: Mapping[str, object], kind: str) -> None:
    """A moment, a speech's start and end (and a speech's limit) as the protocol has them."""
    if "at" in event:
        _time(event["at"], "at")
    if "start" in event or "end" in event or kind == "speech":
        start, end = _time(event.get("start"), "start"), _time(event.get("end"), "end")
        if not 0 <= (end - start).total_seconds() <= MAX_SPEECH_SECONDS:
            raise ProtocolError(
                gettext_noop("A speech ends after it starts and lasts 10 minutes at most.")
            )
    if kind == "speech":
        limit = event.get("limit")
        if type(limit) is not int or not 1 <= limit <= MAX_SPEECH_SECONDS:
            raise ProtocolError(
                gettext_noop("Field `limit` is the seconds allowed for the speech (1–600).")
            )


def _unknown_type(kind: object) -> ProtocolError:
    shown = kind if isinstance(kind, str | int | None) else type(kind).__name__
    if isinstance(shown, str):
        shown = shown.replace("\x00", "\\0")[:40]
    return ProtocolError(gettext_noop("Unknown event type: %(shown)s."), shown=repr(shown))


def _unknown_fields(kind: str, keys: Iterable[object], allowed: set[str]) -> ProtocolError:
    unknown = {str(key) for key in keys} - allowed
    names = ", ".join(sorted(name.replace("\x00", "\\0")[:40] for name in unknown))
    return ProtocolError(
        gettext_noop("Unknown fields in `%(kind)s`: %(names)s."), kind=kind, names=names
    )
