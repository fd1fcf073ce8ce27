"""The published pages on a club with 10,000 games and 300 members, on PostgreSQL.

Measures, in the server process (Django's full request path, middleware and templates
included, no network), the median time of 30 requests to the leaderboard, a player's
profile (the member with the most games) and a game page, and the SQL queries each runs;
the same pages with the first 10 games only give the query counts to match (the profile
carries the member's statistics of play). Then the statistics alone (docs/statistics.md):
the busiest member's for all games and the season, the host's page (the host of every
game) and the club's figures for an organiser. Then an
admin's what-if of the current season (the leaderboard under «ФИИМ» and «Автоматический»,
?preset=…): its first request, which scores the season's games again, and the median of
the cached ones after it.
Prints one JSON line. Run: uv run python bench/pages.py
"""

import json
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project, for bench.*

from bench.common import ROOT, django_env, log, scratch_database, setup_django

MEMBERS = 300
GAMES = 10_000
FIRST = 10
REQUESTS = 30


def main() -> None:
    database_url = scratch_database("mafia_bench_pages")
    env = django_env(database_url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    setup_django(database_url, DJANGO_DEBUG="0")
    from django.db import connection
    from django.db.models import Count
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from club.kernel.clubs import Club
    from games.ratings.models import PlayerScore
    from tests.games.season import seed_history

    client = Client(SERVER_NAME="127.0.0.1")

    def pages() -> dict[str, str]:
        busiest = (
            PlayerScore.objects.values("member_id")
            .annotate(n=Count("id"))
            .order_by("-n", "member_id")
            .values_list("member_id", flat=True)
            .first()
        )
        game = PlayerScore.objects.order_by("-ended_at").values_list("game_id", flat=True)[0]
        return {
            "leaderboard": "/leaderboard/",
            "profile": f"/players/{busiest}/",
            "game": f"/games/{game}/",
        }

    def queries(url: str, by: Client = client) -> int:
        Club.forget_cached()  # the settings row's 5 s cache never expires inside a count
        Club.current()
        with CaptureQueriesContext(connection) as captured:
            assert by.get(url).status_code == 200, url
        return len(captured)

    started = time.perf_counter()
    first = seed_history(games=FIRST, members=MEMBERS, seed=1)
    small = {name: queries(url) for name, url in pages().items()}
    small_figures = figures_queries(queries)
    seed_history(games=GAMES - FIRST, members=first.members, seed=2)
    log(f"seeded {GAMES} games in {time.perf_counter() - started:.0f} s")
    connection.cursor().execute("VACUUM ANALYZE")

    figures: dict[str, object] = {
        "games": PlayerScore.objects.values("game").distinct().count(),
        "members": User.objects.filter(scores__isnull=False).distinct().count(),
    }
    for name, url in pages().items():
        for _ in range(5):  # warm-up
            client.get(url)
        times = []
        for _ in range(REQUESTS):
            began = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - began) * 1000)
            assert response.status_code == 200
        figures[f"{name}_median_ms"] = round(statistics.median(times), 1)
        figures[f"{name}_queries"] = queries(url)
        figures[f"{name}_queries_10_games"] = small[name]
    figures |= whatif(queries)
    figures |= play(queries, small_figures)
    print(json.dumps(figures))


def organiser_client() -> Any:
    """A client logged in as an organiser of the club (the club's figures are theirs)."""
    from django.test import Client

    from accounts.models import Membership, Role, User
    from club.kernel.clubs import Club

    organiser, _created = User.objects.get_or_create(
        nickname="Организатор бенча",
        defaults={"email": "bench-organiser@example.org", "birth_date": date(1990, 1, 1)},
    )
    Membership.objects.get_or_create(
        user=organiser, club=Club.current(), defaults={"role": Role.ORGANISER}
    )
    by = Client(SERVER_NAME="127.0.0.1")
    by.force_login(User.objects.get(pk=organiser.pk))
    return by


def figures_queries(queries: Any) -> int:
    count: int = queries("/figures/", organiser_client())
    return count


def median_ms(call: Any) -> float:
    for _ in range(5):  # warm-up
        call()
    times = []
    for _ in range(REQUESTS):
        began = time.perf_counter()
        call()
        times.append((time.perf_counter() - began) * 1000)
    return round(statistics.median(times), 1)


def play(queries: Any, figures_10_games: int) -> dict[str, object]:
    """The statistics of play (docs/statistics.md): the facts kept, the statistics of the
    busiest member alone (their one statement) for all games and the current season, the
    host's page (the host of every game: the widest sum of the games hosted), and the
    club's figures for its organiser."""
    from django.db.models import Count
    from django.test import Client

    from games.models import Game
    from games.ratings import stats
    from games.ratings.models import PlayerScore, PlayFacts
    from games.ratings.play import play_stats

    busiest = (
        PlayerScore.objects.values("member_id")
        .annotate(n=Count("id"))
        .order_by("-n", "member_id")
        .values_list("member_id", flat=True)
        .first()
    )
    assert busiest is not None
    # The host of the most games (the second seeding's: 9,990 of them).
    host_id = (
        Game.objects.values("host_id")
        .annotate(n=Count("id"))
        .order_by("-n")
        .values_list("host_id", flat=True)
        .first()
    )
    season = stats.current_season()
    client = Client(SERVER_NAME="127.0.0.1")
    organiser = organiser_client()

    def get(url: str, by: Any = client) -> None:
        assert by.get(url).status_code == 200, url

    return {
        "play_facts_rows": PlayFacts.objects.count(),
        "host_games": Game.objects.filter(host_id=host_id).count(),
        "play_stats_games": play_stats(busiest).games,
        "play_stats_median_ms": median_ms(lambda: play_stats(busiest)),
        "play_stats_season_median_ms": median_ms(lambda: play_stats(busiest, season)),
        "host_profile_median_ms": median_ms(lambda: get(f"/players/{host_id}/")),
        "host_profile_queries": queries(f"/players/{host_id}/"),
        "club_figures_median_ms": median_ms(lambda: get("/figures/", organiser)),
        "club_figures_queries": queries("/figures/", organiser),
        "club_figures_queries_10_games": figures_10_games,
    }


def whatif(queries: Any) -> dict[str, object]:
    """The current season under the other presets, as an admin asks for it."""
    from django.core.cache import cache
    from django.test import Client

    from accounts.models import User
    from games.ratings import stats
    from games.ratings.models import PlayerScore

    admin = User.objects.create(
        nickname="Админ бенча", email="bench-admin@example.org", birth_date=date(1990, 1, 1)
    )
    User.objects.filter(pk=admin.pk).update(is_staff=True)
    by = Client(SERVER_NAME="127.0.0.1")
    by.force_login(User.objects.get(pk=admin.pk))
    season = stats.current_season()
    figures: dict[str, object] = {
        "whatif_season_games": PlayerScore.objects.filter(
            played_on__gte=season.first_day, played_on__lt=season.next_first_day
        )
        .values("game")
        .distinct()
        .count()
    }
    for code in ("fiim", "auto"):
        url = f"/leaderboard/?preset={code}"
        cache.clear()
        began = time.perf_counter()
        assert by.get(url).status_code == 200
        figures[f"whatif_{code}_first_ms"] = round((time.perf_counter() - began) * 1000, 1)
        times = []
        for _ in range(REQUESTS):
            began = time.perf_counter()
            assert by.get(url).status_code == 200
            times.append((time.perf_counter() - began) * 1000)
        figures[f"whatif_{code}_cached_median_ms"] = round(statistics.median(times), 1)
        figures[f"whatif_{code}_cached_queries"] = queries(url, by)
        cache.clear()
        figures[f"whatif_{code}_first_queries"] = queries(url, by)
    return figures


if __name__ == "__main__":
    main()
