"""A member who refused publication is named in no host's reason on a phone (issue 38,
games/reasons.py): a reason written in words before the check («раскусил Лису»,
declined) and one naming the seat ({seat:2}) say «место 2» on the game page, in «За
что» on the player's page and in the personal report, at 360×640, to a visitor and to
another member; its host still reads the name. Screenshots in var/test-artifacts/e2e/reasons/."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from games.models import GameEvent, Seat
from games.ratings import reports, tasks
from games.ratings.models import PlayerScore
from games.reasons import find_names
from tests.e2e.conftest import ARTIFACTS, new_context
from tests.e2e.test_csp import club  # noqa: F401 (the fixture)
from tests.factories import set_consent

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
SHOTS = ARTIFACTS / "reasons"


def test_no_page_that_shows_a_reason_names_an_opted_out_member(
    browser: Browser,
    live_server: LiveServer,
    club: dict[str, Any],  # noqa: F811
) -> None:
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)
    game = club["finished"]
    seats = {s.number: s for s in Seat.objects.select_related("member").filter(game=game)}
    shy, commissar = seats[2].member, seats[4].member
    assert shy is not None and commissar is not None
    shy.nickname = "Лиса"
    shy.save()
    # The demo's extra points, their reason as a host wrote it before the check: the
    # nickname declined, and a reference to the seat beside it.
    event = GameEvent.objects.get(game=game, type="bonus")
    event.payload = {**event.payload, "reason": "раскусил Лису на втором круге, {seat:2} молчала"}
    event.save()
    tasks.game_analyse(game.pk)
    set_consent(shy, consent=False)
    hidden = {2: "Лиса"}
    said = "раскусил место 2 на втором круге, место 2 молчала"
    for who, user in (("visitor", None), ("commissar", commissar)):
        context = new_context(browser, live_server, user=user)
        page = context.new_page()
        page.goto(f"{live_server.url}/games/{game.pk}/", wait_until="networkidle")
        for details in page.locator("details.why").all():
            details.evaluate("node => { node.open = true; }")
        text = page.locator("main").inner_text()
        assert said in text, who
        assert find_names(text, hidden) == [], who
        page.screenshot(path=SHOTS / f"{who}-game.png", full_page=True)
        if user is not None:
            page.goto(f"{live_server.url}/players/{user.pk}/", wait_until="networkidle")
            for details in page.locator("details.why").all():
                details.evaluate("node => { node.open = true; }")
            text = page.locator("main").inner_text()
            assert said in text
            assert find_names(text, hidden) == []
            page.screenshot(path=SHOTS / f"{who}-player.png", full_page=True)
        context.close()
    # The commissar's personal report.
    score = PlayerScore.objects.get(game=game, seat=4)
    report = reports.report_text(game, score, commissar)
    assert said in report and find_names(report, hidden) == []
    # The game's host, who ran it, still reads the name (as a reference, the nickname).
    context = new_context(browser, live_server, user=club["host"])
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/?public=1", wait_until="networkidle")
    assert "раскусил Лису на втором круге, Лиса молчала" in page.locator("main").inner_text()
    context.close()
