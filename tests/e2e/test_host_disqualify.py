"""The judge's disqualification on the host's screen at 360×640: ☰ → «Дисквалифицировать…»
chooses a living seat and takes the reason (a seat named by the picker), the screen asks
«…покидает стол: дисквалификация. Записать?» before it is kept, and the seat is out; the
item is offered only while the game runs."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from tests.checks import present
from tests.e2e.test_host_scores import menu, opened, twelve
from tests.games.recording import OPENING, TOWN_WINS, view_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]


def test_the_host_disqualifies_a_player_from_the_menu(
    live_server: LiveServer, browser: Browser
) -> None:
    host, game, nicks = twelve([*OPENING, {"type": "last_word", "seat": 6}])
    context, screen = opened(browser, live_server, game, host)
    page = screen.page
    menu(screen)
    screen.touch(page.locator("#host-disqualify-open"))
    dialog = page.locator("#host-disqualify")
    dialog.wait_for(state="visible")
    seats = dialog.locator('select[name="seat"] option')
    offered = [seats.nth(n).get_attribute("value") for n in range(seats.count())]
    assert offered == ["", *(str(n) for n in range(1, 13) if n != 6)]  # the living only
    dialog.locator('select[name="seat"]').select_option("5")
    reason = dialog.locator('input[name="reason"]')
    reason.fill("оскорбил")
    screen.touch(dialog.locator('[data-seat-ref="{seat:3}"]'))
    assert reason.input_value() == "оскорбил {seat:3}"
    screen.tap(dialog.locator('button[value="disqualify"]'), confirm=False, records=False)
    question = page.locator("#host-confirm-text")
    question.wait_for(state="visible")
    assert f"5 {nicks[5]} покидает стол: дисквалификация" in question.inner_text()
    screen.confirm()
    page.wait_for_function(f"() => document.documentElement.dataset.seq === '{len(OPENING) + 2}'")
    shown = screen.table()
    assert shown["seats"][4]["out"] == "disqualified" and not shown["seats"][4]["alive"]
    assert shown["timer"]["seat"] == 2  # the round goes on; no last word for seat 5
    state = view_of(game.pk).club_state
    assert state.eliminated[-1].seat == 5 and state.eliminated[-1].reason == "disqualified"
    last = present(game.events.order_by("seq").last())
    assert last.payload["reason"] == "оскорбил {seat:3}"
    context.close()


def test_a_finished_game_offers_no_disqualification(
    live_server: LiveServer, browser: Browser
) -> None:
    host, game, _nicks = twelve(list(TOWN_WINS))
    context, screen = opened(browser, live_server, game, host)
    menu(screen)
    assert not screen.page.locator("#host-disqualify-open").is_visible()
    context.close()
