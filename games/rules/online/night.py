"""The night (RULES.md §D): it opens once the day is resolved (shots left by day carry
over), the mafia's shot and the don's and the commissar's checks, and the morning: one
agreed target dies, anything else misfires (three in a row and the town wins)."""

from __future__ import annotations

from games.rules.errors import ProtocolError, RuleCode, RuleViolation, gettext_noop, seat_field
from games.rules.event_types import (
    ComCheckEvent,
    DonCheckEvent,
    NightEndEvent,
    NightEvent,
    ShotEvent,
)
from games.rules.online.state import BLACK_ROLES, Check, Phase, Reason
from games.rules.online.vote import OnlineVote


class OnlineNight(OnlineVote):
    """From the night's start to the morning."""

    def _on_night(self, event: NightEvent) -> None:
        n = event.get("n")
        if self.phase != Phase.DAY or n != self.n:
            raise RuleViolation(
                RuleCode.PHASE_ORDER, gettext_noop("Night %(n)s cannot start now."), n=n
            )
        if self.open:
            if self.catastrophe is not None or self._would_tie():
                raise RuleViolation(
                    RuleCode.VOTE_PENDING,
                    gettext_noop(
                        "The leaders are tied: the catastrophe comes first (close the day)."
                    ),
                )
            self._resolve_day()
            if self.finished:
                return
        self.phase, self.open = Phase.NIGHT, True
        self.shots = {s: t for s, t in self.advance_shots.items() if s in self.alive}
        self.advance_shots, self.checked = {}, set()
        self.outcome, self.ended_by_fast = None, False
        self._tell("phase")

    def _on_night_end(self, event: NightEndEvent) -> None:
        self._require_open(Phase.NIGHT)
        self._resolve_night()

    def _on_shot(self, event: ShotEvent) -> None:
        by = seat_field(event, "by")
        self._living(by)
        if self.roles[by] not in BLACK_ROLES:
            raise RuleViolation(RuleCode.NOT_MAFIA, gettext_noop("Only the mafia shoot."))
        target = event.get("target")
        if target is not None:
            if type(target) is not int:
                raise ProtocolError(gettext_noop("A shot is at a seat or null."))
            self._living(target)
        if self.phase == Phase.NIGHT and self.open:
            if by in self.shots and not self.options.shot_changeable:
                raise RuleViolation(
                    RuleCode.ACTED, gettext_noop("This night's shot is made already.")
                )
            self.shots[by] = target
        elif self.phase == Phase.DAY:
            self.advance_shots[by] = target  # left in advance for the coming night
        else:
            raise RuleViolation(RuleCode.WRONG_PHASE, gettext_noop("No shots now."))

    def _check(self, event: DonCheckEvent | ComCheckEvent, kind: str) -> None:
        self._require_open(Phase.NIGHT)
        role = "don" if kind == "don" else "commissar"
        by = next((s for s in self.alive if self.roles[s] == role), None)
        if by is None:
            raise RuleViolation(RuleCode.NO_CHECKER, gettext_noop("Nobody is left to check."))
        if kind in self.checked:
            raise RuleViolation(RuleCode.ACTED, gettext_noop("This night's check is made already."))
        target = seat_field(event, "target")
        if target not in self.roles:
            raise RuleViolation(
                RuleCode.NOT_ALIVE, gettext_noop("There is no seat %(target)s."), target=target
            )
        if target not in self.alive and not self.options.check_departed:
            raise RuleViolation(
                RuleCode.NOT_ALIVE, gettext_noop("Player %(seat)s is not in the game."), seat=target
            )
        if kind == "don":
            result = "commissar" if self.roles[target] == "commissar" else "not_commissar"
        else:
            result = "black" if self.roles[target] in BLACK_ROLES else "red"
        self.checked.add(kind)
        self.checks.append(Check(by, kind, target, result))

    def _on_don_check(self, event: DonCheckEvent) -> None:
        self._check(event, "don")

    def _on_com_check(self, event: ComCheckEvent) -> None:
        self._check(event, "commissar")

    def _resolve_night(self) -> None:
        self.open = False
        self.resolutions += 1
        mafia = self.black_alive
        targets = {self.shots.get(s) for s in mafia}
        (target,) = targets if len(targets) == 1 else (None,)
        if target is not None and target in self.alive:
            self.misfires = 0
            self.outcome = "killed"
            self._tell("outcome", detail="killed", seats=(target,))
            self._eliminate([target], Reason.KILLED)
            return
        self.misfires += 1
        self.outcome = "misfire"
        self._tell("outcome", detail="misfire")
        if self.misfires >= self.options.misfires_to_town_win:
            self._finish("red")
