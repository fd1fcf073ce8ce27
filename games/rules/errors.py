"""What the engines say when they refuse: a reason code, an English message template and its
parameters. The engines know no language: the Django layer renders the template through
gettext in the reader's language (games/rules_text.py), so both catalogues hold them."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, tzinfo
from enum import StrEnum
from typing import Any

# Parameters that are moments, not words: ISO 8601 with an offset (a speech's start and the
# end of the speech before it). The engine keeps them as moments, so each reader sees the
# time of day where the club plays: the server in the club's zone (games/rules_text.py), the
# host's phone in the zone its page carries (static/games/host/words.js, the same names).
MOMENTS = frozenset({"start", "end"})


def time_of_day(moment: str, zone: tzinfo | None = None) -> str:
    """A moment parameter as «04:41:42»: in `zone`, or in the moment's own offset."""
    at = datetime.fromisoformat(moment)
    return (at.astimezone(zone) if zone is not None else at).strftime("%H:%M:%S")


def gettext_noop(message: str) -> str:
    """Marks a message for the translation catalogues (makemessages finds the name); the
    engines stay free of Django."""
    return message


class RuleCode(StrEnum):
    """Why an engine refuses: the code of every `RuleViolation`, and `malformed` for a
    `ProtocolError`. The values are part of the API: the doors answer a refused event with
    its rule's code as the error body's `code` (status 422, club/kernel/errors.py), and the
    phone's offline engine words a refusal by it (games/rules/table.py); keep them."""

    MALFORMED = "malformed"  # the event or the document is not of the protocol's shape
    ACTED = "acted"
    ALREADY_ACTED = "already_acted"
    BAD_TARGET = "bad_target"
    BEST_MOVE_GIVEN = "best_move_given"
    BEST_MOVE_NOT_DUE = "best_move_not_due"
    BEST_MOVE_TARGETS = "best_move_targets"
    BONUS_POINTS = "bonus_points"
    BONUS_REASON = "bonus_reason"
    CATASTROPHE = "catastrophe"
    DISQUALIFY_REASON = "disqualify_reason"
    DUPLICATE_NOMINATION = "duplicate_nomination"
    EXTENSION_LIMIT = "extension_limit"
    GAME_OVER = "game_over"
    IMMUNE = "immune"
    NIGHT_ORDER = "night_order"
    NOTHING_TO_UNDO = "nothing_to_undo"
    NOT_ALIVE = "not_alive"
    NOT_A_CANDIDATE = "not_a_candidate"
    NOT_DAY = "not_day"
    NOT_MAFIA = "not_mafia"
    NOT_NIGHT = "not_night"
    NOT_SPEAKING = "not_speaking"
    NOT_STARTED = "not_started"
    NO_BEST_MOVE = "no_best_move"
    NO_CATASTROPHE = "no_catastrophe"
    NO_CHECKER = "no_checker"
    NO_HEALER = "no_healer"
    NO_KILLER = "no_killer"
    NO_KILLS_NIGHT_ONE = "no_kills_night_one"
    NO_LAST_WORD = "no_last_word"
    NO_NOMINEES = "no_nominees"
    NO_SPEECH_DUE = "no_speech_due"
    NO_SUCH_KILL = "no_such_kill"
    NO_SUCH_SEAT = "no_such_seat"
    PHASE_ORDER = "phase_order"
    SEAT_OUT = "seat_out"
    SPEECH_ORDER = "speech_order"
    SPEECH_OVERLAP = "speech_overlap"
    SPOKEN = "spoken"
    TOO_MANY_NOMINATIONS = "too_many_nominations"
    TOO_MANY_VOTES = "too_many_votes"
    VOTE_FINAL = "vote_final"
    VOTE_PENDING = "vote_pending"
    WRONG_PHASE = "wrong_phase"
    WRONG_ROLE = "wrong_role"
    WRONG_STEP = "wrong_step"


class _Refusal(Exception):
    # Positional-only: a message's own parameters may be called "code" too.
    def __init__(self, code: RuleCode, template: str, /, **params: Any) -> None:
        self.code = code
        self.template = template
        self.params = params
        super().__init__(self.english)

    @property
    def english(self) -> str:
        """The message in English, for logs and for a reader without Django (a moment in
        its own offset)."""
        return self.template % {
            name: time_of_day(value) if name in MOMENTS and isinstance(value, str) else value
            for name, value in self.params.items()
        }


class RuleViolation(_Refusal):
    """An event the rules forbid at this point. The game's state is left unchanged."""


class ProtocolError(_Refusal):
    """A document or an event that is malformed (not a question of the rules)."""

    def __init__(self, template: str, /, **params: Any) -> None:
        super().__init__(RuleCode.MALFORMED, template, **params)


def seat_field(event: Mapping[str, object], key: str) -> int:
    """An event's field that names a seat, for either engine (a bool is not a seat)."""
    value = event.get(key)
    if type(value) is not int:
        raise ProtocolError(gettext_noop("Field `%(key)s` must be a seat number."), key=key)
    return value
