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

from django.db import connection, transaction
from django.db.models import Count
from django.utils import timezone

from club.kernel.clubs import Club
from games.models import Game, GameStatus, Seat
from games.ratings import systems
from games.ratings.models import GameAnalysis, PlayerScore, RatingForecast, ScoringScheme
from games.ratings.presets import played_day, scheme_by_game
from games.recording import engine_for
from games.rules import forecast, rating
from games.rules.club import ClubGame
from games.rules.errors import ProtocolError, RuleViolation
from games.rules.online import BLACK_ROLES, OnlineGame
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

# Held while ratings are replayed, so that two replays never interleave their writes.
_RATINGS_LOCK = 7_001_001


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
    events: Sequence[Mapping[str, Any]], seats: Sequence[Seat], scheme_row: ScoringScheme
) -> str:
    basis = {
        "events": list(events),
        "seats": [(s.number, s.member_id, s.role) for s in seats],
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
    ratings_replay() afterwards: the scores' ratings depend on every earlier game.
    """
    with transaction.atomic():
        rows = Game.objects.select_for_update(of=("self",)).select_related("evening")
        game = rows.filter(pk=game_id).first()
        if game is None or game.status != GameStatus.FINISHED:
            withdrawn, _kinds = GameAnalysis.objects.filter(game_id=game_id).delete()
            PlayerScore.objects.filter(game_id=game_id).delete()
            return bool(withdrawn)
        played_on = played_day(game)
        scheme_row = scheme_row or (scheme_of or scheme_by_game())(game.pk, played_on)
        scheme = scheme_row.scheme()
        seats = list(Seat.objects.filter(game=game).order_by("number"))
        events = game.events.effective()
        digest = _digest(events, seats, scheme_row)
        existing = GameAnalysis.objects.filter(game=game).first()
        if existing is not None and existing.digest == digest:
            return False
        try:
            state, lines = game_lines(game, seats, events, scheme)
        except (ProtocolError, RuleViolation) as error:
            # A record changed after the game (games.recording.Unreplayable): its pages say
            # so; the analysis it had stays, and a rescore of every game goes on past it.
            logger.warning("Game %s no longer replays, not analysed: %s", game.pk, error.english)
            return False
        first_night = killed_first_night(state.eliminated)
        ended_at = game.ended_at or timezone.now()
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
                state,
                lines[seat.number],
                played_on,
                ended_at,
                killed=seat.number in first_night,
            )
            for seat in seats
            # A guest has no account to score: no rating, no leaderboard, no name.
            if seat.member_id is not None
        )
    return True


def game_lines(
    game: Game, seats: Sequence[Seat], events: Sequence[Mapping[str, Any]], scheme: Scheme
) -> tuple[ClubGame | OnlineGame, dict[int, list[Line]]]:
    """The game's engine replayed to its end, and every seat's lines under `scheme`."""
    state = engine_for(game, seats)
    # Scoring advances `state` to the game's end.
    if isinstance(state, OnlineGame):
        return state, score_online(state, events, scheme)
    return state, score(state, events, scheme)


def _player_score(
    game: Game,
    seat: Seat,
    state: ClubGame | OnlineGame,
    lines: Sequence[Line],
    played_on: date,
    ended_at: datetime,
    *,
    killed: bool,
) -> PlayerScore:
    code, team = role_and_team(state, seat.number)
    member_id = seat.member_id
    assert member_id is not None  # a guest's seat is not scored (its caller skips them)
    extras = Extras.of(lines)
    return PlayerScore(
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


def ratings_replay() -> int:
    """Replay the club's rating system (club settings, `rating_system`) over every analysed
    game in the order they ended, but the unrated ones (Game.rated: their scores get no
    rating), and store each score's rating before and after; returns how many rows changed
    (a new last game: its own; another system: nearly all)."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_RATINGS_LOCK])
        system = Club.objects.values_list("rating_system", flat=True).first()
        rows = _rows_in_playing_order()
        unrated = _unrated_games()
        # An unrated game is in no fold: its rows get no rating (None, None) below.
        changes = rating.replay(
            (played for played, _before, _after in rows if played.game not in unrated),
            systems.rater(system or rating.OPENSKILL_PLAIN),
        )
        changed: list[tuple[int, float | None, float | None]] = []
        for played, before, after in rows:
            pk = played.key
            assert isinstance(pk, int)
            change = changes.get(pk)
            new = (change.before, change.after) if change else (None, None)
            if not _same(new, (before, after)):
                changed.append((pk, *new))
        _write_ratings(changed)
    return len(changed)


def _unrated_games() -> set[int]:
    """The games marked unrated (Game.rated): scored, but in no rating."""
    return set(Game.objects.filter(rated=False).values_list("pk", flat=True))


def _rows_in_playing_order() -> list[tuple[rating.Played, float | None, float | None]]:
    """Every analysed seat as the rating systems read it, in the order the games ended,
    with the rating it has stored (before, after)."""
    rows = PlayerScore.objects.order_by("ended_at", "game_id", "seat").values_list(
        "pk",
        "game_id",
        "member_id",
        "track",
        "game__winner",
        "won",
        "points",
        "rating_before",
        "rating_after",
    )
    # Everyone at the table, guests too: mafiaratings' K is smaller below ten players.
    seats = dict(
        Seat.objects.filter(game__status=GameStatus.FINISHED)
        .values("game_id")
        .annotate(n=Count("pk"))
        .values_list("game_id", "n")
    )
    # A game at a tournament's table is a tournament game: mafiaratings rates a game
    # with a tournament by the tournament's K (16/12), not the club game's (4/3).
    tournament = set(
        Game.objects.filter(tournament_table__isnull=False).values_list("pk", flat=True)
    )
    return [
        (
            rating.Played(
                pk,
                game,
                member,
                track,
                winner,
                won,
                points,
                seats.get(game, 0),
                kind=rating.TOURNAMENT if game in tournament else rating.CLUB,
            ),
            before,
            after,
        )
        for pk, game, member, track, winner, won, points, before, after in rows
    ]


def forecasts_update() -> list[RatingForecast]:
    """How well each rating system foresees the club's games, each before it is rated
    (games/rules/forecast.py), stored for the admins; returns the rows in system order."""
    unrated = _unrated_games()
    played = [row for row, _b, _a in _rows_in_playing_order() if row.game not in unrated]
    now = timezone.now()
    kept = []
    for system in rating.SYSTEMS:
        found = forecast.forecast(played, systems.rater(system))
        row, _created = RatingForecast.objects.update_or_create(
            system=system,
            defaults={
                "games": found.games,
                "log_loss": found.log_loss,
                "base_log_loss": found.base_log_loss,
                "updated_at": now,
            },
        )
        kept.append(row)
    return kept


def _same(a: tuple[float | None, ...], b: tuple[float | None, ...]) -> bool:
    return all(
        (x is None and y is None) or (x is not None and y is not None and abs(x - y) < 1e-9)
        for x, y in zip(a, b, strict=True)
    )


def _write_ratings(changed: list[tuple[int, float | None, float | None]]) -> None:
    if not changed:
        return
    if connection.vendor == "postgresql":
        # One statement for any number of rows (a whole replay after a scheme change).
        table = PlayerScore._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} AS s SET rating_before = v.before, rating_after = v.after"  # noqa: S608
                " FROM unnest(%s::bigint[], %s::float8[], %s::float8[]) AS v(id, before, after)"
                " WHERE s.id = v.id",
                [[c[0] for c in changed], [c[1] for c in changed], [c[2] for c in changed]],
            )
        return
    PlayerScore.objects.bulk_update(
        [PlayerScore(pk=pk, rating_before=b, rating_after=a) for pk, b, a in changed],
        ["rating_before", "rating_after"],
        batch_size=500,
    )


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
