"""A tournament followed live (tournaments/live.py, static/tournaments/live.js) in Chromium:
on a phone at 360×640 the standings follow a game's end by themselves within 2 s, the
final's table is on top while the final is played; on a TV too. Screenshots in
var/test-artifacts/e2e/tournament-live-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games.models import Game, Spectators
from tests.e2e.conftest import ARTIFACTS, PHONE, new_context, untranslated, watch_of
from tests.e2e.test_live_table import WITHIN_MS
from tests.e2e.test_venue_screen import NICKNAMES, TV
from tests.tournaments.test_live_standings import _played
from tests.tournaments.test_tournaments import EFFORT, admin, record_game, small
from tournaments import services
from tournaments.models import Stage, Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]


def _public(game: Game) -> Game:
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    return game


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_tournament_followed_live_on_a_phone_and_a_tv(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    organiser = admin()
    tournament, members = small(organiser, players=10, final_players=10, final_rounds=1)
    for member, nickname in zip(members, NICKNAMES, strict=False):
        member.nickname = nickname
        member.save(update_fields=["nickname"])
    services.tournament_seat(tournament_id=tournament.pk, actor=organiser, effort=EFFORT)
    first, second, third = Table.objects.filter(round__tournament=tournament).order_by(
        "round__number"
    )
    for n, table in enumerate((first, second), 1):
        game = _public(services.table_game_start(table_id=table.pk, host=organiser))
        record_game(game, organiser, seed=n, by_api=False)
    running = _public(services.table_game_start(table_id=third.pk, host=organiser))
    steps = _played(running, organiser, seed=3)
    next(steps)  # round 3 has begun
    context = new_context(browser, live_server, viewport=PHONE, language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/live/", wait_until="networkidle")
    rows = page.locator("[data-screen=standings] tr")
    expect(rows).to_have_count(10)
    playing = page.locator("[data-screen=playing] li")
    expect(playing).to_have_count(1)
    before = rows.all_inner_texts()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=ARTIFACTS / f"tournament-live-phone-{language}.png", full_page=True)

    # Round 3's game ends: within 2 s the standings count it, by themselves.
    next(steps)
    expect(playing).to_have_count(0, timeout=WITHIN_MS)
    assert rows.all_inner_texts() != before

    # The final: its table on top once its game begins.
    services.tournament_final(tournament_id=tournament.pk, actor=organiser, effort=EFFORT)
    final_table = Table.objects.get(round__tournament=tournament, round__stage=Stage.FINAL)
    final = _public(services.table_game_start(table_id=final_table.pk, host=organiser))
    final_steps = _played(final, organiser, seed=4)
    next(final_steps)
    headline = page.locator("[data-screen=headline]")
    expect(headline).to_be_visible(timeout=WITHIN_MS)
    expect(headline.locator(".live-seats li")).to_have_count(10)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=ARTIFACTS / f"tournament-final-phone-{language}.png", full_page=True)
    assert untranslated(page, language, [*NICKNAMES, tournament.name]) == []

    tv = context.new_page()
    tv.set_viewport_size(TV)
    tv.goto(f"{live_server.url}/tournaments/{tournament.pk}/live/", wait_until="networkidle")
    expect(tv.locator("[data-screen=headline]")).to_be_visible()
    assert tv.evaluate("document.documentElement.scrollWidth") <= TV["width"]
    tv.screenshot(path=ARTIFACTS / f"tournament-final-tv-{language}.png")
    watch = watch_of(context)
    assert (watch.console_errors, watch.failed, watch.csp_violations(page)) == ([], [], [])
    context.close()
