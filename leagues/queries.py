"""What the platform's pages read across clubs, on purpose (the `all_clubs` managers): the
clubs with their next evening, a league with its clubs and series, the platform's rating,
and a player's games in each club that lets them be published.

Names follow each member's consent in each club (accounts.models.Membership), and the
platform reads them conservatively: on the rating, a member who refused publication in any
club whose games count is «Игрок N» (unnumbered: «a player») to everyone but themselves and a
platform admin; on a player's page, a club's games are listed only where the member lets
that club publish them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Count, OuterRef, Q, Subquery, Sum
from django.utils import timezone

from accounts.models import User
from club.kernel import tenancy
from club.kernel.clubs import Club
from club.models import Evening, EveningStatus
from games.access import Viewer
from games.ratings.models import PlayerScore
from leagues.models import JoinStatus, League, LeagueMembership, PlatformRating
from leagues.people import is_platform_admin, refusals
from leagues.standings import SeriesStandings, series_standings
from tournaments.models import Tournament


@dataclass(frozen=True)
class ClubCard:
    club: Club
    next_evening: datetime | None


def clubs_listed() -> list[ClubCard]:
    """Every club with its next evening (one query: a subquery per row)."""
    upcoming = (
        Evening.all_clubs.filter(club=OuterRef("pk"), starts_at__gte=timezone.now())
        .exclude(status=EveningStatus.CANCELLED)
        .order_by("starts_at")
        .values("starts_at")[:1]
    )
    rows = Club.objects.annotate(next_start=Subquery(upcoming)).order_by("name", "pk")
    return [ClubCard(club, club.next_start) for club in rows]


def several_clubs() -> bool:
    """Whether the platform has more than one club: only then a page offers to pick one."""
    return len(tenancy.club_ids()) > 1


@dataclass(frozen=True)
class LeaguePage:
    league: League
    clubs: list[Club]
    invited: list[LeagueMembership]  # awaiting their club admin's answer
    series: list[SeriesStandings]


def league_page(league: League, viewer: Viewer) -> LeaguePage:
    memberships = list(
        LeagueMembership.objects.filter(league=league)
        .select_related("club")
        .order_by("club__name", "club_id")
    )
    clubs = [m.club for m in memberships if m.status == JoinStatus.ACCEPTED]
    series = [series_standings(s) for s in league.series.order_by("-created_at", "pk")]
    member_ids = {row.member_id for one in series for row in one.rows}
    # Conservative: a refusal in any of the league's clubs hides the name on its tables.
    names = shown_names(member_ids, {c.pk for c in clubs}, viewer)
    for one in series:
        for row in one.rows:
            row.name = names.get(row.member_id, "")
    return LeaguePage(
        league, clubs, [m for m in memberships if m.status == JoinStatus.INVITED], series
    )


@dataclass(frozen=True)
class LeagueDesk:
    """What the league's admin may do on its page: the clubs to invite, the tournaments of
    its clubs to add to a series."""

    invitable: list[Club]
    tournaments: list[Tournament]


def league_desk(league: League) -> LeagueDesk:
    """The clubs not in the league or invited to it; the latest tournaments of its clubs."""
    taken = LeagueMembership.objects.filter(
        league=league, status__in=(JoinStatus.INVITED, JoinStatus.ACCEPTED)
    ).values("club_id")
    joined = LeagueMembership.objects.filter(league=league, status=JoinStatus.ACCEPTED)
    tournaments = Tournament.all_clubs.filter(club_id__in=joined.values("club_id"))
    return LeagueDesk(
        list(Club.objects.exclude(pk__in=taken).order_by("name", "pk")),
        list(tournaments.select_related("club").order_by("-pk")[:50]),
    )


def _sees_every_name(member_id: int, viewer: Viewer) -> bool:
    """The member themselves and a platform admin."""
    return is_platform_admin(viewer) or (isinstance(viewer, User) and viewer.pk == member_id)


def hidden_among(member_clubs: dict[int, set[int]], viewer: Viewer) -> set[int]:
    """The members (id → the clubs whose games count for them) whose name `viewer` may not
    see: refused in any of those clubs."""
    refused = refusals(member_clubs)
    return {
        pk
        for pk, clubs in member_clubs.items()
        if refused.get(pk, set()) & clubs and not _sees_every_name(pk, viewer)
    }


def shown_names(member_ids: set[int], club_ids: Iterable[int], viewer: Viewer) -> dict[int, str]:
    """Each member's nickname, or "" where it must not be shown to `viewer` (a refusal in
    any of the clubs)."""
    clubs = set(club_ids)
    hidden = hidden_among({pk: clubs for pk in member_ids}, viewer)
    nicknames = dict(User.objects.filter(pk__in=member_ids).values_list("pk", "nickname"))
    return {pk: "" if pk in hidden else nick for pk, nick in nicknames.items()}


@dataclass(frozen=True)
class RatingRow:
    place: int
    member_id: int
    name: str  # "": shown as «a player», without a link
    rating: float
    games: int


def platform_rating(viewer: Viewer, *, limit: int = 200) -> list[RatingRow]:
    """The rating's top `limit`, each name under the member's consent in every club whose
    games count for them."""
    rows = list(
        PlatformRating.objects.select_related("member").order_by("-rating", "member_id")[:limit]
    )
    hidden = hidden_among({row.member_id: set(row.club_ids) for row in rows}, viewer)
    return [
        RatingRow(
            place,
            row.member_id,
            "" if row.member_id in hidden else row.member.nickname,
            row.rating,
            row.games,
        )
        for place, row in enumerate(rows, 1)
    ]


@dataclass(frozen=True)
class ClubGame:
    game_id: int
    played_on: date
    points: float
    won: bool


@dataclass(frozen=True)
class ClubHistory:
    club: Club
    games: int
    wins: int
    points: float
    recent: list[ClubGame]


RECENT_PER_CLUB = 5


def player_clubs(member: User, viewer: Viewer) -> list[ClubHistory]:
    """The member's games in each club, one section a club, where the member lets that club
    publish them (themselves and a platform admin see every club). Empty on a single club's
    site: its player's page is that club's already."""
    if not several_clubs():
        return []
    scores = PlayerScore.all_clubs.filter(member=member)  # every club's, on purpose
    totals = (
        scores.values("game__club_id")
        .annotate(games=Count("pk"), wins=Count("pk", filter=Q(won=True)), points=Sum("points"))
        .order_by()
    )
    found = {row["game__club_id"]: row for row in totals}
    if not _sees_every_name(member.pk, viewer):
        refused = refusals({member.pk}).get(member.pk, set())
        found = {club_id: row for club_id, row in found.items() if club_id not in refused}
    if not found:
        return []
    recent: dict[int, list[ClubGame]] = {club_id: [] for club_id in found}
    latest = scores.filter(game__club_id__in=found).order_by("-ended_at", "-game_id")
    for club_id, game_id, played_on, points, won in latest.values_list(
        "game__club_id", "game_id", "played_on", "points", "won"
    )[: RECENT_PER_CLUB * len(found) * 4]:
        if len(recent[club_id]) < RECENT_PER_CLUB:
            recent[club_id].append(ClubGame(game_id, played_on, points, won))
    clubs = {c.pk: c for c in Club.objects.filter(pk__in=found.keys())}
    return [
        ClubHistory(clubs[pk], row["games"], row["wins"], row["points"] or 0.0, recent[pk])
        for pk, row in sorted(found.items(), key=lambda item: (str(clubs[item[0]]), item[0]))
    ]
