"""A guest's seat on the host's table screen, a 360×640 phone (#37): the member Ворон and the
guest «Ворон К.» at one table, and only the guest's seat says «гость», in its corner,
inside the seat and over neither its number nor its name, and the seats still fit the
screen without scrolling. The screenshot is kept in var/test-artifacts/e2e/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from tests.club.test_guest_names import game_with_a_guest
from tests.e2e.conftest import ARTIFACTS, new_context
from tests.e2e.host_driver import HostScreen
from tests.games.recording import make_host, record

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]


def overlap(one: dict[str, float], other: dict[str, float]) -> bool:
    return not (
        one["x"] + one["width"] <= other["x"]
        or other["x"] + other["width"] <= one["x"]
        or one["y"] + one["height"] <= other["y"]
        or other["y"] + other["height"] <= one["y"]
    )


def box(locator: Any) -> dict[str, float]:
    found: dict[str, float] | None = locator.bounding_box()
    assert found is not None, f"{locator} is not shown"
    return found


@pytest.mark.parametrize(("language", "word"), [("ru", "гость"), ("en", "guest")])
def test_the_host_s_screen_marks_the_guest_s_seat_on_a_phone(
    live_server: LiveServer, browser: Browser, language: str, word: str
) -> None:
    host = make_host(nickname="Ведущая")
    game, guest = game_with_a_guest(host)
    record(game, host, {"type": "day", "n": 1})
    context = new_context(browser, live_server, user=host, language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("html[data-host-ready]")
    screen = HostScreen(page)
    seat = screen.seat(guest)
    mark = seat.locator(".guest")
    assert mark.inner_text() == word
    screen.assert_inside(mark)
    for part in (".no", ".nick"):
        assert not overlap(box(mark), box(seat.locator(part))), part
    seat_box, mark_box = box(seat), box(mark)
    assert seat_box["x"] <= mark_box["x"] and mark_box["x"] + mark_box["width"] <= (
        seat_box["x"] + seat_box["width"]
    )
    assert seat_box["y"] <= mark_box["y"]
    assert mark_box["y"] + mark_box["height"] <= seat_box["y"] + seat_box["height"]
    # A screen reader hears it once, with the seat's other news.
    assert word in seat.locator(".visually-hidden").inner_text()
    assert page.locator("#host-seats .guest").count() == 1
    member = page.locator("#host-seats .host-seat").filter(
        has=page.locator(".nick", has_text=re.compile("^Ворон$"))
    )
    assert member.count() == 1 and member.locator(".guest").count() == 0
    screen.assert_no_scroll()
    page.screenshot(path=ARTIFACTS / f"host-guest-seat-{language}.png")
    context.close()
