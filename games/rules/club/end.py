"""Leaving the table and winning (RULES.md §B): who leaves, when and why, the last words it
gives, and the winner once the living decide the game."""

from __future__ import annotations

from games.rules.club.state import ClubState, Elimination, Phase, Reason, Step
from games.rules.errors import ProtocolError, RuleCode, RuleViolation, gettext_noop, seat_field
from games.rules.event_types import DisqualifyEvent
from games.rules.roles import Role, Team

DISQUALIFY_REASON_MAX = 200


class ClubEnd(ClubState):
    """Eliminations and the winner."""

    def _on_disqualify(self, event: DisqualifyEvent) -> None:
        """The host (the judge) removes a living player at any moment of day or night,
        with the reason, as FIIM's judges do: the player leaves at once, revealed, with no
        last word, and the removal does to the speeches and the vote under way what a
        removal by three fouls does (a nominee or a candidate leaves the vote)."""
        seat = seat_field(event, "seat")
        reason = event.get("reason")
        if not isinstance(reason, str):
            raise ProtocolError(gettext_noop("Field `reason` is a text."))
        if self.phase == Phase.SETUP:
            raise RuleViolation(RuleCode.NOT_STARTED, gettext_noop("The game has not started."))
        self._require_alive(seat)
        reason = reason.strip()
        if not reason:
            raise RuleViolation(
                RuleCode.DISQUALIFY_REASON, gettext_noop("A disqualification needs a reason.")
            )
        if len(reason) > DISQUALIFY_REASON_MAX:
            raise RuleViolation(
                RuleCode.DISQUALIFY_REASON, gettext_noop("The reason is 200 characters at most.")
            )
        self._eliminate([(seat, Reason.DISQUALIFIED)])

    def _eliminate(self, leaving: list[tuple[int, Reason]], phase: Phase | None = None) -> None:
        phase = phase or self.phase
        batch = []
        for seat, reason in sorted(leaving):
            if seat not in self.alive:
                continue
            self.alive.discard(seat)
            elimination = Elimination(seat, phase.value, self.n, reason)
            self.eliminated.append(elimination)
            batch.append(seat)
            if elimination.last_word:
                self.last_words_due.add(seat)
            if seat in self.nominees:
                self.nominees.remove(seat)
            if seat in self.candidates:
                self.candidates.remove(seat)
        if not batch:
            return
        if not self.first_eliminated:
            self.first_eliminated = tuple(batch)
        # A candidate removed mid-vote (by fouls, or disqualified) leaves too few to vote on.
        if self.step in (Step.HANDS, Step.EXPEL_BOTH) and len(self.candidates) < 2:
            self._end_vote("candidates_left")
        if self.step == Step.FIRST_DAY_QUESTION and not self.candidates:
            self._end_vote("candidates_left")
        self._check_win()

    def _winner(self) -> str | None:
        black = red = 0
        loners: list[Role] = []
        for seat in self.alive:
            team = self.roles[seat].team
            if team == Team.BLACK:
                black += 1
            elif team == Team.RED:
                red += 1
            else:
                loners.append(self.roles[seat])
        if black == 0 and not loners:
            return Team.RED.value  # every black card gone, loners included
        if black >= 1 and black >= red:
            return Team.BLACK.value  # parity; loners are not counted
        if (
            self.options.loner_wins_alone
            and black == 0
            and loners
            and len(self.alive) - len(loners) <= 1
            and len(loners) == 1
        ):
            return loners[0].code
        return None

    def _check_win(self) -> None:
        winner = self._winner()
        if winner is not None:
            self.winner = winner
            self.phase = Phase.OVER
