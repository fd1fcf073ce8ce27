"""Who plays each generated round, so that the games per player are as equal as the rounds
allow: a round needs `tables × table_size` of its able players and the rest sit out.

A greedy pass picks, round by round, the players with the fewest games so far (ties: those
with fewer later rounds they can play, then the seed's draw). Absences can leave that short
of the best, so it is followed by balancing: while some player A has at least two games
more than some player B and a chain of swaps links them (A sits out a round in which C
played, C sits out a round in which B sat out, ...), the chain is applied: A loses a game,
B gains one, the players between keep theirs. When no such chain is left, no seating of
these rounds has its games more even (the sum of squared games is at its least)."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence

from .problem import RoundPlan


def choose_players(
    plans: Sequence[RoundPlan], table_size: int, played_games: Sequence[int], rng: random.Random
) -> list[list[bool]]:
    """For each generated round, whether each player plays it."""
    players = len(played_games)
    games = list(played_games)
    later = [0] * players
    for plan in plans:
        for player in plan.able:
            later[player] += 1
    playing: list[list[bool]] = []
    for plan in plans:
        for player in plan.able:
            later[player] -= 1
        draw = {player: rng.random() for player in plan.able}
        order = sorted(plan.able, key=lambda p: (games[p], later[p], draw[p]))
        plays = [False] * players
        for player in order[: plan.tables * table_size]:
            plays[player] = True
            games[player] += 1
        playing.append(plays)
    while _move_a_game(plans, playing, games):
        pass
    return playing


def _move_a_game(plans: Sequence[RoundPlan], playing: list[list[bool]], games: list[int]) -> bool:
    """Apply one chain that moves a game from a player to one with two games fewer."""
    for source in sorted(range(len(games)), key=lambda p: (-games[p], p)):
        chain = _chain_from(source, plans, playing, games)
        if chain is not None:
            for giver, round_, taker in chain:
                playing[round_][giver] = False
                playing[round_][taker] = True
            games[source] -= 1
            games[chain[-1][2]] += 1
            return True
    return False


def _chain_from(
    source: int, plans: Sequence[RoundPlan], playing: list[list[bool]], games: list[int]
) -> list[tuple[int, int, int]] | None:
    """The shortest chain of (giver, round, taker) from `source` to a player with at least
    two games fewer, or None. Breadth first over players: a giver hands a round they play
    to a taker who can play it and sits it out."""
    came_from: dict[int, tuple[int, int]] = {source: (-1, -1)}
    queue = deque([source])
    while queue:
        giver = queue.popleft()
        for round_, plan in enumerate(plans):
            if not playing[round_][giver]:
                continue
            for taker in plan.able:
                if playing[round_][taker] or taker in came_from:
                    continue
                came_from[taker] = (giver, round_)
                if games[taker] <= games[source] - 2:
                    return _unwind(came_from, taker)
                queue.append(taker)
    return None


def _unwind(came_from: dict[int, tuple[int, int]], last: int) -> list[tuple[int, int, int]]:
    chain = []
    taker = last
    while came_from[taker][0] != -1:
        giver, round_ = came_from[taker]
        chain.append((giver, round_, taker))
        taker = giver
    chain.reverse()
    return chain
