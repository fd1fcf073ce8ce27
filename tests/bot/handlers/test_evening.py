"""bot/handlers/evening.py alone: the card's buttons through the club's services, and
«Не смогу» asking before the place goes."""

import pytest

from bot.handlers import evening
from club import buttons
from club.models import Registration, RegistrationSource, RegistrationStatus
from tests.bot.handlers.chats import chat_of, said
from tests.factories import make_evening, make_member
from tests.fake_telegram import FakeTelegram

pytestmark = pytest.mark.django_db


def test_the_evening_asks_a_stranger_to_link_first(fake_telegram: FakeTelegram) -> None:
    evening.on_evening(chat_of(7101, text="/evening"), "")
    (answer,) = said(fake_telegram, 7101)
    assert answer.callback_data == ["join"]


def test_sign_up_then_cant_make_it_asks_and_stay_keeps_the_place(
    fake_telegram: FakeTelegram,
) -> None:
    member = make_member(telegram_id=7102)
    night = make_evening(capacity=12)
    chat = chat_of(7102, data=f"{buttons.SIGN_UP}:{night.pk}")
    toast = evening.on_evening_button(chat, buttons.SIGN_UP, night.pk)
    assert toast["text"] == "Вы в игре: № 1 в списке из 12."
    registration = Registration.objects.get(evening=night, member=member)
    assert (registration.status, registration.source) == (
        RegistrationStatus.CONFIRMED,
        RegistrationSource.BOT,
    )

    toast = evening.on_evening_button(chat_of(7102), buttons.CANCEL, night.pk)
    assert toast["text"] == "Точно не сможете? Ответьте в сообщении ниже."
    question = said(fake_telegram, 7102)[-1]  # after the sign-up's own message
    assert "Отказаться от места? 30 секунд его можно вернуть" in question.text
    assert question.callback_data == [f"{buttons.LEAVE}:{night.pk}", f"{buttons.STAY}:{night.pk}"]

    toast = evening.on_evening_button(chat_of(7102), buttons.STAY, night.pk)
    assert toast["text"] == "Хорошо: место остаётся за вами."
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.CONFIRMED
    assert registration.leaves_at is None
