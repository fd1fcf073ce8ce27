"""The phone's engine (games/rules under Pyodide, in the worker the host's screen starts):
how long after the page's navigation the screen is drawn and the engine is ready, on the
phone's viewport (Chromium 360×640, touch, scale 2), against gunicorn on PostgreSQL.

Three loads of the same game page in one browser context:
- `first`: nothing on the phone (no service worker, empty caches), as a host's first visit;
- `cached`: a reload once the service worker controls the page and has kept the engine;
- `offline`: the same reload with the network cut (the page and everything from the cache).
Each gives `drawn_ms` (the screen drawn from the page or the device), `engine_ms` (the engine
ready to judge a tap), from the navigation's start, and the worker's own split
(`pyodide_ms` from its start to Pyodide loaded, `rules_ms` to games.rules imported); the
median of BENCH_RUNS (3) browser contexts. Prints one JSON line. (Chrome's CPU throttling
is not used: it slows the page's thread, not the engine's worker.)
Run: uv run python bench/phone_engine.py
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project, for bench.*

from bench.common import gunicorn, host_site, log

CHROMIUM = "/usr/bin/chromium"
if TYPE_CHECKING:  # Playwright is imported when the browser starts (main)
    from playwright.sync_api import ViewportSize

PHONE: ViewportSize = {"width": 360, "height": 640}
RUNS = int(os.environ.get("BENCH_RUNS", "3"))

# The marks main.js and engine.js leave, from the navigation's start (performance.now()).
MARKS = """() => {
  const at = (name) => {
    const mark = performance.getEntriesByName(name)[0];
    return mark ? Math.round(mark.startTime) : null;
  };
  const figures = window.hostEngineFigures || {};
  return {
    drawn_ms: at("host-drawn"),
    engine_ms: at("host-engine-ready"),
    worker_started_ms: at("host-engine-start"),
    pyodide_ms: figures.load_ms ?? null,
    rules_ms: figures.engine_ms ?? null,
    wasm_heap_mb: figures.wasm_heap_mb ?? null,
    controlled: navigator.serviceWorker.controller !== null,
  };
}"""
KEPT = """async () => {
  const cache = await caches.open("mafia-host-v2");
  return (await cache.keys()).map((request) => new URL(request.url).pathname);
}"""


def main() -> None:
    env, host, session = host_site("mafia_bench_phone_engine")
    from django.conf import settings
    from playwright.sync_api import sync_playwright

    from tests.e2e.host_driver import HostScreen
    from tests.e2e.test_host_screen import kept_offline
    from tests.games.recording import evening_with_players, record, start_game

    evening, players = evening_with_players(12)
    game = start_game(host, evening, players)
    record(game, host, {"type": "day", "n": 1})
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

    runs: dict[str, list[dict[str, Any]]] = {"first": [], "cached": [], "offline": []}
    with gunicorn(env, workers=2) as (url, _times), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for run in range(RUNS):
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
            page.set_default_timeout(180_000)
            for kind in ("first", "cached", "offline"):
                if kind == "first":
                    page.goto(f"{url}/games/{game.pk}/")
                else:
                    context.set_offline(kind == "offline")
                    page.reload()
                page.wait_for_function(
                    "() => ['ready', 'failed'].includes(document.documentElement.dataset.engine)"
                )
                assert page.evaluate("() => document.documentElement.dataset.engine") == "ready"
                figures = page.evaluate(MARKS)
                log(f"run {run + 1} {kind}: {figures}")
                runs[kind].append(figures)
                if kind == "first":
                    # The service worker takes the page and keeps everything it needs.
                    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
                    kept_offline(HostScreen(page))
            kept = page.evaluate(KEPT)
            context.close()
        browser.close()

    result: dict[str, object] = {"runs": RUNS}
    for kind, figures in runs.items():
        for name in ("drawn_ms", "engine_ms", "pyodide_ms", "rules_ms"):
            values = [f[name] for f in figures if f[name] is not None]
            if values:
                result[f"{kind}_{name}"] = round(statistics.median(values))
        assert all(f["controlled"] for f in figures) or kind == "first"
    result["wasm_heap_mb"] = runs["first"][-1]["wasm_heap_mb"]
    result["kept_files"] = len(kept)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
