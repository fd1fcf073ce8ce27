"""The analysis is built by a real worker on Redis, after the commit that ends the game."""

import pytest

from games.models import GameAnalysis, PlayerScore
from games.tasks import game_analyse
from tests.games.recording import TOWN_WINS, evening_with_players, make_host, record, start_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("migration_rows", "celery_worker_on_redis"),
]


def test_the_last_tap_of_a_game_has_the_worker_build_its_analysis(task_done) -> None:
    host = make_host()
    evening, players = evening_with_players()
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS[:-1])
    assert not GameAnalysis.objects.filter(game=game).exists()
    built = task_done(game_analyse.name, game.pk)
    record(game, host, TOWN_WINS[-1])  # each tap commits; this one ends the game
    assert built.wait(timeout=30), "the worker did not build the analysis"
    assert GameAnalysis.objects.filter(game=game).exists()
    assert PlayerScore.objects.filter(game=game).count() == 12
    assert PlayerScore.objects.get(game=game, seat=4).rating_after == 1510.0
