"""A member's statistics of play in the club's Mini App (#42): «Мои игры» is the player's
page in Telegram's frame and colours, so the statistics are there at 360×640, in Russian
and in English as the member's Telegram speaks; screenshots in
var/test-artifacts/e2e/app-play-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from tests.accounts.test_mini_app import launch
from tests.e2e.conftest import ARTIFACTS, new_context, untranslated
from tests.e2e.test_mini_app import TOKEN, check, telegram
from tests.e2e.test_play_stats import NICKS
from tests.factories import make_member
from tests.games.ratings.played import BLACK_WINS, game_played
from tests.games.recording import make_host

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]


@pytest.fixture(autouse=True)
def _bot(settings: Settings) -> None:
    settings.TELEGRAM_BOT_TOKEN = TOKEN
    settings.TELEGRAM_BOT_USERNAME = "club_bot"


@pytest.mark.parametrize("language", ["ru", "en"])
def test_my_games_in_the_app_show_how_i_play(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    players = [
        make_member(nickname=nick, telegram_id=556000 + n if n == 5 else None)
        for n, nick in enumerate(NICKS, 1)
    ]
    host = make_host(nickname="Ведущий")
    for _ in range(5):
        game_played(players, host=host)
    game_played(players, host=host, events=BLACK_WINS)
    init_data = launch(telegram_id=556005, user_fields={"language_code": language})
    # The member's own choice of language (the switch's cookie) is the app's language.
    context = new_context(browser, live_server, language=language)
    context.route(
        "https://telegram.org/js/telegram-web-app.js*",
        lambda route: route.fulfill(body=telegram(init_data), content_type="text/javascript"),
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/tg/")
    page.wait_for_url(f"{live_server.url}/")
    page.wait_for_load_state("networkidle")
    page.locator(".app-tabs a").nth(2).click()  # «Мои игры»
    page.wait_for_load_state("networkidle")
    play = page.locator("#play")
    assert play.is_visible()
    assert play.locator(".rate-chart svg").count() == 2
    text = play.inner_text()
    assert (
        "Голоса за чёрных, играя красным" if language == "ru" else "Votes on black, as red"
    ) in text
    data = sorted([*NICKS, "Ведущий"], key=len, reverse=True)
    assert untranslated(page, language, data) == []
    check(page, context, live_server, f"play-{language}")
    play.scroll_into_view_if_needed()
    page.screenshot(path=ARTIFACTS / f"app-play-{language}-section.png")
    context.close()
