"""The venue's screen (games/live_evening.py, static/games/screen.js) in Chromium: on a TV at
1920×1080 two tables side by side in large type with who plays next and the evening's
standings, in both languages; a host's tap shows within 2 s; a phone at 360×640 stacks it
without sideways scrolling. Screenshots in var/test-artifacts/e2e/screen-*.png."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from club.models import Evening
from games.models import Game, Spectators
from games.ratings.tasks import game_analyse
from games.starting import game_create
from tests.e2e.conftest import ARTIFACTS, PHONE, new_context, untranslated, watch_of
from tests.e2e.test_live_table import WITHIN_MS, Host
from tests.factories import make_evening, set_consent, sign_up_many
from tests.games.recording import LINEUP, TOWN_WINS, make_host, record

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
TV: ViewportSize = {"width": 1920, "height": 1080}
NICKNAMES = (
    "Ворон Чёрный", "Лиса", "Sokol", "Бархат", "Маэстро", "Kit", "Тень", "Шторм",
    "Пилот", "Nova", "Граф Монте-Кристо", "Дюна", "Орёл", "Луна", "Zen", "Фокус",
    "Рысь", "Атлас", "Ирис", "Барон", "Echo", "Мята", "Север", "Кедр",
)  # fmt: skip
WORDS = {
    "ru": ("Стол 1", "Стол 2", "День 2", "Кто играет следующим", "Итоги вечера"),
    "en": ("Table 1", "Table 2", "Day 2", "Who plays next", "The evening's standings"),
}


def _evening() -> tuple[User, Evening, list[User], Game, Game]:
    """Two tables under way (the second at its morning of day 2), a third game seated."""
    evening = make_evening(
        starts_at=timezone.now() + timedelta(hours=1),
        opens_at=timezone.now() - timedelta(days=1),
        capacity=30,
    )
    evening.tables = 2
    evening.save(update_fields=["tables"])
    players = [result.member for result in sign_up_many(evening, 24)]
    for player, nickname in zip(players, NICKNAMES, strict=True):
        player.nickname = nickname
    User.objects.bulk_update(players, ["nickname"])
    set_consent(players[4], consent=False)  # «Игрок 5» at table 1, and in the standings
    host = make_host()

    def start(people: list[User], table: int) -> Game:
        seats = {n: (m.pk, role) for n, (m, role) in enumerate(zip(people, LINEUP, strict=True), 1)}
        game = game_create(host=host, evening_id=evening.pk, seats=seats, table=table)
        game.spectators = Spectators.PUBLIC
        game.save(update_fields=["spectators"])
        return game

    # Game 1 at table 1 is played and scored: the standings have rows.
    done = start(players[:12], 1)
    record(done, host, *TOWN_WINS)
    game_analyse(done.pk)
    second = start(players[12:], 2)
    record(second, host, *TOWN_WINS[:7])
    # The next game at table 1 is seated, not begun: who plays next.
    first = start([*players[1:12], players[0]], 1)
    return host, evening, players, first, second


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_venue_screen_on_a_tv_follows_the_host_within_two_seconds(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    _host, evening, _players, seated, second = _evening()
    context = new_context(browser, live_server, viewport=TV, language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/evenings/{evening.pk}/screen/", wait_until="networkidle")
    one, two, day_two, next_title, standings = WORDS[language]
    tables = page.locator(".screen-table")
    expect(tables).to_have_count(2)
    expect(tables.nth(0).locator("[data-screen=title]")).to_contain_text(one)
    expect(tables.nth(1).locator("[data-screen=title]")).to_contain_text(two)
    expect(tables.nth(1).locator("[data-live=phase]")).to_have_text(day_two)
    expect(page.get_by_role("heading", name=next_title)).to_be_visible()
    expect(page.get_by_role("heading", name=standings)).to_be_visible()
    expect(page.locator(".screen-next-seats li")).to_have_count(12)
    expect(page.locator(".screen-standings li")).to_have_count(12)
    page.screenshot(path=ARTIFACTS / f"screen-tv-start-{language}.png", full_page=True)
    # Side by side: the two tables start at the same height, the side column at the right.
    boxes = [tables.nth(n).bounding_box() for n in range(2)]
    assert boxes[0] is not None and boxes[1] is not None
    assert abs(boxes[0]["y"] - boxes[1]["y"]) < 2 and boxes[1]["x"] > boxes[0]["x"] + 500
    # Large type, all of it on the screen.
    # The live screen redraws its rows: a row caught as it is replaced has no style yet
    # (NaN), so the size is read from the row on the page once it has one.
    nick = tables.nth(1).locator("[data-seat='1'] .nick")
    size = float("nan")
    for _ in range(50):
        size = nick.evaluate("e => e.isConnected ? parseFloat(getComputedStyle(e).fontSize) : NaN")
        if size == size:  # not NaN
            break
        page.wait_for_timeout(100)
    assert size >= 24
    assert page.evaluate("document.documentElement.scrollHeight") <= TV["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= TV["width"]

    # The seated game begins: within 2 s it is table 1's game and nobody is next.
    tap = Host(context, live_server, seated)
    tap.tap({"type": "day", "n": 1})
    first_phase = tables.nth(0).locator("[data-live=phase]")
    expect(first_phase).to_have_text("День 1" if language == "ru" else "Day 1", timeout=WITHIN_MS)
    expect(page.locator(".screen-next-seats li")).to_have_count(0, timeout=WITHIN_MS)
    tap.tap({"type": "foul", "seat": 2})
    expect(tables.nth(0).locator("[data-seat='2'] .marks")).to_have_text("●", timeout=WITHIN_MS)
    Host(context, live_server, second).tap({"type": "nominate", "by": 4, "target": 2})
    expect(tables.nth(1).locator("[data-seat='2']")).to_have_class(
        re.compile(r"\bnominated\b"), timeout=WITHIN_MS
    )
    page.screenshot(path=ARTIFACTS / f"screen-tv-{language}.png")
    assert untranslated(page, language, list(NICKNAMES)) == []
    # The member who refused publication is nowhere by name.
    assert NICKNAMES[4] not in page.content()
    watch = watch_of(context)
    assert (watch.console_errors, watch.failed, watch.csp_violations(page)) == ([], [], [])
    context.close()


def test_the_venue_screen_on_a_phone_stacks_everything(
    browser: Browser, live_server: LiveServer
) -> None:
    _host, evening, _players, _seated, second = _evening()
    context = new_context(browser, live_server, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/evenings/{evening.pk}/screen/", wait_until="networkidle")
    expect(page.locator(".screen-table")).to_have_count(2)
    expect(page.locator(".screen-standings li")).to_have_count(12)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # A speech of day 2 under way: its clock's line is the widest the table draws.
    at = timezone.now().isoformat()
    speech = {"type": "speech", "seat": 2, "start": at, "end": at, "limit": 60}
    Host(context, live_server, second).tap(speech)
    expect(page.locator(".screen-table").nth(1).locator("[data-live=clock]")).not_to_be_empty(
        timeout=WITHIN_MS
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=ARTIFACTS / "screen-phone-ru.png", full_page=True)
    watch = watch_of(context)
    assert (watch.console_errors, watch.failed, watch.csp_violations(page)) == ([], [], [])
    context.close()
