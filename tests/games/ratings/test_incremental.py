"""A game's end folds that game alone onto the ratings when it is the newest, in a fixed
number of queries whatever the club's history; anything else replays every game; and the
two ways store the same floats, bit for bit, under every rating system
(games/ratings/fold.py, docs/scoring.md «Rating»)."""

from collections.abc import Hashable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from club.kernel.clubs import Club
from games.models import Game
from games.ratings import analysis, fold, systems, tasks
from games.ratings.models import (
    PlayerScore,
    RatingFold,
    RatingForecast,
    RatingState,
    ScoringPreset,
    ScoringScheme,
)
from games.ratings.services import game_rated_set
from games.rules import forecast, rating
from games.rules.presets import FIIM
from tests.games.ratings.ending import games_to_end
from tests.games.season import History, seed_history

pytestmark = pytest.mark.django_db


def choose(system: str) -> None:
    """The club's system, as admin's save sets it (without the replay it queues)."""
    Club.objects.filter(pk=1).update(rating_system=system)
    Club.forget_cached()


def end(game: Game) -> fold.Folded:
    """A game's end as the worker takes it: its analysis, then the ratings."""
    analysis.game_analysis_build(game_id=game.pk)
    return fold.ratings_after_game(game.pk)


def stored() -> dict[str, Any]:
    """Everything the ratings store: each score's rating, each player's state in each
    system, where each system's fold stands, and each system's foresight."""
    return {
        "ratings": dict(
            (pk, (before, after))
            for pk, before, after in PlayerScore.objects.values_list(
                "pk", "rating_before", "rating_after"
            )
        ),
        "states": {
            (system, member): rest
            for system, member, *rest in RatingState.objects.values_list(
                "system", "member_id", "mu", "sigma", "red", "black", "overall"
            )
        },
        "folds": {
            system: rest
            for system, *rest in RatingFold.objects.values_list(
                "system",
                "last_ended_at",
                "last_game_id",
                "shown",
                "reds",
                "decided",
                "foreseen_reds",
                "foreseen",
                "loss",
                "base_loss",
            )
        },
        "forecasts": {
            system: rest
            for system, *rest in RatingForecast.objects.values_list(
                "system", "games", "log_loss", "base_log_loss"
            )
        },
    }


def assert_as_replayed(system: str) -> None:
    """The stored ratings and foresight are, float for float, the systems' fold of every
    rated game from the first (games/rules, not the fold's own code); and a full replay by
    games/ratings/fold.py changes nothing at all."""
    rows = fold.rows_in_playing_order(PlayerScore.objects.all(), Game.objects.all())
    rated = [row.played for row in rows if row.rated]
    changes = rating.replay(rated, systems.rater(system))
    ratings: dict[Hashable, tuple[float | None, float | None]] = {
        row.played.key: (changes[row.played.key].before, changes[row.played.key].after)
        if row.played.key in changes
        else (None, None)
        for row in rows
    }
    before = stored()
    assert before["ratings"] == ratings
    for name in rating.SYSTEMS:
        found = forecast.forecast(rated, systems.rater(name))
        assert before["forecasts"][name] == [found.games, found.log_loss, found.base_log_loss]
    assert fold.ratings_replay() == 0
    assert stored() == before


@pytest.fixture
def history() -> History:
    """Twelve games analysed, their ratings replayed: the fold stands after the last."""
    return seed_history(games=12, members=16, seed=3)


@pytest.mark.parametrize("system", rating.SYSTEMS)
def test_games_ending_one_by_one_are_rated_as_a_full_replay_rates_them(
    history: History, system: str
) -> None:
    choose(system)
    tasks.ratings_replay()
    games = games_to_end(
        games=40, members=history.members, after=timezone.now(), seed=7, guests=0.15
    )
    # The random games hold what changes the arithmetic: guests at a table, unrated games,
    # tournament games, a loner's win.
    assert any(not game.rated for game in games)
    assert Game.objects.filter(pk__in=[g.pk for g in games], tournament_table__isnull=False)
    assert Game.objects.filter(pk__in=[g.pk for g in games], seats__guest__isnull=False)
    for game in games:
        assert end(game).incremental
    assert PlayerScore.objects.filter(track="").exists()  # loners
    assert_as_replayed(system)


def test_the_worker_folds_a_games_end_on(history: History) -> None:
    (game,) = games_to_end(games=1, members=history.members, after=timezone.now(), seed=8)
    tasks.game_analyse(game.pk)
    assert RatingFold.objects.get(system=rating.OPENSKILL_PLAIN).last_game_id == game.pk
    assert_as_replayed(rating.OPENSKILL_PLAIN)


def test_a_game_that_ends_before_the_newest_replays_every_game(history: History) -> None:
    """A late analysis: the newest game is rated first, the one before it later."""
    earlier, later = games_to_end(
        games=2, members=history.members, after=timezone.now(), seed=9, unrated=0, tournament=0
    )
    assert end(later).incremental
    assert not end(earlier).incremental
    assert RatingFold.objects.get(system=rating.OPENSKILL_PLAIN).last_game_id == later.pk
    assert_as_replayed(rating.OPENSKILL_PLAIN)
    # The fold stands after the newest again: the next game folds on.
    (following,) = games_to_end(
        games=1, members=history.members, after=timezone.now() + timedelta(days=1), seed=10
    )
    assert end(following).incremental
    assert_as_replayed(rating.OPENSKILL_PLAIN)


def test_a_changed_game_the_fold_has_passed_forgets_it(history: History) -> None:
    """The newest game corrected (here: scored by another scheme) changes a game already
    folded: the fold is forgotten at once, and the ratings are replayed."""
    newest = history.games[-1]
    fiim = ScoringScheme.objects.current(ScoringPreset.objects.get(code=FIIM))
    assert analysis.game_analysis_build(game_id=newest.pk, scheme_row=fiim)
    assert not RatingFold.objects.exists()
    assert not fold.ratings_after_game(newest.pk).incremental
    assert_as_replayed(rating.OPENSKILL_PLAIN)


def test_a_deleted_game_under_the_fold_replays_every_game(history: History) -> None:
    newest = history.games[-1]
    Game.objects.filter(pk=newest.pk).delete()
    (game,) = games_to_end(games=1, members=history.members, after=timezone.now(), seed=12)
    assert not end(game).incremental
    assert_as_replayed(rating.OPENSKILL_PLAIN)


def test_another_system_chosen_replays_every_game(history: History) -> None:
    """Until the worker's replay after the choice, a game's end replays by the new one."""
    choose(rating.ELO_TRACKS)
    (game,) = games_to_end(games=1, members=history.members, after=timezone.now(), seed=13)
    assert not end(game).incremental
    assert RatingFold.objects.get(shown=True).system == rating.ELO_TRACKS
    assert_as_replayed(rating.ELO_TRACKS)


def test_a_games_end_reads_the_same_queries_after_10_games_as_after_200(
    history: History,
) -> None:
    """The incremental path reads the game's rows and its players' states alone: its
    queries do not grow with the club's history."""
    members = history.members

    def ending(after_days: int, seed: int) -> list[str]:
        (game,) = games_to_end(
            games=1,
            members=members,
            after=timezone.now() + timedelta(days=after_days),
            seed=seed,
            guests=0,
            unrated=0,
            tournament=0,
        )
        analysis.game_analysis_build(game_id=game.pk)
        Club.current()
        with CaptureQueriesContext(connection) as captured:
            assert fold.ratings_after_game(game.pk).incremental
        return [query["sql"] for query in captured.captured_queries]

    first = ending(1, seed=20)
    # 190 older games (200 before the next end): analysed and replayed, as a rescore would.
    seed_history(
        games=188, members=members, seed=21, last_evening=timezone.now() - timedelta(days=30)
    )
    assert PlayerScore.objects.values("game_id").distinct().count() >= 200
    second = ending(2, seed=22)
    assert len(second) == len(first)
    # No query reads every score: each is narrowed to the game or its players.
    scores = [sql for sql in second if 'FROM "games_playerscore"' in sql]
    assert scores and all("WHERE" in sql for sql in scores)


def test_a_game_marked_unrated_forgets_the_fold_before_its_replay_runs(
    history: History,
) -> None:
    """Were the replay the flag queues lost or late, the next game's end still replays."""
    game_rated_set(game_id=history.games[3].pk, rated=False, by=history.host)
    assert not RatingFold.objects.exists()
    (game,) = games_to_end(games=1, members=history.members, after=timezone.now(), seed=14)
    assert not end(game).incremental
    assert_as_replayed(rating.OPENSKILL_PLAIN)
