"""The club ruleset's options: every ambiguous reading of RULES.md §B, with its default.

A club switches a reading by giving the option in the protocol's `options` (or in the
ruleset it plays); nothing in the engine changes. docs/protocol.md explains each option.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from games.rules.errors import ProtocolError, gettext_noop
from games.rules.roles import CLUB_ROLES, Action, CheckKind, Role, Team

_CHOICES: dict[str, tuple[str, ...]] = {
    # 5/5/3: places are the distinct vote counts (→ three candidates), or ranks (→ two).
    "candidate_places": ("distinct_counts", "ranks"),
    # One candidate on day 1: expelled when the first-day question passes, or outright.
    "single_candidate_day1": ("question", "expel"),
    # A tie for the fewest hands in a runoff of three or four: all tied drop out, or the
    # round ends with nobody expelled.
    "runoff_tie_for_fewest": ("drop_all", "nobody_leaves"),
    # What the commissar's check says of a loner (maniac, нагнетатель).
    "loners_check_as": ("black", "red"),
    # «Под фол» at most twice: per speech, or per game.
    "extension_limit_per": ("speech", "game"),
    # Who opens each day's round: the next living seat after the previous day's opener,
    # or seat N on day N (the next living one after it when seat N has left).
    "day_opener": ("after_previous", "day_number"),
    # Who names a best move (ЛХ): the players killed on night 1, the first players killed
    # at night whichever night that was, or nobody (a club that does not play it).
    "best_move_victims": ("night_one", "first_killed", "none"),
}


@dataclass(frozen=True)
class ClubOptions:
    candidate_places: str = "distinct_counts"
    single_candidate_day1: str = "question"
    runoff_tie_for_fewest: str = "drop_all"
    loners_check_as: str = "black"
    extension_limit_per: str = "speech"
    day_opener: str = "after_previous"
    best_move_victims: str = "night_one"
    # Speeches are checked: each seat speaks in turn, once a round (and each candidate once
    # a defence), and no speech or last word starts before the one before it ended. False
    # only for games recorded before the check (a migration marks those).
    speeches_checked: bool = True
    # The swindler is black and kills at night, right after the mafia's kill.
    swindler_kills: bool = True
    # The maniac's kill landing on the kamikaze takes the maniac too.
    kamikaze_takes_maniac: bool = True
    # Night 1 is an ordinary night (immunity protects the carried-in seats); False: no kills.
    night_one_kills: bool = True
    # A loner left with no black player and at most one other player wins alone.
    loner_wins_alone: bool = True
    min_players: int = 12
    max_players: int = 15
    roles: dict[str, Role] = field(default_factory=lambda: dict(CLUB_ROLES))

    @classmethod
    def from_dict(cls, raw: object) -> ClubOptions:
        if raw is None:
            return cls()
        if not isinstance(raw, dict):
            raise ProtocolError(gettext_noop("`options` must be an object."))
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in raw.items():
            if key not in known:
                raise ProtocolError(gettext_noop("Unknown ruleset option: %(key)s."), key=key)
            if key == "roles":
                values["roles"] = {**CLUB_ROLES, **_parse_roles(value)}
            elif key in _CHOICES:
                if value not in _CHOICES[key]:
                    allowed = ", ".join(_CHOICES[key])
                    raise ProtocolError(
                        gettext_noop("Option %(key)s is one of: %(allowed)s."),
                        key=key,
                        allowed=allowed,
                    )
                values[key] = value
            elif key in ("min_players", "max_players"):
                if type(value) is not int or not 2 <= value <= 30:
                    raise ProtocolError(
                        gettext_noop("Option %(key)s is a whole number from 2 to 30."), key=key
                    )
                values[key] = value
            else:
                if type(value) is not bool:
                    raise ProtocolError(gettext_noop("Option %(key)s is true or false."), key=key)
                values[key] = value
        options = cls(**values)
        if options.min_players > options.max_players:
            raise ProtocolError(gettext_noop("min_players is greater than max_players."))
        return options

    def to_dict(self) -> dict[str, Any]:
        """Every option, roles included: what an exported protocol carries."""
        result: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "roles":
                result["roles"] = {
                    code: role_to_dict(role) for code, role in sorted(self.roles.items())
                }
            else:
                result[f.name] = getattr(self, f.name)
        return result


def role_to_dict(role: Role) -> dict[str, Any]:
    return {
        "team": role.team.value,
        "night_order": role.night_order,
        "action": role.action.value,
        "check": role.check.value,
        "shoots_as": role.shoots_as,
    }


def _parse_roles(raw: object) -> dict[str, Role]:
    if not isinstance(raw, dict):
        raise ProtocolError(gettext_noop("`options.roles` must be an object."))
    roles: dict[str, Role] = {}
    for code, spec in raw.items():
        if not isinstance(code, str) or not code or len(code) > 32 or not isinstance(spec, dict):
            raise ProtocolError(gettext_noop("Malformed role %(code)s."), code=repr(code))
        try:
            team = Team(str(spec.get("team")))
            action = Action(spec.get("action", "none"))
            check = CheckKind(spec.get("check", "team"))
        except ValueError as error:
            raise ProtocolError(
                gettext_noop("Role %(code)s: bad team, action or check."), code=code
            ) from error
        order = spec.get("night_order")
        if order is not None and (type(order) is not int or not 0 <= order <= 1000):
            raise ProtocolError(
                gettext_noop("Role %(code)s: night_order is a whole number from 0 to 1000."),
                code=code,
            )
        if action != Action.NONE and order is None:
            raise ProtocolError(
                gettext_noop("Role %(code)s acts at night but has no night_order."), code=code
            )
        shoots_as = spec.get("shoots_as")
        if shoots_as is not None and not isinstance(shoots_as, str):
            raise ProtocolError(gettext_noop("Role %(code)s: bad shoots_as."), code=code)
        roles[code] = Role(code, team, order, action, check, shoots_as)
    return roles
