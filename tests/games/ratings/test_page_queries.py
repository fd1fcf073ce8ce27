"""Each published page runs the same number of SQL queries with 3 games as with 30: a query
per game or per member would show as a difference, so a larger seed proves nothing more
(1,000 games cost 262 s for the same answer)."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from club.kernel.clubs import Club
from games.ratings.models import PlayerScore
from tests.games.season import seed_history

pytestmark = pytest.mark.django_db


def queries(client: Client, url: str) -> int:
    # The club settings row is cached for 5 s per process: read it afresh now, so that its
    # expiry never falls inside the count.
    Club.forget_cached()
    Club.current()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured)


def page_queries(games: int, members: int) -> dict[str, int]:
    history = seed_history(games=games, members=members, seed=games)
    busiest = (
        PlayerScore.objects.filter(member__in=history.members)
        .values_list("member_id", flat=True)
        .order_by("member_id")
        .first()
    )
    game = history.games[-1]
    urls = {
        "leaderboard": "/leaderboard/",
        "profile": f"/players/{busiest}/",
        "game": f"/games/{game.pk}/",
        "api_leaderboard": "/api/v1/leaderboard",
        "api_profile": f"/api/v1/players/{busiest}",
        "api_analysis": f"/api/v1/games/{game.pk}/analysis",
    }
    visitor, member = Client(), Client()
    member.force_login(history.members[0])
    counted = {name: queries(visitor, url) for name, url in urls.items()}
    counted |= {f"{name}_member": queries(member, url) for name, url in urls.items()}
    return counted


def test_published_pages_run_a_fixed_number_of_queries() -> None:
    small = page_queries(3, 20)
    large = page_queries(30, 60)
    assert PlayerScore.objects.values("game").distinct().count() == 33
    assert small == large
    # A member's game page: their session and account, their standing in the club, the
    # seats' memberships (consent) and the page's own reads. The player's page adds one for
    # the statistics of play, every part of them in one statement (games/ratings/play.py).
    assert max(small.values()) <= 14, small
