"""A tournament's page on a phone (#29), the demo's «Кубок клуба»: «Где я играю» at the top
for a player, the judge's «Начать игру» a thumb's tap away that opens the host's screen, and
the printed page free of menus and buttons; screenshots in var/test-artifacts/e2e/tournament/
(every page type also fits the phone in both languages: test_pages_on_a_phone.py)."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from club.models import Registration
from games.models import Game
from tests.e2e.conftest import ARTIFACTS, PHONE, new_context, watch_of
from tests.e2e.test_csp import club  # noqa: F401 (the fixture)
from tournaments.models import Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
SHOTS = ARTIFACTS / "tournament"


def test_a_player_finds_where_they_play_and_a_judge_starts_the_table(
    browser: Browser,
    live_server: LiveServer,
    club: dict[str, Any],  # noqa: F811
) -> None:
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)
    tournament = club["tournament"]
    url = f"{live_server.url}/tournaments/{tournament.pk}/"
    member = club["member"]
    mine = Registration.objects.get(evening=tournament.evening, member=member).pk
    round_two = Table.objects.get(
        round__tournament=tournament, round__number=2, players__contains=[mine]
    )
    for language, heading in (("ru", "Где я играю"), ("en", "Where I play")):
        context = new_context(browser, live_server, user=member, language=language)
        page = context.new_page()
        page.goto(url, wait_until="networkidle")
        mine_box = page.locator("#me")
        assert heading in mine_box.inner_text()
        box = mine_box.bounding_box()
        assert box is not None and box["y"] < PHONE["height"], "«where I play» below the fold"
        seat = round_two.players.index(mine) + 1
        assert f"{round_two.number}" in mine_box.inner_text() and f"{seat}" in mine_box.inner_text()
        # Each of their rounds is a thumb's target that leads to the round's tables.
        links = mine_box.locator("a")
        assert all(
            (links.nth(i).bounding_box() or {"height": 0})["height"] >= 48
            for i in range(links.count())
        )
        links.nth(1).tap()
        page.wait_for_url("**#round-2")
        # The round's heading lands below the sticky header, not under it.
        page.wait_for_timeout(300)  # the jump settles
        landed = page.locator("#round-2 h3").bounding_box()
        header = page.locator("header.site-header").bounding_box()
        assert landed is not None and header is not None
        assert landed["y"] >= header["y"] + header["height"], (landed, header)
        page.screenshot(path=SHOTS / f"{language}-where-i-play.png")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        assert watch_of(context).console_errors == []
        context.close()
    # The table's judge starts round 2's game at their table with one tap.
    host = club["host"]
    judged = Table.objects.get(round__tournament=tournament, round__number=2, judge=host)
    context = new_context(browser, live_server, user=host)
    page = context.new_page()
    page.goto(url, wait_until="networkidle")
    # «Где я сужу» at the top: their table of the round to play, a thumb's tap away.
    box = page.locator("#judge").bounding_box()
    assert box is not None and box["y"] < PHONE["height"]
    start = page.locator(f'#judge form[action="/tournaments/tables/{judged.pk}/start/"] button')
    assert (start.bounding_box() or {"height": 0})["height"] >= 48
    assert page.locator('form[action$="/start/"] button').count() == 1  # their table only
    start.tap()
    page.wait_for_selector("html[data-host-ready]")
    game = Game.objects.get(tournament_table=judged)
    assert page.url.endswith(f"/games/{game.pk}/")
    context.close()
    # Printed: the tables, without the site's menus or the buttons.
    context = new_context(browser, live_server, user=member)
    page = context.new_page()
    page.goto(url, wait_until="networkidle")
    page.emulate_media(media="print")
    hidden = page.evaluate(
        "() => [...document.querySelectorAll('header.site-header, .no-print, footer.site-footer')]"
        ".every((node) => getComputedStyle(node).display === 'none')"
    )
    assert hidden, "the printed page shows the menus or the buttons"
    assert page.locator(".table-card").first.is_visible()
    page.screenshot(path=SHOTS / "printed.png", full_page=True)
    context.close()
