"""The recording's start from its sound on the recording's page (#30), on a phone at 360×640
in both languages: the sound's start used, a given start that does not fit (with the host's
button, which takes the sound's start and queues the analysis again), a paused recording,
and a sound that does not tell. Screenshots in var/test-artifacts/e2e/recording-start/."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from django.core.files import File
from django.template.defaultfilters import filesizeformat
from django.utils import timezone, translation
from playwright.sync_api import Browser, Page
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from games.models import Game
from games.recordings.models import Recording, RecordingStatus
from tests.e2e.conftest import ARTIFACTS, logged_in, new_context, untranslated, watch_of
from tests.e2e.test_host_screen import axe_violations
from tests.games.recording import evening_with_players, make_host, start_game
from tests.sound import quiet, write

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("migration_rows", "recording_storage"),
]
SHOTS = ARTIFACTS / "recording-start"

# What the analysis stored, by state: the given start's distance from the game's start,
# the offset found from it, its confidence, the pause.
STATES: dict[str, dict[str, Any]] = {
    "sound": {"given": 0.0, "offset": 12.0, "confidence": 0.86, "pause": None},
    "unfit": {"given": 170.0, "offset": -130.0, "confidence": 0.81, "pause": None},
    "paused": {
        "given": 0.0,
        "offset": 12.0,
        "confidence": 0.78,
        "pause": {
            "at": 1805.3,
            "earliest": 1790.0,
            "latest": 1822.5,
            "seconds": 62.4,
            "offset_after": 74.4,
            "confidence_after": 0.74,
        },
    },
    "unsure": {"given": 0.0, "offset": 3.1, "confidence": 0.12, "pause": None},
}
SAID = {
    ("ru", "sound"): "на 12 с позже начала игры (уверенность ",
    ("en", "sound"): "12 s after the game's start (confidence ",
    ("ru", "unfit"): "по звуку запись началась на 2 мин 10 с раньше",
    ("en", "unfit"): "by the sound the recording began 2 min 10 s earlier",
    ("ru", "paused"): "Запись ставили на паузу: примерно на 30:05 записи пропало около 1 мин 2 с",
    (
        "en",
        "paused",
    ): "The recording was paused and resumed: about 1 min 2 s is missing at about 30:05",
    ("ru", "unsure"): "По звуку не понять, когда началась запись (уверенность 0,12, нужно 0,5)",
    ("en", "unsure"): "The sound does not tell when the recording began (confidence 0.12",
}


KEPT = {"ru": "загружено %s, хранится %s", "en": "%s uploaded, %s kept"}


def filesizeformat_in(language: str, recording: Recording) -> tuple[str, str]:
    with translation.override(language):
        return filesizeformat(recording.size), filesizeformat(recording.stored_size or 0)


def analysed_as(recording: Recording, game: Game, state: str) -> None:
    """The recording as the analysis left it in `state` (the figures written directly: the
    sound's own analysis is tests/games/recordings/test_recording_start.py's)."""
    figures = STATES[state]
    given = game.started_at + timedelta(seconds=figures["given"])
    sure = figures["confidence"] >= 0.5
    used = given + timedelta(seconds=figures["offset"]) if sure and not figures["given"] else given
    Recording.objects.filter(pk=recording.pk).update(
        status=RecordingStatus.ANALYSED,
        given_started_at=given,
        started_at=used,
        start_offset=figures["offset"],
        start_confidence=figures["confidence"],
        pause=figures["pause"],
        analysed_at=timezone.now(),
    )


def fits(page: Page) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= 360"))


def test_the_start_by_the_sound_on_a_phone_in_both_languages(
    browser: Browser, live_server: LiveServer, tmp_path: Path
) -> None:
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)
    host = make_host(nickname="Ведущая")
    evening, players = evening_with_players()
    game = start_game(host, evening, players)
    Game.objects.filter(pk=game.pk).update(started_at=timezone.now() - timedelta(hours=2))
    game.refresh_from_db()
    sound = write(tmp_path / "table.ogg", quiet(np.random.default_rng(1), 5.0), "ogg")
    # An hour of WAV the worker transcoded (services.recording_compact): the page says both
    # sizes, the upload's and the one kept.
    uploaded = 691_000_000
    recording = Recording(
        game=game,
        uploaded_by=host,
        original_name="стол.wav",
        size=uploaded,
        received=uploaded,
        stored_size=sound.stat().st_size,
        started_at=game.started_at,
        duration=3600.0,
        voiced=[],
    )
    with sound.open("rb") as data:
        recording.file.save(f"game-{game.pk}.ogg", File(data), save=False)
    recording.save()
    # The members' own words (and the file's name), shown as written in either language.
    data_words = sorted(
        {*User.objects.values_list("nickname", flat=True), recording.original_name},
        key=len,
        reverse=True,
    )
    problems: list[str] = []
    for language in ("ru", "en"):
        context = new_context(browser, live_server, user=host, language=language)
        page = context.new_page()
        for state in STATES:
            analysed_as(recording, game, state)
            page.goto(f"{live_server.url}/games/{game.pk}/recording/", wait_until="networkidle")
            sizes = KEPT[language] % filesizeformat_in(language, recording)
            assert sizes in page.locator("#recording").inner_text(), (language, state)
            said = page.locator(".recording-start")
            assert SAID[language, state] in said.inner_text(), (language, state)
            has_button = said.locator("button").count() == 1
            assert has_button is (state == "unfit"), (language, state)
            said.scroll_into_view_if_needed()
            page.screenshot(path=SHOTS / f"{language}-{state}.png", full_page=True)
            if not fits(page):
                problems.append(f"{language} {state}: wider than the phone")
            problems += [f"{language} {state}: axe {v}" for v in axe_violations(page, live_server)]
            problems += [
                f"{language} {state}: untranslated {text!r}"
                for text in untranslated(page, language, data_words)
            ]
        problems += [f"{language}: console {error}" for error in watch_of(context).console_errors]
        context.close()
    assert problems == [], "\n".join(problems)

    # The host's button: the sound's start becomes the given one, analysed again.
    analysed_as(recording, game, "unfit")
    context = new_context(browser, live_server, user=host, language="ru")
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/recording/", wait_until="networkidle")
    page.get_by_role("button", name="Взять начало по звуку и пересчитать").tap()
    page.locator("#recording .notice.ok").wait_for()
    assert "Начало по звуку принято" in page.locator("#recording").inner_text()
    page.screenshot(path=SHOTS / "ru-unfit-taken.png", full_page=True)
    recording.refresh_from_db()
    assert recording.status == RecordingStatus.QUEUED
    expected = game.started_at + timedelta(seconds=40)
    assert recording.given_started_at == expected and recording.started_at == expected
    context.close()


def test_a_phone_in_another_time_zone_sends_the_start_the_field_shows(
    browser: Browser, live_server: LiveServer, tmp_path: Path
) -> None:
    """The start field shows the club's wall clock; a phone set to another zone (here two
    hours east of Moscow) sends that moment, not one read in its own zone: untouched, the
    given start is the game's."""
    host = make_host(nickname="Ведущая")
    evening, players = evening_with_players()
    game = start_game(host, evening, players)
    sound = write(tmp_path / "table.wav", quiet(np.random.default_rng(2), 3.0), "wav")
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, timezone_id="Asia/Yekaterinburg"
    )
    context = logged_in(context, live_server, host)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/recording/", wait_until="networkidle")
    page.locator("#recording-upload input[type=file]").set_input_files(str(sound))
    page.locator("#recording-upload button[type=submit]").click()
    page.wait_for_function("() => !document.querySelector('#recording-upload')", timeout=20_000)
    recording = Recording.objects.get(game=game)
    assert abs((recording.started_at - game.started_at).total_seconds()) < 1
    context.close()
