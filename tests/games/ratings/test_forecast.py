"""How sure the ratings are: each system foresees each of the club's games from the games
before it (games/rules/forecast.py), scored by log-loss; the admins read it beside the
club's choice of system (docs/scoring.md «How sure a rating is»)."""

import importlib
import math

import pytest
from django.apps import apps
from django.db.models import Model
from django.test import Client
from django.utils import translation
from django.utils.formats import number_format

from club.kernel.clubs import Club
from games.ratings import analysis, systems
from games.ratings.models import PlayerScore, RatingForecast
from games.rules import forecast, rating
from games.rules.rating import Played
from tests.games.season import seed_history

migration = importlib.import_module("games.ratings.migrations.0008_rating_forecasts")
RED_WIN = [Played(1, "g1", "a", "red", "red"), Played(2, "g1", "x", "black", "red")]


def test_the_base_rate_and_the_systems_edge_add_in_log_odds() -> None:
    assert forecast.combined(0.5, 0.5) == pytest.approx(0.5)
    assert forecast.combined(0.6, 0.5) == pytest.approx(0.6)  # equals win at the base rate
    assert forecast.combined(0.5, 0.7) == pytest.approx(0.7)
    # logit(0.6) + logit(0.7) = 0.4055 + 0.8473 → 0.7778
    assert forecast.combined(0.6, 0.7) == pytest.approx(0.77778, abs=1e-5)
    assert 0 < forecast.combined(0.5, 0.0) < 1e-5  # a certainty is never ∞ loss


def test_a_forecast_worked_by_hand_under_elo_on_tracks() -> None:
    rows = [
        *RED_WIN,
        # The same two again, red wins again; then a loner's win, rated and not foreseen.
        Played(3, "g2", "a", "red", "red"),
        Played(4, "g2", "x", "black", "red"),
        Played(5, "g3", "a", "red", "maniac"),
        Played(6, "g3", "x", "black", "maniac"),
        Played(7, "g3", "m", "", "maniac", won=True),
    ]
    found = forecast.forecast(rows, rating.EloTracks())
    # Game 1: equal ratings (½) and no games yet (base ½): ln 2. Red wins; a moves to 1510
    # on the red track, x to 1490 on the black. Game 2: Elo's edge 1/(1 + 10^(−20/400)) =
    # 0.52876, the base 2/3 (one red win of one, with one win and one loss added):
    # logistic(logit(2/3) + logit(0.52876)) = 0.69174, so −ln 0.69174; the base alone −ln ⅔.
    edge = 1 / (1 + 10 ** (-20 / 400))
    assert edge == pytest.approx(0.52876, abs=1e-5)
    second = forecast.combined(2 / 3, edge)
    assert second == pytest.approx(0.69174, abs=1e-5)
    assert found.games == 2
    assert found.log_loss == pytest.approx((math.log(2) - math.log(second)) / 2)
    assert found.base_log_loss == pytest.approx((math.log(2) - math.log(2 / 3)) / 2)
    assert found.gain == pytest.approx(found.base_log_loss - found.log_loss)


def test_openskill_foresees_the_team_that_has_won() -> None:
    for system in (rating.OPENSKILL, rating.OPENSKILL_PLAIN):
        fold = systems.rater(system)
        assert fold.red_chance(RED_WIN) == pytest.approx(0.5)
        fold.rate(RED_WIN)
        assert 0.5 < (fold.red_chance(RED_WIN) or 0.0) < 1.0
    unrated = [Played(1, "g", "a", "red", "red"), Played(2, "g", "m", "", "red")]
    assert systems.OpenSkill().red_chance(unrated) is None
    assert rating.EloTracks().red_chance(unrated) is None
    assert rating.NonZeroSumElo().red_chance(unrated) is None


@pytest.mark.django_db
def test_the_club_reads_each_systems_forecast_on_its_own_games(admin_client_: Client) -> None:
    seed_history(games=12, members=16, seed=5)
    rows = analysis.forecasts_update()
    assert [row.system for row in rows] == list(rating.SYSTEMS)
    decided = PlayerScore.objects.filter(team="red").values("game_id").distinct().count()
    assert all(0 < row.games <= decided for row in rows)
    assert all(row.log_loss > 0 and row.base_log_loss > 0 for row in rows)
    # The same figures as the fold of the stored rows, game by game.
    played = [
        Played(*row)
        for row in PlayerScore.objects.order_by("ended_at", "game_id", "seat").values_list(
            "pk", "game_id", "member_id", "track", "game__winner", "won", "points"
        )
    ]
    by_hand = forecast.forecast(played, systems.rater(rating.OPENSKILL_PLAIN))
    kept = RatingForecast.objects.get(system=rating.OPENSKILL_PLAIN)
    assert kept.games == by_hand.games
    assert kept.log_loss == pytest.approx(by_hand.log_loss)

    page = admin_client_.get("/admin/ratings/ratingforecast/").content.decode()
    assert "Насколько точны рейтинги" in page
    assert "OpenSkill, по победам" in page
    with translation.override("ru"):  # as Russian writes numbers: «0,6931»
        assert number_format(kept.log_loss, 4) in page
    assert page.count(">выбрана<") == 1  # the club's system is marked
    assert admin_client_.get("/admin/ratings/ratingforecast/add/").status_code == 403


@pytest.mark.django_db
def test_the_forecast_page_counts_before_the_worker_has(admin_client_: Client) -> None:
    assert not RatingForecast.objects.exists()
    page = admin_client_.get("/admin/ratings/ratingforecast/")
    assert page.status_code == 200
    assert RatingForecast.objects.count() == len(rating.SYSTEMS)
    assert all(row.games == 0 for row in RatingForecast.objects.all())


class _Registry:
    """Today's registry under the names the migration knew (the settings row is a Club)."""

    def get_model(self, app: str, name: str) -> type[Model]:
        return Club if (app, name) == ("club", "ClubSettings") else apps.get_model(app, name)


@pytest.mark.django_db
def test_a_new_club_takes_openskill_by_wins_a_rated_one_keeps_its_system() -> None:
    Club.objects.filter(pk=1).update(rating_system=rating.OPENSKILL)
    migration.plain_openskill_where_nothing_is_rated(_Registry(), None)
    assert Club.objects.get(pk=1).rating_system == rating.OPENSKILL_PLAIN

    seed_history(games=2, members=16, seed=3)
    Club.objects.filter(pk=1).update(rating_system=rating.OPENSKILL)
    migration.plain_openskill_where_nothing_is_rated(_Registry(), None)
    assert Club.objects.get(pk=1).rating_system == rating.OPENSKILL
