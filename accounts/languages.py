"""The language each member reads the club's messages in.

A member's `language` is one of settings.LANGUAGES. It is learnt automatically — the page's
language at sign-up on the site, the Mini App's launch language, Telegram's `language_code`
when the bot links or signs them up — until the member chooses one on the site (the
settings page, the language switch while logged in) or the admin sets it: a choice
(`language_chosen`) is never overwritten by a later automatic one. A language the site does
not speak ("de", "uk") counts as the club's (settings.LANGUAGE_CODE, Russian).

Every message to a member is composed while `speaking_to(member)` holds: the club's texts
(club/texts.py, games/online/texts.py) render in `message_language()`, which is that
member's language inside the block and the club's outside it — never the language of the
page that happened to cause the message. A message to many members is composed once per
member, each inside their own block.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import translation

if TYPE_CHECKING:
    from accounts.models import User

# The language of the message being composed now ("" outside speaking(): the club's).
_speaking: ContextVar[str] = ContextVar("message_language", default="")


def supported_language(code: object) -> str | None:
    """The site's language for a language tag ("en", "en-US", "ru"), None when it has none."""
    if not isinstance(code, str):
        return None
    primary = code.split("-")[0].split("_")[0].strip().lower()
    return primary if primary in {known for known, _name in settings.LANGUAGES} else None


def language_or_club(code: object) -> str:
    """The site's language for a tag, the club's for one it does not speak."""
    return supported_language(code) or settings.LANGUAGE_CODE


def member_language(member: User | None) -> str:
    """The language the club writes to `member` in (the club's for nobody)."""
    return language_or_club(member.language if member is not None else "")


def message_language() -> str:
    """The language a message composed now is written in: the recipient's inside
    speaking() / speaking_to(), the club's anywhere else."""
    return _speaking.get() or settings.LANGUAGE_CODE


@contextmanager
def speaking(language: str) -> Iterator[str]:
    """Compose in `language` (the club's when the site does not speak it): the club's texts
    and every gettext inside the block. Yields the language used."""
    language = language_or_club(language)
    token = _speaking.set(language)
    try:
        with translation.override(language):
            yield language
    finally:
        _speaking.reset(token)


@contextmanager
def speaking_to(member: User | None) -> Iterator[str]:
    """Compose a message to `member` in their language (the club's for nobody)."""
    with speaking(member_language(member)) as language:
        yield language
