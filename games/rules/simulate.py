"""Random legal games, for the property tests and the replay benchmark.

Deterministic for a given random.Random: the same seed gives the same game. The choices are
read off the engine's own state (whose turn, who is alive, who is a candidate), so every
generated event is legal when it is made.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from games.rules.club import ClubGame, Phase, Step
from games.rules.online import OnlineGame
from games.rules.options import ClubOptions

MAX_DAYS = 40


@dataclass
class GeneratedGame:
    seats: dict[int, str]
    immune: list[int]
    events: list[dict[str, Any]]
    game: ClubGame


def random_lineup(rng: random.Random, players: int) -> dict[int, str]:
    black = max(2, players // 4)
    roles = ["boss"] + ["mafia"] * (black - 1)
    if rng.random() < 0.5:
        roles[-1] = "swindler"
    roles += ["commissar", "doctor"]
    if rng.random() < 0.5:
        roles.append("maniac")
    if rng.random() < 0.3:
        roles.append("instigator")
    if rng.random() < 0.4:
        roles.append("kamikaze")
    roles += ["civilian"] * (players - len(roles))
    rng.shuffle(roles)
    return {seat: role for seat, role in enumerate(roles, start=1)}


def _split(rng: random.Random, total: int, among: list[int]) -> dict[str, int]:
    counts = dict.fromkeys(among, 0)
    for _ in range(total):
        counts[rng.choice(among)] += 1
    return {str(seat): count for seat, count in counts.items()}


def _tally(rng: random.Random, game: ClubGame, among: list[int]) -> dict[str, Any]:
    """A count or a voter map over `among`, never more than the living."""
    living = sorted(game.alive)
    voters = rng.sample(living, rng.randint(0, len(living)))
    if rng.random() < 0.5:
        return {"voters": {str(voter): rng.choice(among) for voter in voters}}
    return {"counts": _split(rng, len(voters), among)}


def random_game(
    rng: random.Random,
    *,
    players: int | None = None,
    options: ClubOptions | None = None,
    immune_chance: float = 0.3,
) -> GeneratedGame:
    players = players or rng.randint(12, 15)
    seats = random_lineup(rng, players)
    immune = rng.sample(sorted(seats), rng.randint(1, 2)) if rng.random() < immune_chance else []
    return play(rng, seats, options=options, immune=immune)


def play(
    rng: random.Random,
    seats: dict[int, str],
    *,
    options: ClubOptions | None = None,
    immune: list[int] | None = None,
) -> GeneratedGame:
    """A random legal game of a given table (seat → role), played to its end."""
    immune = immune or []
    game = ClubGame(seats, options=options, immune=immune)
    events: list[dict[str, Any]] = []

    def emit(event: dict[str, Any]) -> None:
        game.apply(event)
        events.append(event)

    emit({"type": "day", "n": 1})
    while not game.finished and game.n <= MAX_DAYS:
        if game.phase == Phase.DAY:
            _play_day(rng, game, emit)
            if not game.finished:
                emit({"type": "night", "n": game.n})
        elif game.phase == Phase.NIGHT:
            _play_night(rng, game, emit)
            emit({"type": "day", "n": game.n + 1})
    return GeneratedGame(seats, immune, events, game)


def _play_day(rng: random.Random, game: ClubGame, emit: Any) -> None:
    for seat in game.round_order():
        if game.finished or seat not in game.alive:
            continue
        _play_turn(rng, game, emit, seat)
    if game.finished or game.step != Step.ROUND or not game.nominees:
        return
    _play_vote(rng, game, emit)
    for seat in sorted(game.last_words_due):
        if not game.finished and rng.random() < 0.7:
            emit({"type": "last_word", "seat": seat})


def _play_turn(rng: random.Random, game: ClubGame, emit: Any, seat: int) -> None:
    """A seat's turn in the round: «под фол» perhaps, a foul perhaps, nominations, the
    speech; a turn ends early when the seat (or the game) does."""
    for _ in range(rng.choice((0, 0, 0, 0, 1, 2))):
        if seat in game.alive and not game.finished:
            emit({"type": "extension", "seat": seat})
    if seat not in game.alive or game.finished:
        return
    if rng.random() < 0.05:
        emit({"type": "foul", "seat": seat})
        if seat not in game.alive or game.finished:
            return
    targets = [s for s in sorted(game.alive) if s not in game.immune_now]
    for target in rng.sample(targets, min(len(targets), rng.choice((0, 0, 1, 1, 2)))):
        if target != seat or rng.random() < 0.1:
            emit({"type": "nominate", "by": seat, "target": target})
    emit({"type": "speech", "seat": seat, **_next_half_minute(game), "limit": 30})


def _play_vote(rng: random.Random, game: ClubGame, emit: Any) -> None:
    """The count, then each question the day asks until it is done."""
    emit({"type": "votes", **_tally(rng, game, list(game.nominees))})
    while not game.finished and (step := _step(game)) != Step.DONE:
        living = len(game.alive)
        if step == Step.FIRST_DAY_QUESTION:
            emit({"type": "first_day_expel", "for": rng.randint(0, living)})
        elif step == Step.HANDS:
            emit({"type": "hands", **_tally(rng, game, list(game.candidates))})
        elif step == Step.EXPEL_BOTH:
            emit({"type": "expel_both", "for": rng.randint(0, living)})


GAME_START = datetime(2026, 12, 6, 18, 0, tzinfo=timezone(timedelta(hours=3)))


def _next_half_minute(game: ClubGame) -> dict[str, str]:
    """The next 30 seconds after the last speech: speeches follow one another in time."""
    start = game.speeches_end or GAME_START
    return {"start": start.isoformat(), "end": (start + timedelta(seconds=30)).isoformat()}


def _play_night(rng: random.Random, game: ClubGame, emit: Any) -> None:
    passed: set[str] = set()  # roles that do nothing tonight
    while not game.finished:
        slots = [(order, slot) for order, slot in game.night_slots() if slot not in passed]
        if not slots:
            return
        _order, slot = slots[0]
        kind, _, who = slot.partition(":")
        living = sorted(game.alive)
        if rng.random() < 0.1:
            passed.add(slot)
            continue
        target = rng.choice(living)
        if kind == "check":
            by = next(s for s in living if game.roles[s].code == who)
            emit({"type": "check", "by": by, "target": target})
        elif kind == "kill":
            emit({"type": "kill", "by": who, "target": target})
        elif kind == "heal":
            emit({"type": "heal", "target": target})
        else:
            emit({"type": "action", "by": int(who), "target": target, "kind": "pressure"})


# A short legal game written out, for the demo data and for tests worked by hand. Seat 1 is
# the boss, 2 and 3 mafia, 4 the commissar, 5 the doctor, 6–12 civilians. Nobody leaves on
# day 1; the mafia kill 6 on night 1 (the commissar finds 2 black); then each day the
# commissar puts up a black player who is voted out, and each night the mafia kill a
# civilian, until the town wins on day 4.
SAMPLE_LINEUP: tuple[str, ...] = ("boss", "mafia", "mafia", "commissar", "doctor") + (
    "civilian",
) * 7
SAMPLE_OPENING: tuple[dict[str, Any], ...] = (
    {"type": "day", "n": 1},
    {"type": "night", "n": 1},
    {"type": "check", "by": 1, "target": 4},
    {"type": "kill", "by": "mafia", "target": 6},
    {"type": "check", "by": 4, "target": 2},
    {"type": "heal", "target": 7},
    {"type": "day", "n": 2},
)
SAMPLE_TOWN_WINS: tuple[dict[str, Any], ...] = (
    *SAMPLE_OPENING,
    {"type": "nominate", "by": 4, "target": 2},
    {"type": "votes", "counts": {"2": 7}},
    {"type": "night", "n": 2},
    {"type": "kill", "by": "mafia", "target": 8},
    {"type": "day", "n": 3},
    {"type": "nominate", "by": 4, "target": 3},
    {"type": "votes", "counts": {"3": 6}},
    {"type": "night", "n": 3},
    {"type": "kill", "by": "mafia", "target": 9},
    {"type": "day", "n": 4},
    {"type": "nominate", "by": 4, "target": 1},
    {"type": "votes", "counts": {"1": 5}},
)


# --- the online game ----------------------------------------------------------------------


def _over(game: OnlineGame) -> bool:
    return game.finished


def random_online_game(
    rng: random.Random, max_days: int = 30
) -> tuple[dict[int, str], list[dict[str, Any]], OnlineGame]:
    """A random legal online game (RULES.md §D): its seats, its events and its end state."""
    roles = ["don", "mafia", "mafia", "commissar"] + ["civilian"] * 6
    rng.shuffle(roles)
    seats = dict(enumerate(roles, start=1))
    game = OnlineGame(seats)
    events: list[dict[str, Any]] = []

    def emit(event: dict[str, Any]) -> None:
        game.apply(event)
        events.append(event)

    emit({"type": "day", "n": 1})
    while game.n <= max_days:
        _online_day(rng, game, emit)
        if game.finished:
            break
        emit({"type": "night", "n": game.n})
        _online_night(rng, game, emit)
        if _over(game):  # a call: mypy keeps `game.finished` narrowed across the night
            break
        emit({"type": "day", "n": game.n + 1})
    return seats, events, game


def _online_day(rng: random.Random, game: OnlineGame, emit: Any) -> None:
    living = sorted(game.alive)
    favourites = rng.sample(living, min(len(living), rng.choice([1, 2, 2, 3])))
    if rng.random() < 0.05:
        emit({"type": "warning", "seat": rng.choice(living)})
    if rng.random() < 0.03 and not game.finished:
        emit({"type": "modkill", "seat": rng.choice(sorted(game.alive))})
    if not _online_votes(rng, game, emit, favourites):
        return
    if rng.random() < 0.3:  # everyone fasts
        for voter in sorted(game.alive):
            if not game.open or game.finished:
                break
            emit({"type": "fast", "voter": voter})
    if game.open and not game.finished:
        emit({"type": "day_end"})
    _online_catastrophe(rng, game, emit)


def _online_votes(rng: random.Random, game: OnlineGame, emit: Any, favourites: list[int]) -> bool:
    """Each living player votes (mostly for a favourite) and may post; False when the day
    closed (or the game ended) on the way."""
    for voter in sorted(game.alive):
        if game.finished or not game.open:
            return False
        if rng.random() < 0.8:
            target = rng.choice([*favourites, "pass"]) if rng.random() < 0.9 else "pass"
            if target == "pass" or target in game.alive:
                emit({"type": "vote", "voter": voter, "target": target})
        if rng.random() < 0.1 and voter in game.alive and game.open:
            emit({"type": "post", "seat": voter, "text": "…"})
    return True


def _online_catastrophe(rng: random.Random, game: OnlineGame, emit: Any) -> None:
    rounds = 0
    while game.catastrophe is not None and not game.finished:
        # A round closes itself once everyone has posted or voted, or the host closes it;
        # after five rounds the table agrees, so that every game ends.
        rounds += 1
        round_ = game.catastrophe
        for seat in list(round_.tied):
            if game.catastrophe is round_:
                emit({"type": "post", "seat": seat, "text": "не я"})
        options = ["hang_all", "pardon_all"] if round_.question else list(round_.tied)
        for voter in sorted(round_.voters(game.alive) - set(round_.votes)):
            if game.catastrophe is not round_:
                break
            if rounds > 5:
                emit({"type": "revote", "voter": voter, "target": options[0]})
            elif rng.random() < 0.9:
                emit({"type": "revote", "voter": voter, "target": rng.choice(options)})
        if game.catastrophe is round_:
            emit({"type": "day_end"})


def _online_night(rng: random.Random, game: OnlineGame, emit: Any) -> None:
    living = sorted(game.alive)
    agreed = rng.choice(living)
    for shooter in sorted(game.black_alive):
        if rng.random() < 0.9:
            target = agreed if rng.random() < 0.8 else rng.choice([*living, None])
            emit({"type": "shot", "by": shooter, "target": target})
    if any(game.roles[s] == "don" for s in game.alive) and rng.random() < 0.8:
        emit({"type": "don_check", "target": rng.choice(living)})
    if any(game.roles[s] == "commissar" for s in game.alive) and rng.random() < 0.8:
        emit({"type": "com_check", "target": rng.choice(living)})
    emit({"type": "night_end"})


def _step(game: ClubGame) -> Step:
    """The day's step as the engine has it now (read afresh: every event moves it)."""
    return game.step
