"""A player's statistics of play and the club's figures on a phone (#42,
docs/statistics.md): the figures, the bars of wins by role and table size, the pairs and a
figure hidden below its minimum, the organiser's page, at 360×640 in both languages;
screenshots in var/test-artifacts/e2e/play/ and figures/."""

from __future__ import annotations

import shutil
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page
from pytest_django.live_server_helper import LiveServer

from accounts.models import Role
from tests.e2e.conftest import ARTIFACTS, new_context, untranslated, watch_of
from tests.factories import make_evening, make_member
from tests.games.ratings.played import BLACK_WINS, FACTS_GAME, game_played
from tests.games.recording import make_host

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = ARTIFACTS / "play"
NICKS = [
    "Ворон", "Лиса", "Барон", "Шериф", "Тень", "Кот Бегемот",
    "Северянка", "Ватсон", "Граф", "Пчела", "Мята", "Оса",
]  # fmt: skip


def fits(page: Page) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= 360"))


def test_a_players_statistics_read_on_a_phone_in_both_languages(
    browser: Browser, live_server: LiveServer
) -> None:
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)
    players = [make_member(nickname=nick) for nick in NICKS]
    host = make_host(nickname="Ведущий")
    for _ in range(6):
        game_played(players, host=host)
    for _ in range(3):
        game_played(players, host=host, events=BLACK_WINS)
    doctor = players[4]  # seat 5: 9 games, 6 won; votes and nominations on black
    data = sorted([*NICKS, "Ведущий"], key=len, reverse=True)
    for language in ("ru", "en"):
        context = new_context(browser, live_server, user=doctor, language=language)
        page = context.new_page()
        page.goto(f"{live_server.url}/players/{doctor.pk}/#play", wait_until="networkidle")
        section = page.locator("#play")
        text = section.inner_text()
        assert ("мало игр: 9 из 10" if language == "ru" else "too few games: 9 of 10") in text
        assert section.locator(".rate-chart svg").count() == 2
        assert section.locator(".pairs li a").count() == 6  # three with, three against
        section.scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / f"{language}-player-play.png")
        page.locator(".rate-chart").first.scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / f"{language}-player-bars.png")
        page.locator(".pairs").first.scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / f"{language}-player-pairs.png")
        assert fits(page)
        assert untranslated(page, language, data) == []
        # The host's own page: the games they hosted, red against black.
        page.goto(f"{live_server.url}/players/{host.pk}/#play", wait_until="networkidle")
        hosting = page.locator("#play").inner_text()
        assert ("Провёл игр: 9" if language == "ru" else "9 games hosted") in hosting
        page.locator("#play").scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / f"{language}-host-play.png")
        watch = watch_of(context)
        assert (watch.console_errors, watch.failed, watch.csp_violations(page)) == ([], [], [])
        context.close()


def test_the_clubs_figures_read_on_a_phone_in_both_languages(
    browser: Browser, live_server: LiveServer
) -> None:
    shots = ARTIFACTS / "figures"
    shutil.rmtree(shots, ignore_errors=True)
    shots.mkdir(parents=True)
    players = [make_member(nickname=nick) for nick in NICKS]
    host = make_host(nickname="Ведущий")
    for days, events in ((3, FACTS_GAME), (10, BLACK_WINS), (17, FACTS_GAME), (24, FACTS_GAME)):
        starts_at = timezone.now() - timedelta(days=days)
        evening = make_evening(starts_at=starts_at, opens_at=starts_at - timedelta(days=6))
        for _ in range(2):
            game_played(players, host=host, events=events, evening=evening)
    organiser = make_member(nickname="Организатор", role=Role.ORGANISER)
    data = sorted([*NICKS, "Ведущий", "Организатор"], key=len, reverse=True)
    for language in ("ru", "en"):
        context = new_context(browser, live_server, user=organiser, language=language)
        page = context.new_page()
        page.goto(f"{live_server.url}/figures/", wait_until="networkidle")
        assert page.locator("#attendance .rate-chart svg g").count() == 4
        page.screenshot(path=shots / f"{language}-attendance.png")
        for part in ("evenings", "people", "outcomes", "durations"):
            page.locator(f"#{part}").scroll_into_view_if_needed()
            page.screenshot(path=shots / f"{language}-{part}.png")
        assert fits(page)
        assert untranslated(page, language, data) == []
        watch = watch_of(context)
        assert (watch.console_errors, watch.failed, watch.csp_violations(page)) == ([], [], [])
        context.close()
