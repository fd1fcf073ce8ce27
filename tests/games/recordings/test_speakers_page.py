"""Who spoke when as a phone shows it (#30's walk: the picture's seat names read about 9 px
on a 360 px screen): the names at a readable size, clear of the bars, and the section in
the page's language, in Russian and English. Screenshots in var/test-artifacts/e2e/speakers/."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from club.models import Evening
from games.ratings import analysis as ratings_analysis
from tests.e2e.conftest import ARTIFACTS, browser, new_context, untranslated, watch_of  # noqa: F401
from tests.games.recordings.test_speakers import Heard, heard, table_sound  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = ARTIFACTS / "speakers"
SMALLEST_LABEL_PX = 11.5  # the names are drawn at 12 px; pico's body text is 16

GEOMETRY_JS = """() => {
  const svg = document.querySelector('figure.speaker-timeline svg');
  const labels = [...svg.querySelectorAll('text.tick')].filter((t) => !t.textContent.endsWith('′'));
  const bars = [...svg.querySelectorAll('rect.voice, rect.slot')];
  return {
    // The font's size as drawn: the CSS size times the picture's scale on the screen.
    sizes: labels.map((t) => parseFloat(getComputedStyle(t).fontSize) * svg.getScreenCTM().a),
    labelsEnd: Math.max(...labels.map((t) => t.getBoundingClientRect().right)),
    barsStart: Math.min(...bars.map((r) => r.getBoundingClientRect().left)),
    pageWidth: document.documentElement.scrollWidth,
  };
}"""


@pytest.mark.parametrize("language", ["ru", "en"])
def test_who_spoke_when_reads_on_a_phone(
    heard: Heard,  # noqa: F811
    browser: Browser,  # noqa: F811
    live_server: LiveServer,
    language: str,
) -> None:
    host, game, recording, players = heard
    longest = players[-1]  # a name the picture shortens: «12. Шахерезада…»
    longest.nickname = "Шахерезада Великолепная"
    longest.save(update_fields=["nickname"])
    # Two voices at once, as the analysis says them: seat 5 heard over the first speech's
    # speaker, and a second voice it could not name.
    assert recording.speakers is not None
    stored = copy.deepcopy(recording.speakers)  # the module's recording: each language's run
    stored["stretches"] = [s for s in stored["stretches"] if not s.get("over")]
    speech = next(s for s in stored["stretches"] if s["owner"] == s["seat"] and not s["night"])
    over = {**speech, "seat": 5, "over": True, "end": speech["start"] + 4.0}
    unnamed = {**over, "seat": None, "start": over["end"], "end": over["end"] + 2.0}
    recording.speakers = {**stored, "stretches": [*stored["stretches"], over, unnamed]}
    talk = recording.speakers["seats"]["5"]
    owner = str(speech["owner"])
    earlier = talk.get("over", {}).get(owner, 0.0)  # the other language's run's
    talk["others"][owner] = talk["others"].get(owner, 0.0) + 4.0 - earlier
    talk["over"] = {owner: 4.0}
    recording.save(update_fields=["speakers"])
    ratings_analysis.game_analysis_build(game_id=game.pk)
    client = Client()
    client.force_login(host)
    told = client.get(f"/api/v1/games/{game.pk}/analysis").json()["audio"]["speakers"]
    assert (told["two_voices"], told["unnamed_over"]) == (6.0, 2.0)
    fifth = next(s for s in told["seats"] if s["seat"] == 5)
    assert next(o for o in fifth["others"] if o["seat"] == speech["owner"])["over"] == 4.0
    context = new_context(browser, live_server, user=host, language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/?public=1#analysis")
    figure = page.locator("figure.speaker-timeline")
    figure.scroll_into_view_if_needed()
    shown: dict[str, Any] = page.evaluate(GEOMETRY_JS)
    assert len(shown["sizes"]) == len(players)
    assert min(shown["sizes"]) >= SMALLEST_LABEL_PX, shown["sizes"]
    assert shown["labelsEnd"] <= shown["barsStart"], "a seat's name runs into the bars"
    assert shown["pageWidth"] <= 360, "the picture swipes inside its frame, not the page"
    # The members' own words (nicknames, the venue) are shown as written.
    # The picture's shortened name too («12. Шахерезад…»).
    words = {*User.objects.values_list("nickname", flat=True), longest.nickname[:9]}
    data = sorted(words | {*Evening.objects.values_list("venue", flat=True)}, key=len, reverse=True)
    assert untranslated(page, language, data) == []
    assert figure.locator("rect.voice.over.seat-5").count() == 1
    said = {"ru": ["(из них 4 с поверх говорящего)", "Два голоса сразу: 6 с; в 2 с из них"]}
    section = page.locator("#analysis").inner_text()
    for phrase in said.get(language, ["(4 s over the speaker)", "Two voices at once: 6 s"]):
        assert phrase in section, phrase
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{language}-picture.png")
    table = page.locator("table.speakers")
    table.scroll_into_view_if_needed()
    table.evaluate("t => { t.parentElement.scrollLeft = 200; }")  # «in others' speeches»
    table.locator("xpath=..").screenshot(path=SHOTS / f"{language}-two-voices.png")
    assert watch_of(context).console_errors == []
    context.close()
