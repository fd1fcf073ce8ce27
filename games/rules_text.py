"""The rules engines' refusals in words: their English templates rendered through gettext
in the active language (the request's, or the one the replay command is asked for), a moment
as a time of day in the club's zone; and as the doors' one error, with the rule's own code."""

from __future__ import annotations

from datetime import tzinfo

from django.utils.translation import gettext

from club.kernel.clubs import Club
from club.kernel.errors import Refused
from games.rules.errors import MOMENTS, ProtocolError, RuleViolation, time_of_day

# Parameters that are words of the message itself ("player", "nominee"), translated too;
# the others (seats, numbers, field names, a user's own text) are shown as they are.
WORDS = frozenset({"who", "what"})


def rules_message(error: RuleViolation | ProtocolError, zone: tzinfo | None = None) -> str:
    """The refusal in the active language; its moments (a speech's start) as times of day
    in `zone`, by default the club's (the engine holds them in UTC or the phone's offset)."""
    params: dict[str, object] = {}
    for name, value in error.params.items():
        if name in WORDS and isinstance(value, str):
            params[name] = gettext(value)
        elif name in MOMENTS and isinstance(value, str):
            zone = zone or Club.current().zone
            params[name] = time_of_day(value, zone)
        else:
            params[name] = value
    return gettext(error.template) % params


def rule_refused(error: RuleViolation | ProtocolError, message: str | None = None) -> Refused:
    """The engine's refusal as a door's: its words in the reader's language (or `message`,
    which says more, such as the event's place in a document) and its own code, so the
    error body says `not_day` rather than `invalid` at every door (the host's tap, the API,
    the online game, an import)."""
    return Refused(rules_message(error) if message is None else message, error.code)
