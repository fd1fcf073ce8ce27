"""The history's exports and a member's own data on a phone (#42), at 360×640 in both
languages: the season's page offers its exports to the club's staff and the file comes
down; the settings page's «Your data» downloads the member's file, and «Forget me» refuses
a wrong nickname, then forgets the account. Screenshots in var/test-artifacts/e2e/history/."""

from __future__ import annotations

import json
import shutil
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from club.kernel.clubs import Club
from games.models import Seat
from games.ratings.seasons import QUARTER, season_of
from tests.e2e.conftest import ARTIFACTS, new_context, untranslated
from tests.e2e.test_csp import club  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
SHOTS = ARTIFACTS / "history"


def fits(page: Page) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= 360"))


def nicknames() -> list[str]:
    return sorted(User.objects.values_list("nickname", flat=True), key=len, reverse=True)


def test_the_seasons_exports_and_a_members_data_and_forgetting_on_a_phone(
    browser: Browser,
    live_server: LiveServer,
    club: dict[str, Any],  # noqa: F811
) -> None:
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)
    game = club["finished"]
    played = game.evening.starts_at.astimezone(Club.current().zone).date()
    season = season_of(played, QUARTER).key
    seated = list(Seat.objects.filter(game=game, member__isnull=False).select_related("member"))
    leaving = {"ru": seated[4].player, "en": seated[5].player}
    for language in ("ru", "en"):
        words = nicknames()
        context = new_context(browser, live_server, user=club["admin"], language=language)
        page = context.new_page()
        page.goto(f"{live_server.url}/leaderboard/?season={season}", wait_until="networkidle")
        exports = page.locator("details#export-season")
        exports.locator("summary").tap()
        exports.scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / f"{language}-season-exports.png")
        assert fits(page)
        # The rating system's own name (the leaderboard's line above) is a name.
        assert untranslated(page, language, [*words, "OpenSkill"]) == []
        with page.expect_download() as download:
            exports.locator("a[href$='as=csv']").first.tap()
        path = download.value.path()
        header = path.read_text(encoding="utf-8-sig").splitlines()[0]
        assert header.startswith('"игра","дата"' if language == "ru" else '"game","date"')
        context.close()

        member = leaving[language]
        context = new_context(browser, live_server, user=member, language=language)
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/settings/", wait_until="networkidle")
        page.locator("#my-data").scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / f"{language}-settings-my-data.png")
        assert fits(page)
        assert untranslated(page, language, words) == []
        with page.expect_download() as download:
            page.locator("#my-data a").tap()
        data = json.loads(download.value.path().read_text(encoding="utf-8"))
        assert data["account"]["nickname"] == member.nickname
        assert data["games"], "their games are in the file"

        page.fill("#forget-nickname", member.nickname + "x")
        with page.expect_navigation(wait_until="networkidle"):
            page.locator("#forget button").tap()
        refusal = "Type your nickname exactly" if language == "en" else "введите свой ник точно"
        assert refusal in page.inner_text("body")
        page.screenshot(path=SHOTS / f"{language}-forget-refused.png")
        member.refresh_from_db()
        assert member.is_active  # nothing changed
        page.fill("#forget-nickname", member.nickname)
        with page.expect_navigation(wait_until="networkidle"):
            page.locator("#forget button").tap()
        page.screenshot(path=SHOTS / f"{language}-forgotten.png")
        member.refresh_from_db()
        assert not member.is_active and member.nickname.startswith("#forgotten-")
        context.close()
