"""The stream overlays (templates/live/overlay.html, static/live/overlay.js) in Chromium at
their OBS sizes, 1920×1080, 1920×260 and 1920×100: the page is transparent (computed style,
and a screenshot without the default white whose corners are see-through), nothing
scrolls, and a host's tap through the API shows on every overlay within 2 s, in Russian
and in English. Screenshots over a dark and a light picture in
var/test-artifacts/e2e/overlay-*.png."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from games.models import Spectators
from games.ratings.tasks import game_analyse
from live.links import link_make
from live.models import LinkKind
from tests.e2e.conftest import ARTIFACTS, new_context, watch_of
from tests.e2e.test_live_table import WITHIN_MS, Host
from tests.games.recording import TOWN_WINS, evening_with_players, make_host, record, start_game
from tests.tournaments.test_tournaments import EFFORT, record_game, small
from tests.tournaments.test_tournaments import admin as tournament_admin
from tournaments import services
from tournaments.models import Table, TableJudge

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
SIZES = {"full": (1920, 1080), "strip": (1920, 260), "bar": (1920, 100)}
DAY_ONE = {"ru": "День 1", "en": "Day 1"}
NOMINATED = {"ru": "Выставлены: 3", "en": "Nominated: 3"}
NEXT = {"ru": "Следующая игра · Раунд 2: стол 1", "en": "Next game · Round 2: table 1"}
WON = {"ru": "Победил|Победили", "en": "Winner"}
# A dark and a light picture under the overlay, as a stream's video might be.
UNDER = {"dark": (16, 24, 32, 255), "light": (235, 235, 225, 255)}


def _transparent(page: Page) -> None:
    """The page's own backgrounds are transparent and nothing scrolls."""
    colours = page.evaluate(
        "[document.documentElement, document.body].map(e => getComputedStyle(e).backgroundColor)"
    )
    assert colours == ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)"]
    sizes: dict[str, Any] = page.evaluate(
        "({w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight,"
        " cursor: getComputedStyle(document.body).cursor})"
    )
    width, height = page.viewport_size["width"], page.viewport_size["height"]  # type: ignore[index]
    assert (sizes["w"], sizes["h"], sizes["cursor"]) == (width, height, "none")


def _shot(page: Page, name: str) -> None:
    """A screenshot without Chromium's white: its corners must be see-through. It is kept
    laid over a dark and a light picture, to be looked at."""
    shot = Image.open(io.BytesIO(page.screenshot(omit_background=True))).convert("RGBA")
    width, height = shot.size
    corners = [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)]
    assert [shot.getpixel(corner)[3] for corner in corners] == [0, 0, 0, 0], name  # type: ignore[index]
    for under, colour in UNDER.items():
        picture = Image.new("RGBA", shot.size, colour)
        Image.alpha_composite(picture, shot).save(ARTIFACTS / f"overlay-{name}-{under}.png")


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_overlays_are_transparent_and_follow_a_tap_within_two_seconds(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    evening, players = evening_with_players()
    host = make_host()
    game = start_game(host, evening, players)
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    _, key = link_make(author=host, kind=LinkKind.OVERLAY, game_id=game.pk)
    pages: dict[str, Page] = {}
    contexts = []
    for size, (width, height) in SIZES.items():
        # OBS keeps no cookie: the language is the address's.
        context = new_context(
            browser, live_server, viewport={"width": width, "height": height}, language="ru"
        )
        contexts.append(context)
        page = context.new_page()
        page.goto(
            f"{live_server.url}/live/overlay/{key}/{size}/?lang={language}",
            wait_until="networkidle",
        )
        pages[size] = page
        _transparent(page)
    tapper = Host(contexts[0], live_server, game)
    tapper.tap({"type": "day", "n": 1})
    for size in ("full", "bar"):
        expect(pages[size].locator("[data-live=phase]")).to_have_text(
            DAY_ONE[language], timeout=WITHIN_MS
        )
    tapper.tap({"type": "foul", "seat": 3})
    for size in ("full", "strip"):
        expect(pages[size].locator("[data-seat='3'] .fouls")).to_have_text("●", timeout=WITHIN_MS)
    tapper.tap({"type": "nominate", "by": 1, "target": 3})
    for size in ("full", "bar"):
        expect(pages[size].locator("[data-live=vote]")).to_have_text(
            NOMINATED[language], timeout=WITHIN_MS
        )
    # The speaker is lit on the strip.
    expect(pages["strip"].locator("li.speaking")).to_have_count(1, timeout=WITHIN_MS)
    for size, page in pages.items():
        _transparent(page)
        _shot(page, f"{size}-{language}")
        # Every seat's name fits its card on the strip.
        if size != "bar":
            cut = page.locator(".ov-strip .nick").evaluate_all(
                "nicks => nicks.filter(e => e.scrollWidth > e.clientWidth).length"
            )
            assert cut == 0, size
    for context in contexts:
        watch = watch_of(context)
        assert (watch.console_errors, watch.failed, watch.csp_violations(context.pages[0])) == (
            [],
            [],
            [],
        )
        context.close()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_tournament_s_full_overlay_shows_its_standings_and_next_game(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    organiser = tournament_admin()
    tournament, _members = small(organiser, players=10)
    judge = make_host()
    TableJudge.objects.create(tournament=tournament, table=1, judge=judge)
    services.tournament_seat(tournament_id=tournament.pk, actor=organiser, effort=EFFORT)
    first = Table.objects.get(round__tournament=tournament, round__number=1)
    game = services.table_game_start(table_id=first.pk, host=judge)
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    record_game(game, judge, seed=3, by_api=False)
    _, key = link_make(author=organiser, kind=LinkKind.OVERLAY, tournament_id=tournament.pk)
    context = new_context(browser, live_server, viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"{live_server.url}/live/overlay/{key}/full/?lang={language}")
    expect(page.locator("[data-live=standings] li")).to_have_count(10, timeout=WITHIN_MS)
    expect(page.locator("[data-live=next-title]")).to_contain_text(NEXT[language])
    expect(page.locator("[data-live=next] li")).to_have_count(10)
    expect(page.locator("[data-live=phase]")).to_have_text(re.compile(WON[language]))
    _transparent(page)
    _shot(page, f"tournament-{language}")
    watch = watch_of(context)
    assert (watch.console_errors, watch.failed, watch.csp_violations(page)) == ([], [], [])
    context.close()


def test_an_evening_table_s_full_overlay_turns_to_the_next_game_with_the_standings(
    browser: Browser, live_server: LiveServer
) -> None:
    evening, players = evening_with_players()
    host = make_host()
    first = start_game(host, evening, players)
    first.spectators = Spectators.PUBLIC
    first.save(update_fields=["spectators"])
    record(first, host, *TOWN_WINS)
    game_analyse(first.pk)  # the worker's task once the end commits: the standings' points
    _, key = link_make(author=host, kind=LinkKind.OVERLAY, evening_id=evening.pk, table=1)
    context = new_context(browser, live_server, viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"{live_server.url}/live/overlay/{key}/full/")
    expect(page.locator("[data-live=phase]")).to_have_text("Победили красные (мирные)")
    expect(page.locator("[data-live=standings] li")).to_have_count(len(players))
    # The host seats the next game at the table: the overlay turns to it by itself.
    second = start_game(host, evening, players)
    second.spectators = Spectators.PUBLIC
    second.save(update_fields=["spectators"])
    expect(page.locator("[data-live=title]")).to_have_text(
        f"Стол 1 · Игра {second.number}", timeout=WITHIN_MS * 2
    )
    expect(page.locator("[data-live=phase]")).to_have_text("До первого дня")
    expect(page.locator(".ov-strip li")).to_have_count(len(players))
    _transparent(page)
    _shot(page, "table-ru")
    watch = watch_of(context)
    assert (watch.console_errors, watch.failed, watch.csp_violations(page)) == ([], [], [])
    context.close()
