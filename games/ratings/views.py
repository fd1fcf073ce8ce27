"""The published pages of the ratings: a season's leaderboard and a player's page."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from accounts import roles as club_roles
from accounts.models import User
from club.doors.requests import SiteRequest
from club.kernel.clubs import Club
from club.kernel.parsing import whole_number
from games import access
from games.ratings import club_figures as figures
from games.ratings import play, stats
from games.ratings.charts import count_chart, line_chart
from games.ratings.presets import presets as presets_offered
from games.ratings.presets import season_scheme
from games.ratings.publication import member_score_lines
from games.ratings.seasons import season_parse
from games.rules import rating
from leagues.queries import player_clubs
from tournaments.queries import member_tournaments


@require_GET
def leaderboard(request: SiteRequest) -> HttpResponse:
    club = Club.current()
    season = season_parse(request.GET.get("season"))
    season = season or stats.current_season(club)
    columns = board_columns(club.rating_system, ci=True)  # every column a sort may name
    sort = request.GET.get("sort")
    sort = sort if sort in dict(columns) else "points"
    roles = stats.role_names()
    # A filter value the page did not offer is read as "all", never as an error.
    team = request.GET.get("team", "")
    role = request.GET.get("role", "")
    only = stats.BoardFilter(
        team=team if team in TEAMS else "",
        role=role if role in roles else "",
        min_games=whole_number(request.GET.get("min_games", ""), high=1000) or 0,
    )
    # The club's organisers and admins may see the season scored under another preset
    # beside its official table (?preset=fiim); to anyone else the parameter means nothing.
    whatif = access.is_club_staff(request.user)
    # The other presets: the season's own is the official table («none» in the list).
    official = season_scheme(season).preset_id if whatif else None
    presets = [p for p in presets_offered() if p.pk != official] if whatif else []
    preset = next((p for p in presets if p.code == request.GET.get("preset")), None)
    # Sorted by a rating, provisional ratings come after the established ones unless the
    # reader asks to have them in the order (?provisional=1).
    in_order = request.GET.get("provisional") == "1"
    board = stats.leaderboard(
        season, sort, request.user, only, preset, provisional_in_order=in_order
    )
    context = {
        "board": board,
        "columns": board_columns(club.rating_system, ci=board.compensated),
        "teams": TEAMS,
        "roles": sorted(roles.items(), key=lambda item: item[1]),
        "sort_label": dict(columns).get(sort, columns[1][1]),
        "rating_digits": stats.rating_digits(board.system),
        "presets": presets,
        "organiser": whatif,  # the club's figures are theirs too
        "system_label": dict(Club._meta.get_field("rating_system").choices or []).get(
            board.system, board.system
        ),
    }
    return render(request, "games/leaderboard.html", context)


TEAMS = {
    "red": gettext_lazy("red (town)"),
    "black": gettext_lazy("black (mafia)"),
    "loner": gettext_lazy("loners"),
}


COLUMNS = [
    ("nick", gettext_lazy("Player")),
    ("points", gettext_lazy("Points")),
    ("average", gettext_lazy("Per game")),
    ("games", gettext_lazy("Games")),
    ("wins", gettext_lazy("Wins")),
    ("win_rate", gettext_lazy("Win rate")),
]
RATING_COLUMNS = {
    rating.RED: gettext_lazy("Red rating"),
    rating.BLACK: gettext_lazy("Black rating"),
    rating.OVERALL: gettext_lazy("Rating"),
}


def board_columns(system: str, *, ci: bool = False) -> list[tuple[str, Any]]:
    """The leaderboard's columns: first-night compensation when the season's preset has
    it, and the rating ones of the club's system (a Standing's `rating` holds the OVERALL
    one)."""
    shown = [
        ("rating" if track == rating.OVERALL else track, RATING_COLUMNS[track])
        for track in rating.shown(system)
    ]
    return COLUMNS + ([("ci", CI_COLUMN)] if ci else []) + shown


CI_COLUMN = gettext_lazy("Ci")


CHART_SERIES = {
    rating.RED: gettext_lazy("red rating"),
    rating.BLACK: gettext_lazy("black rating"),
    rating.OVERALL: gettext_lazy("rating"),
}


@require_GET
def player(request: SiteRequest, member_id: int) -> HttpResponse:
    member = User.objects.filter(pk=member_id, is_active=True).first()
    if member is None or not access.may_see_name(member, request.user):
        raise Http404
    found = stats.profile(member)
    history = found.history()
    # The x axis runs from the first game to the last: its ends carry their dates.
    span = (
        {
            "first": date_format(localtime(found.games[0].starts_at), "j E Y"),
            "last": date_format(localtime(found.games[-1].starts_at), "j E Y"),
        }
        if found.games
        else {}
    )
    names = stats.role_names()
    # Each score shown opens to its lines («why I got X»).
    shown_games = {game.game_id for game in (*found.recent, *found.best)}
    why = member_score_lines(member.pk, sorted(shown_games), request.user, names)
    context = {
        "profile": found,
        "by_role": [(names.get(code, code), tally) for code, tally in found.by_role.items()],
        "by_team": [(TEAMS.get(code, code), tally) for code, tally in found.by_team.items()],
        "best": [
            (game, names.get(game.role, game.role), why.get(game.game_id, []))
            for game in found.best
        ],
        "recent": [
            (game, names.get(game.role, game.role), why.get(game.game_id, []))
            for game in found.recent
        ],
        "points_chart": line_chart({_("points so far"): history["points"]}, **span),
        "rating_chart": line_chart(
            {str(CHART_SERIES[track]): history[track] for track in rating.shown(found.system)},
            **span,
        ),
        "rating_digits": stats.rating_digits(found.system),
        "hidden": not club_roles.consents_in(member),
        "streaks": found.streaks,
        "seasons": found.seasons(Club.current()),
        "season": (season := stats.current_season()),
        "compensation": stats.member_compensation(member.pk, season),
        "tournaments": member_tournaments(member),
        # On a site of several clubs: their games in each club that may publish them.
        "clubs": player_clubs(member, request.user),
        # The statistics of play (docs/statistics.md): all games, or one season's
        # (?season=2026-Q4; a key the page did not offer reads as all games).
        **play.play_page(member.pk, season_parse(request.GET.get("season")), names),
    }
    return render(request, "games/player.html", context)


@require_GET
def club_figures(request: SiteRequest) -> HttpResponse:
    """The club's own figures for its organisers and admins (docs/statistics.md)."""
    club = Club.current()
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not club_roles.can(request.user, "organise", club):
        return render(
            request,
            "403.html",
            {"message": _("Only the club's organisers and admins see the club's figures.")},
            status=403,
        )
    today = localtime(timezone.now(), club.zone).date()
    found = figures.club_figures(today)
    context = {
        "figures": found,
        "weeks_chart": count_chart(
            [(date_format(week.first_day, "j E"), week.per_evening) for week in found.weeks]
        ),
        "constants": {
            "weeks": figures.WEEKS,
            "newcomer_weeks": figures.NEWCOMER_WEEKS,
            "stopped_games": figures.STOPPED_GAMES,
            "stopped_weeks": figures.STOPPED_WEEKS,
            "minimum": figures.MINIMUM_GAMES,
        },
    }
    return render(request, "games/club_figures.html", context)
