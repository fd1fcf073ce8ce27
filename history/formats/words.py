"""The words a club writes in its own sheets, read into the records' values: dates in the
usual Russian forms, how and when a player left, the winning side, a role by its code or
its name. Each reader returns None for what it cannot read; the caller says where.

Every pattern here is anchored and has no nested repetition, and a cell is cut to a short
length before any pattern sees it, so a long or hostile cell costs no more than its copy."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime

from history.formats.records import Left

# A cell longer than this is no date, seat or word of the game: it is refused unread.
SHORT = 40

# 07.12.2026, 7.12.26, 07/12/2026, 7-12-2026
_DMY = re.compile(r"(\d{1,2})[./-](\d{1,2})[./-](\d{2}|\d{4})")
# 2026-12-07 (ISO), also 2026.12.07
_YMD = re.compile(r"(\d{4})[./-](\d{1,2})[./-](\d{1,2})")
# 7 декабря 2026, 7 дек. 2026, 7 декабря 2026 г.
_WORDS = re.compile(r"(\d{1,2})\s+([а-я]{3,8})\.?\s+(\d{4})(?:\s*г\.?)?")
# The months in the genitive («7 декабря») and the nominative; an abbreviation is a prefix
# of either of at least three letters («дек», «сент», «февр»).
_MONTHS = (
    ("января", "январь"),
    ("февраля", "февраль"),
    ("марта", "март"),
    ("апреля", "апрель"),
    ("мая", "май"),
    ("июня", "июнь"),
    ("июля", "июль"),
    ("августа", "август"),
    ("сентября", "сентябрь"),
    ("октября", "октябрь"),
    ("ноября", "ноябрь"),
    ("декабря", "декабрь"),
)
# A time after the date (a spreadsheet's date cell written as text with its midnight).
_TIME = re.compile(r"\s+\d{1,2}:\d{2}(?::\d{2})?$")


def fold(text: str) -> str:
    """A word compared as people mean it: lower case, ё as е, inner spaces single."""
    return " ".join(text.lower().replace("ё", "е").split())


def _month(word: str) -> int | None:
    for number, forms in enumerate(_MONTHS, start=1):
        if any(form.startswith(word) for form in forms):
            return number
    return None


def _made(year: int, month: int, day: int) -> date | None:
    if year < 100:
        year += 2000  # «7.12.26»: a club's records are of this century
    try:
        return date(year, month, day)
    except ValueError:
        return None


def read_date(value: object) -> date | None:
    """A date cell: a spreadsheet's own date, or text in one of the usual Russian forms."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if not isinstance(value, str) or len(value) > SHORT:
        return None
    text = _TIME.sub("", fold(value))
    if match := _DMY.fullmatch(text):
        day, month, year = (int(part) for part in match.groups())
        return _made(year, month, day)
    if match := _YMD.fullmatch(text):
        year, month, day = (int(part) for part in match.groups())
        return _made(year, month, day)
    if match := _WORDS.fullmatch(text):
        month_number = _month(match.group(2))
        if month_number is None:
            return None
        return _made(int(match.group(3)), month_number, int(match.group(1)))
    return None


_LEFT: dict[str, Left] = {
    **dict.fromkeys(
        ("killed", "shot", "убит", "убита", "застрелен", "застрелена", "отстрел"), Left.KILLED
    ),
    **dict.fromkeys(
        ("voted", "заголосован", "заголосована", "выставлен", "выставлена", "повешен"), Left.VOTED
    ),
    **dict.fromkeys(("fouls", "фолы", "по фолам", "удален", "удалена"), Left.FOULS),
    **dict.fromkeys(
        ("disqualified", "дисквалифицирован", "дисквалифицирована", "дисквалификация"),
        Left.DISQUALIFIED,
    ),
}


def read_left(text: str) -> Left | None:
    return _LEFT.get(fold(text)[:SHORT])


# N1, D2, Н1, Д2, «ночь 1», «день 2», "night 1", "day 2", and the number first: «1 ночь».
_WHEN = re.compile(r"(n|d|н|д|ночь|день|night|day)\s?(\d{1,2})")
_WHEN_AFTER = re.compile(r"(\d{1,2})\s?(n|d|н|д|ночь|день|night|day)")
_NIGHT = frozenset({"n", "н", "ночь", "night"})


def read_when(text: str) -> str | None:
    """«N1» or «D2», as the record keeps it."""
    folded = fold(text)
    if len(folded) > SHORT:
        return None
    if match := _WHEN.fullmatch(folded):
        word, number = match.groups()
    elif match := _WHEN_AFTER.fullmatch(folded):
        number, word = match.groups()
    else:
        return None
    if int(number) < 1:
        return None
    return f"{'N' if word in _NIGHT else 'D'}{int(number)}"


# Names the club's sheets use for a role besides its catalogue names: the field's older
# words for the commissar and the boss, and the English ones.
ROLE_ALIASES: dict[str, str] = {
    "шериф": "commissar",
    "комиссар": "commissar",
    "sheriff": "commissar",
    "commissar": "commissar",
    "дон": "boss",
    "don": "boss",
    "босс": "boss",
    "boss": "boss",
    "мирный": "civilian",
    "мирный житель": "civilian",
    "мирная": "civilian",
    "житель": "civilian",
    "civilian": "civilian",
    "citizen": "civilian",
    "мафия": "mafia",
    "мафиози": "mafia",
    "mafia": "mafia",
    "доктор": "doctor",
    "врач": "doctor",
    "doctor": "doctor",
    "маньяк": "maniac",
    "maniac": "maniac",
    "камикадзе": "kamikaze",
    "kamikaze": "kamikaze",
    "жулик": "swindler",
    "swindler": "swindler",
    "нагнетатель": "instigator",
    "instigator": "instigator",
}


class RoleBook:
    """The club's catalogue as a reader sees it: a role by its code, its Russian name or a
    known alias, whatever the case; only the club's own roles are found."""

    def __init__(self, roles: Mapping[str, str]) -> None:
        self.codes = frozenset(roles)
        self._names: dict[str, str] = {}
        for alias, code in ROLE_ALIASES.items():
            if code in self.codes:
                self._names[alias] = code
        for code, name in roles.items():
            self._names[fold(name)] = code
            self._names[fold(code)] = code

    def code(self, text: str) -> str | None:
        return self._names.get(fold(text)[:SHORT])


_RED = frozenset({"red", "красные", "красный", "город", "мирные", "мирный город"})
_BLACK = frozenset({"black", "черные", "черный", "мафия"})


def read_winner(text: str, book: RoleBook) -> str | None:
    """ "red", "black", or a loner's role code (whether it is a loner at the table is the
    game's check)."""
    folded = fold(text)[:SHORT]
    if folded in _RED:
        return "red"
    if folded in _BLACK:
        return "black"
    return book.code(folded)
