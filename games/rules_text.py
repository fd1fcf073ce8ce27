"""The rules engines' refusals in words: their English templates rendered through gettext
in the active language (the request's, or the one the replay command is asked for)."""

from __future__ import annotations

from django.utils.translation import gettext

from games.rules.errors import ProtocolError, RuleViolation

# Parameters that are words of the message itself ("player", "nominee"), translated too;
# the others (seats, numbers, field names, a user's own text) are shown as they are.
WORDS = frozenset({"who", "what"})


def rules_message(error: RuleViolation | ProtocolError) -> str:
    params = {
        name: gettext(value) if name in WORDS and isinstance(value, str) else value
        for name, value in error.params.items()
    }
    return gettext(error.template) % params
