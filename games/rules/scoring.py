"""Points per player for one played game, each with its reason (docs/scoring.md).

Pure Python like the engine: a scheme (plain data, versioned by whoever stores it) and a
game's table and effective events in; a list of lines per seat out. The engine is replayed
event by event so that every line is read off the rules' own state (who shot whom that
night, who was healed, which check found black), never re-derived here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

from games.rules.club import ClubGame, Phase, Reason
from games.rules.errors import ProtocolError, gettext_noop
from games.rules.online import BLACK_ROLES, OnlineGame
from games.rules.online import Elimination as OnlineElimination
from games.rules.roles import Team
from games.rules.rounding import rounded


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
    # Whether only a red giver's best move scores (FIIM: mafiaratings scores the «legacy»
    # group for roles 3, the civilians and the sheriff): a black first-night victim, shot by
    # the maniac, who names its partners has found nothing the town did not lose.
    best_move_red_only: bool = False
    # The bounds of the host's extra points (допы) and penalties: never more than a win.
    bonus_min: float = -1.0
    bonus_max: float = 1.0

    # The lines below are off (0, or a factor of 1) unless a preset turns them on, so that
    # the club's preset scores as it always did (docs/scoring.md, «Автоматический»).
    red_nominates_red: float = 0.0  # per nomination of a red player by a red one
    # The day's deciding show of hands, where the host tapped who raised a hand for whom:
    # a red player's hand on a black candidate, and on a red one.
    red_hands_black: float = 0.0
    red_hands_red: float = 0.0
    red_votes_red: float = 0.0  # online: a red player's vote standing on a red one
    # Nominations and votes of a critical day (the town one mistake from losing) count this
    # many times.
    critical_day_factor: float = 1.0
    black_win_alive: float = 0.0  # a black player alive at the end of black's win
    black_missed_shot: float = 0.0  # to each living shooter, per night the mafia's shot missed
    # Removed by the host's decision, not by fouls (club: `disqualify`; online: a modkill).
    disqualification: float = -0.5
    # First-night compensation (Ci) on the season's table: its cap, 0 for none (FIIM: 0.4).
    first_night_compensation: float = 0.0
    # What orders players with equal points on the season's table, in turn (TIE_BREAKERS).
    tie_breakers: tuple[str, ...] = ("wins", "fewer_games")

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Scheme:
        kinds = {f.name: f.type for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in raw.items():
            if key not in kinds:
                raise ProtocolError(gettext_noop("Unknown scoring line: %(key)s."), key=key)
            if key == "tie_breakers":
                values[key] = _tie_breakers(value)
                continue
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
            if key in NON_NEGATIVE and value < 0:
                raise ProtocolError(gettext_noop("`%(key)s` is 0 or more."), key=key)
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
        return {
            f.name: list(value) if isinstance(value := getattr(self, f.name), tuple) else value
            for f in fields(self)
        }

    def bonus_allowed(self, points: float) -> bool:
        """Whether the host may give these extra points (a penalty when negative)."""
        return self.bonus_min <= points <= self.bonus_max

    def black_for_best_move(self, team: Team) -> bool:
        """Which cards a best move finds: black, and the loners when the scheme says so."""
        return team == Team.BLACK or (team == Team.LONER and self.best_move_loners_black)


# Not points but a factor and a cap: below 0 they mean nothing.
NON_NEGATIVE = frozenset({"critical_day_factor", "first_night_compensation"})

# What may order players with equal points on a season's table, each "more is better" but
# `fewer_games` (docs/scoring.md names the source of each preset's order).
TIE_BREAKERS = (
    "wins",  # games won
    "key_role_wins",  # games won as the boss (the don) or the commissar (the sheriff)
    "extra",  # the best move, extra points and penalties together (mafiaratings' «epg»)
    "bonus",  # the host's extra points (Polemica's awards)
    "best_move",  # the best move's points (Polemica's guess score)
    "first_night_kills",  # times killed on night 1 while red
    "fewer_games",  # the same points from fewer games
)


def _tie_breakers(value: object) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ProtocolError(gettext_noop("`tie_breakers` is a list of names."))
    unknown = [v for v in value if v not in TIE_BREAKERS]
    if unknown:
        raise ProtocolError(gettext_noop("Unknown tie-breaker: %(key)s."), key=unknown[0])
    if len(set(value)) != len(value):
        raise ProtocolError(gettext_noop("A tie-breaker is named once."))
    return tuple(value)


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
    advanced over `events`, which must be the game's effective, legal events. A line worth
    nothing under `scheme` is left out (a preset turns a line off with 0)."""
    lines: dict[int, list[Line]] = {seat: [] for seat in game.order}
    day = _Day(scheme)

    def team(seat: int) -> Team:
        return game.roles[seat].team

    for event in events:
        kind = event.get("type")
        if kind == "nominate" and team(event["by"]) == Team.RED:
            target = team(event["target"])
            code = {Team.BLACK: "red_nominates_black", Team.RED: "red_nominates_red"}.get(target)
            if code is not None:
                lines[event["by"]].append(day.line(code, event["target"]))
        if kind == "night":
            _score_hands(game, day, lines)
        if kind == "day" and game.phase == Phase.NIGHT:
            _score_night(game, scheme, lines)
        checks_before = len(game.checks)
        game.apply(event)
        if kind == "day" and game.phase == Phase.DAY:
            day.start(_critical(game))
        if kind in ("votes", "hands") and game.tally is not None:
            day.deciding = game.tally.voters  # the last vote of the day decides
        for check in game.checks[checks_before:]:
            found = game.roles[check.by].code == "commissar" and check.result == Team.BLACK.value
            if found and not _found_before(lines[check.by], check.target):
                lines[check.by].append(
                    Line("check_found_black", scheme.check_found_black, {"target": check.target})
                )
    _score_hands(game, day, lines)  # a game that ends by day
    for out in game.eliminated:
        if out.reason == Reason.FOULS:
            lines[out.seat].append(Line("removal", scheme.removal))
        if out.reason == Reason.DISQUALIFIED:  # the host's removal (`disqualify`)
            lines[out.seat].append(Line("disqualification", scheme.disqualification))
    _score_best_move(game, scheme, lines)
    _score_bonuses(game, scheme, lines)
    _score_win(game, scheme, lines)
    return _worth_something(lines)


def _found_before(lines: list[Line], target: int) -> bool:
    """The seat was found black by an earlier check: checking it again finds nothing new
    (the walk of #28 saw a commissar score the same black seat twice)."""
    return any(
        line.code == "check_found_black" and line.detail.get("target") == target for line in lines
    )


def _score_win(game: ClubGame, scheme: Scheme, lines: dict[int, list[Line]]) -> None:
    """The end: each winner's win (a loner's its own), and its survival."""
    if game.winner is None:
        return
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
            if role.team == Team.BLACK:
                lines[seat].append(Line("black_win_alive", scheme.black_win_alive))


class _Day:
    """What the scoring keeps of the day under way: whether it is critical, and who voted
    for whom in its deciding vote (when the host tapped the hands)."""

    def __init__(self, scheme: Scheme) -> None:
        self.scheme = scheme
        self.critical = False
        self.deciding: dict[int, int] | None = None

    def start(self, critical: bool) -> None:
        self.critical, self.deciding = critical, None

    def line(self, code: str, target: int) -> Line:
        """A nomination's or a vote's line, weighed by the day (its detail says a critical
        day when the weight is not 1)."""
        points = getattr(self.scheme, code)
        detail: dict[str, Any] = {"target": target}
        factor = self.scheme.critical_day_factor
        if self.critical and factor != 1:
            points, detail["critical"] = rounded(points * factor, 4), True
        return Line(code, points, detail)


def _critical(game: ClubGame | OnlineGame) -> bool:
    """Whether the town is one mistake from losing as the day opens: were it to expel a red
    player today and black to kill one tonight (with each of its shots), black would reach
    parity. Polemica's «критика» (7 red against 3 black: red ≤ black + 2), with the club's
    second black shot, the swindler's, counted when it can shoot; loners are outside it."""
    if isinstance(game, OnlineGame):
        black = len(game.black_alive)
        return black > 0 and len(game.alive) - black - 2 <= black
    red = sum(1 for seat in game.alive if game.roles[seat].team == Team.RED)
    black_seats = [seat for seat in game.alive if game.roles[seat].team == Team.BLACK]
    shots = int(any(game.roles[seat].shoots_as == "mafia" for seat in black_seats))
    shots += int(
        game.options.swindler_kills
        and any(game.roles[seat].code == "swindler" for seat in black_seats)
    )
    return bool(black_seats) and red - 1 - shots <= len(black_seats)


def _score_hands(game: ClubGame, day: _Day, lines: dict[int, list[Line]]) -> None:
    """The day's deciding vote, as the engine kept it: each red voter's hand on a black
    candidate, or on a red one."""
    for voter, target in sorted((day.deciding or {}).items()):
        if game.roles[voter].team != Team.RED:
            continue
        code = {Team.BLACK: "red_hands_black", Team.RED: "red_hands_red"}.get(
            game.roles[target].team
        )
        if code is not None:
            lines[voter].append(day.line(code, target))
    day.deciding = None


def _score_night(game: ClubGame, scheme: Scheme, lines: dict[int, list[Line]]) -> None:
    """Before the morning resolves the night: saves, black's kills of key red roles, and
    the mafia's shot recorded as a miss (woke and hit nobody)."""
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
    if "kill:mafia" in game.acted and not any(by == "mafia" for by, _target in game.kills):
        for seat in sorted(game.alive):
            if game.roles[seat].shoots_as == "mafia":
                lines[seat].append(Line("black_missed_shot", scheme.black_missed_shot))


def _worth_something(lines: dict[int, list[Line]]) -> dict[int, list[Line]]:
    return {seat: [line for line in own if line.points] for seat, own in lines.items()}


class _Departure(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def n(self) -> int: ...
    @property
    def reason(self) -> str: ...


def killed_first_night(eliminated: Iterable[_Departure]) -> set[int]:
    """The seats shot dead on night 1 (the mafia's, the swindler's or the maniac's kill;
    online, the mafia's): what first-night compensation and its tie-breaker count."""
    return {
        out.seat
        for out in eliminated
        if out.phase == "night" and out.n == 1 and out.reason in ("killed", "swindler")
    }


def first_night_compensation(kills: int, games: int, cap: float) -> float:
    """Ci, mafiaratings' formula for FIIM (its scoring's «night1» policy, in
    include/scoring.php's evaluator): max(min(cap·K / round(0.4·N), cap), 0) for K
    first-night kills as red in N games of the season. Its evaluator divides by zero to
    2·10⁹ when K > 0 (so Ci is the cap) and to 0 when K = 0; PHP rounds halves up."""
    if cap <= 0 or kills <= 0:
        return 0.0
    divisor = int(rounded(0.4 * games, 0))
    if divisor <= 0:
        return cap
    return max(min(kills * cap / divisor, cap), 0.0)


def _score_best_move(game: ClubGame, scheme: Scheme, lines: dict[int, list[Line]]) -> None:
    """The best move the engine recorded, by how many of its seats the scheme calls black
    (`best_move_1` … `best_move_3`); a line only when those points are not zero, and none
    for a giver who is not red when the scheme scores red players' best moves only."""
    given = game.best_move
    if given is None:
        return
    if scheme.best_move_red_only and game.roles[given.by].team != Team.RED:
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
    return rounded(sum(line.points for line in lines))


# The lines a tie-breaker sums (TIE_BREAKERS): the host's extra points, the best move, and
# the penalties (mafiaratings' «extra», «legacy» and «penalty» groups).
BONUS_LINES = frozenset({"bonus"})
BEST_MOVE_LINES = frozenset({"best_move_1", "best_move_2", "best_move_3"})
PENALTY_LINES = frozenset({"removal", "disqualification"})


@dataclass(frozen=True)
class Extras:
    """A seat's points in the lines the tie-breakers count."""

    bonus: float = 0.0
    best_move: float = 0.0
    penalty: float = 0.0

    @classmethod
    def of(cls, lines: Iterable[Line]) -> Extras:
        bonus = best_move = penalty = 0.0
        for line in lines:
            if line.code in BONUS_LINES:
                bonus += line.points
            elif line.code in BEST_MOVE_LINES:
                best_move += line.points
            elif line.code in PENALTY_LINES:
                penalty += line.points
        return cls(rounded(bonus), rounded(best_move), rounded(penalty))


def score_online(
    game: OnlineGame, events: Sequence[Mapping[str, Any]], scheme: Scheme
) -> dict[int, list[Line]]:
    """The lines of every seat of an online game (RULES.md §D), read off the online engine
    as `score` reads the club's: the same lines where the games share them, and for the
    day's vote, a red player's vote standing on a black player when the day closes."""
    lines: dict[int, list[Line]] = {seat: [] for seat in game.order}
    day = _Day(scheme)
    for event in events:
        day_open = _online_day_open(game)
        standing = dict(game.votes) if day_open else {}
        checks_before, out_before = len(game.checks), len(game.eliminated)
        misfires = game.misfires
        game.apply(event)
        if event.get("type") == "day" and game.phase == "day":
            day.start(_critical(game))
        if day_open and not _online_day_open(game):
            _score_standing_votes(game, standing, day, lines)
        for check in game.checks[checks_before:]:
            found = check.kind == "commissar" and check.result == "black"
            if found and not _found_before(lines[check.by], check.target):
                lines[check.by].append(
                    Line("check_found_black", scheme.check_found_black, {"target": check.target})
                )
        if game.misfires > misfires:  # the night's shot missed: nobody agreed, or nobody shot
            for seat in sorted(game.black_alive):
                lines[seat].append(Line("black_missed_shot", scheme.black_missed_shot))
        _score_online_departures(game, game.eliminated[out_before:], scheme, lines)
    if game.winner is not None:
        _score_online_win(game, scheme, lines)
    return _worth_something(lines)


def _online_day_open(game: OnlineGame) -> bool:
    """The day's vote is open (no catastrophe round): votes still stand to be counted."""
    return game.phase == "day" and game.open and game.catastrophe is None


def _black(game: OnlineGame, seat: int) -> bool:
    return game.roles[seat] in BLACK_ROLES


def _score_standing_votes(
    game: OnlineGame, standing: Mapping[int, Any], day: _Day, lines: dict[int, list[Line]]
) -> None:
    """The day's vote closed: a red player's vote standing on a black player scores, and
    one standing on a red player (PASS is neither)."""
    for voter, target in standing.items():
        if target == "pass" or _black(game, voter):
            continue
        code = "red_votes_black" if _black(game, target) else "red_votes_red"
        lines[voter].append(day.line(code, target))


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
        if out.reason == "warnings":
            lines[out.seat].append(Line("removal", scheme.removal))
        if out.reason == "modkill":
            lines[out.seat].append(Line("disqualification", scheme.disqualification))


def _score_online_win(game: OnlineGame, scheme: Scheme, lines: dict[int, list[Line]]) -> None:
    for seat in game.order:
        team = "black" if _black(game, seat) else "red"
        if team == game.winner:
            lines[seat].append(Line("win", scheme.win, {"role": game.roles[seat]}))
            if seat in game.alive:
                lines[seat].append(Line("winner_survives", scheme.winner_survives))
                if team == "black":
                    lines[seat].append(Line("black_win_alive", scheme.black_win_alive))
