"""The season leaderboard: sums per member, sorting by any column, seasons, own rows."""

import pytest
from django.test import Client

from accounts.models import User
from games.ratings import stats
from games.ratings.seasons import Season, season_of, season_parse, seasons_between
from tests.factories import set_consent
from tests.games.season import History, seed_history

pytestmark = pytest.mark.django_db


@pytest.fixture
def history() -> History:
    return seed_history(games=30, members=20, seed=3)


def board(sort: str = "points", viewer: User | None = None) -> stats.Leaderboard:
    return stats.leaderboard(stats.current_season(), sort, viewer)


def test_rows_sum_the_seasons_scores_and_sort_by_any_column(history: History) -> None:
    by_points = board().rows
    assert [r.rank for r in by_points] == list(range(1, len(by_points) + 1))
    assert [r.points for r in by_points] == sorted((r.points for r in by_points), reverse=True)
    by_games = board("games").rows
    assert [r.games for r in by_games] == sorted((r.games for r in by_games), reverse=True)
    by_nick = board("nick").rows
    assert [r.nick for r in by_nick] == sorted((r.nick for r in by_nick), key=str.casefold)
    for row in by_points:
        assert row.average == pytest.approx(row.points / row.games, abs=0.01)
        assert row.rating is not None  # the club's system, OpenSkill: one rating in all


def test_the_page_sorts_by_the_chosen_column_and_links_the_others(history: History) -> None:
    page = Client().get("/leaderboard/?sort=wins").content.decode()
    assert "?season=" in page and "sort=points" in page
    assert Client().get("/leaderboard/?sort=nonsense&season=bad").status_code == 200


def test_a_member_without_consent_sees_their_own_row_and_nobody_else_does(history: History) -> None:
    shy = history.members[0]
    set_consent(shy.pk, consent=False)
    shy.refresh_from_db()
    assert shy.pk not in {r.member_id for r in board().rows}
    own = [r for r in board(viewer=shy).rows if r.member_id == shy.pk]
    assert len(own) == 1 and own[0].own


def test_the_api_refuses_an_unknown_sort_or_season_with_a_message(history: History) -> None:
    client = Client()
    assert client.get("/api/v1/leaderboard?sort=luck").status_code == 422
    answer = client.get("/api/v1/leaderboard?season=2026-Q9")
    assert answer.status_code == 422 and "season" in answer.json()["detail"]
    assert answer.json()["code"] == "invalid"
    assert client.get("/api/v1/leaderboard?season=2026").status_code == 200


def test_seasons_are_quarters_or_years() -> None:
    from datetime import date

    assert season_of(date(2026, 12, 6), "quarter") == Season(2026, 4)
    assert season_of(date(2026, 12, 6), "year") == Season(2026, None)
    assert Season(2026, 1).previous() == Season(2025, 4)
    assert Season(2026, 4).next_first_day == date(2027, 1, 1)
    assert season_parse("2026-Q2") == Season(2026, 2) and season_parse("20x6") is None
    assert [s.key for s in seasons_between(date(2025, 11, 1), date(2026, 2, 1), "quarter")] == [
        "2026-Q1",
        "2025-Q4",
    ]


@pytest.mark.django_db
def test_a_season_outside_the_clubs_centuries_is_no_season() -> None:
    assert season_parse("0000") is None and season_parse("9999-Q4") is None
    assert Client().get("/api/v1/leaderboard?season=0000").status_code == 422
