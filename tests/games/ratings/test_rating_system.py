"""The club chooses its rating system in the club settings: the replay folds every game by
it, a change replays them all (in the worker, after the commit), and the leaderboard, the
player's page and the API show that system's rating (docs/scoring.md «Rating»)."""

from collections.abc import Hashable

import pytest
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks

from club.kernel.clubs import Club
from games.ratings import stats, systems, tasks
from games.ratings.models import PlayerScore
from games.ratings.seasons import season_of
from games.rules import rating
from tests.checks import present
from tests.games.season import History, seed_history
from tests.test_admin_in_russian import settings_form

pytestmark = pytest.mark.django_db
CHANGE = "/admin/club/club/1/change/"


@pytest.fixture
def history() -> History:
    return seed_history(games=12, members=16, seed=5)


def choose(system: str) -> None:
    """The club's choice as admin's save makes it, and the worker's replay it queues."""
    Club.objects.filter(pk=1).update(rating_system=system)
    Club.forget_cached()
    tasks.ratings_replay()


def stored() -> dict[Hashable, tuple[float | None, float | None]]:
    return {
        pk: (before, after)
        # Across clubs: the migration back leaves no club table for the scoped manager.
        for pk, before, after in PlayerScore.all_clubs.values_list(
            "pk", "rating_before", "rating_after"
        )
    }


def folded(system: str) -> dict[Hashable, tuple[float | None, float | None]]:
    """Every score's rating as the system's fold gives it, from the stored rows."""
    rows = list(
        PlayerScore.all_clubs.order_by("ended_at", "game_id", "seat").values_list(
            "pk", "game_id", "member_id", "track", "game__winner", "won", "points"
        )
    )
    # The tables here are members only, no guests: a game's rows are its seats (seats=0).
    changes = rating.replay((rating.Played(*row) for row in rows), systems.rater(system))
    return {
        pk: (changes[pk].before, changes[pk].after) if pk in changes else (None, None)
        for pk, *_rest in rows
    }


def same(
    a: dict[Hashable, tuple[float | None, float | None]],
    b: dict[Hashable, tuple[float | None, float | None]],
) -> bool:
    return a.keys() == b.keys() and all(
        (x is None and y is None) or (x is not None and y is not None and abs(x - y) < 1e-9)
        for key in a
        for x, y in zip(a[key], b[key], strict=True)
    )


def test_the_club_starts_on_openskill_by_wins_the_system_the_bench_chose(
    history: History,
) -> None:
    """OpenSkill leads the bench whether or not game points follow skill; weighting by the
    points helps only where they do (bench/ratings.py's two columns)."""
    assert Club.current().rating_system == rating.OPENSKILL_PLAIN
    ratings = stored()
    assert all(before is not None for before, _after in ratings.values())
    # Every seat has the one rating (a losing loner keeps its own), each from a newcomer's 0.
    first = PlayerScore.objects.order_by("member_id", "ended_at").distinct("member_id")
    assert {score.rating_before for score in first} == {0.0}
    # The leaderboard names the system its ratings come from.
    season = PlayerScore.objects.order_by("played_on").first()
    assert season is not None
    page = Client().get("/leaderboard/?season=" + season_of(season.played_on, "quarter").key)
    assert "Рейтинг: OpenSkill" in page.content.decode()


def test_choosing_another_system_replays_every_games_rating(history: History) -> None:
    openskill = stored()
    choose(rating.ELO_TRACKS)
    elo = stored()
    assert elo != openskill
    loners = PlayerScore.objects.filter(track="").values_list("pk", flat=True)
    assert loners and all(elo[pk] == (None, None) for pk in loners)  # no track, no rating
    choose(rating.ELO_NONZERO_SUM)
    nonzero = stored()
    assert all(before is not None for before, _after in nonzero.values())
    choose(rating.OPENSKILL)
    assert not same(stored(), openskill)  # weighted by the points
    choose(rating.OPENSKILL_PLAIN)
    assert same(stored(), openskill)


def test_the_replay_is_the_chosen_systems_fold_of_the_stored_games(history: History) -> None:
    for system in (rating.ELO_TRACKS, rating.OPENSKILL, rating.OPENSKILL_PLAIN):
        choose(system)
        assert same(stored(), folded(system)), system


def test_the_non_zero_sum_replay_counts_a_tables_seats_for_its_k(history: History) -> None:
    choose(rating.ELO_NONZERO_SUM)
    score = PlayerScore.objects.filter(track="red").order_by("ended_at", "seat").first()
    assert score is not None and score.rating_before == 0.0
    # The first game: everyone at 0, E = ½; a table of 10+ moves a winner 4 × ½ = +2 and a
    # loser −3 × ½ = −1.5.
    assert score.rating_after == (2.0 if score.won else -1.5)


def test_saving_another_system_in_admin_queues_the_replay_after_the_commit(
    admin_client_: Client,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    queued: list[tuple[str, tuple[object, ...]]],
) -> None:
    page = admin_client_.get(CHANGE).content.decode()
    assert 'name="rating_system"' in page and "OpenSkill с весом по игровым баллам" in page
    with django_capture_on_commit_callbacks(execute=True):
        admin_client_.post(CHANGE, settings_form(page))  # saved as it was
    assert queued == []
    with django_capture_on_commit_callbacks(execute=True):
        answer = admin_client_.post(CHANGE, settings_form(page) | {"rating_system": "elo_tracks"})
    assert answer.status_code == 302
    assert Club.objects.get(pk=1).rating_system == rating.ELO_TRACKS
    assert queued == [("games.ratings.tasks.ratings_replay", ())]


def test_the_leaderboard_shows_the_rating_of_the_chosen_system(history: History) -> None:
    # In the rating's order throughout (provisional ratings too: test_provisional.py).
    board = stats.leaderboard(stats.current_season(), "rating", None, provisional_in_order=True)
    assert board.system == rating.OPENSKILL_PLAIN
    last = {}
    for member, after in PlayerScore.objects.order_by("ended_at").values_list(
        "member_id", "rating_after"
    ):
        last[member] = after
    for row in board.rows:
        assert row.red is None and row.black is None
        assert row.rating == pytest.approx(last[row.member_id], abs=0.05)
    shown = [row.rating for row in board.rows]
    assert shown == sorted(shown, key=lambda value: -(value or 0.0))
    page = Client().get("/leaderboard/?sort=rating").content.decode()
    assert "<strong>Рейтинг</strong>" in page and "Рейтинг за красных" not in page
    api = Client().get("/api/v1/leaderboard?sort=rating&provisional=true").json()
    assert api["rating_system"] == "openskill_plain"
    assert [row["rating"] for row in api["rows"]] == shown

    choose(rating.ELO_TRACKS)
    board = stats.leaderboard(stats.current_season(), "points", None)
    assert all(row.rating is None for row in board.rows)
    assert all(row.red is not None or row.black is not None for row in board.rows)
    page = Client().get("/leaderboard/?sort=rating").content.decode()
    assert "Рейтинг за красных" in page and "Рейтинг за чёрных" in page
    assert "<strong>Очки</strong>" in page  # a sort the system has not: by points


def test_the_players_page_shows_the_rating_of_the_chosen_system(history: History) -> None:
    member = history.members[0]
    scores = PlayerScore.objects.filter(member=member).order_by("ended_at")
    found = stats.profile(member)
    assert found.system == rating.OPENSKILL_PLAIN
    assert found.ratings == {rating.OVERALL: present(scores.last()).rating_after}
    assert len(found.history()[rating.OVERALL]) == scores.count()
    page = Client().get(f"/players/{member.pk}/").content.decode()
    assert "Рейтинг</dt>" in page and "Рейтинг за красных" not in page
    assert Client().get(f"/api/v1/players/{member.pk}").json()["rating_system"] == "openskill_plain"

    choose(rating.ELO_TRACKS)
    found = stats.profile(member)
    assert set(found.ratings) <= {rating.RED, rating.BLACK} and found.ratings
    page = Client().get(f"/players/{member.pk}/").content.decode()
    assert "Рейтинг за красных" in page or "Рейтинг за чёрных" in page


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("migration_rows")
def test_the_migration_replays_the_ratings_elo_stored_by_the_clubs_system() -> None:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    seed_history(games=6, members=16, seed=8)
    openskill = stored()

    def migrate(target: tuple[str, str]) -> None:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate([target])

    migrate(("ratings", "0001_initial"))  # back: the ratings as Elo on tracks stored them
    assert same(stored(), folded(rating.ELO_TRACKS))
    migrate(("ratings", "0002_ratings_by_the_clubs_system"))
    assert same(stored(), openskill)
    # The schema the other tests run on: every app, tournaments too (built on the ratings,
    # they were unapplied with them).
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
