"""bot/handlers/tournament.py alone: /tournament for a stranger and for a member in none
(a member's seat and standing: tests/tournaments/test_tournaments.py, through the webhook)."""

import pytest

from bot.handlers import tournament
from tests.bot.handlers.chats import chat_of, said
from tests.factories import make_member
from tests.fake_telegram import FakeTelegram

pytestmark = pytest.mark.django_db


def test_tournament_asks_a_stranger_to_link_and_tells_a_member_in_none(
    fake_telegram: FakeTelegram,
) -> None:
    tournament.on_tournament(chat_of(7401, text="/tournament"), "")
    (stranger,) = said(fake_telegram, 7401)
    assert stranger.callback_data == ["join"]
    make_member(telegram_id=7402)
    tournament.on_tournament(chat_of(7402, text="/tournament"), "")
    (member,) = said(fake_telegram, 7402)
    assert member.text == "Сейчас вы не участвуете в турнире."
