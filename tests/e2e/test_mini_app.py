"""The club's Mini App in Chromium at 360×640, as Telegram opens it: a fake Telegram.WebApp
(Telegram's script, served in place of telegram.org's) hands the page a signed initData and
a dark theme. A member signs up for an evening, reads «Мои вечера», switches a setting and
opens their player page; a Telegram user who is not a member joins. Each screen in
Telegram's colours, with Telegram's back button off the main page, axe-clean, no console
error, no failed request, no policy violation. Screenshots: var/test-artifacts/e2e/app-*."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from club.models import Registration
from tests.accounts.test_mini_app import launch
from tests.e2e.conftest import ARTIFACTS, new_context, watch_of
from tests.e2e.test_host_screen import axe_violations
from tests.factories import make_evening, make_member

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
TOKEN = "7777777:mini-app-test-token"
THEME = {
    "bg_color": "#17212b",
    "secondary_bg_color": "#232e3c",
    "section_bg_color": "#17212b",
    "header_bg_color": "#17212b",
    "text_color": "#f5f5f5",
    "hint_color": "#8b9aa8",
    "link_color": "#6ab3f3",
    "button_color": "#2f6ea5",
    "button_text_color": "#ffffff",
}


def telegram(init_data: str) -> str:
    """Telegram's Mini App script, as far as the club's pages use it."""
    app = {
        "initData": init_data,
        "initDataUnsafe": {},
        "version": "8.0",
        "platform": "android",
        "colorScheme": "dark",
        "themeParams": THEME,
    }
    return f"""
const app = Object.assign({json.dumps(app)}, {{
  ready() {{ window.__tgReady = true; }},
  expand() {{}},
  onEvent() {{}},
  BackButton: {{
    show() {{ window.__back = true; }}, hide() {{ window.__back = false; }}, onClick() {{}},
  }},
}});
window.Telegram = Object.assign(window.Telegram || {{}}, {{WebApp: app}});"""


def app_context(browser: Browser, live_server: LiveServer, init_data: str) -> BrowserContext:
    context = new_context(browser, live_server)
    context.route(
        "https://telegram.org/js/telegram-web-app.js*",
        lambda route: route.fulfill(body=telegram(init_data), content_type="text/javascript"),
    )
    return context


def check(page: Page, context: BrowserContext, live_server: LiveServer, name: str) -> None:
    """The screen as Telegram shows it: the theme's colours, the tabs, nothing sideways,
    axe-clean; kept as a picture."""
    assert (
        page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        == "rgb(23, 33, 43)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(page, live_server) == [], name
    page.screenshot(path=ARTIFACTS / f"app-{name}.png", full_page=True)
    assert watch_of(context).console_errors == [] and watch_of(context).failed == []
    assert watch_of(context).csp_violations(page) == []


@pytest.fixture(autouse=True)
def _bot(settings: Settings) -> None:
    settings.TELEGRAM_BOT_TOKEN = TOKEN
    settings.TELEGRAM_BOT_USERNAME = "club_bot"


def test_a_member_uses_the_club_app_inside_telegram(
    browser: Browser, live_server: LiveServer
) -> None:
    member = make_member(telegram_id=555001)
    evening = make_evening(capacity=15)
    context = app_context(browser, live_server, launch())
    page = context.new_page()
    page.goto(f"{live_server.url}/tg/")
    page.wait_for_url(f"{live_server.url}/")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__tgReady") is True
    assert page.locator(".app-tabs").is_visible() and page.locator(".site-header").count() == 0
    assert page.evaluate("window.__back") is False  # the main page: no back button
    check(page, context, live_server, "1-evenings")

    page.locator(".evening-card").first.click()
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__back") is True
    page.get_by_role("button", name="Ок, играем").click()
    page.get_by_text("Готово: вы в игре.").wait_for()
    assert Registration.objects.get(member=member, evening=evening).status == "confirmed"
    check(page, context, live_server, "2-signed-up")

    page.get_by_role("link", name="Мои вечера").click()
    page.wait_for_load_state("networkidle")
    assert "в игре, № 1 в списке" in page.locator("main").inner_text()
    check(page, context, live_server, "3-my-evenings")

    page.get_by_role("link", name="Настройки").click()
    page.wait_for_load_state("networkidle")
    page.get_by_role("switch", name="Напоминать о вечерах").uncheck()
    page.locator("#consent").get_by_role("button", name="Сохранить").click()
    page.get_by_text("Сохранено.").wait_for()
    member.refresh_from_db()
    assert member.reminders is False
    check(page, context, live_server, "4-settings")

    page.get_by_role("link", name="Мои игры").click()
    page.wait_for_load_state("networkidle")
    assert member.nickname in page.locator("h1").inner_text()
    check(page, context, live_server, "5-my-games")
    context.close()


def test_a_telegram_user_joins_the_club_in_the_app(
    browser: Browser, live_server: LiveServer
) -> None:
    context = app_context(browser, live_server, launch(telegram_id=555777))
    page = context.new_page()
    page.goto(f"{live_server.url}/tg/")
    page.wait_for_url(f"{live_server.url}/tg/join/")
    page.wait_for_load_state("networkidle")
    check(page, context, live_server, "6-join")
    page.get_by_label("Никнейм", exact=True).fill("Новенький")
    page.get_by_label("Дата рождения").fill("1995-03-04")
    page.get_by_role("button", name="Вступить").click()
    page.wait_for_url(f"{live_server.url}/")
    assert User.objects.get(nickname="Новенький").telegram_id == 555777
    assert page.locator(".app-tabs").is_visible()
    context.close()


def test_outside_telegram_the_start_page_says_where_to_open_it(
    browser: Browser, live_server: LiveServer
) -> None:
    context = new_context(browser, live_server)  # telegram.org answers with no WebApp
    page = context.new_page()
    page.goto(f"{live_server.url}/tg/", wait_until="networkidle")
    assert page.locator("#mini-app-outside").is_visible()
    assert watch_of(context).console_errors == []
    context.close()
