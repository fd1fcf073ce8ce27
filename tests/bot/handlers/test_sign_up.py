"""bot/handlers/sign_up.py alone: the conversation, a nickname then a birth date, kept in
the database between the messages."""

from datetime import date

import pytest

from accounts.models import User
from bot.handlers import sign_up
from notifications.models import BotConversation
from tests.bot.handlers.chats import chat_of, said
from tests.factories import make_member
from tests.fake_telegram import FakeTelegram

pytestmark = pytest.mark.django_db


def conversation(telegram_id: int) -> BotConversation:
    return BotConversation.objects.get(telegram_id=telegram_id)


def test_a_nickname_then_a_birth_date_make_a_member(fake_telegram: FakeTelegram) -> None:
    toast = sign_up.on_join(chat_of(7301, data="join"))
    assert toast["text"] == "Давайте зарегистрируемся."
    assert conversation(7301).state == "nickname"
    sign_up.on_sign_up_step(chat_of(7301, text="Сова"), conversation(7301), "Сова")
    assert (conversation(7301).state, conversation(7301).data) == (
        "birth_date",
        {"nickname": "Сова"},
    )
    sign_up.on_sign_up_step(chat_of(7301, text="7 марта"), conversation(7301), "7 марта")
    assert conversation(7301).state == "birth_date"  # asked again, nothing lost
    chat = chat_of(7301, text="07.03.1995")
    sign_up.on_sign_up_step(chat, conversation(7301), "07.03.1995")
    member = User.objects.get(telegram_id=7301)
    assert (member.nickname, member.birth_date) == ("Сова", date(1995, 3, 7))
    assert chat.member == member
    assert not BotConversation.objects.exists()
    texts = [message.text for message in said(fake_telegram, 7301)]
    assert texts[1] == "Ваша дата рождения в виде ДД.ММ.ГГГГ? Клуб — только 21+."
    assert texts[2] == "Пришлите дату в виде ДД.ММ.ГГГГ, например 07.03.1995."
    assert texts[3] == "Добро пожаловать в клуб, Сова!"


def test_a_member_is_not_signed_up_again(fake_telegram: FakeTelegram) -> None:
    make_member(telegram_id=7302)
    assert sign_up.on_join(chat_of(7302, data="join"))["text"] == "Вы уже в клубе: /evening"
    assert not BotConversation.objects.exists()
    assert said(fake_telegram, 7302) == []
