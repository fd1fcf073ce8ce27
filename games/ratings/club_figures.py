"""The club's own figures for its organiser (docs/statistics.md «The club's figures»):
attendance week by week, newcomers and who stopped coming, red and black wins by table
size and by host, how full the evenings were, how long games take. Each is one SQL
aggregate over the club in scope (its facts of play, games, evenings and sign-ups): eight
queries whatever the club's history."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.db.models import (
    Aggregate,
    CharField,
    Count,
    DurationField,
    ExpressionWrapper,
    F,
    Max,
    Min,
    Q,
    Value,
)
from django.db.models.functions import Coalesce, Concat, TruncWeek

from accounts.models import User
from club.kernel.tenancy import current_club_id
from club.models import Evening, EveningStatus, RegistrationStatus
from games.models import GameSource, Seat
from games.ratings.models import PlayFacts
from games.rules.roles import Team

WEEKS = 12  # the attendance's weeks, the evenings' fullness
NEWCOMER_WEEKS = 8  # a newcomer's first game in the club is this recent
STOPPED_GAMES, STOPPED_WEEKS = 5, 8  # played this many games, none in the last weeks
MINIMUM_GAMES = 5  # a table size's or a host's red/black share needs this many games
LISTED = 20  # the newcomers and the departed shown at most


class Median(Aggregate):
    """PostgreSQL's median of an ordered set (percentile_cont(0.5) works on intervals)."""

    function = "percentile_cont"
    template = "%(function)s(0.5) WITHIN GROUP (ORDER BY %(expressions)s)"
    output_field = DurationField()


@dataclass(frozen=True)
class Week:
    first_day: date
    evenings: int
    visits: int  # people at the table, each evening counted apart

    @property
    def per_evening(self) -> float:
        return round(self.visits / self.evenings, 1) if self.evenings else 0.0


@dataclass(frozen=True)
class Outcomes:
    key: Any  # a table size, or a host's id
    games: int
    red: int
    black: int
    name: str = ""

    @property
    def shown(self) -> bool:
        return self.games >= MINIMUM_GAMES

    @property
    def red_percent(self) -> int:
        return round(100 * self.red / self.games) if self.games else 0


@dataclass(frozen=True)
class Member:
    member_id: int
    name: str
    games: int
    first: date
    last: date


@dataclass(frozen=True)
class Fullness:
    evening_id: int
    starts_at: datetime
    capacity: int
    taken: int
    reserve: int

    @property
    def percent(self) -> int:
        return min(round(100 * self.taken / self.capacity), 100) if self.capacity else 0


@dataclass(frozen=True)
class Duration:
    table_size: int
    games: int
    median_minutes: int


@dataclass
class ClubFigures:
    today: date
    weeks: list[Week]
    newcomers: list[Member]
    departed: list[Member]
    by_table_size: list[Outcomes]
    by_host: list[Outcomes]
    evenings: list[Fullness]
    durations: list[Duration]

    @property
    def busiest_week(self) -> float:
        return max((week.per_evening for week in self.weeks), default=0.0)


def _weeks(since: date) -> list[Week]:
    """People per evening, week by week: who sat at a table (a member or a guest), each
    evening apart."""
    # A seat belongs to its club through its game: the club is named here.
    seats = Seat.objects.filter(
        game__club_id=current_club_id(), game__evening__starts_at__date__gte=since
    )
    person = Concat(
        "game__evening_id",
        Value(":"),
        Coalesce("member_id", Value(0)),
        Value(":"),
        Coalesce("guest_id", Value(0)),
        output_field=CharField(),
    )
    rows = (
        seats.annotate(week=TruncWeek("game__evening__starts_at"))
        .values("week")
        .annotate(
            evenings=Count("game__evening_id", distinct=True), visits=Count(person, distinct=True)
        )
        .order_by("week")
    )
    return [Week(row["week"].date(), row["evenings"], row["visits"]) for row in rows]


def _members(today: date) -> tuple[list[Member], list[Member]]:
    """Newcomers (a first game in the last NEWCOMER_WEEKS) and the departed (STOPPED_GAMES
    games or more, none in the last STOPPED_WEEKS): the facts grouped by member on their
    index alone, then the names of the few listed (two queries)."""
    new_since = today - timedelta(weeks=NEWCOMER_WEEKS)
    gone_before = today - timedelta(weeks=STOPPED_WEEKS)
    rows = list(
        PlayFacts.objects.filter(member__isnull=False)
        .values("member_id")
        # A member sits once at a table: a row is a game.
        .annotate(games=Count("pk"), first=Min("played_on"), last=Max("played_on"))
        .filter(Q(first__gte=new_since) | Q(games__gte=STOPPED_GAMES, last__lt=gone_before))
        .order_by("-last", "member_id")
    )
    new = sorted(
        (row for row in rows if row["first"] >= new_since),
        key=lambda row: (row["first"], row["member_id"]),
        reverse=True,
    )[:LISTED]
    gone = [row for row in rows if row["first"] < new_since][:LISTED]
    names = dict(
        User.objects.filter(
            pk__in=[row["member_id"] for row in new + gone], is_active=True
        ).values_list("pk", "nickname")
    )

    def listed(found: list[Any]) -> list[Member]:
        return [
            Member(
                row["member_id"], names[row["member_id"]], row["games"], row["first"], row["last"]
            )
            for row in found
            if row["member_id"] in names
        ]

    return listed(new), listed(gone)


def _outcomes(by: str, name: str | None = None) -> list[Outcomes]:
    """Games and the red and black wins (the game's winner), grouped by a field of the
    facts; one row of the facts per game (its first seat)."""
    fields = [by] + ([name] if name else [])
    rows = (
        # An imported game has no known host (Game.host_known): no group of its own.
        PlayFacts.objects.filter(seat=1, **{f"{by}__isnull": False})
        .values(*fields)
        .annotate(
            games=Count("pk"),
            red=Count("pk", filter=Q(game__winner=Team.RED.value)),
            black=Count("pk", filter=Q(game__winner=Team.BLACK.value)),
        )
        .order_by(by)
    )
    return [
        Outcomes(row[by], row["games"], row["red"], row["black"], row[name] if name else "")
        for row in rows
    ]


def _fullness(since: date) -> list[Fullness]:
    """Each evening of the weeks: seats taken (confirmed or attended) of its capacity, and
    its reserve."""
    taken = Q(registrations__status__in=(RegistrationStatus.CONFIRMED, RegistrationStatus.ATTENDED))
    rows = (
        Evening.objects.filter(starts_at__date__gte=since)
        .exclude(status=EveningStatus.CANCELLED)
        .annotate(
            taken=Count("registrations", filter=taken),
            reserve=Count(
                "registrations", filter=Q(registrations__status=RegistrationStatus.RESERVE)
            ),
        )
        .order_by("starts_at")
        .values_list("pk", "starts_at", "capacity", "taken", "reserve")
    )
    return [Fullness(*row) for row in rows]


def _durations() -> list[Duration]:
    """The median length of a game per table size, from its start to its end (one row of
    the facts per game: its first seat). Games played here only: an imported game's start
    and end are when it was imported."""
    length = ExpressionWrapper(F("game__ended_at") - F("game__started_at"), DurationField())
    rows = (
        PlayFacts.objects.filter(seat=1, game__ended_at__isnull=False, game__source=GameSource.LIVE)
        .values("table_size")
        .annotate(games=Count("pk"), median=Median(length))
        .order_by("table_size")
    )
    return [
        Duration(row["table_size"], row["games"], round(row["median"].total_seconds() / 60))
        for row in rows
        if row["median"] is not None
    ]


def club_figures(today: date) -> ClubFigures:
    """The figures of the club in scope, as of `today` (the club's local date)."""
    since = today - timedelta(weeks=WEEKS)
    newcomers, departed = _members(today)
    return ClubFigures(
        today=today,
        weeks=_weeks(since),
        newcomers=newcomers,
        departed=departed,
        by_table_size=_outcomes("table_size"),
        by_host=_outcomes("host_id", "host__nickname"),
        evenings=_fullness(since),
        durations=_durations(),
    )
