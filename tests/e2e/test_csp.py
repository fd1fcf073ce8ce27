"""Every page type under the site's Content-Security-Policy, in Chromium: each answers with
the policy, and the browser reports no violation, no console error and no failed request.

The hole it closes (#14): no policy at all, so any injected script would have run.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command

from accounts.models import User
from club.models import Evening, EveningStatus
from games.models import Game, GameStatus, Ruleset
from tests.e2e.conftest import new_context
from tests.games.recording import evening_with_players, record, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]


@pytest.fixture
def club(settings):
    """The demo club, a running game of its host's, and a bot configured (so the login
    and profile pages load Telegram's script)."""
    settings.TELEGRAM_BOT_TOKEN = "123456:csp-test"
    settings.TELEGRAM_BOT_USERNAME = "club_bot"
    call_command("demo_data", stdout=open("/dev/null", "w"))  # noqa: SIM115
    host = User.objects.get(nickname="Ведущий")
    evening, players = evening_with_players(12)
    running = start_game(host, evening, players)
    record(running, host, {"type": "day", "n": 1})
    return {
        "host": host,
        "admin": User.objects.get(nickname="admin"),
        "member": User.objects.get(nickname="Ворон"),
        "running": running,
        "evening": evening,
        "open_evening": Evening.objects.filter(status=EveningStatus.SCHEDULED).latest("pk"),
        "finished": Game.objects.get(status=GameStatus.FINISHED, ruleset=Ruleset.CLUB),
        "online": Game.objects.get(ruleset=Ruleset.ONLINE),
    }


def pages(club) -> dict[str, list[str]]:
    """The page types, by who opens them."""
    finished, online = club["finished"], club["online"]
    return {
        "visitor": [
            "/",
            f"/evenings/{club['open_evening'].pk}/",
            "/accounts/login/",
            "/accounts/signup/",
            "/accounts/password/reset/",
            "/leaderboard/",
            f"/players/{club['member'].pk}/",
            f"/games/{finished.pk}/",
            "/api/v1/docs",
            "/tg/",
        ],
        "member": [
            "/evenings/mine/",
            "/accounts/profile/",
            "/accounts/settings/",
            "/online/",
            f"/online/{online.pk}/",
        ],
        "host": [
            f"/games/{club['running'].pk}/",
            f"/games/{club['running'].pk}/recording/",
            f"/evenings/{club['evening'].pk}/games/new/",
            "/online/new/",
        ],
        "admin": [
            "/admin/",
            "/admin/games/game/",
            f"/admin/games/game/{finished.pk}/change/",
            "/admin/games/game/import/",
            "/admin/accounts/user/",
            f"/admin/club/evening/{club['evening'].pk}/change/",
            "/admin/club/clubsettings/1/change/",
            "/admin/notifications/notification/",
        ],
    }


def test_every_page_type_keeps_to_the_policy(browser, live_server, club) -> None:
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
            policy = response.headers.get("content-security-policy", "")
            if "script-src 'self'" not in policy:
                problems.append(f"{role} {path}: no policy ({policy!r})")
            for violation in context.watch.csp_violations(page):
                problems.append(f"{role} {path}: CSP {violation}")
        problems += [f"{role}: console: {text}" for text in context.watch.console_errors]
        problems += [f"{role}: {failed}" for failed in context.watch.failed]
        context.close()
    assert problems == [], "\n".join(problems)


def test_the_seating_and_the_confirm_screens_keep_to_the_policy(browser, live_server, club):
    context = new_context(browser, live_server, user=club["host"])
    page = context.new_page()
    page.goto(f"{live_server.url}/evenings/{club['evening'].pk}/games/new/")
    page.get_by_role("button", name="Дальше: стол").click()
    page.wait_for_load_state("networkidle")
    assert context.watch.csp_violations(page) == []
    assert context.watch.console_errors == []


def test_an_injected_inline_script_is_blocked(browser, live_server, club) -> None:
    """The policy works: a script the page did not bring with its nonce does not run."""
    context = new_context(browser, live_server)
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.evaluate(
        """() => { const s = document.createElement('script');
                   s.textContent = 'window.__ran = true'; document.body.append(s); }"""
    )
    assert page.evaluate("window.__ran === true") is False
    assert any("script-src" in v for v in context.watch.csp_violations(page))
