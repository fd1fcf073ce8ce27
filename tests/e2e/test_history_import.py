"""The organiser brings the club's past in on a phone (#42, docs/history.md «Import»):
upload → preview (problems with lines, names matched) → confirm → progress → done → undo,
at 360×640 in both languages; screenshots in var/test-artifacts/e2e/history/."""

from __future__ import annotations

import shutil

import pytest
from playwright.sync_api import Browser, FilePayload, Page
from pytest_django.live_server_helper import LiveServer

from accounts.models import Role
from games.models import Game
from history.imports import confirming, reading, rebuild
from history.models import HistoryImport
from tests.e2e.conftest import ARTIFACTS, new_context, untranslated, watch_of
from tests.factories import make_member
from tests.history.sheets import csv_bytes, game_rows

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = ARTIFACTS / "history"


def fits(page: Page) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= 360"))


def sheet() -> bytes:
    rows = game_rows(day="01.12.2026") + game_rows(day="01.12.2026", number="2", winner="чёрные")
    rows += game_rows(day="24.11.2026", table="2", prefix="Гость")
    broken = game_rows(day="24.11.2026", number="2")
    broken[3][5] = "пират"  # a role the club does not have
    return csv_bytes(rows + broken)


def test_an_import_from_upload_to_undo_on_a_phone_in_both_languages(
    browser: Browser, live_server: LiveServer
) -> None:
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)
    organiser = make_member(nickname="Организатор", role=Role.ORGANISER)
    make_member(nickname="Игрок 1")
    make_member(nickname="Игрок 2")
    data_words = [f"Игрок {n}" for n in range(10, 0, -1)] + [f"Гость {n}" for n in range(10, 0, -1)]
    data_words += ["Организатор", "games.csv", "пират"]
    for language in ("ru", "en"):
        context = new_context(browser, live_server, user=organiser, language=language)
        page = context.new_page()
        page.goto(f"{live_server.url}/history/import/", wait_until="networkidle")
        assert fits(page)
        page.screenshot(path=SHOTS / f"{language}-1-upload.png", full_page=True)
        upload: FilePayload = {"name": "games.csv", "mimeType": "text/csv", "buffer": sheet()}
        page.set_input_files("#history-file", files=[upload])
        page.locator("#upload button[type=submit]").click()
        page.wait_for_url("**/history/import/*/")
        # The worker reads the file (history/imports/reading.py); the page waits for it.
        page.wait_for_selector("#progress progress")
        assert fits(page)
        page.screenshot(path=SHOTS / f"{language}-1b-reading.png")
        reading.upload_read(history_import_id=HistoryImport.objects.latest("pk").pk)
        page.wait_for_selector("#summary", timeout=10_000)
        summary = page.locator("#summary").inner_text()
        assert (
            "Будут созданы 3 игры" if language == "ru" else "3 games will be created"
        ) in summary
        problems = page.locator("#problems").inner_text()
        assert "пират" in problems
        names = page.locator("#names").inner_text()
        assert ("тот же ник" if language == "ru" else "the same nickname") in names
        assert fits(page)
        assert untranslated(page, language, data_words) == []
        page.screenshot(path=SHOTS / f"{language}-2-preview.png")
        page.locator("#names").scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / f"{language}-3-names.png")
        page.locator("#games").scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / f"{language}-4-games.png")
        page.locator("#confirm button[type=submit]").click()
        page.wait_for_selector("#progress progress")
        creating = page.locator("#progress").inner_text()
        assert ("Игры создаются" if language == "ru" else "The games are being created") in creating
        assert fits(page)
        assert untranslated(page, language, data_words) == []
        page.screenshot(path=SHOTS / f"{language}-5a-creating.png")
        assert Game.objects.count() == 0  # the worker creates them, not the request
        confirming.confirm_run(history_import_id=HistoryImport.objects.latest("pk").pk)
        # The page's poll moves on to the rebuild's progress by itself.
        page.wait_for_selector("#progress progress[value]", timeout=10_000)
        assert Game.objects.count() == 3
        page.screenshot(path=SHOTS / f"{language}-5-progress.png")
        rebuild.history_rebuild(history_import_id=HistoryImport.objects.latest("pk").pk)
        # The page's poll brings the result in place of the bar.
        page.wait_for_selector("#progress form", timeout=10_000)
        done = page.locator("#progress").inner_text()
        assert ("Перенесено." if language == "ru" else "Imported.") in done
        assert fits(page)
        assert untranslated(page, language, data_words) == []
        page.screenshot(path=SHOTS / f"{language}-6-done.png")
        # A game's page: results only.
        game = Game.objects.order_by("pk").first()
        assert game is not None
        page.goto(f"{live_server.url}/games/{game.pk}/", wait_until="networkidle")
        assert page.locator("#results-only").is_visible()
        assert fits(page)
        page.screenshot(path=SHOTS / f"{language}-7-game.png", full_page=True)
        page.go_back()
        page.locator("#progress form button").click()
        page.wait_for_selector("#progress progress")
        rebuild.history_rebuild(history_import_id=HistoryImport.objects.latest("pk").pk)
        page.wait_for_selector("#progress .notice.warn", timeout=10_000)
        page.screenshot(path=SHOTS / f"{language}-8-undone.png")
        assert not Game.objects.exists()
        watch = watch_of(context)
        assert (watch.console_errors, watch.failed, watch.csp_violations(page)) == ([], [], [])
        context.close()
