"""A season scored under another preset than its own, for an admin to compare (the
leaderboard's «what if», docs/scoring.md): every game of the season replayed and scored by
that preset's newest version exactly as the analysis would score it, nothing stored. A
tournament game keeps its tournament's points (its one score), and is left out when the
club leaves the tournament games out of the season's table.

The games are read in four queries whatever their number, and the result is cached under
the season's scores as they stand (their number and newest row): a game analysed again, or
a new version of the preset, makes a new key.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max, Q

from club.kernel.cache import cache_get, cache_set
from club.kernel.clubs import Club
from club.kernel.tenancy import current_club_id
from games.models import Game, GameEvent, Seat
from games.ratings.analysis import game_lines, role_and_team
from games.ratings.models import PlayerScore, ScoringScheme
from games.ratings.presets import tournament_presets, tournament_scheme
from games.ratings.seasons import Season
from games.rules.errors import ProtocolError, RuleViolation
from games.rules.log import effective_events
from games.rules.scoring import Extras, Scheme, killed_first_night, total, won

CACHE_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Scored:
    """One member's seat in one game, as a season's table sums it (a PlayerScore's
    fields, without the lines)."""

    member_id: int | None  # None: a guest (on no season's table; a tournament's standings)
    role: str
    team: str
    won: bool
    points: float
    bonus_points: float
    best_move_points: float
    penalty_points: float
    killed_first_night: bool


def in_season(season: Season) -> Q:
    """The scores a season's table counts: its rated games' (an unrated game, Game.rated,
    counts for no season). Every season aggregate stands on this one condition (through
    `season_games`, which adds the club's choice on tournament games): the leaderboard's
    sums, a member's Ci, the what-if's games, the count of tournament games."""
    return Q(
        played_on__gte=season.first_day,
        played_on__lt=season.next_first_day,
        game__rated=True,
    )


AT_A_TOURNAMENT = Q(game__tournament_table__isnull=False)


def tournaments_included() -> bool:
    """Whether the season's table sums the tournament games (under their tournaments'
    points, the one score they have) or leaves them out: club settings,
    `season_tournament_games` (docs/scoring.md)."""
    return Club.current().season_tournament_games != "excluded"


def season_games(season: Season) -> Q:
    """The scores a season's table sums: the season's, without the tournament games when
    the club leaves them out."""
    counted = in_season(season)
    return counted if tournaments_included() else counted & ~AT_A_TOURNAMENT


def season_rescored(season: Season, scheme_row: ScoringScheme) -> list[Scored]:
    """Every member's seat in the season's analysed games that its table sums, scored by
    `scheme_row`; a tournament game keeps its one score, by its tournament's preset."""
    stamp = PlayerScore.objects.filter(season_games(season)).aggregate(
        n=Count("id"), last=Max("id")
    )
    club = current_club_id()  # a season's key is the same in every club
    key = f"ratings:whatif:{club}:{season.key}:{scheme_row.pk}:{stamp['n']}:{stamp['last']}"
    cached = cache_get(key)
    if cached is not None:
        return [Scored(*row) for row in cached]
    scored = _rescore(season, scheme_row)
    cache_set(key, [tuple(row.__dict__.values()) for row in scored], CACHE_SECONDS)
    return scored


def _rescore(season: Season, scheme_row: ScoringScheme) -> list[Scored]:
    scheme = scheme_row.scheme()
    ids = set(
        PlayerScore.objects.filter(season_games(season))
        .values_list("game_id", flat=True)
        .distinct()
    )
    # A tournament game is scored by its tournament's preset wherever it is shown.
    tournament = tournament_presets(ids)
    theirs = {preset: tournament_scheme(preset).scheme() for preset in set(tournament.values())}
    games = list(Game.objects.filter(pk__in=ids).order_by("ended_at", "pk"))
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(game_id__in=ids).order_by("game_id", "number"):
        seats[seat.game_id].append(seat)
    logs: dict[int, list[dict[str, Any]]] = defaultdict(list)
    rows = GameEvent.objects.filter(game_id__in=ids).order_by("game_id", "seq")
    for game_id, payload in rows.values_list("game_id", "payload"):
        logs[game_id].append(payload)
    scored: list[Scored] = []
    for game in games:
        by = theirs[tournament[game.pk]] if game.pk in tournament else scheme
        by_seat = seats_scored(game, seats[game.pk], effective_events(logs[game.pk]), by)
        # A guest is on no season's table.
        scored += [seat for seat in by_seat.values() if seat.member_id is not None]
    return scored


def seats_scored(
    game: Game, seats: list[Seat], events: list[dict[str, Any]], scheme: Scheme
) -> dict[int, Scored]:
    """Each seat of a game (by number) scored by `scheme`; none for a protocol its
    analysis could not score either."""
    try:
        state, lines = game_lines(game, seats, events, scheme)
    except (ProtocolError, RuleViolation):
        return {}
    killed = killed_first_night(state.eliminated)
    scored: dict[int, Scored] = {}
    for seat in seats:
        code, team = role_and_team(state, seat.number)
        extras = Extras.of(lines[seat.number])
        scored[seat.number] = Scored(
            member_id=seat.member_id,
            role=code,
            team=team.value,
            won=won(code, team, game.winner),
            points=total(lines[seat.number]),
            bonus_points=extras.bonus,
            best_move_points=extras.best_move,
            penalty_points=extras.penalty,
            killed_first_night=seat.number in killed,
        )
    return scored
