"""Which preset scores a season (SeasonPreset, docs/scoring.md), and the version of it that
scores the season's games now: the preset's newest.

A season is scored by the row of SeasonPreset with the latest `since` on or before the
season's first day, and by «Клуб» when no row is that early. Keyed by a date rather than by
a season's key, one row covers every later season, and a club that moves from quarters to
years (club settings, `season`) keeps its choice: a season's first day is a date either way.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from django.db.models import Exists, Q, Subquery
from django.utils import timezone

from club.kernel.club_settings import ClubSettings
from games.ratings.models import ScoringPreset, ScoringScheme, SeasonPreset
from games.ratings.seasons import Season, season_of
from games.rules.presets import CLUB


def season_scheme(season: Season) -> ScoringScheme:
    """One query: the newest version of the preset that scores `season`."""
    named = SeasonPreset.objects.filter(since__lte=season.first_day).order_by("-since")
    chosen = Q(preset=Subquery(named.values("preset")[:1])) | (
        Q(preset__code=CLUB) & ~Exists(named)
    )
    scheme = (
        ScoringScheme.objects.filter(chosen).select_related("preset").order_by("-version").first()
    )
    if scheme is not None:
        return scheme
    preset = SeasonPreset.objects.filter(since__lte=season.first_day).order_by("-since").first()
    return ScoringScheme.objects.current(preset.preset if preset else None)


def current_scheme() -> ScoringScheme:
    """The scheme of today's season, in the club's zone (what a game played now is scored by)."""
    club = ClubSettings.load()
    return season_scheme(
        season_of(timezone.localtime(timezone.now(), club.zone).date(), club.season_length)
    )


def scheme_version(preset: ScoringPreset) -> ScoringScheme:
    return ScoringScheme.objects.current(preset)


def presets() -> list[ScoringPreset]:
    return list(ScoringPreset.objects.all())


def scheme_by_day() -> Callable[[date], ScoringScheme]:
    """For scoring many games: the scheme of the season a day falls in, one query a season."""
    length = ClubSettings.load().season_length
    known: dict[Season, ScoringScheme] = {}

    def scheme_of(day: date) -> ScoringScheme:
        season = season_of(day, length)
        if season not in known:
            known[season] = season_scheme(season)
        return known[season]

    return scheme_of
