"""What the published pages read: a game's analysis, a season's leaderboard, a player's
profile. Each is a fixed number of queries whatever the number of games (aggregates in SQL,
one ordered read of a member's scores), and each names members as RULES.md §C allows."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db.models import Count, Max, Min, OuterRef, Q, Subquery, Sum
from django.utils import timezone

from accounts.models import User
from club.kernel.club_settings import ClubSettings
from games import access
from games.access import Viewer
from games.models import Game, Role
from games.ratings.models import GameAnalysis, PlayerScore
from games.ratings.seasons import Season, season_of, seasons_between
from games.rules import rating

# --- a game's analysis ----------------------------------------------------------------


@dataclass(frozen=True)
class Analysis:
    analysis: GameAnalysis
    scores: dict[int, PlayerScore]  # by seat


def game_analysis(game: Game) -> Analysis | None:
    """Two queries: the analysis and the seats' scores."""
    analysis = GameAnalysis.objects.filter(game=game).select_related("scheme").first()
    if analysis is None:
        return None
    scores = {score.seat: score for score in PlayerScore.objects.filter(game=game)}
    return Analysis(analysis, scores)


def role_names() -> dict[str, str]:
    """The catalogue's names, and the online game's don (not a card of the club's deck)."""
    from games.online.texts import online_role

    return {"don": online_role("don")} | {role.code: role.name for role in Role.objects.all()}


# --- the season leaderboard -----------------------------------------------------------

SORTS = ("points", "average", "games", "wins", "win_rate", "rating", "red", "black", "nick")


class WinShare:
    """Wins over games, for any row that counts both (a standing, a tally)."""

    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def percent(self) -> int:
        """The win rate as a whole percentage, as pages print it."""
        return round(100 * self.win_rate)


@dataclass
class Standing(WinShare):
    member_id: int
    nick: str
    games: int
    wins: int
    points: float
    average: float
    red: float | None = None  # the rating at the season's end on each track (elo_tracks)
    black: float | None = None
    rating: float | None = None  # the rating at the season's end (a system of one rating)
    rank: int = 0
    own: bool = False  # the viewer's own row (shown to them even without consent)


@dataclass(frozen=True)
class BoardFilter:
    """Which games count: one team's or one role's only, and members with enough of them."""

    team: str = ""  # "red", "black", "loner" or "" for all
    role: str = ""  # a role code or "" for all
    min_games: int = 0


@dataclass(frozen=True)
class Leaderboard:
    season: Season
    seasons: list[Season]
    sort: str
    rows: list[Standing]
    filter: BoardFilter = BoardFilter()
    system: str = rating.ELO_TRACKS  # the club's rating system: which ratings the rows carry


def rating_digits(system: str) -> int:
    """The decimals a rating is shown with: Elo's hundreds whole, the others' tens with one."""
    return 0 if system == rating.ELO_TRACKS else 1


def current_season(club: ClubSettings | None = None) -> Season:
    club = club or ClubSettings.load()
    return season_of(timezone.localtime(timezone.now(), club.zone).date(), club.season_length)


def leaderboard(
    season: Season, sort: str, viewer: Viewer, only: BoardFilter = BoardFilter()
) -> Leaderboard:
    """Three queries: the seasons that have games, the season's sums per member, and each
    of those members' ratings at the season's end (by the club's rating system: one on
    each track, or one in all)."""
    club = ClubSettings.load()
    span = PlayerScore.objects.aggregate(first=Min("played_on"), last=Max("played_on"))
    seasons = (
        seasons_between(span["first"], span["last"], club.season_length)
        if span["first"]
        else [season]
    )
    if season not in seasons:
        seasons = sorted({*seasons, season}, key=lambda s: s.first_day, reverse=True)
    in_season = Q(played_on__gte=season.first_day, played_on__lt=season.next_first_day)
    if only.team:
        in_season &= Q(team=only.team)
    if only.role:
        in_season &= Q(role=only.role)
    sums = (
        PlayerScore.objects.filter(in_season)
        .values("member_id", "member__nickname", "member__publication_consent")
        .annotate(games=Count("id"), wins=Count("id", filter=Q(won=True)), total=Sum("points"))
    )
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    rows = [
        Standing(
            member_id=row["member_id"],
            nick=row["member__nickname"],
            games=row["games"],
            wins=row["wins"],
            points=round(row["total"], 2),
            average=round(row["total"] / row["games"], 2),
            own=row["member_id"] == viewer_id,
        )
        for row in sums
        if row["games"] >= only.min_games
        and access.name_visible(
            member_id=row["member_id"], consent=row["member__publication_consent"], viewer=viewer
        )
    ]
    system = club.rating_system
    _season_end_ratings(rows, season.next_first_day, rating.shown(system))
    rows.sort(key=_sort_key(sort))
    for rank, row in enumerate(rows, start=1):
        row.rank = rank
    return Leaderboard(season, seasons, sort, rows, only, system)


def _last_rating(before: date, track: str) -> Subquery:
    """A member's rating after their last game before `before`: on `track`, or (OVERALL)
    in any game the system rated."""
    scores = PlayerScore.objects.filter(
        member=OuterRef("pk"), played_on__lt=before, rating_after__isnull=False
    )
    if track != rating.OVERALL:
        scores = scores.filter(track=track)
    return Subquery(scores.order_by("-ended_at", "-game_id").values("rating_after")[:1])


def _season_end_ratings(rows: list[Standing], before: date, tracks: tuple[str, ...]) -> None:
    by_member = {row.member_id: row for row in rows}
    ratings = (
        User.objects.filter(pk__in=by_member)
        .annotate(**{track: _last_rating(before, track) for track in tracks})
        .values_list("pk", *tracks)
    )
    for member_id, *values in ratings:
        row = by_member[member_id]
        for track, value in zip(tracks, values, strict=True):
            setattr(row, track if track != rating.OVERALL else "rating", _rounded(value))


def _rounded(value: float | None) -> float | None:
    return round(value, 1) if value is not None else None


def _sort_key(sort: str) -> Any:
    if sort == "nick":
        return lambda row: row.nick.casefold()

    def descending(row: Standing) -> tuple[float, str]:
        value = row.win_rate if sort == "win_rate" else getattr(row, sort)
        return (-(value if value is not None else float("-inf")), row.nick.casefold())

    return descending


# --- a player's profile ---------------------------------------------------------------


@dataclass
class Tally(WinShare):
    games: int = 0
    wins: int = 0


@dataclass(frozen=True)
class Played:
    game_id: int
    number: int
    starts_at: Any
    role: str
    team: str
    won: bool
    points: float
    track: str
    rating_after: float | None


@dataclass
class Profile:
    member: User
    games: list[Played]
    total: Tally = field(default_factory=Tally)
    by_role: dict[str, Tally] = field(default_factory=dict)
    by_team: dict[str, Tally] = field(default_factory=dict)
    points: float = 0.0
    # The current rating: one per track (elo_tracks), or one, OVERALL, in all.
    ratings: dict[str, float] = field(default_factory=dict)
    system: str = rating.ELO_TRACKS

    @property
    def recent(self) -> list[Played]:
        return self.games[::-1][:20]

    @property
    def best(self) -> list[Played]:
        return sorted(self.games, key=lambda g: (-g.points, -g.game_id))[:5]

    @property
    def streaks(self) -> tuple[int, int]:
        """(the longest run of wins, the run of wins up to the latest game)."""
        longest = current = 0
        for game in self.games:
            current = current + 1 if game.won else 0
            longest = max(longest, current)
        return longest, current

    def seasons(self, club: ClubSettings) -> list[Season]:
        """The seasons the member played in, newest first, as the club counts them."""
        played = {
            season_of(timezone.localtime(game.starts_at, club.zone).date(), club.season_length)
            for game in self.games
        }
        return sorted(played, key=lambda season: season.first_day, reverse=True)

    def history(self) -> dict[str, list[float]]:
        """The series the chart draws, one point per game: the points summed so far, and
        the rating after each game it rated (on each track, or in all)."""
        series: dict[str, list[float]] = {"points": []}
        series |= {track: [] for track in rating.shown(self.system)}
        running = 0.0
        for game in self.games:
            running += game.points
            series["points"].append(round(running, 2))
            if (track := self.shown_track(game)) is not None and game.rating_after is not None:
                series[track].append(game.rating_after)
        return series

    def shown_track(self, game: Played) -> str | None:
        """Which of the shown ratings a game's rating is."""
        if self.system != rating.ELO_TRACKS:
            return rating.OVERALL
        return game.track or None


def profile(member: User, system: str | None = None) -> Profile:
    """One query: the member's scores with their games, in the order they were played.
    `system`: the rating system the scores' ratings are by (the club's when not given)."""
    rows = (
        PlayerScore.objects.filter(member=member)
        .order_by("ended_at", "game_id")
        .values_list(
            "game_id",
            "game__number",
            "game__evening__starts_at",
            "role",
            "team",
            "won",
            "points",
            "track",
            "rating_after",
        )
    )
    system = system or ClubSettings.load().rating_system
    result = Profile(member, [Played(*row) for row in rows], system=system)
    by_role: dict[str, Tally] = defaultdict(Tally)
    by_team: dict[str, Tally] = defaultdict(Tally)
    for game in result.games:
        for tally in (result.total, by_role[game.role], by_team[game.team]):
            tally.games += 1
            tally.wins += game.won
        result.points += game.points
        if (track := result.shown_track(game)) is not None and game.rating_after is not None:
            result.ratings[track] = game.rating_after
    result.points = round(result.points, 2)
    result.by_role = dict(sorted(by_role.items(), key=lambda item: -item[1].games))
    result.by_team = dict(by_team)
    return result
