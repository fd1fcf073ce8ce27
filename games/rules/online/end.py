"""Leaving the game and its end (RULES.md §D): the host's warnings and modkills, each
elimination (the last word it gives, the votes and shots it voids), and the winner."""

from __future__ import annotations

from games.rules.errors import RuleCode, RuleViolation, gettext_noop, seat_field
from games.rules.event_types import ModkillEvent, WarningEvent
from games.rules.online.state import (
    PASS,
    Elimination,
    OnlineState,
    Phase,
    Reason,
)


class OnlineEnd(OnlineState):
    """The host's removals, eliminations and the winner."""

    def _on_warning(self, event: WarningEvent) -> None:
        seat = seat_field(event, "seat")
        self._living(seat)
        if self.phase == Phase.SETUP:
            raise RuleViolation(RuleCode.WRONG_PHASE, gettext_noop("The game has not started."))
        self._warn(seat)

    def _warn(self, seat: int) -> None:
        self.warnings[seat] = self.warnings.get(seat, 0) + 1
        self._tell("warning", seat=seat, detail=str(self.warnings[seat]))
        if self.warnings[seat] >= self.options.warnings_to_removal:
            self._tell("removed", seat=seat)
            self._host_removal(seat, Reason.WARNINGS)

    def _on_modkill(self, event: ModkillEvent) -> None:
        seat = seat_field(event, "seat")
        self._living(seat)
        if self.phase == Phase.SETUP:
            raise RuleViolation(RuleCode.WRONG_PHASE, gettext_noop("The game has not started."))
        self._tell("modkill", seat=seat)
        self._host_removal(seat, Reason.MODKILL)

    def _host_removal(self, seat: int, reason: Reason) -> None:
        """The host removes a player: a modkill (and, as the club reads it, a removal for
        warnings) cancels the open day's vote, or the coming day's when it is night (an
        option); the night itself comes on schedule."""
        cancels = reason == Reason.MODKILL or self.options.warnings_removal_cancels_vote
        if cancels and self.phase == Phase.DAY and self.open:
            self.vote_cancelled = True
        if cancels and self.phase == Phase.NIGHT and self.options.night_modkill_cancels_next_vote:
            self.cancel_next_vote = True
        if self.phase == Phase.DAY:
            self.removed_today += 1
        self._eliminate([seat], reason)

    # --- eliminations and the end ------------------------------------------------------

    def _eliminate(self, seats: list[int], reason: Reason) -> None:
        for seat in sorted(seats):
            self.alive.discard(seat)
            self.eliminated.append(Elimination(seat, self.phase.value, self.n, reason))
            self.last_words_due.add(seat)
            self.votes.pop(seat, None)
            self.fasted.discard(seat)
            self.shots.pop(seat, None)
            self.advance_shots.pop(seat, None)
        # Votes on a player who left count for nobody.
        self.votes = {v: t for v, t in self.votes.items() if t == PASS or t in self.alive}
        if self.catastrophe is not None:
            self.catastrophe.tied = [s for s in self.catastrophe.tied if s in self.alive]
        black = len(self.black_alive)
        if black == 0:
            self._finish("red")
        elif black >= len(self.alive) - black:
            self._finish("black")

    def _finish(self, winner: str) -> None:
        self.winner, self.phase, self.open = winner, Phase.OVER, False
        self.catastrophe = None
        self._tell("end", detail=winner)
