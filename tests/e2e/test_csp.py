"""Every page type under the site's Content-Security-Policy, in Chromium: each answers with
the policy, and the browser reports no violation, no console error and no failed request.

The hole it closes (#14): no policy at all, so any injected script would have run.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from tests.checks import present
from tests.e2e.conftest import new_context, watch_of
from tests.pages import demo_club, pages

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]


@pytest.fixture
def club(settings: Settings) -> dict[str, Any]:
    """The demo club, a running game of its host's, and a bot configured (so the login
    and profile pages load Telegram's script)."""
    settings.TELEGRAM_BOT_TOKEN = "123456:csp-test"
    settings.TELEGRAM_BOT_USERNAME = "club_bot"
    return demo_club()


def test_every_page_type_keeps_to_the_policy(
    browser: Browser, live_server: LiveServer, club: dict[str, Any]
) -> None:
    online_player = club["online"].seats.first().member
    who = {
        "visitor": None,
        "member": online_player,
        "host": club["host"],
        "admin": club["admin"],
    }
    problems: list[str] = []
    for role, paths in pages(club).items():
        context = new_context(browser, live_server, user=who[role])
        page = context.new_page()
        for path in paths:
            response = page.goto(live_server.url + path, wait_until="networkidle")
            policy = present(response).headers.get("content-security-policy", "")
            if "script-src 'self'" not in policy:
                problems.append(f"{role} {path}: no policy ({policy!r})")
            for violation in watch_of(context).csp_violations(page):
                problems.append(f"{role} {path}: CSP {violation}")
        problems += [f"{role}: console: {text}" for text in watch_of(context).console_errors]
        problems += [f"{role}: {failed}" for failed in watch_of(context).failed]
        context.close()
    assert problems == [], "\n".join(problems)


def test_the_seating_and_the_confirm_screens_keep_to_the_policy(
    browser: Browser, live_server: LiveServer, club: dict[str, Any]
) -> None:
    context = new_context(browser, live_server, user=club["host"])
    page = context.new_page()
    page.goto(f"{live_server.url}/evenings/{club['evening'].pk}/games/new/")
    page.get_by_role("button", name="Дальше: стол").click()
    page.wait_for_load_state("networkidle")
    assert watch_of(context).csp_violations(page) == []
    assert watch_of(context).console_errors == []


def test_an_injected_inline_script_is_blocked(
    browser: Browser, live_server: LiveServer, club: dict[str, Any]
) -> None:
    """The policy works: a script the page did not bring with its nonce does not run."""
    context = new_context(browser, live_server)
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.evaluate(
        """() => { const s = document.createElement('script');
                   s.textContent = 'window.__ran = true'; document.body.append(s); }"""
    )
    assert page.evaluate("window.__ran === true") is False
    assert any("script-src" in v for v in watch_of(context).csp_violations(page))
