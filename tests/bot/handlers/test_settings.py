"""bot/handlers/settings.py alone: /settings and its switches, and a button of the reports'
offer that no longer reads."""

import pytest

from accounts.models import User
from bot.handlers import settings
from tests.bot.handlers.chats import chat_of, said
from tests.factories import make_member
from tests.fake_telegram import FakeTelegram

pytestmark = pytest.mark.django_db


def test_a_switch_flips_the_setting_and_shows_the_card_again(
    fake_telegram: FakeTelegram,
) -> None:
    member = make_member(telegram_id=7201, reminders=True)
    settings.on_settings(chat_of(7201, text="/settings"), "")
    toast = settings.on_toggle(chat_of(7201, data="set:reminders"), "reminders")
    assert toast["text"] == "Настройки сохранены."
    assert User.objects.get(pk=member.pk).reminders is False
    before, after = said(fake_telegram, 7201)
    assert "Напоминания о вечерах: вкл." in before.text
    assert "Напоминания о вечерах: выкл." in after.text
    assert after.callback_data == ["set:consent", "set:reminders", "set:reports"]


def test_an_unknown_switch_or_offer_changes_nothing(fake_telegram: FakeTelegram) -> None:
    member = make_member(telegram_id=7202, reminders=True)
    assert settings.on_toggle(chat_of(7202), "volume")["text"] == "Эта кнопка больше не работает."
    answer = settings.on_reports_answer(chat_of(7202), "maybe:1")
    assert answer["text"] == "Эта кнопка больше не работает."
    assert User.objects.get(pk=member.pk).reminders is True
    assert said(fake_telegram, 7202) == []
