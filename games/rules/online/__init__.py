"""The online text game (RULES.md §D) as a fold over its events, like the club engine.

`OnlineGame.apply(event)` checks an event and changes the state, or raises RuleViolation
and changes nothing. Phases open and close: `day_end` / `night_end` resolve the phase (an
implicit close happens when the next phase starts without one), and a day whose every
living player has fasted (the one under the vote may abstain) resolves at once, as the
reading of RULES.md says. `OnlineOptions` holds each reading that a club may switch.

The rules live by phase, each module a layer of the one state:

- `options.py`: the readings a club may switch;
- `state.py`: the seats, the records (eliminations, checks, the catastrophe round, the
  story), the fields an event carries, the checks every phase makes first;
- `end.py`: the host's warnings and modkills, eliminations and the winner;
- `vote.py`: votes, PASS, the fast, the catastrophe round, how the day resolves;
- `night.py`: the night's start and end, shots, checks, the morning;
- `day.py`: the day's start and close, posts and last words, extensions;
- `prompt.py`: who may do what now (`actions_for`, `prompt`).

This module puts them together: `OnlineGame` and the table from event types to handlers.
"""

from __future__ import annotations

from games.rules.online.day import OnlineDay
from games.rules.online.end import OnlineEnd
from games.rules.online.night import OnlineNight
from games.rules.online.options import SILENCE, TWO_LEAVE, OnlineOptions
from games.rules.online.prompt import OnlinePrompt
from games.rules.online.state import (
    BLACK_ROLES,
    HANG_ALL,
    LINEUP,
    MAX_VOTES_A_DAY,
    PARDON_ALL,
    PASS,
    ROLES,
    Catastrophe,
    Check,
    Elimination,
    Phase,
    Reason,
    Story,
)
from games.rules.online.vote import OnlineVote

__all__ = [
    "BLACK_ROLES",
    "HANG_ALL",
    "LINEUP",
    "MAX_VOTES_A_DAY",
    "PARDON_ALL",
    "PASS",
    "ROLES",
    "SILENCE",
    "TWO_LEAVE",
    "Catastrophe",
    "Check",
    "Elimination",
    "OnlineGame",
    "OnlineOptions",
    "Phase",
    "Reason",
    "Story",
]


class OnlineGame(OnlinePrompt, OnlineDay):
    """The state of one online game."""

    # Each handler checks everything first and changes the state only after.
    _handlers = {
        "day": OnlineDay._on_day,
        "night": OnlineNight._on_night,
        "day_end": OnlineDay._on_day_end,
        "night_end": OnlineNight._on_night_end,
        "extend": OnlineDay._on_extend,
        "vote": OnlineVote._on_vote,
        "fast": OnlineVote._on_fast,
        "unfast": OnlineVote._on_unfast,
        "post": OnlineDay._on_post,
        "revote": OnlineVote._on_revote,
        "shot": OnlineNight._on_shot,
        "don_check": OnlineNight._on_don_check,
        "com_check": OnlineNight._on_com_check,
        "warning": OnlineEnd._on_warning,
        "modkill": OnlineEnd._on_modkill,
    }
