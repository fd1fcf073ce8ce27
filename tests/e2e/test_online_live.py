"""The online table in Chromium at 360×640: a player types into the post box while the
others post and vote; the text, the focus and the caret stay, the new lines appear in
order, a "new lines" button shows when they arrive below what the player reads, and a vote
shows its confirmation. Screenshots in var/test-artifacts/e2e/online-*.png."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from games.models import Game
from games.online import services as online_play
from games.online.sweep import online_sweep
from tests.e2e.conftest import ARTIFACTS, new_context, watch_of
from tests.e2e.test_host_screen import axe_violations
from tests.factories import make_member
from tests.games.online.tables import table_of
from tests.games.recording import make_host

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
TYPED = "Я мирный. Голосую за того, кто молчит,\nи вот почему: "


@pytest.fixture
def running() -> tuple[Game, dict[int, User]]:
    host = make_host()
    members = [make_member() for _ in range(10)]
    game = online_play.online_game_create(
        host=host, member_ids=[m.pk for m in members], starts_at=timezone.now()
    )
    assert online_sweep() == 1  # day 1 begins
    found = table_of(game.pk)
    return game, {s.number: s.player for s in found.seats}


def others_play(game: Game, members: dict[int, User], me: int, lines: int) -> None:
    """The other players post and vote, as they would from their own phones."""
    for number in range(lines):
        seat = (me + 1 + number) % 10 + 1
        if seat == me:
            continue
        online_play.online_act(
            game_id=game.pk, user=members[seat], event={"type": "post", "text": f"Пост {number}"}
        )
        online_play.online_act(
            game_id=game.pk, user=members[seat], event={"type": "vote", "target": me}
        )


def test_what_a_player_types_survives_the_others_posts_and_votes(
    browser: Browser, live_server: LiveServer, running: tuple[Game, dict[int, User]]
) -> None:
    game, members = running
    me = 1
    context = new_context(browser, live_server, user=members[me])
    page = context.new_page()
    page.goto(f"{live_server.url}/online/{game.pk}/", wait_until="networkidle")
    box = page.locator("#post-text")
    box.click()
    box.type(TYPED)
    caret = page.evaluate("document.getElementById('post-text').selectionStart")
    assert caret == len(TYPED)

    others_play(game, members, me, 3)
    page.wait_for_selector("#online-story li:has-text('Пост 2')", timeout=10_000)
    page.wait_for_timeout(3500)  # one more look: nothing may be touched by it either
    assert box.input_value() == TYPED
    assert page.evaluate("document.activeElement.id") == "post-text"
    assert page.evaluate("document.getElementById('post-text').selectionStart") == caret
    texts = page.locator("#online-story .post p").all_inner_texts()
    assert texts == ["Пост 0", "Пост 1", "Пост 2"]  # in order, each once
    tally = page.locator("#online-tally").inner_text()
    assert f"{me}. {members[me].nickname}" in tally
    page.screenshot(path=ARTIFACTS / "online-1-typing-while-others-play.png", full_page=True)

    # The typing goes on, and is sent; the box empties and keeps the focus.
    box.type("он молчит.")
    page.locator("#online-post-state button").click()
    page.wait_for_selector(f"#online-story .post:has-text('{TYPED[:10]}')", timeout=10_000)
    assert box.input_value() == ""
    assert watch_of(context).console_errors == [] and watch_of(context).failed == []
    assert watch_of(context).csp_violations(page) == []
    context.close()


def test_a_vote_shows_its_confirmation_and_what_remains(
    browser: Browser, live_server: LiveServer, running: tuple[Game, dict[int, User]]
) -> None:
    game, members = running
    context = new_context(browser, live_server, user=members[2])
    page = context.new_page()
    page.goto(f"{live_server.url}/online/{game.pk}/", wait_until="networkidle")
    page.select_option("#vote-target", "5")
    page.locator("#online-actions form:has(#vote-target) button").click()
    answer = page.locator("#online-actions .notice.ok")
    answer.wait_for(timeout=10_000)
    assert answer.inner_text() == (
        f"Ваш голос: 5. {members[5].nickname}. Сменить его можно один раз за день."
    )
    # The vote is said in words; the list is empty again, so a press at once refuses
    # instead of spending the day's one change on the same name (#27).
    assert page.locator("#vote-target").input_value() == ""
    warning = page.locator("#online-actions .notice.warn").inner_text()
    assert "следующий голос будет окончательным" in warning
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=ARTIFACTS / "online-2-vote-confirmed.png", full_page=True)
    assert axe_violations(page, live_server) == []
    assert watch_of(context).console_errors == [] and watch_of(context).failed == []
    context.close()


@pytest.mark.parametrize(
    ("language", "button", "message"),
    [
        ("ru", "Голос", "Сначала выберите, за кого голосуете."),
        ("en", "Vote", "Choose whom you vote for first."),
    ],
)
def test_a_vote_without_a_choice_is_refused_in_sight(
    browser: Browser,
    live_server: LiveServer,
    running: tuple[Game, dict[int, User]],
    language: str,
    button: str,
    message: str,
) -> None:
    """The list opens on no one; «Голос» pressed at once says to choose and votes for
    nobody (it voted for seat 1 and spent the day's change, #27)."""
    game, members = running
    context = new_context(browser, live_server, user=members[2], language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/online/{game.pk}/", wait_until="networkidle")
    assert page.locator("#vote-target").input_value() == ""
    page.get_by_role("button", name=button, exact=True).click()
    refusal = page.locator("#online-actions .notice.error")
    refusal.wait_for(timeout=10_000)
    assert refusal.inner_text() == message
    assert table_of(game.pk).state.votes == {}
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=ARTIFACTS / f"online-4-vote-without-a-choice-{language}.png")
    assert axe_violations(page, live_server) == []
    # The refusal's 422 is the one thing the browser reports.
    assert all(" 422 " in error for error in watch_of(context).console_errors)
    context.close()


def test_new_lines_below_the_reader_are_announced_by_a_button(
    browser: Browser, live_server: LiveServer, running: tuple[Game, dict[int, User]]
) -> None:
    game, members = running
    others_play(game, members, 3, 8)  # a thread longer than the screen
    context = new_context(browser, live_server, user=members[3])
    page = context.new_page()
    page.goto(f"{live_server.url}/online/{game.pk}/", wait_until="networkidle")
    page.evaluate("window.scrollTo(0, 0)")  # reading the top of the page
    online_play.online_act(
        game_id=game.pk, user=members[4], event={"type": "post", "text": "Новое снизу"}
    )
    button = page.locator("#new-posts button")
    button.wait_for(state="visible", timeout=10_000)
    assert button.inner_text() == "1 новая строка ↓"
    page.screenshot(path=ARTIFACTS / "online-3-new-lines.png")
    button.click()
    page.wait_for_timeout(800)
    assert page.locator("#new-posts").is_hidden()
    assert page.locator("#online-story li:has-text('Новое снизу')").is_visible()
    context.close()
