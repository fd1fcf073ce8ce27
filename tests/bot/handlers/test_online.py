"""bot/handlers/online.py alone: /online's card for a player of a running online game, a
vote by its button, and /say or a button with nothing to act on."""

import pytest

from bot.handlers import online
from tests.bot.handlers.chats import chat_of, said
from tests.bot.test_bot_online import Running, running  # noqa: F401
from tests.factories import make_member
from tests.fake_telegram import FakeTelegram
from tests.games.online.tables import table_of

pytestmark = pytest.mark.django_db


def test_the_card_and_a_vote_of_a_running_game(
    fake_telegram: FakeTelegram,
    running: Running,  # noqa: F811
) -> None:
    game, seats = running  # tests/bot/test_bot_online.py's game on day 1
    voter = seats["civilian"]
    telegram_id = voter.player.telegram_id
    assert telegram_id is not None

    online.on_online(chat_of(telegram_id, text="/online"), "")
    card = said(fake_telegram, telegram_id)[-1]  # after the game's start
    assert "День 1" in card.text
    assert f"ov:{game.pk}:pass" in card.callback_data

    toast = online.on_online_button(chat_of(telegram_id), "ov", f"{game.pk}:pass")
    assert toast["text"].startswith("Ваш голос: ПАС.")
    assert table_of(game.pk).state.votes == {voter.number: "pass"}


def test_nothing_to_act_on_is_said_so(fake_telegram: FakeTelegram) -> None:
    make_member(telegram_id=7520)
    online.on_online(chat_of(7520, text="/online"), "")
    online.on_say(chat_of(7520, text="/say привет"), "привет")
    assert [message.text for message in said(fake_telegram, 7520)] == [
        "Вы не играете в идущей онлайн-игре.",
        "Напишите /say и текст поста — в идущей онлайн-игре.",
    ]
    toast = online.on_online_button(chat_of(7520), "ov", "not-a-game:pass")
    assert toast["text"] == "Эта кнопка больше не работает."
