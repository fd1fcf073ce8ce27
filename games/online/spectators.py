"""An online game's public snapshot: what its spectators follow on /games/<id>/live/
(games/live.py keeps and serves it; docs/live.md «An online game»).

It is what any player at the table reads (RULES.md §D), and nothing more: the phase, its
deadline and whether it is open, who is alive, the host's warnings, who has left (how,
and in which day or night, as the thread announces it), the day's votes and fasts (every
vote is told in the thread), a catastrophe's tied seats and question, and the thread itself
(posts, last words, votes, outcomes, the host's moderation) as its last lines. Never a card
before the end (roles stay closed until the game ends, a mafioso's own partners included);
never the mafia's chat, the shots or the checks (they are not told: a shot left by day, a
night's shot or check changes nothing here, not even the ETag); never a vote left in
advance for a catastrophe (not told either).

Names follow the publication rules as on the club's live table: a member who refused
publication is «Игрок N» (`nick: null`), and their nickname in anyone's post, in any of its
forms, is written as a reference `{seat:N}` that the page says as «место N»
(games/reasons.py screens it).

It is written after each action's commit (games/online/log.py: `online_snapshot_on_commit`,
from the table as the action and the schedule left it, no second read of the log) and kept
and served by games/live.py (its cache, its ETag, the game's spectators setting); a miss is
built here from the database (`online_snapshot_write`, which the doors hand to
games.live.snapshot_read, as the analysis task does with the points).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Literal, TypedDict

from django.db import transaction

from games import access, live
from games.online.table import Table, online_table
from games.reasons import as_references
from games.rules.online.state import Choice, Phase

# The thread's last lines the snapshot carries: enough to follow the day, and a body that
# stays small whatever the game's length (the players' own page has the whole thread).
THREAD_LINES = 100
# The thread's lines that carry a player's written words.
WRITTEN = {"post", "last_word", "round_post"}


class OnlineLiveSeat(TypedDict):
    no: int
    nick: str | None  # None: the public may not see the name («Игрок N» on the page)
    alive: bool
    warnings: int
    role: str | None  # the card's code once the game is over; None until then


class OnlineLiveLeft(TypedDict):
    seat: int
    phase: str  # "day" or "night"
    n: int
    reason: str  # games.rules.online.Reason: voted, killed, modkill, warnings


class OnlineLiveVote(TypedDict):
    seat: int
    target: Choice  # a seat or "pass"


class OnlineLiveCatastrophe(TypedDict):
    tied: list[int]
    question: bool  # «hang all / pardon all?»; False: a revote among the tied


class OnlineLiveLine(TypedDict):
    """A line of the thread (games/rules/online/state.Story) as the public reads it."""

    kind: str
    phase: str
    n: int
    seat: int | None
    target: Choice | None
    seats: list[int]
    detail: str
    text: str  # a post's words, a hidden player's nickname as `{seat:N}`; "" otherwise
    at: str | None  # when it was written (ISO), if stamped


class OnlineLiveScore(TypedDict):
    seat: int
    points: float


class OnlineLiveSnapshot(TypedDict):
    game: int
    number: int
    ruleset: Literal["online"]
    phase: str  # setup, day, night, over
    n: int
    open: bool  # the phase takes actions (closed: resolved, the next step is due)
    deadline: str | None  # when the open phase closes or the next step comes (ISO)
    over: bool
    winner: str | None
    votes: list[OnlineLiveVote]  # today's, as the thread told them
    fasted: list[int]
    catastrophe: OnlineLiveCatastrophe | None
    left: list[OnlineLiveLeft]
    seats: list[OnlineLiveSeat]
    thread: list[OnlineLiveLine]
    thread_from: int  # the first kept line's place in the whole thread
    scores: list[OnlineLiveScore] | None  # once the game is over and analysed


def online_snapshot(
    found: Table, points: Callable[[], dict[int, float] | None] | None = None
) -> OnlineLiveSnapshot:
    """The public snapshot of an online table (see the module's docstring); `points`
    reads the finished game's published points."""
    state, game = found.state, found.game
    over = state.finished
    shown = {seat.number: access.seat_name_visible(seat, None) for seat in found.seats}
    hidden = tuple(
        (seat.number, seat.player.nickname) for seat in found.seats if not shown[seat.number]
    )
    day = state.phase == Phase.DAY and state.open
    first = max(0, len(state.story) - THREAD_LINES)
    deadline = found.table.deadline_at
    return {
        "game": game.pk,
        "number": game.number,
        "ruleset": "online",
        "phase": state.phase.value,
        "n": state.n,
        "open": state.open,
        "deadline": deadline.isoformat() if deadline is not None and not over else None,
        "over": over,
        "winner": state.winner,
        # The open day's: the votes (each told in the thread), the fasts, a catastrophe.
        "votes": _votes(found) if day else [],
        "fasted": sorted(state.fasted) if day else [],
        "catastrophe": _catastrophe(found) if day else None,
        # Eliminations are written when a phase is resolved and announced: a night's victim
        # at the morning's announcement, never before.
        "left": [
            {"seat": out.seat, "phase": out.phase, "n": out.n, "reason": out.reason.value}
            for out in state.eliminated
        ],
        "seats": [
            {
                "no": seat.number,
                "nick": seat.player.nickname if shown[seat.number] else None,
                "alive": seat.number in state.alive,
                "warnings": state.warnings.get(seat.number, 0),
                "role": seat.role if over else None,
            }
            for seat in found.seats
        ],
        "thread": [_line(found, place, hidden) for place in range(first, len(state.story))],
        "thread_from": first,
        "scores": _scores(points) if over else None,
    }


def _votes(found: Table) -> list[OnlineLiveVote]:
    return [
        {"seat": voter, "target": target} for voter, target in sorted(found.state.votes.items())
    ]


def _scores(points: Callable[[], dict[int, float] | None] | None) -> list[OnlineLiveScore] | None:
    scored = points() if points is not None else None
    if scored is None:
        return None
    return [{"seat": seat, "points": value} for seat, value in sorted(scored.items())]


def _catastrophe(found: Table) -> OnlineLiveCatastrophe | None:
    """The round's tied seats and its question; its votes are in the thread as they come
    (a vote left in advance is not told)."""
    round_ = found.state.catastrophe
    if round_ is None:
        return None
    return {"tied": list(round_.tied), "question": round_.question}


@functools.lru_cache(maxsize=4096)
def _referenced(text: str, hidden: tuple[tuple[int, str], ...]) -> str:
    """A post with each hidden player's nickname as `{seat:N}`: kept per text and hidden
    names, since every action writes the snapshot again with the same last posts (the
    screening reads every word's forms: some 0.5 ms a post)."""
    return as_references(text, dict(hidden))


def _line(found: Table, position: int, hidden: tuple[tuple[int, str], ...]) -> OnlineLiveLine:
    line = found.state.story[position]
    event = found.events[line.index]
    text = event.get("text") if line.kind in WRITTEN else None
    at = event.get("at")
    return {
        "kind": line.kind,
        "phase": line.phase,
        "n": line.n,
        "seat": line.seat,
        "target": line.target,
        "seats": list(line.seats),
        "detail": line.detail,
        "text": _referenced(text, hidden) if isinstance(text, str) else "",
        "at": at if isinstance(at, str) else None,
    }


def online_snapshot_keep(found: Table, scores: live.Scores | None = None) -> live.Kept:
    """Build the table's public snapshot and keep it (games.live.keep)."""
    game = found.game
    points = (lambda: scores(game)) if scores is not None else None
    return live.keep(game.pk, online_snapshot(found, points), game.spectators)


def online_snapshot_write(game_id: int, scores: live.Scores | None = None) -> live.Kept | None:
    """The snapshot from the database (a miss, the analysis's points); None for a game
    that is not an online one (games.live.Writer)."""
    found = online_table(game_id)
    return online_snapshot_keep(found, scores) if found is not None else None


def online_snapshot_on_commit(found: Table) -> None:
    """The online log's hook: once the action's transaction commits, the snapshot is
    written from `found`, the table as the action and what followed it (the schedule, the
    next phase) left it. Robust: a failure is logged, never the action's answer; the next
    poll's miss builds it again."""
    transaction.on_commit(lambda: online_snapshot_keep(found), robust=True)
