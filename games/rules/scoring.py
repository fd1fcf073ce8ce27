"""Points per player for one played game, each with its reason (docs/scoring.md).

Pure Python like the engine: a scheme (plain data, versioned by whoever stores it) and a
game's table and effective events in; a list of lines per seat out. The engine is replayed
event by event so that every line is read off the rules' own state (who shot whom that
night, who was healed, which check found black), never re-derived here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from games.rules.club import ClubGame, Phase, Reason
from games.rules.errors import ProtocolError, gettext_noop
from games.rules.online import BLACK_ROLES, OnlineGame
from games.rules.online import Elimination as OnlineElimination
from games.rules.roles import Team


@dataclass(frozen=True)
class Scheme:
    """The points of each line. The defaults and their reasons are in docs/scoring.md."""

    win: float = 1.0  # a member of the winning team (FIIM: +1)
    # A loner wins alone by its own condition; the rarer win is worth more.
    loner_win: float = 1.5
    removal: float = -0.5  # removed from the table for three fouls (FIIM: −0.5)
    red_nominates_black: float = 0.2  # per nomination of a black player by a red one
    check_found_black: float = 0.3  # the commissar's check that answered black
    doctor_save: float = 0.4  # a heal on the seat that was shot that night
    black_kills_key_red: float = 0.3  # to each living black player, per killed commissar/doctor
    winner_survives: float = 0.1  # a member of the winning side alive at the end
    # Online: per day, a red player whose vote stood on a black player when the day closed.
    red_votes_black: float = 0.2
    # The best move (ЛХ) of the first night's victim, by how many of the named seats are
    # black (FIIM: 2 of 3 +0.25, 3 of 3 +0.4; 1 of 3 nothing).
    best_move_1: float = 0.0
    best_move_2: float = 0.25
    best_move_3: float = 0.4
    # Whether the loners (maniac, нагнетатель) count as black in a best move (FIIM plays
    # without them: its black are the mafia and the don).
    best_move_loners_black: bool = False
    # The bounds of the host's extra points (допы) and penalties: never more than a win.
    bonus_min: float = -1.0
    bonus_max: float = 1.0

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Scheme:
        kinds = {f.name: f.type for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in raw.items():
            if key not in kinds:
                raise ProtocolError(gettext_noop("Unknown scoring line: %(key)s."), key=key)
            if kinds[key] in (bool, "bool"):
                if type(value) is not bool:
                    raise ProtocolError(gettext_noop("`%(key)s` is true or false."), key=key)
                values[key] = value
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ProtocolError(gettext_noop("The points of `%(key)s` are a number."), key=key)
            if not -10 <= value <= 10:
                raise ProtocolError(
                    gettext_noop("The points of `%(key)s` are within ±10."), key=key
                )
            values[key] = float(value)
        scheme = cls(**values)
        if not scheme.bonus_min <= 0 <= scheme.bonus_max:
            raise ProtocolError(
                gettext_noop(
                    "Extra points range from `bonus_min` (0 or less) to `bonus_max` (0 or more)."
                )
            )
        return scheme

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def bonus_allowed(self, points: float) -> bool:
        """Whether the host may give these extra points (a penalty when negative)."""
        return self.bonus_min <= points <= self.bonus_max

    def black_for_best_move(self, team: Team) -> bool:
        """Which cards a best move finds: black, and the loners when the scheme says so."""
        return team == Team.BLACK or (team == Team.LONER and self.best_move_loners_black)


@dataclass(frozen=True)
class Line:
    code: str  # the scheme's line, e.g. "win"
    points: float
    detail: dict[str, Any] = field(default_factory=dict)  # e.g. {"role": "mafia"}

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "points": self.points, **self.detail}


def won(role: str, team: Team, winner: str | None) -> bool:
    """Whether a player of `role` on `team` won: a loner wins only its own win."""
    return role == winner if team == Team.LONER else team.value == winner


def score(
    game: ClubGame, events: Sequence[Mapping[str, Any]], scheme: Scheme
) -> dict[int, list[Line]]:
    """The lines of every seat. `game` is a fresh state (no event applied yet); it is
    advanced over `events`, which must be the game's effective, legal events."""
    lines: dict[int, list[Line]] = {seat: [] for seat in game.order}

    def team(seat: int) -> Team:
        return game.roles[seat].team

    for event in events:
        kind = event.get("type")
        red_finds_black = (
            kind == "nominate"
            and team(event["by"]) == Team.RED
            and team(event["target"]) == Team.BLACK
        )
        if red_finds_black:
            lines[event["by"]].append(
                Line("red_nominates_black", scheme.red_nominates_black, {"target": event["target"]})
            )
        if kind == "day" and game.phase == Phase.NIGHT:
            _score_night(game, scheme, lines)
        checks_before = len(game.checks)
        game.apply(event)
        for check in game.checks[checks_before:]:
            if game.roles[check.by].code == "commissar" and check.result == Team.BLACK.value:
                lines[check.by].append(
                    Line("check_found_black", scheme.check_found_black, {"target": check.target})
                )
    for out in game.eliminated:
        if out.reason == Reason.FOULS:
            lines[out.seat].append(Line("removal", scheme.removal))
    _score_best_move(game, scheme, lines)
    _score_bonuses(game, scheme, lines)
    if game.winner is not None:
        for seat in game.order:
            role = game.roles[seat]
            if not won(role.code, role.team, game.winner):
                continue
            if role.team == Team.LONER:
                lines[seat].append(Line("loner_win", scheme.loner_win, {"role": role.code}))
            else:
                lines[seat].append(Line("win", scheme.win, {"role": role.code}))
            if seat in game.alive:
                lines[seat].append(Line("winner_survives", scheme.winner_survives))
    return lines


def _score_night(game: ClubGame, scheme: Scheme, lines: dict[int, list[Line]]) -> None:
    """Before the morning resolves the night: saves, and black's kills of key red roles."""
    shot = {target for _by, target in game.kills}
    healers = [seat for seat in game.alive if game.roles[seat].code == "doctor"]
    for target in game.heals & shot:
        for doctor in healers:
            lines[doctor].append(Line("doctor_save", scheme.doctor_save, {"target": target}))
    for by, target in game.kills:
        if by != "mafia" or target in game.heals or target in game.immune_now:
            continue
        if game.roles[target].code in ("commissar", "doctor"):
            for seat in game.alive:
                if game.roles[seat].team == Team.BLACK:
                    lines[seat].append(
                        Line("black_kills_key_red", scheme.black_kills_key_red, {"target": target})
                    )


def _score_best_move(game: ClubGame, scheme: Scheme, lines: dict[int, list[Line]]) -> None:
    """The best move the engine recorded, by how many of its seats the scheme calls black
    (`best_move_1` … `best_move_3`); a line only when those points are not zero."""
    given = game.best_move
    if given is None:
        return
    black = sum(1 for seat in given.targets if scheme.black_for_best_move(game.roles[seat].team))
    points = {1: scheme.best_move_1, 2: scheme.best_move_2, 3: scheme.best_move_3}.get(black, 0)
    if points:
        detail = {"targets": list(given.targets), "black": black}
        lines[given.by].append(Line(f"best_move_{black}", points, detail))


def _score_bonuses(game: ClubGame, scheme: Scheme, lines: dict[int, list[Line]]) -> None:
    """Each of the host's extra points as given, with the reason; held to the scheme's
    bounds (a later scheme may narrow them: then `given` keeps what the host gave)."""
    for bonus in game.bonuses:
        points = min(max(bonus.points, scheme.bonus_min), scheme.bonus_max)
        detail: dict[str, Any] = {"reason": bonus.reason}
        if points != bonus.points:
            detail["given"] = bonus.points
        lines[bonus.seat].append(Line("bonus", points, detail))


def total(lines: Sequence[Line]) -> float:
    return round(sum(line.points for line in lines), 2)


def score_online(
    game: OnlineGame, events: Sequence[Mapping[str, Any]], scheme: Scheme
) -> dict[int, list[Line]]:
    """The lines of every seat of an online game (RULES.md §D), read off the online engine
    as `score` reads the club's: the same lines where the games share them, and for the
    day's vote, a red player's vote standing on a black player when the day closes."""
    lines: dict[int, list[Line]] = {seat: [] for seat in game.order}
    for event in events:
        day_open = _online_day_open(game)
        standing = dict(game.votes) if day_open else {}
        checks_before, out_before = len(game.checks), len(game.eliminated)
        game.apply(event)
        if day_open and not _online_day_open(game):
            _score_standing_votes(game, standing, scheme, lines)
        for check in game.checks[checks_before:]:
            if check.kind == "commissar" and check.result == "black":
                lines[check.by].append(
                    Line("check_found_black", scheme.check_found_black, {"target": check.target})
                )
        _score_online_departures(game, game.eliminated[out_before:], scheme, lines)
    if game.winner is not None:
        _score_online_win(game, scheme, lines)
    return lines


def _online_day_open(game: OnlineGame) -> bool:
    """The day's vote is open (no catastrophe round): votes still stand to be counted."""
    return game.phase == "day" and game.open and game.catastrophe is None


def _black(game: OnlineGame, seat: int) -> bool:
    return game.roles[seat] in BLACK_ROLES


def _score_standing_votes(
    game: OnlineGame, standing: Mapping[int, Any], scheme: Scheme, lines: dict[int, list[Line]]
) -> None:
    """The day's vote closed: a red player's vote standing on a black player scores."""
    for voter, target in standing.items():
        if target != "pass" and not _black(game, voter) and _black(game, target):
            lines[voter].append(Line("red_votes_black", scheme.red_votes_black, {"target": target}))


def _score_online_departures(
    game: OnlineGame,
    departed: Sequence[OnlineElimination],
    scheme: Scheme,
    lines: dict[int, list[Line]],
) -> None:
    """The commissar shot dead scores for the living black; a removal costs its player."""
    for out in departed:
        if out.reason == "killed" and game.roles[out.seat] == "commissar":
            for seat in game.black_alive:
                lines[seat].append(
                    Line("black_kills_key_red", scheme.black_kills_key_red, {"target": out.seat})
                )
        if out.reason in ("warnings", "modkill"):
            lines[out.seat].append(Line("removal", scheme.removal))


def _score_online_win(game: OnlineGame, scheme: Scheme, lines: dict[int, list[Line]]) -> None:
    for seat in game.order:
        team = "black" if _black(game, seat) else "red"
        if team == game.winner:
            lines[seat].append(Line("win", scheme.win, {"role": game.roles[seat]}))
            if seat in game.alive:
                lines[seat].append(Line("winner_survives", scheme.winner_survives))
