"""The producer's view (live/producer.py, static/live/producer.js) in Chromium at 360×640 and
1920×1080, in both languages: a host's taps through the API appear on it within 2 s, the
cards coloured by team and the night's actions as they are tapped, and the page says its
delay. Screenshots in var/test-artifacts/e2e/producer-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games.ratings import stats
from live.links import link_make, link_revoke
from live.models import LinkKind
from tests.e2e.conftest import ARTIFACTS, PHONE, new_context, untranslated, watch_of
from tests.e2e.test_live_table import WITHIN_MS, Host
from tests.games.recording import evening_with_players, make_host, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
WORDS = {
    "ru": {
        "night": "Ночь 1, сейчас",
        "don": "проверяет место 4: комиссар",
        "shot": "Мафия: выстрел в место 6",
        "delay": "Без задержки",
    },
    "en": {
        "night": "Night 1, as it happens",
        "don": "checks seat 4: the commissar",
        "shot": "The mafia shoots seat 6",
        "delay": "Shown as it happens",
    },
}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_producer_follows_a_hosts_taps_with_the_cards_on_a_phone(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    evening, players = evening_with_players()
    host_member = make_host()
    game = start_game(host_member, evening, players)
    _link, key = link_make(author=host_member, kind=LinkKind.PRODUCER, game_id=game.pk)
    context = new_context(browser, live_server, viewport=PHONE, language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/live/producer/{key}/", wait_until="networkidle")
    words = WORDS[language]
    expect(page.locator("[data-producer=delay]")).to_have_text(words["delay"])
    host = Host(context, live_server, game)
    host.tap({"type": "day", "n": 1})
    host.tap({"type": "night", "n": 1})
    expect(page.locator("[data-producer=night-title]")).to_have_text(
        words["night"], timeout=WITHIN_MS
    )
    # Every card, coloured by its team, before anything of the night.
    expect(page.locator("[data-seat='1']")).to_have_class(re.compile(r"\bteam-black\b"))
    expect(page.locator("[data-seat='6']")).to_have_class(re.compile(r"\bteam-red\b"))
    host.tap({"type": "check", "by": 1, "target": 4})
    actions = page.locator("[data-producer=actions] li")
    expect(actions.nth(0)).to_contain_text(words["don"], timeout=WITHIN_MS)
    host.tap({"type": "kill", "by": "mafia", "target": 6})
    expect(actions.nth(1)).to_have_text(words["shot"], timeout=WITHIN_MS)
    expect(page.locator("[data-seat='6'] .aimed")).to_have_text("🎯", timeout=WITHIN_MS)
    host.tap({"type": "check", "by": 4, "target": 2})
    host.tap({"type": "heal", "target": 7})
    expect(actions).to_have_count(4, timeout=WITHIN_MS)
    page.screenshot(path=ARTIFACTS / f"producer-night-{language}.png", full_page=True)
    host.tap({"type": "day", "n": 2})
    expect(page.locator("[data-seat='6']")).to_have_class(re.compile(r"\bout\b"), timeout=WITHIN_MS)
    page.screenshot(path=ARTIFACTS / f"producer-morning-{language}.png", full_page=True)
    # The club's catalogue names the cards in its own language.
    data = [player.nickname for player in players] + list(stats.role_names().values())
    assert untranslated(page, language, data) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    watch = watch_of(context)
    assert (watch.console_errors, watch.failed, watch.csp_violations(page)) == ([], [], [])
    context.close()


def test_the_producer_s_view_on_a_wide_screen_says_its_delay(
    browser: Browser, live_server: LiveServer
) -> None:
    evening, players = evening_with_players()
    host_member = make_host()
    game = start_game(host_member, evening, players)
    _link, key = link_make(
        author=host_member, kind=LinkKind.PRODUCER, game_id=game.pk, delay_seconds=1
    )
    context = new_context(browser, live_server, viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"{live_server.url}/live/producer/{key}/", wait_until="networkidle")
    expect(page.locator("[data-producer=delay]")).to_have_text("С задержкой 1 с")
    host = Host(context, live_server, game)
    for event in (
        {"type": "day", "n": 1},
        {"type": "night", "n": 1},
        {"type": "check", "by": 1, "target": 4},
        {"type": "kill", "by": "mafia", "target": 6},
    ):
        host.tap(event)
    actions = page.locator("[data-producer=actions] li")
    expect(actions).to_have_count(2, timeout=WITHIN_MS + 1000)  # a second late
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    page.screenshot(path=ARTIFACTS / "producer-tv-ru.png")
    watch = watch_of(context)
    assert (watch.console_errors, watch.failed, watch.csp_violations(page)) == ([], [], [])
    context.close()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_host_makes_a_link_on_the_game_s_page_sees_it_once_and_revokes_it(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    evening, players = evening_with_players()
    host_member = make_host()
    game = start_game(host_member, evening, players)
    context = new_context(browser, live_server, user=host_member, language=language)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    # What the copy button writes, as this page wrote it: the system's clipboard is one for
    # every browser on the machine, and the other language's test copies beside this one.
    context.add_init_script(
        """const write = navigator.clipboard.writeText.bind(navigator.clipboard);
        navigator.clipboard.writeText = (text) => {
          window.copiedText = text;
          return write(text);
        };"""
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/?public=1")
    form = page.locator("#producer-links")
    form.locator("input[name=delay]").fill("30")
    form.locator("button[type=submit]").first.click()
    address = page.locator("#producer-address")
    expect(address).to_have_value(re.compile(r"/live/producer/lv_[A-Za-z0-9_-]{43}/$"))
    # The copy button's module runs before DOMContentLoaded; a click on a page still being
    # parsed (a loaded machine) would find no listener yet.
    page.wait_for_load_state("domcontentloaded")
    page.locator("button[data-copy]").click()
    page.wait_for_function("() => window.copiedText !== undefined")
    copied = page.evaluate("window.copiedText")
    assert copied == address.input_value()
    page.screenshot(path=ARTIFACTS / f"producer-link-made-{language}.png", full_page=True)
    key = copied.rstrip("/").rsplit("/", 1)[1]
    page.locator(".producer-made a").click()
    rows = page.locator(".producer-link-list li")
    expect(rows).to_have_count(1)
    assert key not in page.content() and key[:10] in rows.first.inner_text()
    form.scroll_into_view_if_needed()
    page.screenshot(path=ARTIFACTS / f"producer-links-{language}.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    rows.first.locator("button[type=submit]").click()
    expect(page.locator(".producer-link-list li").first).to_have_class("muted")
    watch = watch_of(context)
    assert (watch.console_errors, watch.failed, watch.csp_violations(page)) == ([], [], [])
    context.close()


def test_a_revoked_link_blanks_an_open_producer_s_page_and_says_so(
    browser: Browser, live_server: LiveServer
) -> None:
    evening, players = evening_with_players()
    host_member = make_host()
    game = start_game(host_member, evening, players)
    link, key = link_make(author=host_member, kind=LinkKind.PRODUCER, game_id=game.pk)
    context = new_context(browser, live_server, viewport=PHONE, language="en")
    page = context.new_page()
    page.goto(f"{live_server.url}/live/producer/{key}/", wait_until="networkidle")
    host = Host(context, live_server, game)
    host.tap({"type": "day", "n": 1})
    host.tap({"type": "night", "n": 1})
    host.tap({"type": "kill", "by": "mafia", "target": 6})
    actions = page.locator("[data-producer=actions] li")
    expect(actions.nth(0)).to_have_text("The mafia shoots seat 6", timeout=WITHIN_MS)
    # A mafioso's card is named as the live page names it, not as the shot's row.
    mafioso = page.locator("[data-role=mafia] .producer-card .role").first
    expect(mafioso).to_have_text("Mafia")
    seat_names = page.locator("[data-live=seats] li").all_inner_texts()
    assert seat_names and any(players[0].nickname in text for text in seat_names)
    link_revoke(author=host_member, link_id=link.pk)
    notice = page.locator("[data-producer=pending]")
    expect(notice).to_have_text(
        "This link does not work: it was revoked, or never made.", timeout=WITHIN_MS
    )
    expect(page.locator("[data-live=seats] li")).to_have_count(0)
    expect(actions).to_have_count(0)
    text = page.locator("#producer").inner_text()
    assert "Mafia" not in text and "mafia" not in text
    assert all(player.nickname not in text for player in players)
    context.close()
