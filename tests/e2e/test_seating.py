"""The seating screens on a 360×640 phone (#25): a card added to the line-up takes one from
the civilians; what is wrong with the table (the count, the line-up) stays in view at the
thumb while the host scrolls; the seating and its check are under two screens of content,
and the check opens with the line-up in a line."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from tests.e2e.conftest import PHONE, new_context
from tests.games.recording import evening_with_players, make_host

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]

CONTENT_BOTTOM = "() => document.querySelector('main').getBoundingClientRect().bottom + scrollY"
BAR_IN_VIEW = """() => { const box = document.querySelector('.seating-bar').getBoundingClientRect();
  return box.top >= 0 && box.bottom <= innerHeight; }"""


def test_the_seating_keeps_the_line_up_whole_and_the_count_in_view(
    live_server: LiveServer, browser: Browser
) -> None:
    host = make_host(nickname="Ведущая")
    evening, _players = evening_with_players(13)
    context = new_context(browser, live_server, user=host)
    page = context.new_page()
    page.goto(f"{live_server.url}/evenings/{evening.pk}/games/new/")
    civilians = page.locator('input[data-role="civilian"]')
    assert civilians.input_value() == "8"
    page.locator('input[data-role="maniac"]').fill("1")
    assert civilians.input_value() == "7"  # the maniac's card came from the civilians
    page.locator('input[data-role="maniac"]').fill("0")
    assert civilians.input_value() == "8"
    # Too many cards for the table: said in the bar, in view while the line-up is edited.
    page.locator('input[data-role="mafia"]').fill("9")
    page.locator('input[data-role="civilian"]').fill("8")
    page.locator('input[data-role="civilian"]').scroll_into_view_if_needed()
    count = page.locator("#seating-count")
    assert "карт" in count.inner_text() and page.locator("#seating-next").is_disabled()
    assert page.evaluate(BAR_IN_VIEW)
    page.locator('input[data-role="mafia"]').fill("2")
    assert civilians.input_value() == "8" and not page.locator("#seating-next").is_disabled()
    assert page.evaluate(CONTENT_BOTTOM) <= 2 * PHONE["height"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]

    page.locator("#seating-next").tap()
    summary = page.locator(".seating-summary")
    summary.wait_for()
    assert summary.inner_text().startswith("13 игроков:") and "Мирный 8" in summary.inner_text()
    assert page.evaluate(CONTENT_BOTTOM) <= 2 * PHONE["height"]
    assert page.evaluate(BAR_IN_VIEW)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()
