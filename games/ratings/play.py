"""A player's statistics of play in the club in scope, for all their games or one season
(docs/statistics.md): SQL sums over the facts the worker kept once per game
(games/ratings/play_facts.py), a fixed number of queries whatever the history's size.

Each figure carries the games it stands on and its minimum: below it the page says how
many games there are («мало игр: 3 из 5») instead of a figure that means nothing yet.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import (
    BooleanField,
    Case,
    Count,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from accounts.roles import consent_in_club
from games.ratings.models import PlayFacts
from games.ratings.seasons import Season
from games.rules.roles import Team

# The games a figure needs before it is shown (docs/statistics.md says why each).
MINIMUM = {
    "nominations": 5,  # games with a log on that side
    "votes": 5,  # games on that side in which the player's vote was recorded
    "checks": 3,  # games as the commissar
    "killed_first": 10,  # all games: a rare event needs more of them
    "best_move": 3,  # best moves given
    "fouls": 5,
    "role": 3,  # each role's bar
    "table_size": 3,  # each table size's bar
    "pair": 5,  # games together (or against each other)
    "host": 5,  # games hosted
}
PAIRS_SHOWN = 3  # the top few teammates and opponents


@dataclass(frozen=True)
class Figure:
    """`part` of `whole` (votes on black of votes cast, say), standing on `games` games."""

    part: int
    whole: int
    games: int
    minimum: int

    @property
    def shown(self) -> bool:
        return self.games >= self.minimum and self.whole > 0

    @property
    def percent(self) -> int:
        return round(100 * self.part / self.whole) if self.whole else 0

    @property
    def per_game(self) -> float:
        return round(self.part / self.games, 2) if self.games else 0.0


@dataclass(frozen=True)
class Bar:
    """A row of wins over games (a role, a table size, a partner)."""

    key: Any
    games: int
    wins: int
    minimum: int
    name: str = ""

    @property
    def shown(self) -> bool:
        return self.games >= self.minimum

    @property
    def percent(self) -> int:
        return round(100 * self.wins / self.games) if self.games else 0


@dataclass(frozen=True)
class Hosting:
    """The games the member hosted: how many, the fouls they gave, who won."""

    games: int
    fouls: int
    red: int
    black: int
    minimum: int = MINIMUM["host"]

    @property
    def shown(self) -> bool:
        return self.games >= self.minimum

    @property
    def fouls_per_game(self) -> float:
        return round(self.fouls / self.games, 2) if self.games else 0.0

    @property
    def red_percent(self) -> int:
        return round(100 * self.red / self.games) if self.games else 0


@dataclass
class PlayStats:
    games: int  # every game counted (with a log or results only)
    logged: int  # of them, games with an event log (the event-based figures' ground)
    figures: dict[str, Figure]
    by_role: list[Bar] = field(default_factory=list)
    by_table_size: list[Bar] = field(default_factory=list)
    teammates: list[Bar] = field(default_factory=list)
    opponents: list[Bar] = field(default_factory=list)
    hosting: Hosting | None = None


def _facts(member_id: int, season: Season | None) -> QuerySet[PlayFacts]:
    rows = PlayFacts.objects.filter(member_id=member_id)
    return _in_season(rows, season)


def _in_season(rows: QuerySet[PlayFacts], season: Season | None) -> QuerySet[PlayFacts]:
    if season is None:
        return rows
    return rows.filter(played_on__gte=season.first_day, played_on__lt=season.next_first_day)


def _sums(rows: QuerySet[PlayFacts]) -> dict[str, int]:
    """One query: every figure's parts and grounds."""
    red, black = Q(team=Team.RED.value), Q(team=Team.BLACK.value)
    logged = Q(has_log=True)

    def total(name: str, where: Q | None = None) -> Coalesce:
        return Coalesce(Sum(name, filter=where), 0)

    return rows.aggregate(
        games=Count("pk"),
        logged=Count("pk", filter=logged),
        nominations_red=total("nominations", red & logged),
        nominations_red_rival=total("nominations_rival", red & logged),
        nominations_red_games=Count("pk", filter=red & logged),
        nominations_black=total("nominations", black & logged),
        nominations_black_rival=total("nominations_rival", black & logged),
        nominations_black_games=Count("pk", filter=black & logged),
        votes_red=total("votes", red & logged),
        votes_red_rival=total("votes_rival", red & logged),
        votes_red_games=Count("pk", filter=red & logged & Q(votes__gt=0)),
        votes_black=total("votes", black & logged),
        votes_black_rival=total("votes_rival", black & logged),
        votes_black_games=Count("pk", filter=black & logged & Q(votes__gt=0)),
        checks=total("checks", logged & Q(role="commissar")),
        checks_black=total("checks_black", logged & Q(role="commissar")),
        checks_games=Count("pk", filter=logged & Q(role="commissar")),
        killed_first=Count("pk", filter=Q(killed_first=True)),
        best_move_named=total("best_move_named"),
        best_move_black=total("best_move_black"),
        best_move_games=Count("pk", filter=Q(best_move_named__gt=0)),
        fouls=total("fouls"),
    )


def _figures(sums: dict[str, int]) -> dict[str, Figure]:
    figures = {}
    for kind in ("nominations", "votes"):
        for side in (Team.RED.value, Team.BLACK.value):
            name = f"{kind}_{side}"
            figures[name] = Figure(
                sums[f"{name}_rival"], sums[name], sums[f"{name}_games"], MINIMUM[kind]
            )
    figures["checks"] = Figure(
        sums["checks_black"], sums["checks"], sums["checks_games"], MINIMUM["checks"]
    )
    figures["killed_first"] = Figure(
        sums["killed_first"], sums["games"], sums["games"], MINIMUM["killed_first"]
    )
    figures["best_move"] = Figure(
        sums["best_move_black"],
        sums["best_move_named"],
        sums["best_move_games"],
        MINIMUM["best_move"],
    )
    figures["fouls"] = Figure(sums["fouls"], sums["games"], sums["games"], MINIMUM["fouls"])
    return figures


def _bars(rows: QuerySet[PlayFacts], by: str, minimum: int) -> list[Bar]:
    grouped = (
        rows.values(by)
        .annotate(games=Count("pk"), wins=Count("pk", filter=Q(won=True)))
        .order_by(by)
    )
    return [Bar(row[by], row["games"], row["wins"], minimum) for row in grouped]


def _pairs(member_id: int, season: Season | None) -> tuple[list[Bar], list[Bar]]:
    """One query: the members the player sat with, by side (together or against), with the
    games and the player's wins; only members who publish in the club and pairs over the
    minimum, the best few of each side."""
    mine = _facts(member_id, season).filter(game_id=OuterRef("game_id"))
    rows = (
        PlayFacts.objects.filter(game_id__in=_facts(member_id, season).values("game_id"))
        .exclude(member_id=member_id)
        .filter(member__isnull=False, member__is_active=True)
        .annotate(
            mine_team=Subquery(mine.values("team")[:1]),
            mine_won=Subquery(mine.values("won")[:1]),
            publishes=consent_in_club(member="member_id"),
        )
        .filter(publishes=True)
        .annotate(
            together=Case(
                When(team=F("mine_team"), then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            ),
            win=Case(When(mine_won=True, then=1), default=0, output_field=IntegerField()),
        )
        .values("member_id", "member__nickname", "together")
        .annotate(games=Count("pk"), wins=Sum("win"))
        .filter(games__gte=MINIMUM["pair"])
        .order_by()
    )
    teammates: list[Bar] = []
    opponents: list[Bar] = []
    for row in rows:
        bar = Bar(
            row["member_id"], row["games"], row["wins"], MINIMUM["pair"], row["member__nickname"]
        )
        (teammates if row["together"] else opponents).append(bar)

    def best(bars: list[Bar]) -> list[Bar]:
        return sorted(bars, key=lambda b: (-b.wins / b.games, -b.games, b.name))[:PAIRS_SHOWN]

    return best(teammates), best(opponents)


def _hosting(member_id: int, season: Season | None) -> Hosting | None:
    rows = _in_season(PlayFacts.objects.filter(host_id=member_id), season)
    sums = rows.aggregate(
        games=Count("game_id", distinct=True),
        fouls=Coalesce(Sum("fouls"), 0),
        red=Count("game_id", distinct=True, filter=Q(team=Team.RED.value, won=True)),
        black=Count("game_id", distinct=True, filter=Q(team=Team.BLACK.value, won=True)),
    )
    return Hosting(**sums) if sums["games"] else None


def play_stats(member_id: int, season: Season | None = None) -> PlayStats:
    """The member's statistics of play in the club in scope: five queries."""
    rows = _facts(member_id, season)
    sums = _sums(rows)
    teammates, opponents = _pairs(member_id, season)
    return PlayStats(
        games=sums["games"],
        logged=sums["logged"],
        figures=_figures(sums),
        by_role=sorted(_bars(rows, "role", MINIMUM["role"]), key=lambda bar: -bar.games),
        by_table_size=_bars(rows, "table_size", MINIMUM["table_size"]),
        teammates=teammates,
        opponents=opponents,
        hosting=_hosting(member_id, season),
    )
