"""bot/handlers/account.py alone: /start for a stranger, and linking by «Connect
Telegram»'s code, asked first and used once."""

import pytest

from accounts.models import User
from bot.handlers import account
from bot.linking import telegram_link_code_create
from tests.bot.handlers.chats import chat_of, said
from tests.factories import make_member
from tests.fake_telegram import FakeTelegram

pytestmark = pytest.mark.django_db


def test_start_offers_a_stranger_the_two_ways_in(fake_telegram: FakeTelegram) -> None:
    account.on_start(chat_of(7001, text="/start"), "")
    (offer,) = said(fake_telegram, 7001)
    assert offer.text.startswith("Привет! Я вас пока не знаю. Есть два пути:")
    assert offer.callback_data == ["join"]


def test_a_link_code_is_asked_about_then_links_once(fake_telegram: FakeTelegram) -> None:
    member = make_member(nickname="Лиса")
    code = telegram_link_code_create(member=member)
    account.on_start(chat_of(7002, text=f"/start {code}"), code)
    (question,) = said(fake_telegram, 7002)
    assert question.text == "Привязать этот Telegram к участнику клуба «Лиса»?"
    assert question.callback_data == [f"lk:{code}"]
    assert User.objects.get(pk=member.pk).telegram_id is None  # not before the answer

    chat = chat_of(7002, data=f"lk:{code}")
    toast = account.on_link_button(chat, code)
    assert toast["method"] == "answerCallbackQuery"
    assert toast["callback_query_id"] == "cb-7002"
    assert User.objects.get(pk=member.pk).telegram_id == 7002
    assert chat.member == member  # what follows speaks to the member
    assert said(fake_telegram, 7002)[1].text == "Готово! Telegram привязан к Лиса."

    again = account.on_link_button(chat_of(7003, data=f"lk:{code}"), code)
    assert again["text"] == "Эта кнопка больше не работает."
    assert User.objects.get(pk=member.pk).telegram_id == 7002
