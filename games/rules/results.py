"""Points for a game known by its results only (a club's old records: a spreadsheet of
results, the exchange JSON's results), with no event log to replay.

The lines are the scheme's own (scoring.py) wherever the results hold the fact: the win by
role and team, the winner's survival (a player who did not leave stayed to the end), the
best move, the removal for fouls, the host's disqualification and extra points. The lines
only a log can show (nominations, votes, checks, saves, missed shots) are not guessed: a
results-only game scores none of them. Pure Python like the engines.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.rules.errors import ProtocolError, gettext_noop
from games.rules.facts import SeatFacts
from games.rules.roles import Role, Team
from games.rules.scoring import Line, Scheme, won

# How a player left the table, as Game.results keeps it (history.formats.records.Left).
LEFT = ("killed", "voted", "fouls", "disqualified")


@dataclass(frozen=True)
class SeatResult:
    fouls: int = 0
    left: str = ""  # one of LEFT, or "" when the player stayed to the end
    when: str = ""  # "N1" (night 1), "D2" (day 2), "" when unknown
    extra: float = 0.0  # the host's extra points (a penalty when negative)
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "fouls": self.fouls,
            "left": self.left,
            "when": self.when,
            "extra": self.extra,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Results:
    """Game.results: each seat's result, and the best move (who named it, which seats)."""

    seats: Mapping[int, SeatResult] = field(default_factory=dict)
    best_move_by: int | None = None
    best_move: tuple[int, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "seats": {str(seat): result.as_dict() for seat, result in sorted(self.seats.items())},
            "best_move": {"by": self.best_move_by, "targets": list(self.best_move)},
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Results:
        try:
            seats = {
                int(seat): SeatResult(
                    fouls=int(one.get("fouls", 0)),
                    left=str(one.get("left", "")),
                    when=str(one.get("when", "")).upper(),
                    extra=float(one.get("extra", 0.0)),
                    reason=str(one.get("reason", "")),
                )
                for seat, one in (raw.get("seats") or {}).items()
            }
            best = raw.get("best_move") or {}
            by = best.get("by")
            targets = tuple(int(seat) for seat in best.get("targets") or ())
        except (TypeError, ValueError, AttributeError) as error:
            raise ProtocolError(gettext_noop("The game's results cannot be read.")) from error
        if any(result.left and result.left not in LEFT for result in seats.values()):
            raise ProtocolError(gettext_noop("The game's results cannot be read."))
        return cls(seats, int(by) if by is not None else None, targets)


def killed_first_night(results: Results) -> set[int]:
    """The seats killed on night 1, as the results say (what first-night compensation
    counts): only when the results hold the night."""
    return {
        seat
        for seat, result in results.seats.items()
        if result.left == "killed" and result.when == "N1"
    }


def score_results(
    roles: Mapping[int, Role], results: Results, winner: str, scheme: Scheme
) -> dict[int, list[Line]]:
    """The lines of every seat (`roles`: seat → its card) by the scheme, read off the
    results; a line worth nothing under the scheme is left out, as scoring.score does."""
    lines: dict[int, list[Line]] = {seat: [] for seat in sorted(roles)}
    for seat in lines:
        result = results.seats.get(seat, SeatResult())
        if result.left == "fouls":
            lines[seat].append(Line("removal", scheme.removal))
        elif result.left == "disqualified":
            lines[seat].append(Line("disqualification", scheme.disqualification))
    _best_move(roles, results, scheme, lines)
    for seat in lines:
        extra = results.seats.get(seat, SeatResult()).extra
        if extra:
            points = min(max(extra, scheme.bonus_min), scheme.bonus_max)
            detail: dict[str, Any] = {"reason": results.seats[seat].reason}
            if points != extra:
                detail["given"] = extra
            lines[seat].append(Line("bonus", points, detail))
    _win(roles, results, winner, scheme, lines)
    return {seat: [line for line in own if line.points] for seat, own in lines.items()}


def _best_move(
    roles: Mapping[int, Role], results: Results, scheme: Scheme, lines: dict[int, list[Line]]
) -> None:
    by = results.best_move_by
    if by is None or by not in roles or not results.best_move:
        return
    if scheme.best_move_red_only and roles[by].team != Team.RED:
        return
    black = sum(
        1
        for seat in results.best_move
        if seat in roles and scheme.black_for_best_move(roles[seat].team)
    )
    points = {1: scheme.best_move_1, 2: scheme.best_move_2, 3: scheme.best_move_3}.get(black, 0)
    if points:
        detail = {"targets": list(results.best_move), "black": black}
        lines[by].append(Line(f"best_move_{black}", points, detail))


def _win(
    roles: Mapping[int, Role],
    results: Results,
    winner: str,
    scheme: Scheme,
    lines: dict[int, list[Line]],
) -> None:
    if not winner:
        return
    for seat, role in roles.items():
        if not won(role.code, role.team, winner):
            continue
        if role.team == Team.LONER:
            lines[seat].append(Line("loner_win", scheme.loner_win, {"role": role.code}))
        else:
            lines[seat].append(Line("win", scheme.win, {"role": role.code}))
        if not results.seats.get(seat, SeatResult()).left:
            lines[seat].append(Line("winner_survives", scheme.winner_survives))
            if role.team == Team.BLACK:
                lines[seat].append(Line("black_win_alive", scheme.black_win_alive))


def results_facts(roles: Mapping[int, Role], results: Results, winner: str) -> dict[int, SeatFacts]:
    """The facts of play (games/rules/facts.py) the results hold: the role and the win,
    fouls, how and when each left, killed on night 1, the best move; the counts only a log
    shows (nominations, votes, checks) stay 0, and the row says it has no log."""
    facts = {}
    first_night = killed_first_night(results)
    for seat, role in sorted(roles.items()):
        result = results.seats.get(seat, SeatResult())
        phase, n = _moment(result.when)
        facts[seat] = SeatFacts(
            seat=seat,
            role=role.code,
            team=role.team.value,
            won=won(role.code, role.team, winner),
            killed_first=seat in first_night,
            fouls=result.fouls,
            left_reason=result.left,
            left_phase=phase if result.left else "",
            left_n=n if result.left else None,
        )
    by = results.best_move_by
    if by in facts and results.best_move:
        given = facts[by]
        given.best_move_named = len(results.best_move)
        given.best_move_black = sum(
            1 for seat in results.best_move if seat in roles and roles[seat].team == Team.BLACK
        )
    return facts


def _moment(when: str) -> tuple[str, int | None]:
    """«N1» → ("night", 1), «D2» → ("day", 2); ("", None) when unknown."""
    if len(when) > 1 and when[0] in "ND" and when[1:].isdigit():
        return ("night" if when[0] == "N" else "day"), int(when[1:])
    return "", None
