import io

import pytest
from django.core.management import CommandError, call_command
from pytest_django import Settings

from tests.fake_telegram import FakeTelegram


@pytest.mark.django_db
def test_telegram_setup_sets_the_webhook_with_its_secret_and_the_commands(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    settings.TELEGRAM_WEBHOOK_SECRET = "setup-secret"
    settings.SITE_URL = "https://club.example.org"
    out = io.StringIO()
    call_command("telegram_setup", stdout=out)
    calls = {call.method: call.params for call in fake_telegram.calls}
    assert calls["setWebhook"]["url"] == "https://club.example.org/telegram/webhook/"
    assert calls["setWebhook"]["secret_token"] == "setup-secret"
    assert calls["setWebhook"]["allowed_updates"] == ["message", "callback_query", "my_chat_member"]
    assert [c["command"] for c in calls["setMyCommands"]["commands"]] == [
        "evening",
        "online",
        "say",
        "tournament",
        "settings",
        "help",
    ]
    assert "Webhook set" in out.getvalue()
    # The menu button beside the message field opens the club's app.
    button = calls["setChatMenuButton"]["menu_button"]
    assert button["type"] == "web_app" and button["text"] == "Клуб"
    assert button["web_app"]["url"] == "https://club.example.org/tg/"
    assert "the menu button opens the club's app" in out.getvalue()


@pytest.mark.django_db
def test_telegram_setup_needs_the_token_and_the_secret(settings: Settings) -> None:
    settings.TELEGRAM_BOT_TOKEN = ""
    with pytest.raises(CommandError):
        call_command("telegram_setup")


def help_update(update_id: int, chat: int) -> dict[str, object]:
    return {
        "update_id": update_id,
        "message": {
            "message_id": 1,
            "date": 1765000000,
            "text": "/help",
            "from": {"id": chat, "is_bot": False, "first_name": "Ян"},
            "chat": {"id": chat, "type": "private"},
        },
    }


@pytest.mark.django_db
def test_telegram_poll_long_polls_with_the_same_handlers(fake_telegram: FakeTelegram) -> None:
    from notifications.models import Notification

    fake_telegram.updates.append(help_update(31337, 606))
    call_command("telegram_poll", "--once")
    methods = [call.method for call in fake_telegram.calls]
    assert "deleteWebhook" in methods and "getUpdates" in methods
    assert "/evening" in Notification.objects.get(chat_id=606).text


@pytest.mark.django_db
def test_telegram_poll_fetches_an_update_again_until_it_is_handled(
    fake_telegram: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.dispatch import Bot
    from bot.management.commands import telegram_poll
    from notifications.models import Notification

    fake_telegram.updates.append(help_update(4242, 607))
    handle = Bot.handle
    monkeypatch.setattr(Bot, "handle", lambda self: 1 / 0)
    monkeypatch.setattr(telegram_poll, "RETRY_SECONDS", 0)
    call_command("telegram_poll", "--once")
    assert not Notification.objects.filter(chat_id=607).exists()
    monkeypatch.setattr(Bot, "handle", handle)
    call_command("telegram_poll", "--once")
    assert Notification.objects.filter(chat_id=607).count() == 1


@pytest.mark.django_db
def test_telegram_poll_answers_a_button_with_the_toast(fake_telegram: FakeTelegram) -> None:
    """The answer the webhook returns in its response is a call long polling makes: the
    toast's parameters, without the method among them."""
    fake_telegram.updates.append(
        {
            "update_id": 4343,
            "callback_query": {
                "id": "cb-608",
                "chat_instance": "42",
                "data": "no-such-button",
                "from": {"id": 608, "is_bot": False, "first_name": "Ян"},
            },
        }
    )
    call_command("telegram_poll", "--once")
    (answer,) = [call for call in fake_telegram.calls if call.method == "answerCallbackQuery"]
    assert answer.params == {
        "callback_query_id": "cb-608",
        "text": "Сначала привяжите аккаунт или зарегистрируйтесь: /start",
    }
