"""The live game of the club (RULES.md §B) as a fold over its events.

`ClubGame.apply(event)` checks an event against the rules and either changes the state or
raises RuleViolation, leaving the state as it was. The same events always give the same
state. `prompt()` says what comes next, so the host's screen can be driven by the engine.

The state is mutable and changed in place: replaying a game is a loop over its events, and
the engine must do tens of thousands of them a second. `copy()` gives an independent state
for callers that want `state + event -> new state` without touching the old one.

The rules live by phase, each module a layer of the one state:

- `state.py`: the seats, the records (eliminations, checks, the day's tally), the fields
  an event carries, the checks every phase makes first;
- `end.py`: eliminations (the host's disqualification among them) and the winner;
- `vote.py`: nominations, the count, defence candidates, hands, runoffs, «expel both?»;
- `night.py`: the night's start, its actions in the night order, the morning's casualties;
- `day.py`: the day's start, speeches in order, «под фол», last words, fouls;
- `prompt.py`: what comes next, for the host's screen.

This module puts them together: `ClubGame` and the table from event types to handlers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from games.rules.club.day import (
    BEST_MOVE_SEATS,
    BONUS_LIMIT,
    BONUS_REASON_MAX,
    FOULS_TO_REMOVAL,
    MAX_EXTENSIONS,
    ClubDay,
)
from games.rules.club.end import ClubEnd
from games.rules.club.night import ClubNight
from games.rules.club.prompt import (
    BALAGAN_DAY_ONE_SECONDS,
    BALAGAN_SECONDS,
    DEFENCE_SECONDS,
    EXTENSION_SECONDS,
    LAST_IN_ROUND_SECONDS,
    LAST_WORD_SECONDS,
    ROUND_SECONDS,
    ClubPrompt,
    Prompt,
)
from games.rules.club.state import (
    BestMove,
    BestMoveDict,
    Bonus,
    BonusDict,
    Check,
    CheckDict,
    Elimination,
    EliminationDict,
    Phase,
    Reason,
    Step,
    Tally,
    TallyDict,
    carried_immunity,
)
from games.rules.club.vote import MAX_CANDIDATES, ClubVote
from games.rules.errors import ProtocolError, gettext_noop
from games.rules.options import ClubOptions

__all__ = [
    "BALAGAN_DAY_ONE_SECONDS",
    "BALAGAN_SECONDS",
    "BEST_MOVE_SEATS",
    "BONUS_LIMIT",
    "BONUS_REASON_MAX",
    "DEFENCE_SECONDS",
    "EXTENSION_SECONDS",
    "FOULS_TO_REMOVAL",
    "LAST_IN_ROUND_SECONDS",
    "LAST_WORD_SECONDS",
    "MAX_CANDIDATES",
    "MAX_EXTENSIONS",
    "ROUND_SECONDS",
    "BestMove",
    "BestMoveDict",
    "Bonus",
    "BonusDict",
    "Check",
    "CheckDict",
    "ClubGame",
    "Elimination",
    "EliminationDict",
    "Phase",
    "Prompt",
    "Reason",
    "Step",
    "Tally",
    "TallyDict",
    "carried_immunity",
]


class ClubGame(ClubPrompt, ClubVote):
    """The state of one live game."""

    # A foul heard later; the best move and extra points, which change no rule state.
    after_end = frozenset({"foul", "best_move", "bonus"})

    def __init__(
        self,
        seats: Mapping[int, str],
        *,
        options: ClubOptions | None = None,
        immune: Iterable[int] = (),
    ) -> None:
        super().__init__(seats, options=options, immune=immune)
        if self._winner() is not None:
            raise ProtocolError(gettext_noop("The line-up decides the game before it starts."))

    # Each handler checks everything first and changes the state only after.
    _handlers = {
        "day": ClubDay._on_day,
        "night": ClubNight._on_night,
        "nominate": ClubVote._on_nominate,
        "votes": ClubVote._on_votes,
        "first_day_expel": ClubVote._on_first_day_expel,
        "hands": ClubVote._on_hands,
        "expel_both": ClubVote._on_expel_both,
        "foul": ClubDay._on_foul,
        "disqualify": ClubEnd._on_disqualify,
        "extension": ClubDay._on_extension,
        "speech": ClubDay._on_speech,
        "last_word": ClubDay._on_last_word,
        "best_move": ClubDay._on_best_move,
        "bonus": ClubDay._on_bonus,
        "check": ClubNight._on_check,
        "kill": ClubNight._on_kill,
        "heal": ClubNight._on_heal,
        "action": ClubNight._on_action,
    }
