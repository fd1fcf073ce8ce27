"""The scores on the host's screen at 360×640 (issue #28's walk): extra points and the
best move stay in sight once given, ↶ says which of them it takes back, the ☰ menu's items
are thumb targets, two victims of night 1 are captioned as the givers of the best move,
the green frame is on the one who gives the last word, and «Допы или штраф…» is offered
only while the club's window for them is open.

Each test starts from a game recorded on the server (tests.games.recording) and looks at
the screen a host would open on it; the screenshots are in var/test-artifacts/e2e/scores/.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext
from pytest_django.live_server_helper import LiveServer

from club.kernel.clubs import Club
from games.models import Game
from games.rules.table import table_for
from tests.checks import present
from tests.e2e.conftest import ARTIFACTS, new_context, untranslated, watch_of
from tests.e2e.host_driver import HostScreen, shown_box
from tests.e2e.test_host_screen import axe_violations
from tests.games.recording import (
    OPENING,
    TOWN_WINS,
    evening_with_players,
    make_host,
    record,
    start_game,
    view_of,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]

SHOTS = ARTIFACTS / "scores"
# The 15 seats of the touch test (tests/e2e/test_host_touch.py): a maniac (4) besides the
# mafia, so that night 1 can take two.
FIFTEEN = [
    "civilian", "boss", "civilian", "maniac", "mafia", "civilian", "commissar", "civilian",
    "instigator", "mafia", "civilian", "doctor", "civilian", "civilian", "civilian",
]  # fmt: skip
WORDS = {
    "ru": {
        "given": "Начислено",
        "undo_bonus": "Отменить допы +0,15 месту 1",
        "undo_penalty": "Отменить штраф −0,20 месту 1",
        "undo_best_move": "Отменить ЛХ 6",
        "yes_undo": "Да, отменить",
        "keep": "Оставить",
        "givers": "Кто называет ЛХ:",
        "closed": "Допы: окно закрылось",
        "points": "+0,15",
        "penalty": "−0,20",
    },
    "en": {
        "given": "Given",
        "undo_bonus": "Undo the extra points +0.15 of seat 1",
        "undo_penalty": "Undo the penalty −0.20 of seat 1",
        "undo_best_move": "Undo the best move of 6",
        "yes_undo": "Yes, undo it",
        "keep": "Keep it",
        "givers": "Who names the best move:",
        "closed": "Extra points: the window closed",
        "points": "+0.15",
        "penalty": "−0.20",
    },
}


@pytest.fixture(autouse=True)
def shots_folder() -> Iterator[None]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield


def opened(
    browser: Browser, live_server: LiveServer, game: Game, host: Any, language: str = "ru"
) -> tuple[BrowserContext, HostScreen]:
    """The host's screen of `game` on a 360×640 phone."""
    context = new_context(browser, live_server, user=host, language=language)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("html[data-host-ready]")
    return context, HostScreen(page)


def twelve(events: list[dict[str, Any]] | None = None) -> tuple[Any, Game, dict[int, str]]:
    """A 12-seat game (tests.games.recording's line-up: 1 boss, 2–3 mafia, 4 commissar,
    5 doctor) with `events` recorded: the host, the game and its nicknames."""
    host = make_host(nickname="Ведущая")
    evening, players = evening_with_players(12)
    game = start_game(host, evening, players)
    if events:
        record(game, host, *events)
    nicks = {seat.number: seat.player.nickname for seat in game.seats.select_related("member")}
    return host, game, nicks


def shoot(screen: HostScreen, name: str, language: str = "ru") -> None:
    screen.shot(name)  # every target 48 px, nothing scrolls
    screen.page.screenshot(path=SHOTS / f"{language}-{name}.png")


def menu(screen: HostScreen) -> Any:
    """☰ opened: its list."""
    screen.touch(screen.page.locator("#host summary"))
    listed = screen.page.locator("#host .host-menu > ul")
    listed.wait_for(state="visible")
    return listed


def give(screen: HostScreen, seat: int, points: str, reason: str) -> None:
    """☰ → «Допы или штраф…», the dialog filled, «Начислить»: one event recorded."""
    menu(screen)
    screen.touch(screen.page.locator("#host-bonus-open"))
    dialog = screen.page.locator("#host-bonus")
    dialog.wait_for(state="visible")
    dialog.locator('select[name="seat"]').select_option(str(seat))
    dialog.locator('select[name="points"]').select_option(points)
    dialog.locator('input[name="reason"]').fill(reason)
    screen.tap(dialog.locator('button[value="give"]'))


@pytest.mark.parametrize("language", ["ru", "en"])
def test_extra_points_given_are_confirmed_shown_and_named_before_undo(
    live_server: LiveServer, browser: Browser, language: str
) -> None:
    host, game, nicks = twelve(list(OPENING))  # seat 6 shot on night 1: its best move
    context, screen = opened(browser, live_server, game, host, language)
    page, said = screen.page, WORDS[language]
    for seat in (1, 2, 9):
        screen.touch(screen.seat(seat))
    screen.tap(screen.act("best-move"))
    give(screen, 1, "0.15", "лидер стола")
    # An info hint confirms it, at the top, naming the points, the seat and the reason.
    hint = page.locator("#host-toast.info")
    hint.wait_for(state="visible")
    text = hint.inner_text()
    assert said["given"] in text and said["points"] in text and nicks[1] in text, text
    assert "лидер стола" in text, text
    screen.assert_inside(hint)
    # The seat carries the points (beside its ★); ☰ lists what was given, with the reason.
    assert screen.seat(1).locator(".bonus").inner_text() == said["points"]
    shoot(screen, "bonus-given", language)
    listed = menu(screen)
    assert "лидер стола" in listed.inner_text() and said["points"] in listed.inner_text()
    shoot(screen, "bonus-in-the-menu", language)
    screen.touch(page.locator("#host summary"))
    give(screen, 1, "-0.2", "спор с ведущим")
    summed = "−0,05" if language == "ru" else "−0.05"  # the seat shows its sum
    assert screen.seat(1).locator(".bonus").inner_text() == summed
    before = screen.seq()

    def undo_asks(expected: str, *, answer: str, shot: str) -> None:
        screen.touch(page.locator("#host-undo"))
        question = page.locator("#host-confirm")
        question.wait_for(state="visible")
        asked = page.locator("#host-confirm-text").inner_text()
        assert asked.startswith(expected) and asked.endswith("?"), asked
        assert question.locator("button[value=yes]").inner_text() == said["yes_undo"]
        assert question.locator("button[value=no]").inner_text() == said["keep"]  # not «Отмена»
        screen.assert_inside(question)
        shoot(screen, shot, language)
        screen.touch(question.locator(f"button[value={answer}]"))

    def undone(count: int) -> None:
        page.wait_for_function(
            "(seq) => Number(document.documentElement.dataset.seq) >= seq", arg=before + count
        )

    # ↶ names what it takes back: the penalty, the extra points, the best move.
    undo_asks(f"{said['undo_penalty']} {nicks[1]}", answer="no", shot="undo-penalty-asks")
    page.wait_for_timeout(300)
    assert screen.seq() == before, "a cancelled undo recorded something"
    undo_asks(f"{said['undo_penalty']} {nicks[1]}", answer="yes", shot="undo-penalty-asks")
    undone(1)
    undo_asks(f"{said['undo_bonus']} {nicks[1]}", answer="yes", shot="undo-bonus-asks")
    undone(2)
    assert screen.table()["bonuses"] == [] and not screen.seat(1).locator(".bonus").count()
    undo_asks(f"{said['undo_best_move']} {nicks[6]}: 1, 2, 9", answer="yes", shot="undo-lh-asks")
    undone(3)
    assert screen.table()["best_move"] == {"by": [6], "most": 3}
    assert list(game.events.order_by("seq").values_list("type", flat=True))[-6:] == [
        "best_move", "bonus", "bonus", "undo", "undo", "undo"
    ]  # fmt: skip
    # Any other tap is taken back at once, as before.
    screen.tap(screen.act("best-move-skip"))
    screen.tap(screen.act("last-word"))
    screen.tap(page.locator("#host-undo"))
    assert not page.locator("#host-confirm").is_visible()
    assert screen.table()["timer"]["kind"] == "last_word"
    reasons = ["лидер стола", "спор с ведущим"]  # the host's words, as written
    assert untranslated(page, language, [*nicks.values(), *reasons]) == []
    assert axe_violations(page, live_server) == []
    assert watch_of(context).console_errors == []
    context.close()


def test_the_best_move_recorded_stays_in_sight_until_the_next_day(
    live_server: LiveServer, browser: Browser
) -> None:
    host, game, nicks = twelve(list(OPENING))  # seat 6 shot on night 1: its last word
    context, screen = opened(browser, live_server, game, host)
    page = screen.page
    for seat in (1, 2, 9):
        screen.touch(screen.seat(seat))
    screen.tap(screen.act("best-move"))
    # What was recorded is in the prompt and on the seats (★ in the order named).
    given = page.locator("#host-prompt .host-best-move-given")
    given.wait_for(state="visible")
    assert given.inner_text() == f"ЛХ 6 {nicks[6]}: 1, 2, 9", given.inner_text()
    screen.assert_inside(given)
    assert [screen.seat(seat).locator(".marks").inner_text() for seat in (1, 2, 9)] == [
        "★1",
        "★2",
        "★3",
    ]
    shoot(screen, "best-move-recorded")
    # The last word ends, the round starts: still in sight through day 2.
    screen.tap(screen.act("last-word"))
    assert given.is_visible() and "★1" in screen.seat(1).inner_text()
    screen.touch(screen.act("round"))
    assert given.is_visible()
    shoot(screen, "best-move-day-2-round")
    # Day 3 (recorded from another device): gone.
    record(
        game,
        host,
        {"type": "nominate", "by": 7, "target": 2},
        {"type": "votes", "counts": {"2": 7}},
        {"type": "night", "n": 2},
    )
    page.reload()
    page.wait_for_selector("html[data-host-ready]")
    assert page.locator("#host-prompt .host-best-move-given").is_visible(), "night 2 still shows it"
    record(game, host, {"type": "kill", "by": "mafia", "target": 8}, {"type": "day", "n": 3})
    page.reload()
    page.wait_for_selector("html[data-host-ready]")
    assert not page.locator("#host-prompt .host-best-move-given").count()
    assert "★" not in page.locator("#host-seats").inner_text()
    context.close()


def test_every_item_of_the_menu_is_a_thumb_target(
    live_server: LiveServer, browser: Browser
) -> None:
    host, game, _nicks = twelve([{"type": "day", "n": 1}])
    context, screen = opened(browser, live_server, game, host)
    listed = menu(screen)
    items = listed.locator("li > a")
    assert items.count() >= 5
    for n in range(items.count()):
        box = shown_box(screen.page, items.nth(n))
        assert box is not None and box["height"] >= 48, (items.nth(n).inner_text(), box)
        screen.assert_inside(items.nth(n))
    shoot(screen, "menu")
    context.close()


def night_one_takes_two() -> list[dict[str, Any]]:
    """Day 1, then night 1 in the order the table wakes the roles: the mafia shoot 1, the
    maniac 3, everyone else passes; day 2."""
    seats: dict[int | str, str] = dict(enumerate(FIFTEEN, start=1))
    log: list[dict[str, Any]] = [{"type": "day", "n": 1}, {"type": "night", "n": 1}]
    while step := table_for(seats, None, [], log)["night"]:
        target = {"kill:mafia": 1, "kill:maniac": 3}.get(step["slot"])
        log.append({**step["event"], "target": target})
    return [*log, {"type": "day", "n": 2}]


@pytest.mark.parametrize("language", ["ru", "en"])
def test_two_victims_of_night_one_are_captioned_as_the_givers(
    live_server: LiveServer, browser: Browser, language: str
) -> None:
    host = make_host(nickname="Ведущая")
    evening, players = evening_with_players(15)
    game = start_game(host, evening, players, FIFTEEN)
    record(game, host, *night_one_takes_two())
    context, screen = opened(browser, live_server, game, host, language)
    block = screen.page.locator("#host-prompt .host-best-move")
    assert screen.table()["best_move"] == {"by": [1, 3], "most": 3}
    caption = block.locator(".host-best-move-givers")
    assert caption.inner_text() == WORDS[language]["givers"]
    chips = block.locator("[data-giver]")
    assert chips.count() == 2
    caption_box = shown_box(screen.page, caption)
    chip_box = shown_box(screen.page, chips.first)
    assert caption_box is not None and chip_box is not None
    assert caption_box["x"] < chip_box["x"] or caption_box["y"] < chip_box["y"], "the caption leads"
    shoot(screen, "two-givers", language)
    nicks = [seat.player.nickname for seat in game.seats.select_related("member")]
    assert untranslated(screen.page, language, nicks) == []
    context.close()


def test_during_the_last_word_the_green_frame_is_on_the_one_who_speaks(
    live_server: LiveServer, browser: Browser
) -> None:
    host, game, _nicks = twelve(list(OPENING))  # seat 6's last word, then the round
    context, screen = opened(browser, live_server, game, host)
    page = screen.page
    speaking = page.locator("#host-seats .host-seat.speaking")
    assert [speaking.nth(n).get_attribute("data-seat") for n in range(speaking.count())] == ["6"]
    shoot(screen, "last-word-frame")
    screen.tap(screen.act("best-move-skip"))
    screen.tap(screen.act("last-word"))
    first = screen.table()["timer"]["seat"]
    assert [speaking.nth(n).get_attribute("data-seat") for n in range(speaking.count())] == [
        str(first)
    ]
    context.close()


def finished_game(ended_days_ago: float, *after: dict[str, Any]) -> tuple[Any, Game]:
    """A game the town won (seat 6 shot on night 1, no best move recorded), with `after`
    recorded after its end, which first ended `ended_days_ago` days ago."""
    host, game, _nicks = twelve([*TOWN_WINS, *after])
    ended = timezone.now() - timedelta(days=ended_days_ago)
    Game.objects.filter(pk=game.pk).update(ended_at=ended, first_ended_at=ended)
    return host, game


@pytest.mark.parametrize("language", ["ru", "en"])
def test_after_the_window_the_menu_offers_no_extra_points_and_says_when_it_closed(
    live_server: LiveServer, browser: Browser, language: str
) -> None:
    given = {"type": "bonus", "seat": 4, "points": 0.3, "reason": "лидер"}
    host, game = finished_game(4, given)  # the club's window: 3 days
    context, screen = opened(browser, live_server, game, host, language)
    # ↶ would take back extra points after the window: said at once, nothing asked or sent.
    screen.touch(screen.page.locator("#host-undo"))
    refusal = screen.refusal()
    assert WORDS[language]["closed"] in refusal, refusal
    assert not screen.page.locator("#host-confirm").is_visible()
    assert screen.seq() == game.events.count() and screen.table()["bonuses"]
    listed = menu(screen)
    assert not screen.page.locator("#host-bonus-open").is_visible()
    closed = listed.locator("#host-bonus-closed")
    assert WORDS[language]["closed"] in closed.inner_text(), closed.inner_text()
    # The day it closed (the game's end and 3 days), as the phone's zone and language say it.
    closes = present(view_of(game.pk).game.first_ended_at) + timedelta(days=3)
    zone = screen.page.evaluate("() => Intl.DateTimeFormat().resolvedOptions().timeZone")
    day = closes.astimezone(ZoneInfo(zone))
    when = f"{day:%d.%m.%Y}" if language == "ru" else f"{day.month}/{day.day}/{day:%y}"
    assert when in closed.inner_text(), closed.inner_text()
    # Nor the best move after the end: the server would refuse it too.
    assert not screen.act("best-move").count() and screen.act("public").count()
    shoot(screen, "window-closed", language)
    nicks = [seat.player.nickname for seat in game.seats.select_related("member")]
    assert untranslated(screen.page, language, [*nicks, "лидер"]) == []
    context.close()


def test_a_finished_game_within_the_window_still_offers_them(
    live_server: LiveServer, browser: Browser
) -> None:
    host, game = finished_game(1)
    context, screen = opened(browser, live_server, game, host)
    menu(screen)
    assert screen.page.locator("#host-bonus-open").is_visible()
    assert not screen.page.locator("#host-bonus-closed").is_visible()
    assert screen.act("best-move").count(), "the best move is offered after the end"
    shoot(screen, "window-open")
    context.close()


def test_a_game_that_ends_on_the_screen_with_no_window_offers_none_after_the_end(
    live_server: LiveServer, browser: Browser
) -> None:
    # The club gives no time after the end (the walk's «не позже 0 дн.» refusal).
    Club.objects.filter(pk=1).update(bonus_window_days=0)
    Club.forget_cached()
    host, game, _nicks = twelve(list(TOWN_WINS)[:-1])  # day 4: the last vote to come
    context, screen = opened(browser, live_server, game, host)
    menu(screen)
    assert screen.page.locator("#host-bonus-open").is_visible(), "offered while it runs"
    screen.touch(screen.page.locator("#host summary"))
    record(game, host, list(TOWN_WINS)[-1])  # the vote that ends it, from another phone
    screen.page.wait_for_function("() => window.hostScreen.table().over", timeout=15_000)
    assert view_of(game.pk).game.finished
    menu(screen)
    assert not screen.page.locator("#host-bonus-open").is_visible()
    closed = screen.page.locator("#host-bonus-closed")
    assert closed.inner_text() == "Допы: окно закрылось с концом игры"
    assert not screen.act("best-move").count(), "nor the best move after the end"
    shoot(screen, "window-none-after-the-end")
    context.close()


def test_the_seat_picker_names_a_player_by_seat_in_the_extra_points_reason(
    live_server: LiveServer, browser: Browser
) -> None:
    """#38: a tap on the picker writes {seat:4} at the cursor; the host reads it as «4 Ник»
    in the hint; the stored reason keeps the reference, and a nickname in words is refused
    («назовите игрока местом»), said as the refusal, never as «Начислено» (the same seat
    and points as the earlier entry once read as given)."""
    host, game, nicks = twelve(list(OPENING))
    context, screen = opened(browser, live_server, game, host)
    page = screen.page
    menu(screen)
    screen.touch(page.locator("#host-bonus-open"))
    dialog = page.locator("#host-bonus")
    dialog.wait_for(state="visible")
    dialog.locator('select[name="seat"]').select_option("1")
    reason = dialog.locator('input[name="reason"]')
    reason.fill("раскусил")
    screen.touch(dialog.locator('[data-seat-ref="{seat:4}"]'))
    assert reason.input_value() == "раскусил {seat:4}"
    screen.tap(dialog.locator('button[value="give"]'))
    hint = page.locator("#host-toast.info")
    hint.wait_for(state="visible")
    assert f"раскусил 4 {nicks[4]}" in hint.inner_text()
    assert present(game.events.order_by("seq").last()).payload["reason"] == "раскусил {seat:4}"
    before = screen.seq()
    menu(screen)
    screen.touch(page.locator("#host-bonus-open"))
    dialog.wait_for(state="visible")
    dialog.locator('select[name="seat"]').select_option("1")
    reason.fill(f"раскусил {nicks[4]}")
    screen.tap(dialog.locator('button[value="give"]'), records=False)
    refusal = page.locator("#host-toast.error")
    refusal.wait_for(state="visible")
    assert f"Назовите игрока местом: «{nicks[4]}» — имя места 4" in refusal.inner_text()
    page.wait_for_timeout(500)  # nothing says it was given after all
    assert "Начислено" not in page.locator("#host-toast").inner_text()
    assert screen.seq() == before
    context.close()
