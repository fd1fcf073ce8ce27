"""The host's thumb on the table screen: the taps and the time Chromium (360×640, touch)
needs to record one whole scripted 13-player game (tests/e2e/host_driver.py, the same game
the browser test records), on a real server (gunicorn) on PostgreSQL. A tap is a touch of
a control, a long press or an «are you sure» answer; an event is an entry of the game's
log. Prints one JSON line: taps, events, taps_per_event, seconds, and how the votes were
entered. The game is recorded twice: with every show of hands tapped seat by seat (the
default) and with the typed-counts chips (`*_counts`). Also the phone's engine (Pyodide):
its first load and its WebAssembly heap.
Run: uv run python bench/host_taps.py
"""

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project, for bench.*

from bench.common import gunicorn, host_site, log

CHROMIUM = "/usr/bin/chromium"
LINEUP = ["boss", "mafia", "mafia", "commissar", "doctor", "maniac"] + ["civilian"] * 7


def main() -> None:
    env, host, session = host_site("mafia_bench_host_taps")
    import random

    from django.conf import settings
    from playwright.sync_api import sync_playwright

    from tests.e2e.host_driver import PHONE, Cast, HostScreen, play_scripted_game
    from tests.games.recording import evening_with_players, start_game

    games = {}
    for votes_by in ("hands", "counts"):
        evening, players = evening_with_players(13)
        roles = list(LINEUP)
        random.Random(7).shuffle(roles)
        games[votes_by] = start_game(host, evening, players, roles)
    # Playwright's sync API keeps an event loop in this thread; the ORM calls between its
    # steps are still plain synchronous code.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

    figures: dict[str, object] = {}
    with gunicorn(env, workers=2) as (url, _times), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for votes_by, game in games.items():
            context = browser.new_context(
                viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2
            )
            context.add_cookies(
                [
                    {"name": settings.SESSION_COOKIE_NAME, "value": session, "url": url},
                    {"name": settings.LANGUAGE_COOKIE_NAME, "value": "ru", "url": url},
                ]
            )
            page = context.new_page()
            page.goto(f"{url}/games/{game.pk}/")
            page.wait_for_selector("html[data-host-ready]")
            page.wait_for_function(
                "() => ['ready', 'failed'].includes(document.documentElement.dataset.engine)",
                timeout=120_000,
            )
            engine = page.evaluate("() => window.hostEngineFigures || null")
            screen = HostScreen(page, check_targets=False, votes_by=votes_by)
            cast = Cast({seat.number: seat.role for seat in game.seats.all()})
            log(f"recording the scripted game, votes by {votes_by}")
            started = time.perf_counter()
            play_scripted_game(screen, cast)
            seconds = time.perf_counter() - started
            context.close()
            game.refresh_from_db()
            assert game.finished and game.winner == "red", "the game did not end as scripted"
            events = game.events.count()
            suffix = "" if votes_by == "hands" else "_counts"
            figures.update(
                {
                    f"taps{suffix}": screen.taps,
                    f"events{suffix}": events,
                    f"taps_per_event{suffix}": round(screen.taps / events, 3),
                    f"seconds{suffix}": round(seconds, 1),
                }
            )
            if engine:
                figures.update(
                    engine_first_load_ms=engine["first_ms"],
                    engine_wasm_heap_mb=engine["wasm_heap_mb"],
                )
        browser.close()
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
