"""What a game's end costs the ratings, after 10 games and after 10,000, on PostgreSQL.

The club: 300 members; its history seeded as bench/pages.py seeds it (random legal games on
weekly evenings, analysed by the real analysis, the ratings replayed). Then games end one by
one after the newest, as the worker takes them (games/ratings/tasks.game_analyse): each is
analysed (not timed), then its ratings are folded on (games/ratings/fold.ratings_after_game,
timed, with its SQL queries counted). Against it, with 10,000 games: the full replay
(fold.ratings_replay: every rated game through the four systems, each score's rating and the
fold written), which every game's end ran before the fold was kept, and which still runs
after a change to an older game, a rescore, a rated flag or another system.

The club's system is the default, OpenSkill by wins (`openskill_plain`); every end folds
the four systems (their foresight), whichever is shown.
Prints one JSON line. Run: uv run python bench/game_end.py
"""

import json
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project, for bench.*

from bench.common import ROOT, django_env, log, scratch_database, setup_django

MEMBERS = 300
GAMES = 10_000
FIRST = 10
ENDS = 20  # games ended one by one at each size
REPLAYS = 3


def main() -> None:
    database_url = scratch_database("mafia_bench_game_end")
    env = django_env(database_url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    setup_django(database_url, DJANGO_DEBUG="0")
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from games.ratings import analysis, fold
    from games.ratings.models import PlayerScore
    from tests.games.ratings.ending import games_to_end
    from tests.games.season import seed_history

    def ends(after_days: int, seed: int) -> dict[str, object]:
        """ENDS games ended one by one after the newest: the fold's median, its queries."""
        games = games_to_end(
            games=ENDS,
            members=members,
            after=timezone.now() + timedelta(days=after_days),
            seed=seed,
            unrated=0,  # an unrated game's end folds nothing
        )
        times, queries = [], set()
        for game in games:
            analysis.game_analysis_build(game_id=game.pk)
            with CaptureQueriesContext(connection) as captured:
                began = time.perf_counter()
                folded = fold.ratings_after_game(game.pk)
                times.append((time.perf_counter() - began) * 1000)
            assert folded.incremental, game.pk
            queries.add(len(captured))
        return {"median_ms": round(statistics.median(times), 2), "queries": sorted(queries)}

    started = time.perf_counter()
    first = seed_history(games=FIRST, members=MEMBERS, seed=1)
    members = first.members
    small = ends(1, seed=3)
    # The rest of the history, before the first: analysed, then replayed (as a rescore is).
    seed_history(
        games=GAMES - FIRST - ENDS,
        members=members,
        seed=2,
        last_evening=timezone.now() - timedelta(days=8),
    )
    log(f"seeded {GAMES} games in {time.perf_counter() - started:.0f} s")
    connection.cursor().execute("VACUUM ANALYZE")
    large = ends(2, seed=4)

    replays = []
    for _ in range(REPLAYS):
        began = time.perf_counter()
        fold.ratings_replay()
        replays.append(time.perf_counter() - began)
    with CaptureQueriesContext(connection) as captured:
        fold.ratings_replay()
    figures = {
        "members": MEMBERS,
        "games_before_last_ends": PlayerScore.objects.values("game").distinct().count() - ENDS,
        "end_median_ms": large["median_ms"],
        "end_queries": large["queries"],
        f"end_median_ms_{FIRST}_games": small["median_ms"],
        f"end_queries_{FIRST}_games": small["queries"],
        "full_replay_median_s": round(statistics.median(replays), 2),
        "full_replay_queries": len(captured),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
