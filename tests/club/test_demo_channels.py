"""The demo's members as `make run` shows them (README, «The demo»): the online game's ten
have Telegram linked, so the bot's messages to them are printed in the console; the other
ten are told by letters."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.management import call_command
from pytest_django.fixtures import Settings

from accounts.models import User
from notifications.sender import notification_deliver
from notifications.services import member_notify

pytestmark = pytest.mark.django_db


def test_ten_demo_members_hear_from_the_console_bot_and_ten_by_letter(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    settings.TELEGRAM_CONSOLE_MODE = True
    call_command("demo_data")
    members = User.objects.filter(is_staff=False).exclude(nickname="Ведущий")
    linked = members.filter(telegram_id__isnull=False)
    assert linked.count() == 10 and members.filter(telegram_id__isnull=True).count() == 10
    assert set(linked.values_list("nickname", flat=True)) >= {"Ворон", "Лиса", "Ласточка"}
    raven, lucky = User.objects.get(nickname="Ворон"), User.objects.get(nickname="Lucky")
    with caplog.at_level("INFO"):
        for member in (raven, lucky):
            (row_id,) = member_notify(member=member, dedupe_key=f"demo:{member.pk}", text="Привет!")
            assert notification_deliver(row_id).status == "sent"
    assert "Telegram (console) to 700000001: Привет!" in caplog.text
    # The buttons too: a tester sees the choices the member gets.
    (row_id,) = member_notify(
        member=raven,
        dedupe_key="demo:buttons",
        text="Присылать отчёт?",
        buttons=[[{"text": "Да", "callback_data": "y"}, {"text": "Нет", "callback_data": "n"}]],
    )
    with caplog.at_level("INFO"):
        notification_deliver(row_id)
    assert "Присылать отчёт?\n[Да] [Нет]" in caplog.text
    assert [m.to for m in mail.outbox] == [[lucky.email]] and lucky.email
