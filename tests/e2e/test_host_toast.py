"""What the host screen says back, by a finger at 360×640 with 15 seats (#37): a refusal
lies where no seat is and is said once when the same tap is refused again; ↶ on the end
screen asks with buttons that say what they do.

The refusal's toast lay above the bar for 8 s, over seats 13–15, the seats a host taps
next; a second tap refused alike showed it again. Here a finger (DevTools touch events, as
on a phone) makes the taps, and the test measures the toast's box against every seat's.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from pytest_django.live_server_helper import LiveServer

from games.models import Game
from tests.e2e.conftest import ARTIFACTS, new_context, watch_of
from tests.e2e.host_driver import PHONE, shown_box
from tests.e2e.test_host_touch import ROLES, Finger, TouchGame
from tests.games.recording import TOWN_WINS, evening_with_players, make_host, record, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]

SHOTS = ARTIFACTS / "toast"

# Each time the toast is given a message (its text node replaced) or shown, counted.
WATCH_JS = """() => {
  const toast = document.getElementById('host-toast');
  window.toastSaid = [];
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'childList') window.toastSaid.push(toast.textContent);
    }
  }).observe(toast, { childList: true });
}"""

# Every seat's box against the toast's: the seats under it, by number.
UNDER_JS = """() => {
  const toast = document.getElementById('host-toast').getBoundingClientRect();
  return [...document.querySelectorAll('#host-seats [data-seat]')]
    .filter((seat) => {
      const box = seat.getBoundingClientRect();
      return box.left < toast.right && toast.left < box.right
        && box.top < toast.bottom && toast.top < box.bottom;
    })
    .map((seat) => Number(seat.dataset.seat));
}"""

WHOLE_JS = """() => {
  const toast = document.getElementById('host-toast');
  return toast.scrollHeight <= toast.clientHeight + 1;
}"""


def on_the_phone(
    context: BrowserContext, live_server: LiveServer, game: Game, language: str
) -> TouchGame:
    """The host's screen of `game`, ready for a finger."""
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("html[data-host-ready]")
    nicks = {seat.number: seat.player.nickname for seat in game.seats.select_related("member")}
    finger = Finger(page, context.new_cdp_session(page))
    return TouchGame(page, finger, game, language, "hands", nicks, live_server)


def toast_clear_of_the_seats(page: Page) -> dict[str, float]:
    """The toast is shown, whole inside the viewport, over no seat; returns its box."""
    toast = page.locator("#host-toast")
    assert toast.is_visible()
    box = shown_box(page, toast)
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert page.locator("#host-seats [data-seat]").count() == 15
    assert page.evaluate(UNDER_JS) == [], "the toast lies over these seats"
    # The whole message is in sight (not cut at the area's end).
    assert page.evaluate(WHOLE_JS), "the message is cut"
    found: dict[str, float] = box
    return found


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_refusal_lies_over_no_seat_and_is_said_once(
    live_server: LiveServer, browser: Browser, language: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    host = make_host(nickname="Ведущая")
    evening, players = evening_with_players(15)
    game = start_game(host, evening, players, ROLES)
    record(game, host, {"type": "day", "n": 1})
    context = new_context(browser, live_server, user=host, language=language)
    g = on_the_phone(context, live_server, game, language)
    page = g.page
    g.start_round()
    assert g.speaker() == ("speech", 1)
    g.gesture(lambda: g.tap(g.seat(14)), {"type": "nominate", "by": 1, "target": 14})
    page.evaluate(WATCH_JS)
    toast = page.locator("#host-toast")

    # Seat 14 again, twice: the rules refuse it alike; the host reads it once.
    g.gesture(lambda: g.tap(g.seat(14)))
    refusal = {
        "ru": "Место 1 уже выставило место 14.",
        "en": "Seat 1 has already nominated seat 14.",
    }[language]
    assert toast.inner_text() == refusal
    g.gesture(lambda: g.tap(g.seat(14)))
    assert toast.is_visible() and toast.inner_text() == refusal
    assert page.evaluate("() => window.toastSaid") == [refusal], "said more than once"
    assert "error" in (toast.get_attribute("class") or "")
    toast_clear_of_the_seats(page)
    g.controls()
    page.screenshot(path=SHOTS / f"toast-{language}-refusal.png")

    # The longest a refusal reads (waiting taps dropped, each with its reason): it takes a
    # smaller type and still lies over no seat, whole.
    long = " ".join([refusal] * 5)

    def refuse(route: Any) -> None:
        body = {"detail": long, "code": "invalid", "error": long}
        route.fulfill(status=422, content_type="application/json", body=json.dumps(body))

    page.route(f"**/games/{game.pk}/tap/", refuse)
    g.gesture(lambda: g.tap(g.seat(13)))
    assert toast.inner_text() == long
    box = toast_clear_of_the_seats(page)
    assert box["height"] > 80, box  # several lines, over the header and the prompt
    page.screenshot(path=SHOTS / f"toast-{language}-long.png")
    page.unroute(f"**/games/{game.pk}/tap/")
    # The refusals' own 422s are the browser's only complaints.
    errors = [each for each in watch_of(context).console_errors if "status of 422" not in each]
    assert errors == []
    context.close()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_undo_on_the_end_screen_asks_with_buttons_that_say_what_they_do(
    live_server: LiveServer, browser: Browser, language: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    host = make_host(nickname="Ведущая")
    evening, players = evening_with_players(12)
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    assert game.finished
    recorded = game.last_seq
    context = new_context(browser, live_server, user=host, language=language)
    g = on_the_phone(context, live_server, game, language)
    page = g.page
    assert g.table()["over"]
    g.tap(page.locator("#host-undo"))
    dialog = page.locator("#host-confirm")
    dialog.wait_for(state="visible")
    question = page.locator("#host-confirm-text").inner_text()
    assert question.endswith({"ru": "Отменить?", "en": "Undo?"}[language]), question
    keep, undo = dialog.locator("button[value=no]"), dialog.locator("button[value=yes]")
    assert keep.inner_text() == {"ru": "Оставить итог", "en": "Keep the result"}[language]
    assert undo.inner_text() == {"ru": "Отменить и открыть", "en": "Undo and reopen"}[language]
    g.controls()
    page.screenshot(path=SHOTS / f"end-undo-{language}.png")
    g.tap(keep)
    dialog.wait_for(state="hidden")
    page.wait_for_timeout(300)
    game.refresh_from_db()
    assert (game.last_seq, game.finished) == (recorded, True), "«Оставить итог» kept the end"
    # The dialog's own words are back for the next question.
    assert keep.inner_text() == {"ru": "Отмена", "en": "Cancel"}[language]
    assert undo.inner_text() == {"ru": "Да, записать", "en": "Yes, record it"}[language]
    # The server's «ask first» (428) is the browser's only complaint.
    errors = [each for each in watch_of(context).console_errors if "status of 428" not in each]
    assert errors == []
    context.close()
