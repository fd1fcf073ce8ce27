"""The spectators' page (games/live.py, static/games/live.js) in Chromium at 360×640 and on
a TV at 1920×1080: a host's events recorded through the API appear on it within 2 s, in
the reader's language, and nothing of the night shows before the morning. Screenshots in
var/test-artifacts/e2e/live-*.png."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, expect
from pytest_django.live_server_helper import LiveServer

from accounts.services import api_token_create
from club.kernel.clubs import Club
from games.models import Game, Spectators
from games.online import services as online_play
from games.online.sweep import online_sweep
from games.ratings.tasks import game_analyse
from tests.e2e.conftest import (
    ARTIFACTS,
    PHONE,
    new_context,
    polls_answered,
    untranslated,
    watch_of,
)
from tests.factories import make_member
from tests.games.online.tables import table_of
from tests.games.recording import TOWN_WINS, evening_with_players, make_host, record, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
# How soon a tap shows: the page polls every second (static/games/live.js).
WITHIN_MS = 2000
PHASE = {"ru": ("День 1", "Ночь 1", "День 2"), "en": ("Day 1", "Night 1", "Day 2")}
NOMINATED = {"ru": "Выставлены: 3", "en": "Nominated: 3"}
PLAYER = {"ru": "Игрок", "en": "Player"}


class Host:
    """The host's device, posting events to the API as a phone would, one after another."""

    def __init__(self, context: BrowserContext, live_server: LiveServer, game: Game) -> None:
        self.request = context.request
        self.url = f"{live_server.url}/api/v1/games/{game.pk}/events"
        self.auth = {"Authorization": f"Bearer {api_token_create(member=game.host).key}"}
        self.seq = game.last_seq

    def tap(self, event: dict[str, Any]) -> None:
        self.seq += 1
        body = json.dumps({**event, "seq": self.seq})
        answer = self.request.post(
            self.url, data=body, headers={**self.auth, "Content-Type": "application/json"}
        )
        assert answer.status == 201, answer.text()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_hosts_taps_appear_on_the_spectators_page_within_two_seconds(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    evening, players = evening_with_players()
    game = start_game(make_host(), evening, players)
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    context = new_context(browser, live_server, viewport=PHONE, language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/live/", wait_until="networkidle")
    host = Host(context, live_server, game)
    day_one, night_one, day_two = PHASE[language]

    host.tap({"type": "day", "n": 1})
    phase = page.locator("[data-live=phase]")
    expect(phase).to_have_text(day_one, timeout=WITHIN_MS)
    host.tap({"type": "foul", "seat": 3})
    expect(page.locator("[data-seat='3'] .marks")).to_have_text("●", timeout=WITHIN_MS)
    host.tap({"type": "night", "n": 1})
    expect(phase).to_have_text(night_one, timeout=WITHIN_MS)
    host.tap({"type": "check", "by": 1, "target": 4})
    host.tap({"type": "kill", "by": "mafia", "target": 6})
    host.tap({"type": "check", "by": 4, "target": 2})
    host.tap({"type": "heal", "target": 7})
    polls_answered(page, "live.json")  # asked after the night's taps, and told nothing
    # Seat 6 is shot, but the table learns it in the morning.
    assert "out" not in (page.locator("[data-seat='6']").get_attribute("class") or "")
    page.screenshot(path=ARTIFACTS / f"live-night-{language}.png", full_page=True)
    host.tap({"type": "day", "n": 2})
    expect(phase).to_have_text(day_two, timeout=WITHIN_MS)
    expect(page.locator("[data-seat='6']")).to_have_class(re.compile(r"\bout\b"), timeout=WITHIN_MS)
    expect(page.locator("[data-live=left]")).to_contain_text("6", timeout=WITHIN_MS)
    host.tap({"type": "nominate", "by": 4, "target": 3})
    expect(page.locator("[data-live=nominees]")).to_have_text(
        NOMINATED[language], timeout=WITHIN_MS
    )
    expect(page.locator("[data-seat='3']")).to_have_class(
        re.compile(r"\bnominated\b"), timeout=WITHIN_MS
    )
    page.screenshot(path=ARTIFACTS / f"live-morning-{language}.png", full_page=True)
    nicknames = [player.nickname for player in players]
    assert untranslated(page, language, nicknames) == []
    # The page fits the phone: no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    watch = watch_of(context)
    assert (watch.console_errors, watch.failed, watch.csp_violations(page)) == ([], [], [])
    context.close()


def test_the_spectators_page_on_a_tv(browser: Browser, live_server: LiveServer) -> None:
    evening, players = evening_with_players()
    game = start_game(make_host(), evening, players)
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    context = new_context(browser, live_server, viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/live/", wait_until="networkidle")
    Host(context, live_server, game).tap({"type": "day", "n": 1})
    expect(page.locator("[data-live=phase]")).to_have_text("День 1", timeout=WITHIN_MS)
    # Every seat fits the screen, five to a row, in large type.
    rows = {page.locator(f"[data-seat='{n}']").bounding_box()["y"] for n in range(1, 6)}  # type: ignore[index]
    assert len(rows) == 1
    size = page.locator("[data-seat='1'] .nick").evaluate("e => getComputedStyle(e).fontSize")
    assert float(size.removesuffix("px")) >= 24
    # No nickname is cut short on a TV: neither at its side nor below its second line.
    cut = page.locator(".live-seats .nick").evaluate_all(
        "nicks => nicks.filter(e => e.scrollWidth > e.clientWidth"
        " || e.scrollHeight > e.clientHeight + 1).length"
    )
    assert cut == 0
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    page.screenshot(path=ARTIFACTS / "live-tv-ru.png")
    watch = watch_of(context)
    assert (watch.console_errors, watch.failed, watch.csp_violations(page)) == ([], [], [])
    context.close()


def test_the_end_shows_the_winner_the_cards_and_the_scores(
    browser: Browser, live_server: LiveServer
) -> None:
    evening, players = evening_with_players()
    host = make_host()
    game = start_game(host, evening, players)
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    record(game, host, *TOWN_WINS)
    game_analyse(game.pk)  # the worker's task once the end commits
    context = new_context(browser, live_server, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/live/", wait_until="networkidle")
    expect(page.locator("[data-live=result]")).to_contain_text("Победили красные")
    expect(page.locator("[data-seat='1'] .role")).to_have_text("Босс")
    expect(page.locator(".live-seats .points")).to_have_count(len(players))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=ARTIFACTS / "live-end-ru.png", full_page=True)
    watch = watch_of(context)
    assert (watch.console_errors, watch.failed, watch.csp_violations(page)) == ([], [], [])
    context.close()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_an_online_games_thread_and_votes_appear_on_its_spectators_page(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    """An online game's live table (games/online/spectators.py, static/games/live-online.js):
    a post and a vote show within 2 s, a hidden player's nickname in a post as «место N»,
    and a shot left by day shows nothing."""
    shy = make_member(nickname="Скрытный", publication_consent=False)
    starts = timezone.now() + timedelta(seconds=30)
    game = online_play.online_game_create(
        host=make_host(), member_ids=[shy.pk, *(make_member().pk for _ in range(9))],
        starts_at=starts,
    )  # fmt: skip
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    assert online_sweep(now=starts + timedelta(seconds=1)) == 1  # day 1
    seats = {seat.number: seat for seat in table_of(game.pk).seats}
    shy_seat = next(n for n, seat in seats.items() if seat.member == shy)
    talker = next(n for n, seat in seats.items() if n != shy_seat and seat.role == "civilian")
    mafioso = next(n for n, seat in seats.items() if seat.role == "mafia")
    context = new_context(browser, live_server, viewport=PHONE, language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/live/", wait_until="networkidle")
    expect(page.locator("[data-live=phase]")).to_have_text(PHASE[language][0])
    # The day's deadline in the club's time zone, as the players' page gives it.
    deadline = table_of(game.pk).table.deadline_at
    assert deadline is not None
    at = deadline.astimezone(Club.current().zone)
    when = at.strftime("%H:%M") if language == "ru" else at.strftime("%I:%M %p")
    expect(page.locator("[data-live=clock]")).to_contain_text(when)

    def act(seat: int, **event: object) -> None:
        online_play.online_act(game_id=game.pk, user=seats[seat].player, event=event)

    act(talker, type="post", text="Скрытного проверить бы")
    seat_word = {"ru": f"место {shy_seat}", "en": f"seat {shy_seat}"}[language]
    thread = page.locator("[data-live=thread]")
    expect(thread).to_contain_text(f"{seat_word} проверить бы", timeout=WITHIN_MS)
    act(talker, type="vote", target=shy_seat)
    expect(page.locator("[data-live=tally]")).to_contain_text(
        f"{talker} → {PLAYER[language]} {shy_seat}", timeout=WITHIN_MS
    )
    before = page.locator("#live").inner_text()
    act(mafioso, type="shot", target=talker)  # left by day for the night: the mafia's
    polls_answered(page, "live.json")
    assert page.locator("#live").inner_text() == before
    assert "Скрытный" not in page.content()
    page.screenshot(path=ARTIFACTS / f"live-online-{language}.png", full_page=True)
    nicknames = [seat.player.nickname for seat in seats.values()]
    assert untranslated(page, language, [*nicknames, "проверить бы"]) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    watch = watch_of(context)
    assert (watch.console_errors, watch.failed, watch.csp_violations(page)) == ([], [], [])
    context.close()


def test_an_online_games_spectators_page_on_a_tv(browser: Browser, live_server: LiveServer) -> None:
    starts = timezone.now() + timedelta(seconds=30)
    game = online_play.online_game_create(
        host=make_host(), member_ids=[make_member().pk for _ in range(10)], starts_at=starts
    )
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    assert online_sweep(now=starts + timedelta(seconds=1)) == 1  # day 1
    seats = table_of(game.pk).seats
    for seat in seats[:3]:
        online_play.online_act(
            game_id=game.pk, user=seat.player, event={"type": "post", "text": "Доброе утро, стол"}
        )
    context = new_context(browser, live_server, viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/live/", wait_until="networkidle")
    expect(page.locator("[data-live=phase]")).to_have_text("День 1")
    expect(page.locator("[data-live=thread] article")).to_have_count(3)
    # Five seats to a row in large type, no nickname cut short.
    rows = {page.locator(f"[data-seat='{n}']").bounding_box()["y"] for n in range(1, 6)}  # type: ignore[index]
    assert len(rows) == 1
    size = page.locator("[data-seat='1'] .nick").evaluate("e => getComputedStyle(e).fontSize")
    assert float(size.removesuffix("px")) >= 24
    cut = page.locator(".live-seats .nick").evaluate_all(
        "nicks => nicks.filter(e => e.scrollWidth > e.clientWidth).length"
    )
    assert cut == 0
    page.screenshot(path=ARTIFACTS / "live-online-tv-ru.png")
    watch = watch_of(context)
    assert (watch.console_errors, watch.failed, watch.csp_violations(page)) == ([], [], [])
    context.close()
