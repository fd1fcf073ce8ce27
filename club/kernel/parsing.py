"""Strict readers for what arrives from outside: numbers, moments, texts, JSON.

One reader per kind, used by every door (pages, API, bot, admin), so "a number" or "a time"
means the same everywhere, and nothing that would crash a lower layer gets past the edge:
`str.isdigit()` accepts «²» and «٣», which `int()` then refuses; Python takes offsets up
to ±23:59, which PostgreSQL does not (games/rules/events.moment_problem); `json.loads`
recurses without a bound; PostgreSQL refuses a NUL in text and jsonb.

Texts follow one rule (games/rules/events.UNSTORABLE): what a database cannot store is
refused. It is applied at every door: JSON bodies here (`loads`), the path and query of
every request (club.doors.middleware.StorableInputMiddleware), form fields by Django's own NUL
check, and Telegram's updates, which cannot be refused, are made storable (`storable`).
"""

from __future__ import annotations

import json
import re
import unicodedata
from datetime import UTC, datetime, tzinfo
from typing import Annotated, Any

from django.utils.translation import gettext as _
from pydantic import AfterValidator, BeforeValidator, WithJsonSchema

# The one definition of a storable moment: the protocol's (pure, importable by anything).
from games.rules.events import (
    EARLIEST_YEAR,
    LATEST_YEAR,
    NO_ZONE,
    OFFSET_BEYOND,
    UNSTORABLE,
    YEAR_OUTSIDE,
    moment_problem,
    storable_text,
)

__all__ = ["UNSTORABLE", "moment_problem", "storable_text"]

# ASCII digits only, with an optional minus; at most 18 of them (inside a bigint).
_WHOLE = re.compile(r"-?[0-9]{1,18}")
BIGINT_MAX = 2**63 - 1


# Characters nobody sees: controls, format characters (zero-width spaces and joiners,
# direction marks and overrides), line and paragraph separators.
INVISIBLE = frozenset({"Cc", "Cf", "Zl", "Zp"})


def shows_something(text: str) -> bool:
    """Whether the text holds a character one sees (not only spaces and invisible ones)."""
    return any(not ch.isspace() and unicodedata.category(ch) not in INVISIBLE for ch in text)


def whole_number(raw: object, *, low: int = 0, high: int = BIGINT_MAX) -> int | None:
    """`raw` (an int, or a text of ASCII digits) as an int within [low, high], else None."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, str) and _WHOLE.fullmatch(raw.strip()):
        value = int(raw.strip())
    else:
        return None
    return value if low <= value <= high else None


def _text_only(value: object) -> object:
    """A moment is sent as ISO 8601 text: a bare number would be read as a Unix time."""
    if not isinstance(value, str | datetime):
        raise ValueError(_("must be a date and time (ISO 8601)"))
    return value


def moment_refusal(problem: str) -> str:
    """games/rules/events.moment_problem's English reason in the reader's language."""
    said = {
        NO_ZONE: _("needs its time zone, e.g. 2026-12-20T18:00:00+03:00"),
        OFFSET_BEYOND: _("the time zone offset must be within ±15:59"),
        YEAR_OUTSIDE: _("the year must be within %(earliest)d–%(latest)d")
        % {"earliest": EARLIEST_YEAR, "latest": LATEST_YEAR},
    }
    return said.get(problem, problem)


def _checked(moment: datetime) -> datetime:
    problem = moment_problem(moment)
    if problem is not None:
        raise ValueError(moment_refusal(problem))
    return moment


# For API schemas: an aware datetime a database can store. The schema states the same
# bounds (years 1900–2999, offsets up to ±15:59), so clients and schemathesis know them.
MOMENT_PATTERN = (
    r"^(19|2[0-9])[0-9]{2}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?"
    r"([Zz]|[+-](0[0-9]|1[0-5]):?[0-5][0-9])$"
)
Moment = Annotated[
    datetime,
    BeforeValidator(_text_only),
    AfterValidator(_checked),
    WithJsonSchema({"type": "string", "format": "date-time", "pattern": MOMENT_PATTERN}),
]


def parse_moment(raw: object, *, zone: tzinfo) -> datetime | None:
    """A form's date and time (ISO 8601; local to `zone` when it has no offset), or None."""
    if not isinstance(raw, str) or not raw.strip() or len(raw) > 64:
        return None
    try:
        moment = datetime.fromisoformat(raw.strip())
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    return None if moment_problem(moment) else moment


def utc_or_none(moment: datetime) -> datetime | None:
    """The moment in UTC, or None if it has no representation there."""
    try:
        return moment.astimezone(UTC)
    except (OverflowError, ValueError):
        return None


MAX_JSON_DEPTH = 32
# One token at a time: a whole string (to its closing quote, or to the end of an
# unterminated one) or a bracket. The quantifiers are possessive, so a string is read once
# and never re-tried from a later quote: the scan is linear in the body's length. (The
# regular expression this replaced, a substitution of whole strings, restarted at every
# quote of an unterminated string: quadratic, 30 s for 48 KB.)
_TOKEN = re.compile(rb'"(?:[^"\\]++|\\.)*+"?|[\[\]{}]', re.DOTALL)


def json_nesting(text: str | bytes, *, stop_above: int | None = None) -> int:
    """The deepest bracket nesting outside strings, counted before json.loads would recurse
    into it. With `stop_above`, the scan ends as soon as the nesting exceeds it."""
    return _nesting_scan(text, stop_above=stop_above)[0]


def _nesting_scan(text: str | bytes, *, stop_above: int | None = None) -> tuple[int, int]:
    """(the deepest nesting, the tokens read): the count is what tests measure linearity by."""
    data = text.encode() if isinstance(text, str) else text
    depth = deepest = steps = 0
    for token in _TOKEN.finditer(data):
        steps += 1
        first = token.group()[:1]
        if first == b'"':
            continue
        depth += 1 if first in b"[{" else -1
        if depth > deepest:
            deepest = depth
            if stop_above is not None and deepest > stop_above:
                break
    return deepest, steps


class Unreadable(ValueError):
    """A body the club will not read, with the reason in the reader's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class JSONTooDeep(Unreadable):
    pass


class UnstorableText(Unreadable):
    pass


def unstorable_place(document: object) -> str | None:
    """Where in a JSON document (keys included) a text breaks the rule, or None. A loop,
    so no nesting can exhaust the stack."""
    pending: list[tuple[object, str]] = [(document, "")]
    while pending:
        item, place = pending.pop()
        if isinstance(item, str):
            if not storable_text(item):
                return place or "."
        elif isinstance(item, list):
            pending.extend((child, f"{place}.{n}".lstrip(".")) for n, child in enumerate(item))
        elif isinstance(item, dict):
            for key, child in item.items():
                pending.append((key, place or "."))
                # The place is shown: a broken key is shown mended.
                pending.append((child, f"{place}.{storable(key)}".lstrip(".")))
    return None


def storable(document: Any) -> Any:
    """The document with every unstorable character replaced by U+FFFD: for what cannot be
    refused (Telegram's updates), so a NUL reads as a wrong value, never a database error."""
    if isinstance(document, str):
        return UNSTORABLE.sub("\ufffd", document)
    if isinstance(document, list):
        return [storable(item) for item in document]
    if isinstance(document, dict):
        return {storable(key): storable(value) for key, value in document.items()}
    return document


def loads(
    text: str | bytes, *, max_depth: int = MAX_JSON_DEPTH, replace_unstorable: bool = False
) -> Any:
    """json.loads with a bound on nesting and the rule for texts: Unreadable (JSONTooDeep,
    UnstorableText, or the decoder's own error as a ValueError) instead of recursing or
    handing a database what it cannot store. With `replace_unstorable`, such texts are
    made storable instead of refused."""
    if isinstance(text, bytes):
        # JSON travels as UTF-8 (RFC 8259). json.loads would also guess UTF-16 and -32,
        # whose bytes the nesting bound below would misread.
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise Unreadable(_("The body is not UTF-8 text.")) from error
    if json_nesting(text, stop_above=max_depth) > max_depth:
        raise JSONTooDeep(
            _("The JSON is nested deeper than %(depth)d levels.") % {"depth": max_depth}
        )
    document = json.loads(text)
    if replace_unstorable:
        return storable(document)
    place = unstorable_place(document)
    if place is not None:
        raise UnstorableText(
            _("%(where)s: a NUL character or a broken one (a lone surrogate) is not allowed.")
            % {"where": place}
        )
    return document
