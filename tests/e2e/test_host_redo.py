"""«Дальше», ↶, «Дальше» by a finger at 360×640 (#37): the redone turn's clock is a fresh
one, and every later «Дальше» is recorded, also after a reload.

The screen keeps each clock's start on the device under the speech's key (kind, seat, day,
turn), and the redone turn reuses the key of the turn the undo took back: the next
speaker's clock resumed from the undone tap, so its speech started before the speech
before it ended, and the rules refused it and every «Дальше» after it, for good (the
start stayed on the phone). Here the finger makes those taps through the DevTools
protocol, as on a phone, and the test reads what the server holds after each.
"""

from __future__ import annotations

import itertools
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from tests.e2e.conftest import ARTIFACTS, new_context, watch_of
from tests.e2e.host_driver import PHONE
from tests.e2e.test_host_touch import ROLES, Finger, TouchGame
from tests.games.recording import evening_with_players, make_host, record, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]

SHOTS = ARTIFACTS / "touch"

# The device's memory as a phone held it before this was fixed: a speech's start kept from
# an undone tap, before the speech before it ended.
POISON_JS = """([game, key, started]) => new Promise((resolve, reject) => {
  const open = indexedDB.open('mafia-host', 1);
  open.onsuccess = () => {
    const store = open.result.transaction('games', 'readwrite').objectStore('games');
    const read = store.get(`${game}:timers`);
    read.onsuccess = () => {
      store.put({ ...(read.result || {}), [key]: started }, `${game}:timers`);
      store.transaction.oncomplete = () => resolve(null);
    };
    read.onerror = () => reject(read.error);
  };
  open.onerror = () => reject(open.error);
})"""


def clock(g: TouchGame) -> dict[str, Any]:
    """The clock on the screen: its key, its start (ms) and its face."""
    face = g.page.locator("#host-prompt .host-clock")
    return {
        "key": face.get_attribute("data-key"),
        "started": int(face.get_attribute("data-started") or 0),
        "text": face.inner_text(),
    }


def speech_end(g: TouchGame) -> int:
    """When the last speech the server holds ended (ms)."""
    last = [row for row in g.rows() if row["type"] == "speech"][-1]
    return int(datetime.fromisoformat(last["payload"]["end"]).timestamp() * 1000)


@pytest.mark.parametrize("language", ["ru", "en"])
def test_next_after_undoing_next_starts_a_fresh_clock_and_the_game_goes_on(
    live_server: LiveServer, browser: Browser, language: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    host = make_host(nickname="Ведущая")
    evening, players = evening_with_players(15)
    game = start_game(host, evening, players, ROLES)
    begun = datetime.now(UTC) - timedelta(minutes=3)
    events: list[dict[str, Any]] = [{"type": "day", "n": 1}]
    for seat in range(1, 4):  # seats 1–3 have spoken; seat 4 speaks
        start, end = (
            begun + timedelta(seconds=30 * (seat - 1)),
            begun + timedelta(seconds=30 * seat),
        )
        events.append(
            {
                "type": "speech",
                "seat": seat,
                "start": start.isoformat(),
                "end": end.isoformat(),
                "limit": 30,
            }
        )
    record(game, host, *events)
    nicks = {seat.number: seat.player.nickname for seat in game.seats.select_related("member")}
    context = new_context(browser, live_server, user=host, language=language)
    page = context.new_page()
    assert page.viewport_size == PHONE
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("html[data-host-ready]")
    finger = Finger(page, context.new_cdp_session(page))
    g = TouchGame(page, finger, game, language, "hands", nicks, live_server)
    undo = page.locator("#host-undo")

    assert g.speaker() == ("speech", 4)
    g.next_speech()  # seat 4's speech: seat 5's clock starts
    undone = clock(g)
    assert undone["key"].startswith("speech:5:1:")
    page.wait_for_timeout(2_100)  # seat 5's clock runs on: 0:28
    g.gesture(lambda: g.tap(undo), {"type": "undo"})  # ↶: seat 4 speaks again
    assert g.speaker() == ("speech", 4)
    page.wait_for_timeout(1_100)
    g.next_speech()  # «Дальше» again: seat 5's clock is a fresh one
    redone = clock(g)
    assert redone["key"] == undone["key"], "the redone turn has the undone turn's key"
    assert redone["started"] >= speech_end(g), "seat 5's clock starts after seat 4's speech ended"
    assert redone["started"] > undone["started"] + 2_000, "not resumed from the undone tap"
    assert redone["text"] in ("0:30", "0:29"), redone
    page.screenshot(path=SHOTS / f"redo-{language}-fresh-clock.png")
    for seat in (5, 6):
        assert g.speaker() == ("speech", seat)
        page.wait_for_timeout(300)
        g.next_speech()
    # A reload keeps going, and so does a phone whose memory holds a start from before the
    # speech before it ended (what the old screen left on the device).
    stale = speech_end(g) - 6_000
    page.evaluate(POISON_JS, [game.pk, f"speech:7:1:{g.table()['timer']['turn']}", stale])
    page.reload()
    page.wait_for_selector("html[data-host-ready]")
    assert g.speaker() == ("speech", 7)
    assert clock(g)["started"] >= speech_end(g)
    page.wait_for_timeout(300)
    g.next_speech()
    g.next_speech()
    effective: list[dict[str, Any]] = []
    for row in g.rows():  # an undo takes back the entry before it
        if row["type"] == "undo":
            effective.pop()
        else:
            effective.append(row)
    speeches = [row["payload"] for row in effective if row["type"] == "speech"]
    assert [speech["seat"] for speech in speeches] == [1, 2, 3, 4, 5, 6, 7, 8]
    for before, after in itertools.pairwise(speeches):
        start, end = datetime.fromisoformat(after["start"]), datetime.fromisoformat(before["end"])
        assert start >= end, (before, after)
    assert watch_of(context).failed == [], watch_of(context).failed
    assert watch_of(context).console_errors == []
    context.close()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_clock_that_cannot_be_recorded_says_so_and_offers_to_restart_it(
    live_server: LiveServer, browser: Browser, language: str
) -> None:
    """Whatever the device holds, the host has a way on. The screen no longer keeps a start
    the rules refuse, so the refusal is injected at the door: the server's first answer to
    «Дальше» is the rules' own refusal as the tap door words it (422, `invalid`, the
    template's words). The screen says it, offers to start the clock again, and after
    «Запустить заново» the clock runs from that moment and «Дальше» is recorded."""
    host = make_host(nickname="Ведущая")
    evening, players = evening_with_players(15)
    game = start_game(host, evening, players, ROLES)
    record(game, host, {"type": "day", "n": 1})
    nicks = {seat.number: seat.player.nickname for seat in game.seats.select_related("member")}
    context = new_context(browser, live_server, user=host, language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("html[data-host-ready]")
    finger = Finger(page, context.new_cdp_session(page))
    g = TouchGame(page, finger, game, language, "hands", nicks, live_server)
    g.start_round()
    assert g.speaker() == ("speech", 1)
    refusal = {
        "ru": "Эта речь начинается в 19:41:42, раньше, чем закончилась предыдущая (19:41:48).",
        "en": "This speech starts at 19:41:42, before the one before it ended (19:41:48).",
    }[language]
    refused: list[str] = []

    def once(route: Any) -> None:
        if refused:
            route.continue_()
            return
        refused.append(route.request.post_data or "")
        body = {"detail": refusal, "code": "invalid", "error": refusal}
        route.fulfill(status=422, content_type="application/json", body=json.dumps(body))

    page.route(f"**/games/{game.pk}/tap/", once)
    before = clock(g)
    page.wait_for_timeout(1_100)
    g.gesture(lambda: g.tap(g.act("next")))  # refused: nothing recorded
    dialog = page.locator("#host-confirm")
    dialog.wait_for(state="visible")
    text = page.locator("#host-confirm-text").inner_text()
    assert refusal in text, text
    restart = dialog.locator("button[value=yes]")
    keep = dialog.locator("button[value=no]")
    assert restart.inner_text() == {"ru": "Запустить заново", "en": "Restart the clock"}[language]
    assert keep.inner_text() == {"ru": "Оставить часы", "en": "Keep the clock"}[language]
    g.controls()
    page.screenshot(path=SHOTS / f"redo-{language}-restart-the-clock.png")
    g.gesture(lambda: g.tap(restart))
    assert not dialog.is_visible()
    restarted = clock(g)
    assert restarted["key"] == before["key"] and restarted["started"] > before["started"] + 1_000
    assert restarted["text"] in ("0:30", "0:29"), restarted
    g.next_speech()
    speech = [row["payload"] for row in g.rows() if row["type"] == "speech"][-1]
    assert speech["seat"] == 1
    start = datetime.fromisoformat(speech["start"]).timestamp() * 1000
    assert abs(start - restarted["started"]) < 1, "recorded from the restarted clock"
    context.close()
