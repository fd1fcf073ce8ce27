"""Which preset scores a game: a game at a tournament's table by its tournament's preset,
every other game by its season's (SeasonPreset, docs/scoring.md); in either case the
preset's newest version. `game_scheme` (one game) and `scheme_by_game` (many) are the one
answer every reader takes: the analysis (so the game's page, «За что», the report, the
season's table and the API, which all read it), the bounds of extra points given to the
game, and the tournament's standings (`tournament_scheme`).

A season is scored by the row of SeasonPreset with the latest `since` on or before the
season's first day, and by «Клуб» when no row is that early. Keyed by a date rather than by
a season's key, one row covers every later season, and a club that moves from quarters to
years (club settings, `season`) keeps its choice: a season's first day is a date either way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date

from django.db.models import Exists, Q, Subquery
from django.utils import timezone

from club.kernel.clubs import Club
from games.models import Game
from games.ratings.models import ScoringPreset, ScoringScheme, SeasonPreset
from games.ratings.seasons import Season, season_of
from games.rules.presets import CLUB


def _season_chosen(season: Season) -> Q:
    """The versions of the preset that scores `season`."""
    named = SeasonPreset.objects.filter(since__lte=season.first_day).order_by("-since")
    return Q(preset=Subquery(named.values("preset")[:1])) | Q(Q(preset__code=CLUB), ~Exists(named))


def season_scheme(season: Season) -> ScoringScheme:
    """One query: the newest version of the preset that scores `season`."""
    chosen = _season_chosen(season)
    scheme = (
        ScoringScheme.objects.filter(chosen).select_related("preset").order_by("-version").first()
    )
    if scheme is not None:
        return scheme
    preset = SeasonPreset.objects.filter(since__lte=season.first_day).order_by("-since").first()
    return ScoringScheme.objects.current(preset.preset if preset else None)


def current_scheme() -> ScoringScheme:
    """The scheme of today's season, in the club's zone (what a game played now is scored by)."""
    club = Club.current()
    return season_scheme(
        season_of(timezone.localtime(timezone.now(), club.zone).date(), club.season_length)
    )


def scheme_version(preset: ScoringPreset) -> ScoringScheme:
    return ScoringScheme.objects.current(preset)


def presets() -> list[ScoringPreset]:
    return list(ScoringPreset.objects.all())


def scheme_by_day() -> Callable[[date], ScoringScheme]:
    """For scoring many games: the scheme of the season a day falls in, one query a season."""
    length = Club.current().season_length
    known: dict[Season, ScoringScheme] = {}

    def scheme_of(day: date) -> ScoringScheme:
        season = season_of(day, length)
        if season not in known:
            known[season] = season_scheme(season)
        return known[season]

    return scheme_of


def played_day(game: Game) -> date:
    """The evening's date in the club's zone (an online game: the day it started): the day
    that names a game's season."""
    played = game.evening.starts_at if game.evening else game.started_at
    return timezone.localtime(played, Club.current().zone).date()


def tournament_presets(game_ids: Iterable[int] | None = None) -> dict[int, int]:
    """Game id → its tournament's preset id, for the games at a tournament's table (every
    one, or those among `game_ids`); one query."""
    rows = Game.objects.filter(tournament_table__isnull=False)
    if game_ids is not None:
        rows = rows.filter(pk__in=list(game_ids))
    return dict(rows.values_list("pk", "tournament_table__round__tournament__preset_id"))


def tournament_scheme(preset: ScoringPreset | int) -> ScoringScheme:
    """The scheme a tournament's games are scored by: its preset's newest version."""
    if isinstance(preset, int):
        preset = ScoringPreset.objects.get(pk=preset)
    return scheme_version(preset)


def scheme_by_game() -> Callable[[int, date], ScoringScheme]:
    """For scoring many games: `scheme_of(game_id, played_on)`, the scheme of a game (its
    tournament's preset at a tournament's table, else its season's), one query a season or
    a tournament's preset, and one for which games are a tournament's."""
    by_day = scheme_by_day()
    tournament = tournament_presets()
    versions: dict[int, ScoringScheme] = {}

    def scheme_of(game_id: int, played_on: date) -> ScoringScheme:
        preset_id = tournament.get(game_id)
        if preset_id is None:
            return by_day(played_on)
        if preset_id not in versions:
            versions[preset_id] = tournament_scheme(preset_id)
        return versions[preset_id]

    return scheme_of


def game_scheme(game: Game) -> ScoringScheme:
    """The scheme that scores `game`, wherever it is shown (the module's docstring): one
    query (the game's page asks it for the bounds of extra points)."""
    club = Club.current()
    season = season_of(played_day(game), club.season_length)
    theirs = ScoringPreset.objects.filter(tournament__round_set__table_set__game=game.pk)
    at_a_table = Exists(theirs)
    chosen = Q(preset__in=theirs.values("pk")) | Q(~at_a_table, _season_chosen(season))
    scheme = (
        ScoringScheme.objects.filter(chosen).select_related("preset").order_by("-version").first()
    )
    if scheme is not None:
        return scheme
    # A preset without a version yet: the longer way, which makes its version 1.
    preset_id = tournament_presets([game.pk]).get(game.pk)
    if preset_id is not None:
        return tournament_scheme(preset_id)
    return season_scheme(season)
