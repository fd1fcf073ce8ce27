"""The role catalogue as data: team, place in the night order, night action."""

from dataclasses import dataclass
from enum import StrEnum


class Team(StrEnum):
    RED = "red"
    BLACK = "black"
    LONER = "loner"


class Action(StrEnum):
    KILL = "kill"
    CHECK = "check"
    HEAL = "heal"
    OTHER = "other"
    NONE = "none"


class CheckKind(StrEnum):
    TEAM = "team"  # the answer is the target's team: red or black
    COMMISSAR = "commissar"  # the answer is whether the target is the commissar


@dataclass(frozen=True, slots=True)
class Role:
    code: str
    team: Team
    night_order: int | None = None  # when it wakes; None: it does not wake
    action: Action = Action.NONE
    check: CheckKind = CheckKind.TEAM
    # A kill made together with other roles: the boss and the mafia shoot as "mafia".
    shoots_as: str | None = None


# RULES.md §B. Night order: boss (check) → boss and mafia (kill) → swindler (kill, right
# after the mafia's) → maniac → нагнетатель → commissar → doctor.
CLUB_ROLES: dict[str, Role] = {
    role.code: role
    for role in (
        Role("civilian", Team.RED),
        Role("kamikaze", Team.RED),
        Role("commissar", Team.RED, 50, Action.CHECK, CheckKind.TEAM),
        Role("doctor", Team.RED, 60, Action.HEAL),
        Role("boss", Team.BLACK, 10, Action.CHECK, CheckKind.COMMISSAR, shoots_as="mafia"),
        Role("mafia", Team.BLACK, 20, Action.KILL, shoots_as="mafia"),
        Role("swindler", Team.BLACK, 25, Action.KILL),
        Role("maniac", Team.LONER, 30, Action.KILL),
        Role("instigator", Team.LONER, 40, Action.OTHER),
    )
}
# The order in which the joint mafia kill happens (the boss wakes earlier, alone, to check).
MAFIA_KILL_ORDER = 20
