"""A rating from fewer rated games than the club's `provisional_games` is provisional: the
leaderboard, the player's page and the API mark it, and the leaderboard sorted by rating
lists it after the established ones unless asked to include it (docs/scoring.md)."""

from collections import Counter

import pytest
from django.test import Client

from club.kernel.clubs import Club
from games.ratings import stats
from games.ratings.models import PlayerScore
from tests.games.season import History, seed_history

pytestmark = pytest.mark.django_db


@pytest.fixture
def history() -> History:
    return seed_history(games=16, members=16, seed=7)


def rated_games() -> Counter[int]:
    return Counter(
        PlayerScore.objects.filter(rating_after__isnull=False).values_list("member_id", flat=True)
    )


def threshold_splitting(counts: Counter[int]) -> int:
    """A threshold with members on both sides of it."""
    ordered = sorted(counts.values())
    threshold = ordered[len(ordered) // 2]
    assert ordered[0] < threshold
    Club.objects.filter(pk=1).update(provisional_games=threshold)
    Club.forget_cached()
    return threshold


def test_the_leaderboard_marks_provisional_ratings_and_lists_them_last(history: History) -> None:
    counts = rated_games()
    threshold = threshold_splitting(counts)
    board = stats.leaderboard(stats.current_season(), "rating", None)
    assert board.provisional_games == threshold and board.by_rating
    for row in board.rows:
        assert row.rated_games == counts[row.member_id]
        assert row.provisional == (counts[row.member_id] < threshold)
    flags = [row.provisional for row in board.rows]
    assert flags == sorted(flags) and any(flags) and not all(flags)  # established first
    for group in (False, True):
        shown = [row.rating or 0.0 for row in board.rows if row.provisional == group]
        assert shown == sorted(shown, reverse=True)
    assert [row.rank for row in board.rows] == list(range(1, len(board.rows) + 1))

    mixed = stats.leaderboard(stats.current_season(), "rating", None, provisional_in_order=True)
    shown = [row.rating or 0.0 for row in mixed.rows]
    assert shown == sorted(shown, reverse=True)
    # Sorted by anything else, the rating's standing does not move a row.
    by_points = stats.leaderboard(stats.current_season(), "points", None).rows
    points = [row.points for row in by_points]
    assert points == sorted(points, reverse=True)


def test_the_page_says_so_and_offers_the_other_order(history: History) -> None:
    threshold = threshold_splitting(rated_games())
    page = Client().get("/leaderboard/?sort=rating").content.decode()
    assert "предварительный" in page
    assert f"Предварительные рейтинги (меньше {threshold} игр в рейтинге)" in page
    assert "идут после устоявшихся" in page and "Включить их в порядок" in page
    assert "provisional=1" in page
    mixed = Client().get("/leaderboard/?sort=rating&provisional=1").content.decode()
    assert "стоят в порядке рейтинга" in mixed and "Поставить их после устоявшихся" in mixed
    # Sorted by points, the order says nothing of ratings.
    by_points = Client().get("/leaderboard/").content.decode()
    assert "Включить их в порядок" not in by_points


def test_the_api_carries_the_flag_and_the_order(history: History) -> None:
    counts = rated_games()
    threshold = threshold_splitting(counts)
    rows = Client().get("/api/v1/leaderboard?sort=rating").json()["rows"]
    assert [r["provisional"] for r in rows] == sorted(r["provisional"] for r in rows)
    for row in rows:
        assert row["rated_games"] == counts[row["member_id"]]
        assert row["provisional"] == (counts[row["member_id"]] < threshold)
    mixed = Client().get("/api/v1/leaderboard?sort=rating&provisional=true").json()["rows"]
    shown = [r["rating"] for r in mixed]
    assert shown == sorted(shown, reverse=True)


def test_the_players_page_and_api_mark_a_provisional_rating(history: History) -> None:
    counts = rated_games()
    threshold = threshold_splitting(counts)
    few = next(m for m in history.members if 0 < counts[m.pk] < threshold)
    many = next(m for m in history.members if counts[m.pk] >= threshold)
    found = stats.profile(few)
    assert found.provisional and found.rated_games == counts[few.pk]
    assert not stats.profile(many).provisional
    page = Client().get(f"/players/{few.pk}/").content.decode()
    assert f"предварительный: {counts[few.pk]} игр" in page
    assert f"из {threshold}" in page
    assert "предварительный" not in Client().get(f"/players/{many.pk}/").content.decode()
    api = Client().get(f"/api/v1/players/{few.pk}").json()
    assert api["provisional"] is True and api["rated_games"] == counts[few.pk]
    assert Client().get(f"/api/v1/players/{many.pk}").json()["provisional"] is False


def test_no_rating_is_provisional_at_zero(history: History) -> None:
    Club.objects.filter(pk=1).update(provisional_games=0)
    Club.forget_cached()
    board = stats.leaderboard(stats.current_season(), "rating", None)
    assert not any(row.provisional for row in board.rows)
    assert "Включить их в порядок" not in Client().get("/leaderboard/?sort=rating").content.decode()
