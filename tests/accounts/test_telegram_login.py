"""The Telegram Login Widget: signed data in, a member out, forgeries refused."""

import hashlib
import hmac
import time

import pytest
from django.test import Client, override_settings

from accounts.models import User
from tests.factories import make_member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bot_token")]

BOT_TOKEN = "123456:TEST-token-for-the-widget"


@pytest.fixture
def bot_token():
    with override_settings(TELEGRAM_BOT_TOKEN=BOT_TOKEN):
        yield


def signed(fields: dict[str, str], token: str = BOT_TOKEN) -> dict[str, str]:
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    secret = hashlib.sha256(token.encode()).digest()
    return {**fields, "hash": hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()}


def widget_data(telegram_id: int = 777, *, auth_date: int | None = None) -> dict[str, str]:
    return signed(
        {
            "id": str(telegram_id),
            "first_name": "Вера",
            "username": "vera_tg",
            "auth_date": str(auth_date or int(time.time())),
        }
    )


def test_a_linked_member_is_signed_in(client: Client) -> None:
    member = make_member(nickname="Вера", telegram_id=777)
    response = client.get("/accounts/telegram/login/", widget_data())
    assert response.status_code == 302
    assert response["Location"] == "/accounts/profile/"
    assert int(client.session["_auth_user_id"]) == member.pk
    member.refresh_from_db()
    assert member.telegram_username == "vera_tg"


def test_telegram_is_linked_to_the_logged_in_member(member_client: Client, member: User) -> None:
    response = member_client.get("/accounts/telegram/login/", widget_data(555))
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.telegram_id == 555


def test_an_unknown_telegram_account_is_told_to_sign_up_first(client: Client) -> None:
    response = client.get("/accounts/telegram/login/", widget_data(999), follow=True)
    assert "Этот Telegram ещё не привязан" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_telegram_linked_to_another_member_is_not_moved(
    member_client: Client, member: User
) -> None:
    make_member(nickname="Другой", telegram_id=777)
    response = member_client.get("/accounts/telegram/login/", widget_data(777), follow=True)
    assert "уже привязан к другому участнику" in response.content.decode()
    member.refresh_from_db()
    assert member.telegram_id is None


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda data: {**data, "id": "778"}, "не подлинные"),
        (lambda data: {**data, "hash": "0" * 64}, "не подлинные"),
        (lambda data: {key: value for key, value in data.items() if key != "hash"}, "неполные"),
        (lambda data: signed({"id": "777", "auth_date": "soon"}), "повреждены"),
        (
            lambda data: signed({"id": "777", "auth_date": "1"}, token="999:other-bot"),
            "не подлинные",
        ),
    ],
)
def test_forged_data_is_refused(client: Client, tamper, message: str) -> None:
    make_member(telegram_id=777)
    response = client.get("/accounts/telegram/login/", tamper(widget_data()), follow=True)
    assert message in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_data_older_than_a_day_is_refused(client: Client) -> None:
    make_member(telegram_id=777)
    stale = widget_data(auth_date=int(time.time()) - 24 * 60 * 60 - 5)
    response = client.get("/accounts/telegram/login/", stale, follow=True)
    assert "истёк" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_banned_member_cannot_sign_in_with_telegram(client: Client) -> None:
    make_member(telegram_id=777, status="banned")
    response = client.get("/accounts/telegram/login/", widget_data(), follow=True)
    assert "заблокирован" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_without_a_bot_token_telegram_login_is_off(client: Client) -> None:
    make_member(telegram_id=777)
    with override_settings(TELEGRAM_BOT_TOKEN=""):
        response = client.get("/accounts/telegram/login/", widget_data(), follow=True)
    assert "не настроен" in response.content.decode()
