"""A tournament game has one score, by its tournament's preset, wherever it is shown (#38):
the game's page and its «За что», the player's page, the personal report, the API, the
season's table and the tournament's standings; the extra points given to it keep to that
preset's bounds. The season's table sums it under those points or leaves it out, as the
club chooses, and says which (games/ratings/presets.py, docs/scoring.md)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from club.kernel.clubs import Club
from club.kernel.errors import Refused
from club.kernel.numbers import shown, signed
from games.models import Game, Seat
from games.ratings import analysis, reports, stats
from games.ratings import services as ratings
from games.ratings.models import GameAnalysis, PlayerScore, ScoringScheme
from games.ratings.presets import game_scheme, season_scheme
from games.ratings.whatif import Scored, seats_scored
from games.rules.log import effective_events
from games.rules.presets import PRESETS
from games.rules.scoring import Scheme
from notifications.models import Notification
from tests.games.recording import make_host
from tests.tournaments.test_tournaments import EFFORT, admin, record_game, small
from tournaments import services
from tournaments.models import Table, TableJudge, Tournament
from tournaments.standings import tournament_standings

pytestmark = pytest.mark.django_db


def scored_by(game: Game, scheme: Scheme) -> dict[int, Scored]:
    seats = list(Seat.objects.filter(game=game).order_by("number"))
    events = effective_events([e.payload for e in game.events.order_by("seq")])
    return seats_scored(game, seats, events, scheme)


def tournament_game() -> tuple[Tournament, Game, User, dict[int, Scored], dict[int, Scored]]:
    """A «ФИИМ» tournament's first game in a season scored by «Клуб», analysed; each seat
    as the tournament's preset scores it and as the season's would."""
    organiser = admin()
    tournament, _members = small(organiser, players=10)  # plan(): preset «ФИИМ»
    judge = make_host()
    TableJudge.objects.create(tournament=tournament, table=1, judge=judge)
    services.tournament_seat(tournament_id=tournament.pk, actor=organiser, effort=EFFORT)
    table = Table.objects.get(round__tournament=tournament, round__number=1)
    game = services.table_game_start(table_id=table.pk, host=judge)
    for seat in game.seats.all():
        assert seat.member is not None
        seat.member.game_reports = True
        seat.member.save()
    record_game(game, judge, seed=3, by_api=False)
    analysis.game_analysis_build(game_id=game.pk)
    analysis.ratings_replay()
    season = season_scheme(stats.current_season())
    assert season.preset.code == "club" and tournament.preset.code == "fiim"
    assert game_scheme(game).preset.code == "fiim"
    fiim = scored_by(game, game_scheme(game).scheme())
    club = scored_by(game, season.scheme())
    return tournament, game, judge, fiim, club


def commissar(fiim: dict[int, Scored], club: dict[int, Scored]) -> tuple[int, float, float]:
    """A seat the two presets score apart (the commissar when they do: the club's lines for
    checks and nominations, FIIM's win alone) and its points by each, the season's being
    no seat's points by the tournament's, so a page cannot show them by chance."""
    # By size: «0,50» is inside «-0,50», a seat's total the tournament's points may show.
    shown_by_fiim = {abs(s.points) for s in fiim.values()}
    apart = [
        n
        for n, s in sorted(fiim.items(), key=lambda item: item[1].role != "commissar")
        if club[n].points != s.points and abs(club[n].points) not in shown_by_fiim
    ]
    assert apart, "the game is chosen so the presets score a seat apart"
    return apart[0], fiim[apart[0]].points, club[apart[0]].points


def test_a_tournament_game_has_one_score_on_every_page() -> None:
    tournament, game, _judge, fiim, club = tournament_game()
    seat, ours, theirs = commissar(fiim, club)
    # The analysis: each member's score as the tournament's preset gives it.
    assert GameAnalysis.objects.get(game=game).scheme.preset.code == "fiim"
    scores = {row.seat: row for row in PlayerScore.objects.filter(game=game)}
    assert {n: row.points for n, row in scores.items()} == {n: s.points for n, s in fiim.items()}
    member = scores[seat].member
    # The game's page: the row and its «За что».
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert f"<strong>{shown(ours)}</strong>" in page and f"За что {shown(ours)}" in page
    assert shown(theirs) not in page
    # The player's page: the game among their games.
    player = Client().get(f"/players/{member.pk}/").content.decode()
    assert shown(ours) in player and shown(theirs) not in player
    # The personal report.
    assert reports.game_reports_send(game_id=game.pk) == len(scores)
    report = Notification.objects.filter(dedupe_key=reports.report_key(game.pk, member.pk))
    assert report.exists()
    assert all(f"Очки: {signed(ours)}" in r.text for r in report), [r.text for r in report]
    # The API: the game's analysis and the season's table.
    api = Client().get(f"/api/v1/games/{game.pk}/analysis").json()
    assert api["scheme_preset"] == "fiim"
    assert {s["seat"]: s["points"] for s in api["scores"]} == {n: s.points for n, s in fiim.items()}
    board: dict[str, Any] = Client().get("/api/v1/leaderboard").json()
    assert (board["tournament_games"], board["tournament_games_included"]) == (1, True)
    assert {r["member_id"]: r["points"] for r in board["rows"]}[member.pk] == ours
    # The tournament's standings: the same points.
    standings = tournament_standings(tournament)
    by_seat = {n: s.member_id for n, s in fiim.items()}
    assert {r.member_id: r.points for r in standings.rows}[by_seat[seat]] == ours


def test_the_season_table_includes_the_tournament_games_or_leaves_them_out() -> None:
    _tournament, game, _judge, fiim, club = tournament_game()
    seat, ours, theirs = commissar(fiim, club)
    member_id = fiim[seat].member_id
    assert member_id is not None
    rows = {r.member_id: r for r in stats.leaderboard(stats.current_season(), "points", None).rows}
    assert rows[member_id].points == ours and rows[member_id].games == 1
    page = Client().get("/leaderboard/").content.decode()
    assert "турнирная игра сезона учтена здесь по очкам своего турнира" in page

    Club.objects.filter(pk=1).update(season_tournament_games="excluded")
    Club.forget_cached()
    board = stats.leaderboard(stats.current_season(), "points", None)
    assert board.rows == [] and board.tournament_games == 1 and not board.tournaments_included
    page = Client().get("/leaderboard/").content.decode()
    assert "турнирная игра сезона не входит в эту таблицу" in page
    api = Client().get("/api/v1/leaderboard").json()
    told = (api["tournament_games"], api["tournament_games_included"], api["rows"])
    assert told == (1, False, [])
    # Its one score is the same on its page either way.
    assert PlayerScore.objects.get(game=game, seat=seat).points == ours != theirs


def test_extra_points_keep_to_the_bounds_of_the_tournaments_preset() -> None:
    tournament, game, judge, _fiim, _club = tournament_game()
    narrow = Scheme.from_dict({**PRESETS["fiim"].points, "bonus_min": -0.3, "bonus_max": 0.5})
    ratings.scheme_version_create(
        scheme=narrow, note="narrower", by=judge, preset=tournament.preset
    )
    assert ScoringScheme.objects.current().scheme().bonus_max == 1.0  # the season's «Клуб»
    with pytest.raises(Refused) as refused:
        ratings.bonus_give(game_id=game.pk, author=judge, seat=1, points=0.7, reason="игра")
    assert refused.value.body()["bonus_max"] == 0.5
    ratings.bonus_give(game_id=game.pk, author=judge, seat=1, points=0.5, reason="игра")
