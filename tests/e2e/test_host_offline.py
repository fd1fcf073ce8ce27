"""The host's screen when the network or the phone's engine is not there (Chromium, 360×640,
touch): a reload without network shows the last known state at once and says the rules are
loading; taps made before the engine has loaded wait and are judged when it has (never a
guess that records a wrong seat); taps reach a server that was unreachable while the browser
said online within 5 s of its return, in order, once; a second phone follows the first
without a tap; and a conflict says in words what the other phone recorded.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext
from pytest_django.live_server_helper import LiveServer

from games.models import Game
from tests.e2e.conftest import ARTIFACTS, new_context
from tests.e2e.host_driver import HostScreen
from tests.e2e.test_host_screen import day_one, kept_offline

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]

# The phone's engine held back: its worker's «ready» reaches the page only when the test
# calls window.releaseEngine() (a slow phone, or Pyodide still loading after a reload).
HOLD_THE_ENGINE = """
window.engineGate = new Promise((resolve) => (window.releaseEngine = resolve));
const RealWorker = window.Worker;
window.Worker = class extends RealWorker {
  addEventListener(type, listener, options) {
    if (type !== "message") return super.addEventListener(type, listener, options);
    return super.addEventListener(type, (event) => {
      if (event.data && event.data.ready) window.engineGate.then(() => listener.call(this, event));
      else listener.call(this, event);
    }, options);
  }
};
"""
THE_SERVER = re.compile(r"/games/\d+/(tap|head)/")


def open_screen(
    context: BrowserContext, live_server: LiveServer, game: Game, *, engine: bool = True
) -> HostScreen:
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("html[data-host-ready]")
    if engine:
        page.wait_for_function(
            "() => document.documentElement.dataset.engine === 'ready'", timeout=90_000
        )
    return HostScreen(page, shots=ARTIFACTS)


def events(game: Game) -> list[str]:
    return [
        f"{kind} {payload.get('seat', '')}".strip()
        for kind, payload in game.events.order_by("seq").values_list("type", "payload")
    ]


def to_the_second_speaker_then_offline_reload(
    live_server: LiveServer, browser: Browser
) -> tuple[Game, BrowserContext, HostScreen]:
    """Day 1, seat 1's speech recorded online; then the network goes, the page is reloaded
    with the phone's engine held back: (game, context, screen)."""
    host, game = day_one()
    context = new_context(browser, live_server, user=host)
    screen = open_screen(context, live_server, game)
    kept_offline(screen)
    screen.touch(screen.bar("Начать круг"))
    screen.tap(screen.bar("Дальше"))
    assert screen.table()["speaker"] == 2

    context.set_offline(True)
    context.add_init_script(HOLD_THE_ENGINE)
    started = time.monotonic()
    screen.page.reload()
    screen.page.wait_for_selector("html[data-host-ready]")
    drawn = time.monotonic() - started
    # At once, from the device: the last known state, while the rules load.
    assert screen.table()["speaker"] == 2 and screen.seq() == 2
    assert "правила загружаются" in screen.page.locator("#host-net").inner_text()
    assert screen.page.evaluate("() => document.documentElement.dataset.engine") == "loading"
    assert drawn < 5, f"the screen took {drawn:.1f} s to be drawn from the device"
    screen.shot("offline-reload-rules-loading")

    for count in (1, 2, 3):  # «Дальше» three times: the screen did not move on
        screen.touch(screen.bar("Дальше"))
        screen.wait_queued(count)
    assert screen.table()["speaker"] == 2, "nothing applied as a guess"
    assert screen.page.locator("#host-net").inner_text() == "правила загружаются · 3"
    screen.shot("offline-three-taps-before-the-engine")
    return game, context, screen


def test_taps_before_the_engine_loads_are_judged_when_it_has_one_speech_by_the_right_seat(
    live_server: LiveServer, browser: Browser
) -> None:
    game, context, screen = to_the_second_speaker_then_offline_reload(live_server, browser)
    page = screen.page

    page.evaluate("() => window.releaseEngine()")
    page.wait_for_function("() => window.hostScreen.queued() === 1")
    assert screen.table()["speaker"] == 3  # the engine judged the first: seat 2 spoke
    said = screen.refusal()
    # The two taps refused alike are said once, counted (host/queue.js's tell).
    assert said == "Не записано: речь 2 — Место 2 уже говорило × 2", said
    assert "правила загружаются" not in page.locator("#host-net").inner_text()
    screen.shot("offline-taps-judged")

    context.set_offline(False)
    page.wait_for_function("() => window.hostScreen.queued() === 0", timeout=15_000)
    assert events(game) == ["day", "speech 1", "speech 2"]
    context.close()


def test_taps_before_the_engine_that_reach_the_server_first_are_judged_there(
    live_server: LiveServer, browser: Browser
) -> None:
    game, context, screen = to_the_second_speaker_then_offline_reload(live_server, browser)
    page = screen.page

    context.set_offline(False)  # the network returns before the engine
    page.wait_for_function("() => window.hostScreen.queued() === 0", timeout=15_000)
    assert events(game) == ["day", "speech 1", "speech 2"]
    said = screen.refusal()
    # The two taps refused alike are said once, counted (host/queue.js's tell).
    assert said == "Не записано: речь 2 — Место 2 уже говорило × 2", said
    assert page.locator("dialog[open]").count() == 0, "a refusal is said, not a dialog"
    assert screen.table()["speaker"] == 3
    page.evaluate("() => window.releaseEngine()")
    page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'")
    assert screen.table()["speaker"] == 3 and events(game) == ["day", "speech 1", "speech 2"]
    context.close()


def test_taps_reach_a_server_that_was_unreachable_while_the_browser_said_online(
    live_server: LiveServer, browser: Browser
) -> None:
    host, game = day_one()
    context = new_context(browser, live_server, user=host)
    screen = open_screen(context, live_server, game)
    page = screen.page
    screen.touch(screen.bar("Начать круг"))

    # The venue's Wi-Fi is up, the server is not: first no answer at all, then a proxy's 503.
    def refused(route: Any) -> None:
        route.abort("connectionrefused")

    context.route(THE_SERVER, refused)
    screen.touch(screen.bar("Дальше"))
    screen.wait_queued(1)
    page.wait_for_selector("#host-net.offline")
    screen.touch(screen.seat(7))  # seat 2 nominates 7
    screen.wait_queued(2)
    # The 503 first (the newest route answers first), then the refusal goes: a retry made
    # between the two must not reach the real server (under load one did, and was taken).
    context.route(THE_SERVER, lambda route: route.fulfill(status=503, body="Service Unavailable"))
    context.unroute(THE_SERVER, refused)
    screen.touch(screen.bar("Дальше"))
    screen.wait_queued(3)
    page.wait_for_timeout(6000)  # retries meet the 503s
    assert page.evaluate("() => navigator.onLine") is True
    assert screen.queued() == 3 and events(game) == ["day"]
    assert "ждут касаний: 3" in page.locator("#host-net").inner_text()
    screen.shot("server-unreachable-while-online")

    context.unroute(THE_SERVER)  # the server is back
    returned = time.monotonic()
    page.wait_for_function("() => window.hostScreen.queued() === 0", timeout=15_000, polling=100)
    took = time.monotonic() - returned
    assert took <= 5, f"the taps went {took:.1f} s after the server's return"
    assert events(game) == ["day", "speech 1", "nominate", "speech 2"]
    client_ids = list(game.events.exclude(client_id=None).values_list("client_id", flat=True))
    assert len(client_ids) == len(set(client_ids)) == 3, "each tap once"
    assert page.locator("#host-net").inner_text() == ""
    context.close()


def test_a_second_phone_follows_the_first_without_a_tap(
    live_server: LiveServer, browser: Browser
) -> None:
    host, game = day_one()
    first_context = new_context(browser, live_server, user=host)
    second_context = new_context(browser, live_server, user=host)
    first = open_screen(first_context, live_server, game, engine=False)
    second = open_screen(second_context, live_server, game, engine=False)

    first.touch(first.bar("Начать круг"))
    first.tap(first.bar("Дальше"))
    first.tap(first.seat(9))  # seat 2 nominates 9
    first.tap(first.bar("Дальше"))
    assert first.seq() == 4

    second.page.wait_for_function(
        "() => Number(document.documentElement.dataset.seq) === 4", timeout=10_000
    )
    assert second.taps == 0
    table = second.table()
    assert table["speaker"] == 3 and table["seats"][8]["nominated"]
    second.shot("second-phone-followed")
    first_context.close()
    second_context.close()
