"""A player's statistics of play in the club in scope, for all their games or one season
(docs/statistics.md): SQL sums over the facts the worker kept once per game
(games/ratings/play_facts.py), a fixed number of queries whatever the history's size.

Each figure carries the games it stands on and its minimum: below it the page says how
many games there are («мало игр: 3 из 5») instead of a figure that means nothing yet.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import (
    Count,
    Q,
    QuerySet,
    Sum,
)
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy, pgettext_lazy

from accounts.models import Membership, User
from club.kernel.tenancy import current_club_id
from games.ratings.charts import rate_chart
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

# The figures in the order the pages show them: (key, what it is, what it counts).
FIGURES = (
    ("votes_red", gettext_lazy("Votes on black, as red"), pgettext_lazy("play", "votes")),
    ("votes_black", gettext_lazy("Votes on red, as black"), pgettext_lazy("play", "votes")),
    (
        "nominations_red",
        gettext_lazy("Nominations of black, as red"),
        pgettext_lazy("play", "nominations"),
    ),
    (
        "nominations_black",
        gettext_lazy("Nominations of red, as black"),
        pgettext_lazy("play", "nominations"),
    ),
    (
        "checks",
        gettext_lazy("Commissar's checks that found black"),
        pgettext_lazy("play", "checks"),
    ),
    ("best_move", gettext_lazy("Best move: black named"), pgettext_lazy("play", "seats named")),
    ("killed_first", gettext_lazy("Killed first"), pgettext_lazy("play", "games")),
)


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

    def shown_figures(self) -> list[tuple[str, Any, Any, Figure]]:
        """(key, label, unit, figure) in the pages' order; a figure no game stands on (the
        votes as black of someone never black) says nothing and is left out."""
        return [
            (key, label, unit, self.figures[key])
            for key, label, unit in FIGURES
            if self.figures[key].games
        ]


def _facts(member_id: int, season: Season | None) -> QuerySet[PlayFacts]:
    rows = PlayFacts.objects.filter(member_id=member_id)
    return _in_season(rows, season)


def _in_season(rows: QuerySet[PlayFacts], season: Season | None) -> QuerySet[PlayFacts]:
    if season is None:
        return rows
    return rows.filter(played_on__gte=season.first_day, played_on__lt=season.next_first_day)


def _sums(rows: QuerySet[PlayFacts]) -> QuerySet[Any, Any]:
    """Every figure's parts and grounds: one row (the member's rows are one group)."""
    red, black = Q(team=Team.RED.value), Q(team=Team.BLACK.value)
    logged = Q(has_log=True)

    def total(name: str, where: Q | None = None) -> Coalesce:
        return Coalesce(Sum(name, filter=where), 0)

    # The sums are named apart from the fields they sum (Django refuses an aggregate that
    # shadows a field another aggregate reads); _figures takes the prefix off.
    return (
        rows.values("member_id")
        .annotate(
            sum_games=Count("pk"),
            sum_logged=Count("pk", filter=logged),
            sum_nominations_red=total("nominations", red & logged),
            sum_nominations_red_rival=total("nominations_rival", red & logged),
            sum_nominations_red_games=Count("pk", filter=red & logged),
            sum_nominations_black=total("nominations", black & logged),
            sum_nominations_black_rival=total("nominations_rival", black & logged),
            sum_nominations_black_games=Count("pk", filter=black & logged),
            sum_votes_red=total("votes", red & logged),
            sum_votes_red_rival=total("votes_rival", red & logged),
            sum_votes_red_games=Count("pk", filter=red & logged & Q(votes__gt=0)),
            sum_votes_black=total("votes", black & logged),
            sum_votes_black_rival=total("votes_rival", black & logged),
            sum_votes_black_games=Count("pk", filter=black & logged & Q(votes__gt=0)),
            sum_checks=total("checks", logged & Q(role="commissar")),
            sum_checks_black=total("checks_black", logged & Q(role="commissar")),
            sum_checks_games=Count("pk", filter=logged & Q(role="commissar")),
            sum_killed_first=Count("pk", filter=Q(killed_first=True)),
            sum_best_move_named=total("best_move_named"),
            sum_best_move_black=total("best_move_black"),
            sum_best_move_games=Count("pk", filter=Q(best_move_named__gt=0)),
            sum_fouls=total("fouls"),
        )
        .order_by()
    )


def _figures(row: dict[str, Any] | None) -> tuple[dict[str, int], dict[str, Figure]]:
    sums: dict[str, int] = {name.removeprefix("sum_"): value for name, value in (row or {}).items()}
    sums = defaultdict(int, sums)
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
    return sums, figures


def _bars(rows: QuerySet[PlayFacts]) -> QuerySet[Any, Any]:
    """Wins over games by role and table size, one row per pair of them (a few rows)."""
    return (
        rows.values("role", "table_size")
        .annotate(games=Count("pk"), wins=Count("pk", filter=Q(won=True)))
        .order_by()
    )


def _summed_bars(rows: list[dict[str, Any]], by: str, minimum: int) -> list[Bar]:
    games: dict[Any, int] = defaultdict(int)
    wins: dict[Any, int] = defaultdict(int)
    for row in rows:
        games[row[by]] += row["games"]
        wins[row[by]] += row["wins"]
    return [Bar(key, games[key], wins[key], minimum) for key in sorted(games)]


def _pairs(member_id: int, season: Season | None) -> tuple[str, list[Any]]:
    """The members the player sat with, by side (together or against), with the games and
    the player's wins: a self-join of the facts of the same game, in SQL written here
    (the ORM's reverse join would read the player's own row once per partner). Only
    members who publish in the club (no membership there refusing it, as
    accounts.roles.consent_in_club reads it) and pairs over the minimum."""
    facts, users = PlayFacts._meta.db_table, User._meta.db_table
    memberships = Membership._meta.db_table
    club_id = current_club_id()
    when = ""
    params: list[Any] = [club_id, member_id, club_id]
    if season is not None:
        when = "AND mine.played_on >= %s AND mine.played_on < %s"
        params += [season.first_day, season.next_first_day]
    params.append(MINIMUM["pair"])
    sql = f"""
        SELECT other.member_id, u.nickname AS member__nickname,
               other.team = mine.team AS together,
               count(*) AS games, count(*) FILTER (WHERE mine.won) AS wins
        FROM {facts} mine
        JOIN {facts} other ON other.game_id = mine.game_id AND other.seat <> mine.seat
        JOIN {users} u ON u.id = other.member_id AND u.is_active
        WHERE mine.club_id = %s AND mine.member_id = %s
          AND NOT EXISTS (
            SELECT 1 FROM {memberships} m
            WHERE m.user_id = other.member_id AND m.club_id = %s
              AND NOT m.publication_consent
          )
          {when}
        GROUP BY other.member_id, u.nickname, other.team = mine.team
        HAVING count(*) >= %s
    """  # noqa: S608 (table names from the models; every value is a parameter)
    return sql, params


def _best_pairs(rows: list[dict[str, Any]]) -> tuple[list[Bar], list[Bar]]:
    """The best few of each side, by the player's win rate, then games."""
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


def _hosting(member_id: int, season: Season | None) -> QuerySet[Any, Any]:
    """The games the member hosted: one row (their rows are one group)."""
    rows = _in_season(PlayFacts.objects.filter(host_id=member_id), season)
    return (
        rows.values("host_id")
        .annotate(
            games=Count("game_id", distinct=True),
            given=Coalesce(Sum("fouls"), 0),
            red=Count("game_id", distinct=True, filter=Q(team=Team.RED.value, won=True)),
            black=Count("game_id", distinct=True, filter=Q(team=Team.BLACK.value, won=True)),
        )
        .order_by()
    )


def _in_one_query(
    **parts: QuerySet[Any, Any] | tuple[str, list[Any]],
) -> dict[str, list[dict[str, Any]]]:
    """Each part's rows, read in one statement: each part's SQL (as Django compiles it,
    in the club's scope) aggregated to JSON beside the others. The page pays one round
    trip for the statistics whatever the history's size."""
    if connection.vendor != "postgresql":
        # The embedded default (SQLite, `make run`) has no json_agg: a query per part.
        return {name: _rows(rows) for name, rows in parts.items()}
    selects: list[str] = []
    params: list[Any] = []
    for name, rows in parts.items():
        sql, part_params = rows if isinstance(rows, tuple) else rows.query.sql_with_params()
        # Django's own compiled SQL with its parameters kept apart; `name` is ours.
        part = f"(SELECT coalesce(json_agg(t), '[]') FROM ({sql}) t) AS {name}"  # noqa: S608
        selects.append(part)
        params.extend(part_params)
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(selects), params)
        found = cursor.fetchone()
    return {
        name: value if isinstance(value, list) else json.loads(value)
        for name, value in zip(parts, found, strict=True)
    }


def _rows(rows: QuerySet[Any, Any] | tuple[str, list[Any]]) -> list[dict[str, Any]]:
    if not isinstance(rows, tuple):
        return list(rows)
    with connection.cursor() as cursor:
        cursor.execute(*rows)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, found, strict=True)) for found in cursor.fetchall()]


def play_stats(member_id: int, season: Season | None = None) -> PlayStats:
    """The member's statistics of play in the club in scope: one query."""
    rows = _facts(member_id, season)
    found = _in_one_query(
        sums=_sums(rows),
        bars=_bars(rows),
        pairs=_pairs(member_id, season),
        hosting=_hosting(member_id, season),
    )
    sums, figures = _figures(found["sums"][0] if found["sums"] else None)
    teammates, opponents = _best_pairs(found["pairs"])
    hosted = found["hosting"][0] if found["hosting"] else None
    return PlayStats(
        games=sums["games"],
        logged=sums["logged"],
        figures=figures,
        by_role=sorted(
            _summed_bars(found["bars"], "role", MINIMUM["role"]), key=lambda bar: -bar.games
        ),
        by_table_size=_summed_bars(found["bars"], "table_size", MINIMUM["table_size"]),
        teammates=teammates,
        opponents=opponents,
        hosting=(
            Hosting(hosted["games"], hosted["given"], hosted["red"], hosted["black"])
            if hosted
            else None
        ),
    )


def play_page(member_id: int, season: Season | None, role_names: dict[str, str]) -> dict[str, Any]:
    """What the pages show of a member's statistics (templates/games/_play.html): the
    figures, and the bars of wins by role and by table size drawn as charts."""
    found = play_stats(member_id, season)
    return {
        "play": found,
        "play_season": season,
        "minimum_pair": MINIMUM["pair"],
        "role_chart": rate_chart(
            [(role_names.get(b.key, b.key), b.wins, b.games, b.minimum) for b in found.by_role]
        ),
        "size_chart": rate_chart(
            [
                (
                    str(gettext_lazy("%(players)d players") % {"players": b.key}),
                    b.wins,
                    b.games,
                    b.minimum,
                )
                for b in found.by_table_size
            ]
        ),
    }
