"""Redis down locks nobody out: with the cache at a port where nothing listens, every
throttled door lets the request through with a warning in the log (fail open), the bot
answers, and an update that could not be handled is not recorded as handled.

The hole it closes (#24): login, sign-up, password reset and /tg/auth/ answered 500
(django-ratelimit catches only `socket.gaierror`), and every bot update was answered 200
with no reply while its id was recorded, so Telegram never sent it again."""

from __future__ import annotations

import logging
from typing import NoReturn

import pytest
from django.core import mail
from django.test import Client
from pytest_django import Settings

from accounts.models import User
from bot.dispatch import Bot
from notifications.models import Notification, TelegramUpdate
from tests.accounts.test_mini_app import TELEGRAM_ID, launch, open_app
from tests.accounts.test_telegram_login import LOGIN, bot_token, widget_data  # noqa: F401
from tests.bot.test_webhook import SECRET, message, post
from tests.factories import PASSWORD, make_member

pytestmark = pytest.mark.django_db

DEAD_CACHE = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing listens on it
        "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
    }
}


@pytest.fixture(autouse=True)
def dead_cache(settings: Settings, caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    settings.CACHES = DEAD_CACHE
    settings.TELEGRAM_WEBHOOK_SECRET = SECRET
    caplog.set_level(logging.WARNING, logger="club.kernel.throttle")
    return caplog


def warned(caplog: pytest.LogCaptureFixture) -> bool:
    return any("cache does not answer" in record.getMessage() for record in caplog.records)


def test_the_login_lets_the_right_password_in_and_refuses_a_wrong_one(
    dead_cache: pytest.LogCaptureFixture,
) -> None:
    make_member(nickname="Ворон")
    wrong = Client().post("/accounts/login/", {"username": "Ворон", "password": "nope"})
    assert wrong.status_code == 200 and "_auth_user_id" not in wrong.wsgi_request.session
    client = Client()
    right = client.post("/accounts/login/", {"username": "Ворон", "password": PASSWORD})
    assert right.status_code == 302 and "_auth_user_id" in client.session
    assert warned(dead_cache)


def test_a_newcomer_signs_up(dead_cache: pytest.LogCaptureFixture) -> None:
    answer = Client().post(
        "/accounts/signup/",
        {
            "nickname": "Новичок",
            "birth_date": "1990-01-01",
            "email": "new@example.com",
            "password1": "a-long-secret-9",
            "password2": "a-long-secret-9",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:500]
    assert User.objects.filter(nickname="Новичок").exists()
    assert warned(dead_cache)


def test_a_password_reset_is_sent(dead_cache: pytest.LogCaptureFixture) -> None:
    make_member(email="vera@example.com")
    answer = Client().post("/accounts/password/reset/", {"email": "vera@example.com"})
    assert answer.status_code == 302 and len(mail.outbox) == 1
    assert warned(dead_cache)


def test_the_mini_app_opens(dead_cache: pytest.LogCaptureFixture, settings: Settings) -> None:
    settings.TELEGRAM_BOT_TOKEN = "7777777:mini-app-test-token"
    settings.TELEGRAM_MINI_APP_MAX_AGE_SECONDS = 3600
    make_member(telegram_id=TELEGRAM_ID)
    assert open_app(Client(), launch()) == (200, {"next": "/"})
    assert warned(dead_cache)


def test_the_telegram_login_works(dead_cache: pytest.LogCaptureFixture, bot_token: None) -> None:  # noqa: F811
    member = make_member(telegram_id=777)
    client = Client()
    answer = client.post(LOGIN, widget_data(777))
    assert answer.status_code == 302 and client.session["_auth_user_id"] == str(member.pk)


def test_the_bot_answers_the_member(dead_cache: pytest.LogCaptureFixture) -> None:
    make_member(telegram_id=777)
    update = message("/help")
    assert post(update).status_code == 200
    assert Notification.objects.filter(chat_id=777).count() == 1
    assert TelegramUpdate.objects.filter(update_id=update["update_id"]).exists()
    assert warned(dead_cache)


def test_an_update_that_fails_is_not_recorded_and_is_handled_when_sent_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    make_member(telegram_id=777)
    update = message("/help")
    handle = Bot.handle

    def broken(self: Bot) -> NoReturn:
        raise ConnectionError("the database went away")

    monkeypatch.setattr(Bot, "handle", broken)
    failed = post(update)
    assert failed.status_code == 503  # Telegram delivers it again
    assert not TelegramUpdate.objects.filter(update_id=update["update_id"]).exists()
    monkeypatch.setattr(Bot, "handle", handle)
    assert post(update).status_code == 200
    assert Notification.objects.filter(chat_id=777).count() == 1
    assert post(update).status_code == 200  # a third delivery is a repeat: ignored
    assert Notification.objects.filter(chat_id=777).count() == 1


def test_the_pages_show_with_the_cache_down() -> None:
    for path in ("/", "/accounts/login/", "/accounts/signup/", "/tg/"):
        assert Client().get(path).status_code == 200, path
