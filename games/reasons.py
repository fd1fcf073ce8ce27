"""A host's written reason (extra points, a foul, a warning), and the players it names.

A reason names a player by seat: the forms put a seat picker beside the reason, which
writes a reference `{seat:4}` into the text as it is stored. Each reader sees a reference
as the seat's nickname where they may see it (games/access.py) and as «место 4» where not.

Free text may not name a seated player: a nickname in any of its grammatical forms
(«раскусил Лису», «Кота Бегемота», «Foxа», «Ravens») is refused at every door that takes a
reason (games.recording.game_record_event and the online table's moderation) with «назовите
игрока местом». Russian speakers decline names as a matter of course, so the forms come
from a morphological analyser (pymorphy3 with the OpenCorpora dictionary it ships as a
package); a word it does not know gets the paradigm it predicts. A reason written before
this check (or before a member refused publication) is screened again as it is shown: a
hidden player's nickname in any form says «место N» instead.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from club.kernel.errors import RefusalCode, Refused
from games import access
from games.models import Seat

# The stored reference to a seat in a reason.
SEAT_REF = re.compile(r"\{seat:(\d{1,2})\}")
# A word of a text: letters (any script) and digits, with an ending or a particle of up to
# three letters joined by an apostrophe or a hyphen («Fox'а», «Raven's», «Лиса-то»).
WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]{1,3}(?![^\W_]))?")
JOINER = re.compile(r"['’-]")
# A Latin nickname declined the Russian way is written with a Cyrillic ending glued on
# («Foxа», «Raven-у» is split above), or takes an English plural or possessive.
LATIN_ENDING = re.compile(r"(?:s|es|[а-яё]{1,3})?")
# The words of the game itself, which a nickname of several words may contain («Доктор
# Хаус», «Дон Корлеоне»): screened only as part of the whole nickname, never alone.
GAME_WORDS = frozenset(
    {
        "мафия",
        "мафиози",
        "дон",
        "шериф",
        "комиссар",
        "доктор",
        "мирный",
        "маньяк",
        "игрок",
        "место",
        "стол",
        "ведущий",
        "красный",
        "черный",
        "город",
        "день",
        "ночь",
        "don",
        "doctor",
        "sheriff",
        "mafia",
        "player",
        "seat",
    }
)
# A word of a nickname of several words shorter than this is screened only as part of it.
SHORTEST_PART = 3


@dataclass(frozen=True)
class Naming:
    """What a reason may call each seat for one reader: `names`, the nickname of whoever
    sits there; `visible`, the seats whose nickname this reader may see."""

    names: Mapping[int, str]
    visible: frozenset[int]

    def hidden(self) -> dict[int, str]:
        return {seat: name for seat, name in self.names.items() if seat not in self.visible}


# A reader who may see no seat's name (whose reasons have no names at hand).
NOBODY = Naming({}, frozenset())


def seat_word(seat: int) -> str:
    """A seat as a reason says it to whoever may not see its name: «место 4»."""
    return _("seat %(seat)s") % {"seat": seat}


def _fold(word: str) -> str:
    return word.lower().replace("ё", "е")


@functools.cache
def _analyzer() -> object:
    # Loaded once per process, on the first reason screened (~0.1 s, ~15 MB).
    import pymorphy3  # only the reasons' readers and writers pay for it

    return pymorphy3.MorphAnalyzer(lang="ru")


@functools.lru_cache(maxsize=4096)
def word_forms(word: str) -> frozenset[str]:
    """Every form of one word of a nickname, folded (lower case, ё as е): the lexemes of
    its readings as a nominative (a nickname is written in it; every reading when none
    is), or the word itself for a word that is not Cyrillic (its endings: _matches)."""
    folded = _fold(word)
    if not re.search("[а-я]", folded):
        return frozenset({folded})
    parses = _analyzer().parse(folded)  # type: ignore[attr-defined]
    nominative = [p for p in parses if "nomn" in p.tag] or parses
    forms = {folded}
    for parse in nominative:
        forms.update(_fold(form.word) for form in parse.lexeme)
    return frozenset(forms)


def _word_matches(word: str, part: str) -> bool:
    """Whether a word of the text is a form of a word of a nickname."""
    joined = JOINER.split(word, maxsplit=1)
    if len(joined) > 1:  # the word before an ending or a particle joined to it
        return _word_matches(joined[0], part)
    folded = _fold(word)
    if folded in word_forms(part):
        return True
    stem = _fold(part)
    if re.search("[а-я]", stem) or not folded.startswith(stem):
        return False
    return LATIN_ENDING.fullmatch(folded[len(stem) :]) is not None


@dataclass(frozen=True)
class Found:
    """Where a seat's nickname stands in a text, and in which form."""

    seat: int
    start: int
    end: int
    text: str


def _patterns(name: str) -> list[list[str]]:
    """The word sequences that name the holder of `name`: the whole nickname, and for a
    nickname of several words each word that is no word of the game, not too short and
    not a number (a reason's numbers are seats and points)."""
    parts = re.findall(r"[^\W_]+", name)
    if not parts:
        return []
    found = [parts]
    if len(parts) > 1:
        found += [
            [part]
            for part in parts
            if len(part) >= SHORTEST_PART and _fold(part) not in GAME_WORDS and not part.isdigit()
        ]
    return found


def find_names(text: str, names: Mapping[int, str]) -> list[Found]:
    """The places in `text` where a seat's nickname stands, in any grammatical form, not
    overlapping (the longest first: «Кот Бегемот» before «Кот»). References are skipped."""
    words = [
        (m.start(), m.end(), m.group())
        for m in WORD.finditer(SEAT_REF.sub(lambda ref: " " * len(ref.group()), text))
    ]
    candidates: list[Found] = []
    for seat, name in names.items():
        for pattern in _patterns(name):
            size = len(pattern)
            for i in range(len(words) - size + 1):
                run = words[i : i + size]
                if all(_word_matches(w[2], part) for w, part in zip(run, pattern, strict=True)):
                    start, end = run[0][0], run[-1][1]
                    candidates.append(Found(seat, start, end, text[start:end]))
    candidates.sort(key=lambda f: (f.start, -(f.end - f.start)))
    kept: list[Found] = []
    for found in candidates:
        if not kept or found.start >= kept[-1].end:
            kept.append(found)
    return kept


def refuse_names(texts: Iterable[str], names: Mapping[int, str]) -> None:
    """The one refusal of a reason that names a seated player in words, at every door."""
    for text in texts:
        found = find_names(text, names)
        if found:
            first = found[0]
            raise Refused(
                _("Name the player by seat: «%(word)s» is the name of seat %(seat)d.")
                % {"word": first.text, "seat": first.seat},
                RefusalCode.INVALID,
                seat=first.seat,
            )


# The fields of an event in which a host writes words.
TEXT_FIELDS = ("reason", "override", "note")


def event_texts(event: Mapping[str, object]) -> Iterator[str]:
    for key in TEXT_FIELDS:
        value = event.get(key)
        if isinstance(value, str):
            yield value


def with_texts(event: Mapping[str, Any], change: Callable[[str], str]) -> Mapping[str, Any]:
    """`event` with each of its written words changed by `change` (the event itself when
    it has none)."""
    texts = {key: change(event[key]) for key in TEXT_FIELDS if isinstance(event.get(key), str)}
    return {**event, **texts} if texts else event


def refuse_named_event(event: Mapping[str, object], names: Mapping[int, str]) -> None:
    refuse_names(event_texts(event), names)


def screened(text: str, hidden: Mapping[int, str], say: Callable[[int], str] = seat_word) -> str:
    """`text` with each `hidden` seat's nickname, in any form, replaced by `say(seat)`
    («место N» unless told otherwise)."""
    if not hidden or not text:
        return text
    out, last = [], 0
    for found in find_names(text, hidden):
        out += [text[last : found.start], say(found.seat)]
        last = found.end
    return "".join([*out, text[last:]])


def shown(text: str, naming: Naming) -> str:
    """A reason as this reader reads it: references as the seat's nickname or «место N»,
    and the free text's hidden nicknames as «место N»."""
    hidden = naming.hidden()
    parts, last = [], 0
    for ref in SEAT_REF.finditer(text):
        parts.append(screened(text[last : ref.start()], hidden))
        seat = int(ref.group(1))
        name = naming.names.get(seat)
        parts.append(name if name and seat in naming.visible else seat_word(seat))
        last = ref.end()
    parts.append(screened(text[last:], hidden))
    return "".join(parts)


def as_references(text: str, hidden: Mapping[int, str]) -> str:
    """A reason as the protocol gives it: the references kept, and a hidden nickname in
    the free text written as a reference too."""
    return screened(text, hidden, lambda seat: f"{{seat:{seat}}}")


def seat_names(seats: Iterable[Seat]) -> dict[int, str]:
    """Each seat's nickname (a guest linked to a member goes by the member's): the names a
    reason may not write in words. Read the seats with `member` and `guest__member`."""
    return {seat.number: access.seat_nickname(seat) for seat in seats}
