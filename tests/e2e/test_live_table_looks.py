"""The spectators' page (static/games/live.js, live.css) as a reader sees it, through a game's
day, vote, defence, last word, night and end, on a phone at 360×640 and on a TV at
1920×1080, in Russian and in English: nothing wider than the screen, the clock's line never
broken inside «Последнее слово: место 6» (the seat's number once wrapped onto the clock's
line on a phone), and axe-core's serious findings (contrast among them) none. Screenshots in
var/test-artifacts/e2e/live-looks/, looked at when the page changes."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize
from pytest_django.live_server_helper import LiveServer

from games.models import Game, Spectators
from games.ratings.tasks import game_analyse
from tests.e2e.conftest import ARTIFACTS, PHONE, new_context, untranslated, watch_of
from tests.e2e.test_host_screen import axe_violations
from tests.games.recording import (
    OPENING,
    TOWN_WINS,
    evening_with_players,
    make_host,
    record,
    start_game,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]

SHOTS = ARTIFACTS / "live-looks"
TV: ViewportSize = {"width": 1920, "height": 1080}


def speech(seat: int, minute: int) -> dict[str, Any]:
    at = f"2026-12-06T18:{minute:02d}:00+03:00"
    return {"type": "speech", "seat": seat, "start": at, "end": at, "limit": 60}


DAY_ONE = [
    {"type": "day", "n": 1},
    {"type": "nominate", "by": 1, "target": 5},
    speech(1, 1),
    {"type": "foul", "seat": 8},
    {"type": "foul", "seat": 8},
    {"type": "nominate", "by": 2, "target": 10},
    speech(2, 2),
]
# Every speech of day 1 with three nominees: the vote is being taken.
VOTE = [*DAY_ONE, {"type": "nominate", "by": 3, "target": 4}]
VOTE += [speech(seat, seat) for seat in range(3, 13)]
# The vote over three nominees: a defence speech, the longest label the clock has.
DEFENCE = [*VOTE, {"type": "votes", "counts": {"5": 5, "10": 5, "4": 2}}]
STAGES: dict[str, list[dict[str, Any]]] = {
    "day": DAY_ONE,
    "vote": VOTE,
    "defence": DEFENCE,
    "night": OPENING[:-1],
    "last-word": OPENING,  # seat 6, shot on night 1, has the morning's last word
    "end": TOWN_WINS,
}
# Each stage's clock as the page must write it on one line, when the stage has one.
CLOCK = {
    "ru": {"day": "Говорит: место 3", "defence": "Оправдательная речь: место 4",
           "last-word": "Последнее слово: место 6"},
    "en": {"day": "Speaking: seat 3", "defence": "Defence: seat 4",
           "last-word": "Last word: seat 6"},
}  # fmt: skip
# The defence stage's tally, each nominee's votes said with its seat.
TALLY = {"ru": "Голоса: место 4 — 2, место 5 — 5, место 10 — 5",
         "en": "The vote: seat 4 — 2, seat 5 — 5, seat 10 — 5"}  # fmt: skip

# What on the page is drawn over more lines than its words need: a line of the clock broken
# inside its label, a seat's card whose number, name and fouls do not share a line.
BROKEN_JS = r"""() => {
  const broken = [];
  const who = document.querySelector('[data-live=clock] .who');
  if (who) {
    // The label's last two words («место 6») on one line, the time beside the label.
    const text = who.firstChild;
    const at = text.textContent.search(/\S+\s\S+$/);
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, text.textContent.length);
    const lines = new Set([...range.getClientRects()].map((box) => Math.round(box.top)));
    if (lines.size > 1) broken.push('clock: the seat parted from its word: ' + text.textContent);
    const label = who.getBoundingClientRect();
    const time = who.parentElement.querySelector('strong').getBoundingClientRect();
    const beside = time.left >= label.right - 0.5
      && time.top < label.bottom && label.top < time.bottom;
    if (!beside) broken.push('clock: the time is not beside its label');
  }
  for (const seat of document.querySelectorAll('[data-live=seats] li')) {
    const boxes = [...seat.querySelectorAll('.no, .nick, .marks')]
      .map((node) => node.getBoundingClientRect()).filter((box) => box.width > 0);
    const oneLine = Math.max(...boxes.map((box) => box.top))
      < Math.min(...boxes.map((box) => box.bottom));
    if (!oneLine) broken.push('seat ' + seat.dataset.seat);
  }
  const wide = [...document.querySelectorAll('#live *')]
    .filter((node) => node.getBoundingClientRect().right > innerWidth + 0.5)
    .map((node) => node.className || node.tagName);
  return broken.concat(wide.map((name) => 'wider than the screen: ' + name));
}"""


def game_at(events: list[dict[str, Any]], *, analysed: bool) -> tuple[Game, list[str]]:
    evening, players = evening_with_players()
    host = make_host()
    game = start_game(host, evening, players)
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    record(game, host, *events)
    if analysed:
        game_analyse(game.pk)  # the worker's task once the end commits: the scores
    return game, [player.nickname for player in players]


def look(page: Page, name: str) -> list[str]:
    problems: list[str] = page.evaluate(BROKEN_JS)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)
    return [f"{name}: {problem}" for problem in problems]


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_spectators_page_reads_well_at_every_stage_on_a_phone_and_a_tv(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    phone = new_context(browser, live_server, viewport=PHONE, language=language)
    tv = new_context(browser, live_server, viewport=TV, language=language)
    for stage, events in STAGES.items():
        game, nicknames = game_at(events, analysed=stage == "end")
        for size, context in (("phone", phone), ("tv", tv)):
            page = context.new_page()
            page.goto(f"{live_server.url}/games/{game.pk}/live/", wait_until="networkidle")
            name = f"{stage}-{size}-{language}"
            problems += look(page, name)
            if stage in CLOCK[language]:
                who = page.locator("[data-live=clock] .who")
                assert who.inner_text().replace("\xa0", " ") == CLOCK[language][stage], name
            if stage == "defence":
                tally = page.locator("[data-live=tally]").inner_text().replace("\xa0", " ")
                assert tally.startswith(TALLY[language]), (name, tally)
            problems += [f"{name}: {found}" for found in axe_violations(page, live_server)]
            problems += [f"{name}: {text}" for text in untranslated(page, language, nicknames)]
            if size == "tv":
                height = page.evaluate("document.documentElement.scrollHeight")
                problems += [f"{name}: {height} px tall"] if height > TV["height"] else []
            page.close()
    assert problems == [], "\n".join(problems)
    for context in (phone, tv):
        watch = watch_of(context)
        assert (watch.console_errors, watch.failed) == ([], [])
        context.close()
