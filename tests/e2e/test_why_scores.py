"""«Why I got X» on a phone (#28): on the game's page and the player's page every score
opens to its lines, without scripts, at 360×640 in both languages; screenshots in
var/test-artifacts/e2e/why/."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from club.models import Evening
from games.models import GameEvent, Seat
from tests.e2e.conftest import ARTIFACTS, new_context, untranslated, watch_of
from tests.e2e.test_csp import club  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
SHOTS = ARTIFACTS / "why"


def fits(page: Page) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= 360"))


def test_a_score_opens_to_its_lines_on_a_phone_in_both_languages(
    browser: Browser,
    live_server: LiveServer,
    club: dict[str, Any],  # noqa: F811
) -> None:
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)
    game = club["finished"]
    # The demo's commissar: extra points with the host's reason, and the lines of a win.
    seat = Seat.objects.select_related("member").get(game=game, number=4)
    member = seat.member
    assert member is not None
    # The members' own words, shown as written whatever the page's language.
    data = sorted(
        {*User.objects.values_list("nickname", flat=True)}
        | {*Evening.objects.values_list("venue", flat=True)}
        | {e.payload.get("reason", "") for e in GameEvent.objects.filter(type="bonus")},
        key=len,
        reverse=True,
    )
    for language in ("ru", "en"):
        context = new_context(browser, live_server, user=member, language=language)
        page = context.new_page()
        page.goto(f"{live_server.url}/games/{game.pk}/", wait_until="networkidle")
        own = page.locator("details.why[open]")
        assert own.count() == 1, "the reader's own score opens by itself"
        assert "вёл город от первой проверки" in own.inner_text()
        own.scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / f"{language}-game-own-open.png")
        # Another's score is closed until tapped, and opens to its lines.
        closed = page.evaluate(
            "() => [...document.querySelectorAll('details.why')].findIndex((d) => !d.open)"
        )
        other = page.locator("details.why").nth(closed)
        other.locator("summary").tap()
        assert other.evaluate("node => node.open")
        assert other.locator(".score-lines li, p").count() >= 1
        other.scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / f"{language}-game-other-open.png")
        assert fits(page)
        assert untranslated(page, language, data) == []

        page.goto(f"{live_server.url}/players/{member.pk}/", wait_until="networkidle")
        # The finished game's row among their recent games (the tournament's are newer).
        recent = page.locator(
            f'.games-played tr.score:has(a[href="/games/{game.pk}/"]) + tr.lines details.why'
        )
        recent.locator("summary").tap()
        assert "вёл город от первой проверки" in recent.inner_text()
        recent.scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / f"{language}-player-recent-open.png")
        best = page.locator(".best-games details.why").first
        best.locator("summary").tap()
        best.scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / f"{language}-player-best-open.png")
        assert fits(page)
        assert untranslated(page, language, data) == []
        assert watch_of(context).console_errors == []
        context.close()

    # Without scripts the disclosure is the browser's own: it opens all the same.
    context = browser.new_context(viewport={"width": 360, "height": 640}, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    why = page.locator("details.why").first
    why.locator("summary").click()
    assert why.get_attribute("open") is not None
    context.close()
