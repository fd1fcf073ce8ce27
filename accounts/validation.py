"""Checks on what a person tells us about themselves, shared by every door (web, bot, API,
admin). Each raises Django's ValidationError with a message in the user's language."""

import re
import unicodedata
from datetime import date

from django.core.exceptions import ValidationError
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.age import coming_of_age, is_of_age
from accounts.lookalikes import lookalike_key, mixed_script_word

NICKNAME_MIN_LENGTH = 2
NICKNAME_MAX_LENGTH = 32
# Cyrillic (with Ё/ё) or Latin letters, digits, space, hyphen and underscore.
NICKNAME_CHARACTERS = re.compile(r"^[A-Za-zА-Яа-яЁё0-9 _-]+$")
_LETTER = re.compile(r"[A-Za-zА-Яа-яЁё]")
EARLIEST_BIRTH_DATE = date(1900, 1, 1)
# The words the site writes in a person's place, in both of its languages: a guest on an
# evening's list is «Гость» to the members (club.models.Registration.listed_name), and a
# player whose name is not shown is «Игрок 3» (games/ratings/publication.py's visible_nicks).
# A nickname or a guest's name that reads as one of them would pass for what the site says.
SITE_WORDS = ("Гость", "Игрок", "Guest", "Player")
_SITE_WORD_KEYS = {lookalike_key(word): word for word in SITE_WORDS}
# What the digits look like (TR39, accounts.lookalikes): «0» as «o», «1» as «l», «3» as «З».
_DIGIT_KEYS = frozenset("".join(lookalike_key(digit) for digit in "0123456789"))
_TOKEN = re.compile(r"[^\W_]+")
_TRAILING_DIGITS = re.compile(r"\d+$")


def normalize_nickname(raw: str) -> str:
    """Trim the ends and fold runs of spaces, so "Ворон " and "Ворон" are one nickname."""
    return " ".join(raw.split())


def login_key(login: str) -> str:
    """A nickname or email as it is matched: trimmed, spaces folded, case folded for every
    script (SQLite's LOWER() folds ASCII only, so this is done in Python)."""
    return normalize_nickname(login).casefold()


def identifier_fold(identifier: str) -> str:
    """A typed login as failed logins are counted when it names no account: compatibility
    forms folded (NFKC: «ｎｏｂｏｄｙ» is «nobody»), then case folded, then NFKC again
    (Unicode's identifier caseless match), spaces folded, so no variant gets a fresh count."""
    folded = unicodedata.normalize("NFKC", normalize_nickname(identifier)).casefold()
    return unicodedata.normalize("NFKC", folded)


def _reads_as_a_number(token: str) -> bool:
    """«3», «12», or a letter or two that look like digits («З», «О»): a seat's number."""
    looks = set(lookalike_key(token))
    return looks <= _DIGIT_KEYS and (any(ch.isdigit() for ch in token) or len(token) <= 2)


def reads_as_a_site_word(text: str) -> str | None:
    """The site's word (SITE_WORDS) that `text` reads as, alone or with a number after it,
    in any letter case and in look-alike letters: «Гость», «игрок 3», «Player_7», «GUEST2»,
    «Г0сть», «Игрок З» with a Cyrillic «З». None for anything else («Гостья», «Player One»)."""
    tokens = _TOKEN.findall(text)
    while len(tokens) > 1 and _reads_as_a_number(tokens[-1]):
        tokens.pop()
    if len(tokens) != 1:
        return None
    return _SITE_WORD_KEYS.get(lookalike_key(_TRAILING_DIGITS.sub("", tokens[0])))


def validate_nickname(nickname: str) -> None:
    if not NICKNAME_MIN_LENGTH <= len(nickname) <= NICKNAME_MAX_LENGTH:
        raise ValidationError(
            _("A nickname is %(min)d to %(max)d characters long.")
            % {"min": NICKNAME_MIN_LENGTH, "max": NICKNAME_MAX_LENGTH},
            code="nickname_length",
        )
    if not NICKNAME_CHARACTERS.match(nickname):
        raise ValidationError(
            _(
                "A nickname may hold Cyrillic or Latin letters, digits, spaces, "
                "hyphens and underscores only."
            ),
            code="nickname_characters",
        )
    if not _LETTER.search(nickname):
        raise ValidationError(_("A nickname needs at least one letter."), code="nickname_letter")
    # «Вoрон» with a Latin «o» reads as «Ворон»: a word is written in one alphabet.
    mixed = mixed_scripts_refusal(nickname)
    if mixed is not None:
        raise ValidationError(mixed, code="nickname_mixed_scripts")
    site_word = reads_as_a_site_word(nickname)
    if site_word is not None:
        raise ValidationError(
            _(
                "The site writes «%(word)s» for a guest or a player whose name is not shown, "
                "so it cannot be a nickname: please choose another."
            )
            % {"word": site_word},
            code="nickname_site_word",
        )


def mixed_scripts_refusal(name: str) -> str | None:
    """Why `name` cannot be told apart, when a word of it mixes alphabets («Вoрон» with a
    Latin «o» reads as «Ворон»): the one wording for nicknames and guests' names."""
    mixed = mixed_script_word(name)
    if mixed is None:
        return None
    return _(
        "The word «%(word)s» mixes Latin and Cyrillic letters, which makes it look "
        "like another word: write each word in one alphabet."
    ) % {"word": mixed}


def validate_birth_date(birth_date: date, *, today: date, minimum_age: int) -> None:
    """A plausible birth date of someone who is `minimum_age` or over `today`."""
    if birth_date > today:
        raise ValidationError(_("The birth date cannot be in the future."), code="birth_future")
    if birth_date < EARLIEST_BIRTH_DATE:
        raise ValidationError(
            _("The birth date cannot be before 1900. Please check the year."),
            code="birth_too_early",
        )
    if not is_of_age(birth_date, today, minimum_age):
        raise ValidationError(
            _("The club is for players aged %(age)d and over. You are welcome from %(date)s.")
            % {
                "age": minimum_age,
                "date": date_format(coming_of_age(birth_date, minimum_age), "DATE_FORMAT"),
            },
            code="underage",
        )
