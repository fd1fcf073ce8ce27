"""The facts of play of one game, per seat (docs/statistics.md): what a player nominated and
voted for, what their checks found, whether they were killed first, their best move, their
fouls and how they left. Pure Python like scoring.py: the engine is replayed over the
effective events and every fact is read off the rules' own state (which team a seat is
on, what a check answered), never re-derived here.

The worker keeps them once per game (games/ratings/play.py), so the statistics of a
player's whole history are SQL sums over these rows, never a replay per request.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.rules.club import ClubGame
from games.rules.online import BLACK_ROLES, OnlineGame
from games.rules.roles import Team
from games.rules.scoring import won

# How a departure reads in the facts: the engines' reasons as they are (PROTOCOL.md).
KILLED_REASONS = frozenset({"killed", "swindler"})


@dataclass
class SeatFacts:
    """One seat's facts. «Rival» is the other side: black for a red player, red for a black
    one (a loner has no rival side, so its rival counts stay 0)."""

    seat: int
    role: str
    team: str
    won: bool
    nominations: int = 0
    nominations_rival: int = 0
    votes: int = 0
    votes_rival: int = 0
    checks: int = 0  # the commissar's (the sheriff's) checks
    checks_black: int = 0
    killed_first: bool = False  # shot dead in the first night that killed anyone
    best_move_named: int = 0  # the seats named in their best move
    best_move_black: int = 0  # of them, black
    fouls: int = 0  # fouls (online: warnings)
    left_reason: str = ""  # how they left the table ("" = alive at the end)
    left_phase: str = ""  # "day" / "night"
    left_n: int | None = None  # which day or night


def _rival(team: str, target: str) -> bool:
    return (team, target) in (
        (Team.RED.value, Team.BLACK.value),
        (Team.BLACK.value, Team.RED.value),
    )


def club_facts(game: ClubGame, events: Sequence[Mapping[str, Any]]) -> dict[int, SeatFacts]:
    """Every seat's facts. `game` is a fresh state; it is advanced over `events`, the
    game's effective, legal events (a RuleViolation propagates, as in scoring)."""

    def team(seat: int) -> str:
        return game.roles[seat].team.value

    facts = {
        seat: SeatFacts(seat, game.roles[seat].code, team(seat), won=False) for seat in game.order
    }
    for event in events:
        kind = event.get("type")
        if kind == "nominate":
            by, target = facts[event["by"]], event["target"]
            by.nominations += 1
            by.nominations_rival += _rival(by.team, team(target))
        checks_before = len(game.checks)
        game.apply(event)
        if kind in ("votes", "hands") and game.tally is not None:
            for voter, target in (game.tally.voters or {}).items():
                facts[voter].votes += 1
                facts[voter].votes_rival += _rival(facts[voter].team, team(target))
        for check in game.checks[checks_before:]:
            if game.roles[check.by].code == "commissar":
                facts[check.by].checks += 1
                facts[check.by].checks_black += check.result == Team.BLACK.value
    for seat, count in game.fouls.items():
        facts[seat].fouls = count
    if game.best_move is not None:
        given = facts[game.best_move.by]
        given.best_move_named = len(game.best_move.targets)
        given.best_move_black = sum(
            game.roles[seat].team == Team.BLACK for seat in game.best_move.targets
        )
    _departures(facts, game.eliminated)
    for kept in facts.values():
        kept.won = won(kept.role, game.roles[kept.seat].team, game.winner)
    return facts


def online_facts(game: OnlineGame, events: Sequence[Mapping[str, Any]]) -> dict[int, SeatFacts]:
    """Every seat's facts in an online game: no nominations, a vote is the one standing on
    a player when the day's vote closed (as scoring counts it), fouls are warnings."""

    def team(seat: int) -> str:
        return Team.BLACK.value if game.roles[seat] in BLACK_ROLES else Team.RED.value

    facts = {seat: SeatFacts(seat, game.roles[seat], team(seat), won=False) for seat in game.order}
    for event in events:
        day_open = game.phase == "day" and game.open and game.catastrophe is None
        standing = dict(game.votes) if day_open else {}
        checks_before = len(game.checks)
        game.apply(event)
        if day_open and not (game.phase == "day" and game.open and game.catastrophe is None):
            for voter, target in standing.items():
                if isinstance(target, int):
                    facts[voter].votes += 1
                    facts[voter].votes_rival += _rival(facts[voter].team, team(target))
        for check in game.checks[checks_before:]:
            if check.kind == "commissar":
                facts[check.by].checks += 1
                facts[check.by].checks_black += check.result == "black"
    for seat, count in game.warnings.items():
        facts[seat].fouls = count
    _departures(facts, game.eliminated)
    for kept in facts.values():
        kept.won = kept.team == game.winner
    return facts


def _departures(facts: dict[int, SeatFacts], eliminated: Sequence[Any]) -> None:
    """How and when each seat left, and who was killed first: the seats shot dead in the
    earliest night that killed anyone (two when two shots hit)."""
    for out in eliminated:
        facts[out.seat].left_reason = str(out.reason)
        facts[out.seat].left_phase = str(out.phase)
        facts[out.seat].left_n = out.n
    killed = [out for out in eliminated if out.phase == "night" and out.reason in KILLED_REASONS]
    if killed:
        first = min(out.n for out in killed)
        for out in killed:
            if out.n == first:
                facts[out.seat].killed_first = True
