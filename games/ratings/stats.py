"""What the published pages read: a game's analysis, a season's leaderboard, a player's
profile. Each is a fixed number of queries whatever the number of games (aggregates in SQL,
one ordered read of a member's scores), and each names members as RULES.md §C allows."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from typing import Any

from django.db.models import Count, Max, Min, OuterRef, Q, Subquery, Sum
from django.utils import timezone

from accounts import roles
from accounts.models import User
from club.kernel.clubs import Club
from games import access
from games.access import Viewer
from games.models import Game, Role
from games.ratings import whatif
from games.ratings.models import GameAnalysis, PlayerScore, ScoringPreset, ScoringScheme
from games.ratings.presets import scheme_version, season_scheme
from games.ratings.seasons import Season, season_of, seasons_between
from games.rules import rating
from games.rules.roles import Team
from games.rules.rounding import rounded
from games.rules.scoring import Scheme, first_night_compensation

# --- a game's analysis ----------------------------------------------------------------


@dataclass(frozen=True)
class Analysis:
    analysis: GameAnalysis
    scores: dict[int, PlayerScore]  # by seat


def game_analysis(game: Game) -> Analysis | None:
    """Two queries: the analysis and the seats' scores."""
    analysis = GameAnalysis.objects.filter(game=game).select_related("scheme__preset").first()
    if analysis is None:
        return None
    scores = {score.seat: score for score in PlayerScore.objects.filter(game=game)}
    return Analysis(analysis, scores)


def role_names() -> dict[str, str]:
    """The catalogue's names, and the online game's don (not a card of the club's deck)."""
    from games.online.texts import online_role

    return {"don": online_role("don")} | {role.code: role.name for role in Role.objects.all()}


# --- the season leaderboard -----------------------------------------------------------

SORTS = ("points", "average", "games", "wins", "win_rate", "ci", "rating", "red", "black", "nick")
RATING_SORTS = ("rating", "red", "black")


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
        return int(rounded(100 * self.wins, 0, per=self.games)) if self.games else 0


@dataclass
class Standing(WinShare):
    member_id: int
    nick: str
    games: int
    wins: int
    points: float  # the games' points, and first-night compensation when the preset has it
    average: float
    red: float | None = None  # the rating at the season's end on each track (elo_tracks)
    black: float | None = None
    rating: float | None = None  # the rating at the season's end (a system of one rating)
    # The games the system rated the member in up to the season's end, and whether that is
    # fewer than the club's `provisional_games`: the rating is provisional.
    rated_games: int = 0
    provisional: bool = False
    rank: int = 0
    own: bool = False  # the viewer's own row (shown to them even without consent)
    # First-night compensation, in all (Ci times the games it pays for); None: not counted.
    ci: float | None = None
    # The what-if's side by side: the row's place and points on the official table.
    official_rank: int | None = None
    official_points: float | None = None


@dataclass(frozen=True)
class BoardFilter:
    """Which games count: one team's or one role's only, and members with enough of them."""

    team: str = ""  # "red", "black", "loner" or "" for all
    role: str = ""  # a role code or "" for all
    min_games: int = 0

    @property
    def whole(self) -> bool:
        """Every game counts: the season's own lines (first-night compensation) apply."""
        return not self.team and not self.role


@dataclass(frozen=True)
class Leaderboard:
    season: Season
    seasons: list[Season]
    sort: str
    rows: list[Standing]
    filter: BoardFilter = BoardFilter()
    system: str = rating.ELO_TRACKS  # the club's rating system: which ratings the rows carry
    scheme: ScoringScheme | None = None  # the preset's version the rows are scored by
    official: ScoringScheme | None = None  # a what-if's: the season's own, beside it
    # Sorted by a rating: provisional ratings are in the order too (else after the others).
    provisional_in_order: bool = False
    provisional_games: int = 0  # the club's threshold, for the page's legend
    # The season's tournament games, and whether the rows sum them (club settings,
    # `season_tournament_games`): the page says which when there are any.
    tournament_games: int = 0
    tournaments_included: bool = True

    @property
    def by_rating(self) -> bool:
        return self.sort in RATING_SORTS

    @property
    def whatif(self) -> bool:
        return self.official is not None

    @cached_property
    def compensated(self) -> bool:
        """The rows carry first-night compensation (a column of its own); the page asks on
        every row, so it is worked out once."""
        return any(row.ci is not None for row in self.rows)


def rating_digits(system: str) -> int:
    """The decimals a rating is shown with: Elo's hundreds whole, the others' tens with one."""
    return 0 if system == rating.ELO_TRACKS else 1


def current_season(club: Club | None = None) -> Season:
    club = club or Club.current()
    return season_of(timezone.localtime(timezone.now(), club.zone).date(), club.season_length)


# Who wins "as the boss or the commissar" (mafiaratings' «special role», Polemica's don and
# sheriff): the club's boss and commissar, the online game's don and commissar.
KEY_ROLES = ("boss", "commissar", "don")


@dataclass
class Sums:
    """A member's season as the table adds it up (each a PlayerScore's field summed)."""

    games: int = 0
    wins: int = 0
    points: float = 0.0
    bonus: float = 0.0
    best_move: float = 0.0
    penalty: float = 0.0
    key_role_wins: int = 0
    first_night_kills: int = 0  # shot dead on night 1 while red (the K of Ci)
    first_night_losses: int = 0  # … and lost: the games Ci is paid for

    def add(self, seat: whatif.Scored) -> None:
        self.games += 1
        self.wins += seat.won
        self.points += seat.points
        self.bonus += seat.bonus_points
        self.best_move += seat.best_move_points
        self.penalty += seat.penalty_points
        self.key_role_wins += seat.won and seat.role in KEY_ROLES
        killed = seat.killed_first_night and seat.team == Team.RED.value
        self.first_night_kills += killed
        self.first_night_losses += killed and not seat.won

    def tie_breakers(self, codes: Sequence[str]) -> tuple[float, ...]:
        """The values of `codes` (TIE_BREAKERS), each larger first as the table sorts."""
        values = {
            "wins": self.wins,
            "key_role_wins": self.key_role_wins,
            "extra": self.bonus + self.best_move + self.penalty,
            "bonus": self.bonus,
            "best_move": self.best_move,
            "first_night_kills": self.first_night_kills,
            "fewer_games": -self.games,
        }
        return tuple(rounded(values[code], 4) for code in codes)


# What each tie-breaker and first-night compensation needs summed besides games, wins and
# points: the official table asks SQL for these only (fewer aggregates, a faster page).
_SUMMED = {
    "bonus": Sum("bonus_points"),
    "best_move": Sum("best_move_points"),
    "penalty": Sum("penalty_points"),
    "key_role_wins": Count("id", filter=Q(won=True, role__in=KEY_ROLES)),
    "first_night_kills": Count("id", filter=Q(killed_first_night=True, team=Team.RED.value)),
    "first_night_losses": Count(
        "id", filter=Q(killed_first_night=True, team=Team.RED.value, won=False)
    ),
}
_NEEDS = {
    "extra": ("bonus", "best_move", "penalty"),
    "bonus": ("bonus",),
    "best_move": ("best_move",),
    "key_role_wins": ("key_role_wins",),
    "first_night_kills": ("first_night_kills",),
}


def _summed(scheme: Scheme) -> set[str]:
    needed = {name for code in scheme.tie_breakers for name in _NEEDS.get(code, ())}
    if scheme.first_night_compensation > 0:
        needed |= {"first_night_kills", "first_night_losses"}
    return needed


@dataclass(frozen=True)
class Compensation:
    """A member's first-night compensation (Ci) in a season: `each` for every game lost
    as red after a first-night kill (`losses` of them), from K `kills` in N `games`."""

    each: float
    kills: int
    games: int
    losses: int

    @property
    def total(self) -> float:
        return rounded(self.each * self.losses)


def member_compensation(member_id: int, season: Season) -> Compensation | None:
    """The season's Ci for one member, as the leaderboard adds it (one query); None when
    the season's preset has none or the member played no game in it."""
    cap = season_scheme(season).scheme().first_night_compensation
    if cap <= 0:
        return None
    counted = PlayerScore.objects.filter(whatif.season_games(season), member_id=member_id)
    sums = counted.aggregate(
        games=Count("id"),
        kills=_SUMMED["first_night_kills"],
        losses=_SUMMED["first_night_losses"],
    )
    if not sums["games"]:
        return None
    each = first_night_compensation(sums["kills"], sums["games"], cap)
    return Compensation(rounded(each), sums["kills"], sums["games"], sums["losses"])


def _sums_in_sql(
    season: Season, only: BoardFilter, scheme: Scheme
) -> dict[int, tuple[str, bool, Sums]]:
    """One query: each member's sums over the season's scores (the filter's games), with
    what `scheme`'s tie-breakers and compensation read."""
    counted = whatif.season_games(season)
    if only.team:
        counted &= Q(team=only.team)
    if only.role:
        counted &= Q(role=only.role)
    needed = _summed(scheme)
    rows = (
        PlayerScore.objects.filter(counted)
        # The consent to publication in the club in scope, the season's.
        .annotate(club_consent=roles.consent_in_club(member="member_id"))
        .values("member_id", "member__nickname", "club_consent")
        .annotate(
            games=Count("id"),
            wins=Count("id", filter=Q(won=True)),
            total=Sum("points"),
            **{name: aggregate for name, aggregate in _SUMMED.items() if name in needed},
        )
    )
    sums: dict[int, tuple[str, bool, Sums]] = {}
    for row in rows:
        summed: dict[str, Any] = dict(row)
        sums[summed["member_id"]] = (
            summed["member__nickname"],
            summed["club_consent"],
            Sums(
                games=summed["games"],
                wins=summed["wins"],
                points=summed["total"],
                **{name: summed[name] for name in needed},
            ),
        )
    return sums


def _sums_rescored(
    season: Season, scheme_row: ScoringScheme, only: BoardFilter
) -> dict[int, tuple[str, bool, Sums]]:
    """The same sums from the season scored again under another preset (whatif.py), and
    one query for the members' names and consent."""
    sums: dict[int, Sums] = defaultdict(Sums)
    for seat in whatif.season_rescored(season, scheme_row):
        if (only.team and seat.team != only.team) or (only.role and seat.role != only.role):
            continue
        if seat.member_id is not None:  # season_rescored keeps members only
            sums[seat.member_id].add(seat)
    names = (
        User.objects.filter(pk__in=sums)
        .annotate(club_consent=roles.consent_in_club())
        .values_list("pk", "nickname", "club_consent")
    )
    return {pk: (nick, consent, sums[pk]) for pk, nick, consent in names}


def _standings(
    sums: dict[int, tuple[str, bool, Sums]],
    scheme: Scheme,
    only: BoardFilter,
    viewer: Viewer,
) -> list[tuple[Standing, Sums]]:
    """The rows the viewer may see, with first-night compensation added to the points
    when the preset has it and every game counts."""
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    compensated = scheme.first_night_compensation > 0 and only.whole
    rows = []
    for member_id, (nick, consent, sum_) in sums.items():
        if sum_.games < only.min_games or not access.name_visible(
            member_id=member_id, consent=consent, viewer=viewer
        ):
            continue
        ci = None
        if compensated:
            each = first_night_compensation(
                sum_.first_night_kills, sum_.games, scheme.first_night_compensation
            )
            ci = rounded(each * sum_.first_night_losses)
        points = rounded(sum_.points + (ci or 0.0))
        standing = Standing(
            member_id=member_id,
            nick=nick,
            games=sum_.games,
            wins=sum_.wins,
            points=points,
            average=rounded(points, per=sum_.games),
            own=member_id == viewer_id,
            ci=ci,
        )
        rows.append((standing, sum_))
    return rows


def _ranked(
    rows: list[tuple[Standing, Sums]],
    sort: str,
    scheme: Scheme,
    *,
    provisional_in_order: bool = True,
) -> list[Standing]:
    """Sorted by the column, then by points, then the preset's tie-breakers, then by name;
    each row gets its place. Sorted by a rating, provisional ratings come after the
    established ones unless `provisional_in_order`."""

    codes = scheme.tie_breakers

    def key(item: tuple[Standing, Sums]) -> tuple[Any, ...]:
        row, sum_ = item
        breakers = tuple(-value for value in sum_.tie_breakers(codes))
        last = (row.nick.casefold(), row.member_id)
        if sort == "nick":
            return last
        value = row.win_rate if sort == "win_rate" else getattr(row, sort)
        first = -(rounded(value, 4) if value is not None else float("-inf"))
        held_back = sort in RATING_SORTS and not provisional_in_order and row.provisional
        return (held_back, first, -rounded(row.points, 4), *breakers, *last)

    ordered = [row for row, _sum in sorted(rows, key=key)]
    for rank, row in enumerate(ordered, start=1):
        row.rank = rank
    return ordered


def leaderboard(
    season: Season,
    sort: str,
    viewer: Viewer,
    only: BoardFilter = BoardFilter(),
    preset: ScoringPreset | None = None,
    *,
    provisional_in_order: bool = False,
) -> Leaderboard:
    """Five queries: the seasons that have games, the season's preset (its newest version),
    the season's sums per member, each of those members' ratings at the season's end
    (by the club's rating system: one on each track, or one in all), and the number of
    the season's tournament games (summed under their tournaments' points, or left out:
    whatif.season_games).

    With `preset` other than the season's own: what the table would be under it (the
    season's games scored again, whatif.py), each row beside its official place.

    Sorted by a rating, a provisional rating (fewer rated games than the club's
    `provisional_games`) comes after the established ones unless `provisional_in_order`."""
    club = Club.current()
    span = PlayerScore.objects.aggregate(first=Min("played_on"), last=Max("played_on"))
    seasons = (
        seasons_between(span["first"], span["last"], club.season_length)
        if span["first"]
        else [season]
    )
    if season not in seasons:
        seasons = sorted({*seasons, season}, key=lambda s: s.first_day, reverse=True)
    official = season_scheme(season)
    official_scheme = official.scheme()
    official_rows = _standings(
        _sums_in_sql(season, only, official_scheme), official_scheme, only, viewer
    )
    chosen, scheme, rows = official, official_scheme, official_rows
    if preset is not None and preset.pk != official.preset_id:
        chosen = scheme_version(preset)
        scheme = chosen.scheme()
        rows = _standings(_sums_rescored(season, chosen, only), scheme, only, viewer)
        beside = {row.member_id: row for row in _ranked(official_rows, "points", official_scheme)}
        for row, _sum in rows:
            if (was := beside.get(row.member_id)) is not None:
                row.official_rank, row.official_points = was.rank, was.points
    system = club.rating_system
    _season_end_ratings(
        [row for row, _sum in rows],
        season.next_first_day,
        rating.shown(system),
        club.provisional_games,
    )
    ranked = _ranked(rows, sort, scheme, provisional_in_order=provisional_in_order)
    tournament_games = (
        PlayerScore.objects.filter(whatif.in_season(season) & whatif.AT_A_TOURNAMENT)
        .values("game_id")
        .distinct()
        .count()
    )
    return Leaderboard(
        season,
        seasons,
        sort,
        ranked,
        only,
        system,
        scheme=chosen,
        official=official if chosen is not official else None,
        provisional_in_order=provisional_in_order,
        provisional_games=club.provisional_games,
        tournament_games=tournament_games,
        tournaments_included=whatif.tournaments_included(),
    )


def _last_rating(before: date, track: str) -> Subquery:
    """A member's rating after their last game before `before`: on `track`, or (OVERALL)
    in any game the system rated."""
    scores = PlayerScore.objects.filter(
        member=OuterRef("pk"), played_on__lt=before, rating_after__isnull=False
    )
    if track != rating.OVERALL:
        scores = scores.filter(track=track)
    return Subquery(scores.order_by("-ended_at", "-game_id").values("rating_after")[:1])


def _rated_games(before: date) -> Subquery:
    """How many games the rating system rated a member in before `before`."""
    scores = PlayerScore.objects.filter(
        member=OuterRef("pk"), played_on__lt=before, rating_after__isnull=False
    )
    return Subquery(scores.order_by().values("member").annotate(n=Count("id")).values("n")[:1])


def provisional(rated_games: int, threshold: int) -> bool:
    """A rating from fewer rated games than the club's `provisional_games` is provisional."""
    return rated_games < threshold


def _season_end_ratings(
    rows: list[Standing], before: date, tracks: tuple[str, ...], threshold: int
) -> None:
    by_member = {row.member_id: row for row in rows}
    ratings = (
        User.objects.filter(pk__in=by_member)
        .annotate(
            rated_games_=_rated_games(before),
            **{track: _last_rating(before, track) for track in tracks},
        )
        .values_list("pk", "rated_games_", *tracks)
    )
    for member_id, rated_games, *values in ratings:
        row = by_member[member_id]
        row.rated_games = rated_games or 0
        row.provisional = provisional(row.rated_games, threshold)
        for track, value in zip(tracks, values, strict=True):
            setattr(row, track if track != rating.OVERALL else "rating", _rounded(value))


def _rounded(value: float | None) -> float | None:
    return rounded(value, 1) if value is not None else None


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
    provisional_games: int = 0  # the club's threshold (club settings)

    @property
    def rated_games(self) -> int:
        """The games the rating system rated the member in (an unrated game, a loner's
        loss under Elo on tracks: not)."""
        return sum(game.rating_after is not None for game in self.games)

    @property
    def provisional(self) -> bool:
        return provisional(self.rated_games, self.provisional_games)

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

    def seasons(self, club: Club) -> list[Season]:
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
            series["points"].append(rounded(running))
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
    club = Club.current()
    system = system or club.rating_system
    result = Profile(
        member,
        [Played(*row) for row in rows],
        system=system,
        provisional_games=club.provisional_games,
    )
    by_role: dict[str, Tally] = defaultdict(Tally)
    by_team: dict[str, Tally] = defaultdict(Tally)
    for game in result.games:
        for tally in (result.total, by_role[game.role], by_team[game.team]):
            tally.games += 1
            tally.wins += game.won
        result.points += game.points
        if (track := result.shown_track(game)) is not None and game.rating_after is not None:
            result.ratings[track] = game.rating_after
    result.points = rounded(result.points)
    result.by_role = dict(sorted(by_role.items(), key=lambda item: -item[1].games))
    result.by_team = dict(by_team)
    return result
