"""/api/v1: what the site publishes (analyses, leaderboards, player pages), readable without
a token and naming members exactly as the pages do (RULES.md §C)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from django.utils.translation import gettext as _
from ninja import Query, Router, Schema

from accounts.models import User
from club.doors.api_auth import ANYONE, OPTIONAL_SECURITY
from club.doors.requests import PublicApiRequest
from club.kernel.errors import RefusalCode, Refused
from club.kernel.schemas import ERRORS
from games import access
from games.queries import game_view
from games.ratings import stats
from games.ratings.publication import published_analysis
from games.ratings.seasons import season_parse

# A season's key (games/ratings/seasons.py), or nothing for the current season.
SEASON_OR_EMPTY = r"^((19|2[0-9])[0-9]{2}(-Q[1-4])?)?$"

router = Router(tags=["published"], auth=ANYONE)


class LineOut(Schema):
    code: str
    points: float
    text: str


class ScoreOut(Schema):
    seat: int
    nick: str
    member_id: int | None  # null where the member refused publication
    role: str
    team: str
    won: bool
    points: float
    lines: list[LineOut]
    rating_before: float | None
    rating_after: float | None


class SectionOut(Schema):
    phase: str
    n: int | None
    title: str
    events: list[str]


class SpeechOut(Schema):
    seat: int
    nick: str
    day: int
    start: float  # seconds from the start of the recording
    end: float
    limit: int  # the seconds allowed
    talk: float
    silence: float
    over: float  # voice after the seconds allowed
    after: float  # voice in the 10 s after the timer stopped


class HeardInOut(Schema):
    seat: int  # whose speech
    nick: str
    seconds: float
    over: float = 0.0  # of those seconds, heard over the speaker's voice


class SpeakerOut(Schema):
    """One seat's voice as the recording heard it (docs/audio.md): seconds of talk."""

    seat: int
    nick: str
    own: float  # in their own speeches
    in_others: float  # in other players' speeches
    others: list[HeardInOut]
    night: float
    aside: float  # by day, outside every speech


class SpeakersOut(Schema):
    seats: list[SpeakerOut]  # the seats whose voice may be published to the caller
    unknown: float  # seconds of voice nobody was sure of
    two_voices: float = 0.0  # seconds in which two voices were heard at once
    unnamed_over: float = 0.0  # of those, seconds whose second voice was not named


class AudioOut(Schema):
    speeches: list[SpeechOut]
    outside: float  # voice during the speeches that fell in no slot
    unheard: int  # speeches the recording does not cover
    transcription: str
    speakers: SpeakersOut | None  # who spoke when


class AnalysisOut(Schema):
    game_id: int
    evening_id: int | None  # null for an online game
    number: int
    winner: str
    scheme_preset: str  # the preset it was scored under: club, fiim, auto (docs/scoring.md)
    scheme_version: int
    built_at: datetime
    scores: list[ScoreOut]
    timeline: list[SectionOut]
    audio: AudioOut | None  # when the game's recording was analysed


@router.get(
    "/games/{game_id}/analysis",
    response={200: AnalysisOut, **ERRORS},
    openapi_extra=OPTIONAL_SECURITY,
)
def game_analysis(request: PublicApiRequest, game_id: int) -> AnalysisOut:
    view = game_view(game_id)
    if view is None:
        raise Refused(_("There is no such game."), RefusalCode.NOT_FOUND)
    published = published_analysis(view, request.auth) if view.game.finished else None
    if published is None:
        raise Refused(_("This game has no analysis yet."), RefusalCode.NOT_FOUND)
    built = published["built"]
    return AnalysisOut(
        game_id=view.game.pk,
        evening_id=view.game.evening_id,
        number=view.game.number,
        winner=view.game.winner,
        scheme_preset=built.scheme.preset.code,
        scheme_version=built.scheme.version,
        built_at=built.built_at,
        scores=published["rows"],
        timeline=published["sections"],
        audio=published["audio"],
    )


class StandingOut(Schema):
    rank: int
    member_id: int
    nick: str
    games: int
    wins: int
    win_rate: float
    points: float
    average: float
    # The rating at the season's end by the club's rating system (`rating_system`): on
    # each track (elo_tracks), or one in all (elo_nonzero_sum, openskill); the others null.
    red: float | None
    black: float | None
    rating: float | None
    # The games the system rated the member in up to the season's end; fewer than the
    # club's `provisional_games`: the rating is provisional (docs/scoring.md).
    rated_games: int
    provisional: bool
    # First-night compensation in the points (the season's preset's, docs/scoring.md); null
    # when the preset has none.
    ci: float | None


class LeaderboardOut(Schema):
    season: str
    seasons: list[str]
    sort: str
    rating_system: str  # elo_tracks, elo_nonzero_sum or openskill (docs/scoring.md)
    preset: str  # the preset the season is scored under: club, fiim, auto
    # The season's tournament games, and whether the rows sum them under their tournaments'
    # points or leave them out (club settings, season_tournament_games; docs/scoring.md).
    tournament_games: int
    tournament_games_included: bool
    rows: list[StandingOut]


@router.get(
    "/leaderboard", response={200: LeaderboardOut, **ERRORS}, openapi_extra=OPTIONAL_SECURITY
)
def leaderboard(
    request: PublicApiRequest,
    season: Annotated[str, Query(pattern=SEASON_OR_EMPTY)] = "",
    sort: Literal[stats.SORTS] = "points",  # type: ignore[valid-type]
    provisional: bool = False,
) -> LeaderboardOut:
    """A season's leaderboard ("2026-Q4" or "2026"; the current season when not given).
    Sorted by a rating, provisional ratings come after the established ones unless
    `provisional` is true (then they are in the rating's order)."""
    chosen = season_parse(season) or stats.current_season()
    board = stats.leaderboard(chosen, sort, request.auth, provisional_in_order=provisional)
    return LeaderboardOut(
        season=board.season.key,
        seasons=[s.key for s in board.seasons],
        sort=board.sort,
        rating_system=board.system,
        preset=board.scheme.preset.code if board.scheme else "",
        tournament_games=board.tournament_games,
        tournament_games_included=board.tournaments_included,
        rows=[
            StandingOut(
                **{k: v for k, v in row.__dict__.items() if not k.startswith(("own", "official"))},
                win_rate=row.win_rate,
            )
            for row in board.rows
        ],
    )


class TallyOut(Schema):
    games: int
    wins: int
    win_rate: float


class PlayedOut(Schema):
    game_id: int
    role: str
    team: str
    won: bool
    points: float
    rating_after: float | None


class PlayerOut(Schema):
    member_id: int
    nick: str
    games: int
    wins: int
    points: float
    rating_system: str
    ratings: dict[str, float]  # the current one per track ("red", "black") or "overall"
    rated_games: int  # the games the system rated the member in
    provisional: bool  # fewer than the club's `provisional_games`
    by_team: dict[str, TallyOut]
    by_role: dict[str, TallyOut]
    history: list[PlayedOut]


def _tally(tally: stats.Tally) -> TallyOut:
    return TallyOut(games=tally.games, wins=tally.wins, win_rate=tally.win_rate)


@router.get(
    "/players/{member_id}", response={200: PlayerOut, **ERRORS}, openapi_extra=OPTIONAL_SECURITY
)
def player(request: PublicApiRequest, member_id: int) -> PlayerOut:
    member = User.objects.filter(pk=member_id, is_active=True).first()
    if member is None or not access.may_see_name(member, request.auth):
        raise Refused(_("There is no such player."), RefusalCode.NOT_FOUND)
    found = stats.profile(member)
    return PlayerOut(
        member_id=member.pk,
        nick=member.nickname,
        games=found.total.games,
        wins=found.total.wins,
        points=found.points,
        rating_system=found.system,
        ratings=found.ratings,
        rated_games=found.rated_games,
        provisional=found.provisional,
        by_team={team: _tally(t) for team, t in found.by_team.items()},
        by_role={role: _tally(t) for role, t in found.by_role.items()},
        history=[
            PlayedOut(
                game_id=g.game_id,
                role=g.role,
                team=g.team,
                won=g.won,
                points=g.points,
                rating_after=g.rating_after,
            )
            for g in found.games
        ],
    )
