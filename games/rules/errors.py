"""What the engines say when they refuse: a reason code, an English message template and its
parameters. The engines know no language: the Django layer renders the template through
gettext in the reader's language (games/rules_text.py), so both catalogues hold them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def gettext_noop(message: str) -> str:
    """Marks a message for the translation catalogues (makemessages finds the name); the
    engines stay free of Django."""
    return message


class _Refusal(Exception):
    # Positional-only: a message's own parameters may be called "code" too.
    def __init__(self, code: str, template: str, /, **params: Any) -> None:
        self.code = code
        self.template = template
        self.params = params
        super().__init__(self.english)

    @property
    def english(self) -> str:
        """The message in English, for logs and for a reader without Django."""
        return self.template % self.params


class RuleViolation(_Refusal):
    """An event the rules forbid at this point. The game's state is left unchanged."""


class ProtocolError(_Refusal):
    """A document or an event that is malformed (not a question of the rules)."""

    def __init__(self, template: str, /, **params: Any) -> None:
        super().__init__("malformed", template, **params)


def seat_field(event: Mapping[str, object], key: str) -> int:
    """An event's field that names a seat, for either engine (a bool is not a seat)."""
    value = event.get(key)
    if type(value) is not int:
        raise ProtocolError(gettext_noop("Field `%(key)s` must be a seat number."), key=key)
    return value
