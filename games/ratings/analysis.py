"""The «разбор» of a finished game: its timeline by day and night, each seat's score with
its lines, and the Elo ratings across games (RULES.md §C, docs/scoring.md).

Everything here is rebuilt from the protocols, never patched: an analysis is a function of
the game's effective events, its seats and the scoring scheme, so building it twice gives
the same rows, and a corrected protocol or a new scheme is just another build.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Game, GameStatus, Seat
from games.ratings import fold

# The ratings' replay lives in games/ratings/fold.py; its callers know it by this module too.
from games.ratings.fold import forecasts_update as forecasts_update
from games.ratings.fold import ratings_replay as ratings_replay
from games.ratings.models import GameAnalysis, PlayerScore, PlayFacts, ScoringScheme
from games.ratings.play_facts import play_facts_delete, play_facts_missing, play_facts_write
from games.ratings.presets import played_day, scheme_by_game
from games.recording import engine_for
from games.rules.club import ClubGame
from games.rules.errors import ProtocolError, RuleViolation, gettext_noop
from games.rules.online import BLACK_ROLES, OnlineGame
from games.rules.options import ClubOptions
from games.rules.results import Results, score_results
from games.rules.results import killed_first_night as results_killed_first_night
from games.rules.roles import Team
from games.rules.scoring import (
    Extras,
    Line,
    Scheme,
    killed_first_night,
    score,
    score_online,
    total,
    won,
)
from games.timeline import in_time_order

logger = logging.getLogger(__name__)


def _sections(events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The events under the day or night they happened in (a foul given later from the
    recording, at its moment); what precedes day 1 (fouls at the table's setup) is its
    own section."""
    sections: list[dict[str, Any]] = [{"phase": "setup", "n": 0, "events": []}]
    for event in in_time_order(events):
        if event.get("type") in ("day", "night"):
            sections.append({"phase": event["type"], "n": event.get("n"), "events": []})
            continue
        sections[-1]["events"].append(dict(event))
    return [s for s in sections if s["events"] or s["phase"] != "setup"]


def _digest(
    events: Sequence[Mapping[str, Any]],
    seats: Sequence[Seat],
    scheme_row: ScoringScheme,
    game_results: Mapping[str, Any] | None = None,
) -> str:
    basis = {
        "events": list(events),
        "seats": [(s.number, s.member_id, s.role) for s in seats],
        # A results-only game's results are its record (games/rules/results.py).
        "results": game_results,
        # The version itself, not only its points: the analysis names the preset and version
        # it was scored by, and two presets may score alike.
        "scheme": [scheme_row.pk, scheme_row.scheme().to_dict()],
    }
    return hashlib.sha256(json.dumps(basis, sort_keys=True, default=str).encode()).hexdigest()


def game_analysis_build(
    *,
    game_id: int,
    scheme_row: ScoringScheme | None = None,
    scheme_of: Callable[[int, date], ScoringScheme] | None = None,
) -> bool:
    """Build (or withdraw) the analysis of one game; True when anything changed. It is
    scored by `scheme_row`, or else by the game's scheme: its tournament's preset at a
    tournament's table, else its season's, the newest version (`scheme_of` finds it for a
    game and its day; games/ratings/presets.py).

    A game that is not finished (an undo reopened it) has no analysis. Call
    fold.ratings_after_game() afterwards: the scores' ratings depend on every earlier game
    (a change to a game the ratings' fold has passed forgets the fold: fold.scores_change).
    """
    with transaction.atomic():
        rows = Game.objects.select_for_update(of=("self",)).select_related("evening")
        game = rows.filter(pk=game_id).first()
        if game is None or game.status != GameStatus.FINISHED:
            fold.scores_change(game_id, None)
            withdrawn, _kinds = GameAnalysis.objects.filter(game_id=game_id).delete()
            PlayerScore.objects.filter(game_id=game_id).delete()
            play_facts_delete(game_id)
            return bool(withdrawn)
        played_on = played_day(game)
        scheme_row = scheme_row or (scheme_of or scheme_by_game())(game.pk, played_on)
        scheme = scheme_row.scheme()
        seats = list(Seat.objects.filter(game=game).order_by("number"))
        events = game.events.effective()
        digest = _digest(events, seats, scheme_row, game.results or None)
        existing = GameAnalysis.objects.filter(game=game).first()
        if existing is not None and existing.digest == digest:
            # Analysed before the facts of play were kept: the rebuild fills them once.
            if play_facts_missing(game.pk):
                _facts_write(game, seats, events, played_on)
            return False
        try:
            if game.results_only:
                teams, lines, first_night = results_lines(game, seats, scheme)
            else:
                state, lines = game_lines(game, seats, events, scheme)
                teams = {seat.number: role_and_team(state, seat.number) for seat in seats}
                first_night = killed_first_night(state.eliminated)
        except (ProtocolError, RuleViolation) as error:
            # A record changed after the game (games.recording.Unreplayable): its pages say
            # so; the analysis it had stays, and a rescore of every game goes on past it.
            logger.warning("Game %s no longer replays, not analysed: %s", game.pk, error.english)
            return False
        ended_at = game.ended_at or timezone.now()
        fold.scores_change(game.pk, ended_at)
        GameAnalysis.objects.update_or_create(
            game=game,
            defaults={
                "scheme": scheme_row,
                "digest": digest,
                "sections": _sections(events),
                "built_at": timezone.now(),
            },
        )
        PlayerScore.objects.filter(game=game).delete()
        PlayerScore.objects.bulk_create(
            _player_score(
                game,
                seat,
                teams[seat.number],
                lines[seat.number],
                played_on,
                ended_at,
                killed=seat.number in first_night,
            )
            for seat in seats
            # A guest has no account to score: no rating, no leaderboard, no name.
            if seat.member_id is not None
        )
        play_facts_write(game, seats, events, played_on)
    return True


def _facts_write(
    game: Game, seats: Sequence[Seat], events: Sequence[Mapping[str, Any]], played_on: date
) -> None:
    try:
        play_facts_write(game, seats, events, played_on)
    except (ProtocolError, RuleViolation) as error:
        logger.warning("Game %s no longer replays, no facts of play: %s", game.pk, error.english)


def game_lines(
    game: Game, seats: Sequence[Seat], events: Sequence[Mapping[str, Any]], scheme: Scheme
) -> tuple[ClubGame | OnlineGame, dict[int, list[Line]]]:
    """The game's engine replayed to its end, and every seat's lines under `scheme`."""
    state = engine_for(game, seats)
    # Scoring advances `state` to the game's end.
    if isinstance(state, OnlineGame):
        return state, score_online(state, events, scheme)
    return state, score(state, events, scheme)


def results_lines(
    game: Game, seats: Sequence[Seat], scheme: Scheme
) -> tuple[dict[int, tuple[str, Team]], dict[int, list[Line]], set[int]]:
    """A results-only game's roles and teams, every seat's lines under `scheme` and the
    seats killed on night 1, from Game.results (games/rules/results.py)."""
    known = ClubOptions.from_dict(game.options).roles
    roles = {seat.number: known[seat.role] for seat in seats if seat.role in known}
    if len(roles) != len(seats):
        raise ProtocolError(gettext_noop("The game's results cannot be read."))
    kept = Results.from_dict(game.results)
    lines = score_results(roles, kept, game.winner, scheme)
    teams = {seat: (role.code, role.team) for seat, role in roles.items()}
    return teams, lines, results_killed_first_night(kept)


def _player_score(
    game: Game,
    seat: Seat,
    role: tuple[str, Team],
    lines: Sequence[Line],
    played_on: date,
    ended_at: datetime,
    *,
    killed: bool,
) -> PlayerScore:
    code, team = role
    member_id = seat.member_id
    assert member_id is not None  # a guest's seat is not scored (its caller skips them)
    extras = Extras.of(lines)
    return PlayerScore(
        club_id=game.club_id,
        game=game,
        seat=seat.number,
        member_id=member_id,
        role=code,
        team=team.value,
        won=won(code, team, game.winner),
        points=total(lines),
        lines=[line.as_dict() for line in lines],
        played_on=played_on,
        ended_at=ended_at,
        track=team.value if team in (Team.RED, Team.BLACK) else "",
        killed_first_night=killed,
        bonus_points=extras.bonus,
        best_move_points=extras.best_move,
        penalty_points=extras.penalty,
    )


def role_and_team(state: ClubGame | OnlineGame, seat: int) -> tuple[str, Team]:
    if isinstance(state, OnlineGame):
        code = state.roles[seat]
        return code, Team.BLACK if code in BLACK_ROLES else Team.RED
    role = state.roles[seat]
    return role.code, role.team


def analyses_rebuild() -> list[int]:
    """Every finished game scored again, each by the newest version of its preset (its
    tournament's or its season's: games/ratings/presets.py), after an admin's change of a
    preset, of a season's preset or of a tournament's, then the ratings
    replayed; returns the ids of the games whose analysis changed."""
    scheme_of = scheme_by_game()
    changed = [
        game_id
        for game_id in Game.objects.filter(status=GameStatus.FINISHED)
        .order_by("ended_at", "pk")
        .values_list("pk", flat=True)
        if game_analysis_build(game_id=game_id, scheme_of=scheme_of)
    ]
    ratings_replay()
    return changed


def play_facts_fill() -> int:
    """The facts of play of every analysed game of the club in scope that has none (games
    analysed before the facts were kept): its analysis is not changed, nor any rating.
    Returns how many games got their facts."""
    missing = Game.objects.filter(status=GameStatus.FINISHED, analysis__isnull=False).exclude(
        pk__in=PlayFacts.objects.values("game_id")
    )
    filled = 0
    for game_id in missing.order_by("ended_at", "pk").values_list("pk", flat=True):
        game_analysis_build(game_id=game_id)
        filled += not play_facts_missing(game_id)
    return filled
