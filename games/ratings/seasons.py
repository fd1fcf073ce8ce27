"""Seasons: the club plays by quarters or by years (a club setting), each with its own
leaderboard. A season is named by a key that reads well in a URL: "2026-Q4" or "2026"."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from django.utils.translation import gettext_lazy

QUARTER, YEAR = "quarter", "year"
QUARTER_NAMES = (
    gettext_lazy("Q1 %(year)d"),
    gettext_lazy("Q2 %(year)d"),
    gettext_lazy("Q3 %(year)d"),
    gettext_lazy("Q4 %(year)d"),
)
# Years 1900–2999: a season of a club, not any date the calendar can hold.
_KEY = re.compile(r"^(?P<year>(?:19|2\d)\d\d)(?:-Q(?P<quarter>[1-4]))?$")


@dataclass(frozen=True)
class Season:
    year: int
    quarter: int | None  # None: the whole year

    @property
    def key(self) -> str:
        return f"{self.year}-Q{self.quarter}" if self.quarter else str(self.year)

    @property
    def name(self) -> str:
        """The season as people say it: «IV квартал 2026», «Q4 2026», «2026»."""
        if self.quarter is None:
            return str(self.year)
        return str(QUARTER_NAMES[self.quarter - 1]) % {"year": self.year}

    @property
    def first_day(self) -> date:
        return date(self.year, 3 * (self.quarter - 1) + 1 if self.quarter else 1, 1)

    @property
    def next_first_day(self) -> date:
        """The day after the season's last: its games are played before it."""
        if self.quarter is None or self.quarter == 4:
            return date(self.year + 1, 1, 1)
        return date(self.year, 3 * self.quarter + 1, 1)

    def previous(self) -> Season:
        if self.quarter is None:
            return Season(self.year - 1, None)
        return Season(self.year, self.quarter - 1) if self.quarter > 1 else Season(self.year - 1, 4)


def season_of(day: date, length: str) -> Season:
    return Season(day.year, (day.month - 1) // 3 + 1 if length == QUARTER else None)


def season_parse(key: str | None) -> Season | None:
    """The season a key names ("2026-Q4", "2026"). Either kind is read whatever the club's
    own (a year's leaderboard is still there for a club that counts quarters)."""
    match = _KEY.match(key or "")
    if match is None:
        return None
    return Season(int(match["year"]), int(match["quarter"]) if match["quarter"] else None)


def seasons_between(first: date, last: date, length: str) -> list[Season]:
    """The seasons from the one of `last` back to the one of `first`, newest first."""
    season, oldest = season_of(last, length), season_of(first, length)
    seasons = [season]
    while season != oldest and len(seasons) < 400:
        season = season.previous()
        seasons.append(season)
    return seasons
