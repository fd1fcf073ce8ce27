"""The night (RULES.md §B): it opens once the day's vote is done; checks, kills, heals and
other roles' actions in the night order, each once; the morning's casualties (a heal saves,
day 1's immunity holds through night 1, the kamikaze takes the maniac)."""

from __future__ import annotations

from games.rules.club.end import ClubEnd
from games.rules.club.state import (
    Check,
    Phase,
    Reason,
    Step,
    _count_field,
    _target_field,
)
from games.rules.errors import ProtocolError, RuleCode, RuleViolation, gettext_noop, seat_field
from games.rules.event_types import ActionEvent, CheckEvent, HealEvent, KillEvent, NightEvent
from games.rules.roles import MAFIA_KILL_ORDER, Action, CheckKind, Role, Team


class ClubNight(ClubEnd):
    """From the night's start to the morning."""

    def _on_night(self, event: NightEvent) -> None:
        n = _count_field(event, "n")
        if self.phase != Phase.DAY or n != self.n:
            raise RuleViolation(
                RuleCode.PHASE_ORDER, gettext_noop("Night %(n)s cannot start now."), n=n
            )
        if self.step == Step.ROUND and self.nominees:
            raise RuleViolation(
                RuleCode.VOTE_PENDING, gettext_noop("Players are nominated: the vote comes first.")
            )
        if self.step not in (Step.ROUND, Step.DONE):
            raise RuleViolation(
                RuleCode.VOTE_PENDING, gettext_noop("The day's vote is not finished.")
            )
        self.phase = Phase.NIGHT
        self.night_checks_from = len(self.checks)
        self.night_order_reached = -1
        self.acted = set()
        self.kills = []
        self.heals = set()
        self.night_targets = {}
        self.last_words_due = set()

    def _require_night(self) -> None:
        if self.phase != Phase.NIGHT:
            raise RuleViolation(RuleCode.NOT_NIGHT, gettext_noop("This happens at night only."))

    def _take_night_slot(self, order: int, slot: str) -> None:
        """Check that a role may act now, in the night order, once; then mark it as acted.
        Callers check everything else first: nothing after this may refuse the event."""
        if slot in self.acted:
            raise RuleViolation(
                RuleCode.ALREADY_ACTED, gettext_noop("This role has already acted tonight.")
            )
        if order < self.night_order_reached:
            raise RuleViolation(
                RuleCode.NIGHT_ORDER, gettext_noop("Night actions are recorded in the night order.")
            )
        self.acted.add(slot)
        self.night_order_reached = order

    def _seat_role_acting(self, seat: int, action: Action) -> Role:
        self._require_alive(seat, gettext_noop("actor"))
        role = self.roles[seat]
        if role.action != action or role.night_order is None:
            raise RuleViolation(
                RuleCode.WRONG_ROLE,
                gettext_noop("Seat %(seat)s cannot do this at night."),
                seat=seat,
            )
        return role

    def _on_check(self, event: CheckEvent) -> None:
        by, target = seat_field(event, "by"), _target_field(event)
        self._require_night()
        role = self._seat_role_acting(by, Action.CHECK)
        if target is not None:
            self._require_alive(target, gettext_noop("checked player"))
        slot = f"check:{role.code}"
        self._take_night_slot(role.night_order or 0, slot)
        if target is not None:
            self.checks.append(Check(by, target, self._check_result(role, target)))
            self._aimed(target, slot)

    def _check_result(self, role: Role, target: int) -> str:
        target_role = self.roles[target]
        if role.check == CheckKind.COMMISSAR:
            return "commissar" if target_role.code == "commissar" else "not_commissar"
        if target_role.team == Team.LONER:
            return self.options.loners_check_as
        return target_role.team.value

    def _killers(self, by: str) -> tuple[int, list[int]]:
        """The night order of a kill by `by` and the living seats who make it."""
        if by == "swindler" and not self.options.swindler_kills:
            raise RuleViolation(
                RuleCode.NO_SUCH_KILL, gettext_noop("Under these rules the swindler does not kill.")
            )
        shooters = [
            seat
            for seat in self.alive
            if self.roles[seat].shoots_as == by
            or (self.roles[seat].code == by and self.roles[seat].action == Action.KILL)
        ]
        orders = [
            order
            for seat in shooters
            if self.roles[seat].action == Action.KILL
            and (order := self.roles[seat].night_order) is not None
        ]
        if not shooters:
            raise RuleViolation(
                RuleCode.NO_KILLER, gettext_noop("Nobody alive shoots as `%(by)s`."), by=by
            )
        order = MAFIA_KILL_ORDER if by == "mafia" else min(orders, default=MAFIA_KILL_ORDER)
        return order, shooters

    def _on_kill(self, event: KillEvent) -> None:
        by = event.get("by")
        target = _target_field(event)
        if not isinstance(by, str):
            raise ProtocolError(gettext_noop("Field `by` names who shoots."))
        self._require_night()
        if self.n == 1 and not self.options.night_one_kills:
            raise RuleViolation(
                RuleCode.NO_KILLS_NIGHT_ONE, gettext_noop("No kills on night 1 under these rules.")
            )
        order, _shooters = self._killers(by)
        if target is not None:
            self._require_alive(target, gettext_noop("target"))
        slot = f"kill:{by}"
        self._take_night_slot(order, slot)
        if target is not None:
            self.kills.append((by, target))
            self._aimed(target, slot)

    def _on_heal(self, event: HealEvent) -> None:
        target = _target_field(event)
        self._require_night()
        healers = [s for s in self.alive if self.roles[s].action == Action.HEAL]
        if not healers:
            raise RuleViolation(
                RuleCode.NO_HEALER, gettext_noop("There is no doctor at the table.")
            )
        if target is not None:
            self._require_alive(target, gettext_noop("target"))
        order = min(self.roles[s].night_order or 0 for s in healers)
        self._take_night_slot(order, "heal")
        if target is not None:
            self.heals.add(target)
            self._aimed(target, "heal")

    def _on_action(self, event: ActionEvent) -> None:
        by, target = seat_field(event, "by"), _target_field(event)
        kind = event.get("kind")
        if not isinstance(kind, str) or not kind:
            raise ProtocolError(gettext_noop("Field `kind` names the action."))
        self._require_night()
        role = self._seat_role_acting(by, Action.OTHER)
        if target is not None:
            self._require_alive(target, gettext_noop("target"))
        slot = f"action:{by}"
        self._take_night_slot(role.night_order or 0, slot)
        # Recorded as it is: the engine resolves nothing for it (RULES.md §B).
        if target is not None:
            self._aimed(target, slot)

    def _aimed(self, target: int, slot: str) -> None:
        self.night_targets[target] = [*self.night_targets.get(target, []), slot]

    def _resolve_night(self) -> None:
        """The morning: kills land unless healed, or on a seat immune on night 1."""
        casualties: dict[int, Reason] = {}
        for by, target in self.kills:
            if target in self.heals or target in self.immune_now:
                continue
            if target not in casualties:
                casualties[target] = Reason.SWINDLER if by == "swindler" else Reason.KILLED
            if (
                by == "maniac"
                and self.roles[target].code == "kamikaze"
                and self.options.kamikaze_takes_maniac
            ):
                for seat in self.alive:
                    if self.roles[seat].code == "maniac" and seat not in casualties:
                        casualties[seat] = Reason.KAMIKAZE
        if casualties:
            self._eliminate(sorted(casualties.items()), phase=Phase.NIGHT)

    def night_slots(self) -> list[tuple[int, str]]:
        """(order, slot) of every night action that living roles could still take."""
        slots: dict[str, int] = {}
        for seat in self.alive:
            role = self.roles[seat]
            if role.night_order is None:
                continue
            if role.action == Action.CHECK:
                slots[f"check:{role.code}"] = role.night_order
            elif role.action == Action.HEAL:
                slots["heal"] = min(slots.get("heal", role.night_order), role.night_order)
            elif role.action == Action.OTHER:
                slots[f"action:{seat}"] = role.night_order
            if role.shoots_as == "mafia" or role.code == "mafia":
                slots["kill:mafia"] = MAFIA_KILL_ORDER
            elif role.action == Action.KILL:
                if role.code == "swindler" and not self.options.swindler_kills:
                    continue
                slots[f"kill:{role.shoots_as or role.code}"] = role.night_order
        if self.n == 1 and not self.options.night_one_kills:
            slots = {slot: order for slot, order in slots.items() if not slot.startswith("kill:")}
        return sorted(
            (order, slot)
            for slot, order in slots.items()
            if slot not in self.acted and order >= self.night_order_reached
        )
