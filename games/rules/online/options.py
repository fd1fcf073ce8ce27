"""The readings of RULES.md §D that a club may switch (docs/protocol.md says why each
default reads the rules as it does)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from games.rules.errors import ProtocolError, gettext_noop

SILENCE = ("nothing", "warning")  # what a player silent in a catastrophe round gets
TWO_LEAVE = ("vote", "day")  # what «never more than two leave» counts


@dataclass(frozen=True)
class OnlineOptions:
    """The readings of RULES.md §D a club may switch, each with the default the text reads
    most plainly (docs/protocol.md says why)."""

    misfires_to_town_win: int = 3  # misfired or skipped nights in a row
    warnings_to_removal: int = 3
    # Day 1: a single vote on a player with every other living player on PASS pardons.
    day_one_pardon: bool = True
    # ... and the players who did not vote count as PASS there (8 PASS, 1 vote, 1 silent).
    day_one_pardon_with_silent: bool = False
    # When everyone has fasted, the day's vote is resolved then (else: at day_end only).
    fast_resolves_day: bool = True
    # ... also on a day with a modkill (else its night comes on schedule).
    fast_night_after_modkill: bool = False
    # The line-up is the rules' own: don, two mafia, commissar, six civilians.
    strict_lineup: bool = True
    # A removal for warnings by day is the host's removal, a modkill: no vote that day.
    warnings_removal_cancels_vote: bool = True
    # A modkill at night cancels the coming day's vote too.
    night_modkill_cancels_next_vote: bool = False
    # «Если лидеров 3 то заново»: revote rounds ending tied, in a row, after which nobody
    # leaves that day; 0: none, the revote is held again while the tie lasts (as written).
    revote_tie_limit: int = 0
    # A player no longer tied after a revote (the third of three) votes in the next round.
    untied_vote_in_followup: bool = True
    # A «hang all / pardon all» vote left in advance may be replaced once in the round.
    advance_vote_replaceable: bool = True
    # A living player who does not vote in a catastrophe round: "nothing" (counts for
    # nobody) or "warning" (one warning each when the round closes).
    catastrophe_silence: str = "nothing"
    # The round closes by itself once every tied player has posted and every other living
    # player has voted (else at its deadline or when the host closes it).
    catastrophe_closes_when_all_posted: bool = True
    # «Never more than two leave by one vote»: counted over the vote ("vote") or over the
    # whole day, the host's removals included ("day").
    two_leave_limit: str = "vote"
    # A mafioso may change the night's shot until the night closes.
    shot_changeable: bool = False
    # The don and the commissar may check a player who has left (roles stay closed).
    check_departed: bool = True

    @classmethod
    def from_dict(cls, raw: object) -> OnlineOptions:
        if raw is None:
            return cls()
        if not isinstance(raw, Mapping):
            raise ProtocolError(gettext_noop("`options` must be an object."))
        defaults = cls()
        values: dict[str, Any] = {}
        low = {"revote_tie_limit": 0}
        words = {"catastrophe_silence": SILENCE, "two_leave_limit": TWO_LEAVE}
        for key, value in raw.items():
            if key not in {f.name for f in fields(cls)}:
                raise ProtocolError(gettext_noop("Unknown ruleset option: %(key)s."), key=key)
            expected = type(getattr(defaults, key))
            if (
                type(value) is not expected
                or (expected is int and not low.get(key, 1) <= value <= 20)
                or (expected is str and value not in words[key])
            ):
                raise ProtocolError(gettext_noop("A bad value for option %(key)s."), key=key)
            values[key] = value
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}
