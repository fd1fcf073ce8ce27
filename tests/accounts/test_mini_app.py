"""The club's Mini App in Telegram (#20): the launch data checked on the server with real
HMAC-SHA256 (valid, tampered, expired, replayed), a member opened in the app's frame, a
Telegram user who is not a member led through joining with the 21+ check, bans and
throttles as at every door, and a group's link that names an evening."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Callable
from datetime import date
from typing import Any
from urllib.parse import urlencode

import pytest
from django.test import Client
from pytest_django import Settings

from accounts.models import MembershipStatus, User
from tests.factories import make_evening, make_member

pytestmark = pytest.mark.django_db
TOKEN = "7777777:mini-app-test-token"
TELEGRAM_ID = 555001


@pytest.fixture(autouse=True)
def _bot(settings: Settings) -> None:
    settings.TELEGRAM_BOT_TOKEN = TOKEN
    settings.TELEGRAM_BOT_USERNAME = "club_bot"
    settings.TELEGRAM_MINI_APP_MAX_AGE_SECONDS = 3600


def user_json(user: dict[str, object]) -> str:
    """As Telegram writes it: UTF-8, and what UTF-8 cannot carry (a lone surrogate) as an
    escape."""
    text = json.dumps(user, separators=(",", ":"), ensure_ascii=False)
    try:
        text.encode()
    except UnicodeEncodeError:
        text = json.dumps(user, separators=(",", ":"))
    return text


def launch(
    *,
    telegram_id: int = TELEGRAM_ID,
    auth_date: int | None = None,
    token: str = TOKEN,
    user_fields: dict[str, object] | None = None,
    **extra: str,
) -> str:
    """initData as Telegram signs it (core.telegram.org/bots/webapps): the key is
    HMAC-SHA256("WebAppData", bot token); the hash, HMAC-SHA256 of the sorted key=value
    lines under that key. Written here from the documentation, apart from the site's code."""
    user = {"id": telegram_id, "first_name": "Вера", "username": "vera_tg", "language_code": "ru"}
    user |= user_fields or {}
    fields = {
        "query_id": f"AAH{telegram_id}{time.time_ns()}",
        "user": user_json(user),
        "auth_date": str(auth_date if auth_date is not None else int(time.time())),
        **extra,
    }
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


def open_app(client: Client, init_data: str, **extra: str) -> tuple[int, dict[str, Any]]:
    answer = client.post("/tg/auth/", {"init_data": init_data, **extra})
    return answer.status_code, answer.json()


def test_a_genuine_launch_opens_the_app_as_its_member() -> None:
    member = make_member(telegram_id=TELEGRAM_ID)
    client = Client()
    start = client.get("/tg/")
    assert start.status_code == 200 and "telegram-web-app.js" in start.content.decode()
    assert "https://telegram.org" in start["Content-Security-Policy"]
    status, answer = open_app(client, launch())
    assert (status, answer) == (200, {"next": "/"})
    home = client.get("/")
    page = home.content.decode()
    assert home.wsgi_request.user == member
    assert 'class="miniapp"' in page and 'class="app-tabs"' in page
    assert 'class="site-header"' not in page  # Telegram's frame holds the app
    assert "https://telegram.org" in home["Content-Security-Policy"]
    # The same pages outside the app keep the site's own policy.
    assert "telegram.org" not in Client().get("/")["Content-Security-Policy"]


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda data: data.replace("%22id%22%3A555001", "%22id%22%3A555002"), "не от Telegram"),
        (lambda data: data.replace("hash=", "hash=0"), "не от Telegram"),
        (lambda data: launch(token="1:another-bot"), "не от Telegram"),
        (lambda data: data + "&user=x", "повреждены"),
        (lambda data: "", "из Telegram"),
        (lambda data: "a" * 5000, "из Telegram"),
    ],
)
def test_tampered_launch_data_is_refused(tamper: Callable[[str], str], message: str) -> None:
    make_member(telegram_id=TELEGRAM_ID)
    client = Client()
    status, answer = open_app(client, tamper(launch()))
    assert status == 422 and message in answer["error"]
    assert client.get("/").wsgi_request.user.is_anonymous


@pytest.mark.parametrize(
    "forged_hash",
    ["%C3%A9", "%C3%A9" * 64, "%D9%A1" * 64],
    ids=["e-acute", "64-e-acute", "arabic-digits"],
)
def test_a_launch_hash_that_is_not_ascii_is_refused_as_a_wrong_one(forged_hash: str) -> None:
    """`hash=%C3%A9` decodes to «é», which hmac.compare_digest refused with a TypeError:
    the app's door answered 500 (#24)."""
    make_member(telegram_id=TELEGRAM_ID)
    data = launch()
    forged = data[: data.index("hash=")] + "hash=" + forged_hash
    client = Client()
    status, answer = open_app(client, forged)
    assert status == 422 and "не от Telegram" in answer["error"]
    assert client.get("/").wsgi_request.user.is_anonymous


def test_an_expired_launch_is_refused() -> None:
    make_member(telegram_id=TELEGRAM_ID)
    status, answer = open_app(Client(), launch(auth_date=int(time.time()) - 3601))
    assert status == 422 and "слишком давно" in answer["error"]
    ahead = open_app(Client(), launch(auth_date=int(time.time()) + 600))
    assert ahead[0] == 422


def test_a_launch_is_taken_once() -> None:
    make_member(telegram_id=TELEGRAM_ID)
    data = launch()
    assert open_app(Client(), data)[0] == 200
    status, answer = open_app(Client(), data)  # replayed, by another browser
    assert status == 422 and "уже использован" in answer["error"]


def test_a_banned_member_is_refused_as_at_the_login_form() -> None:
    make_member(telegram_id=TELEGRAM_ID, status=MembershipStatus.BANNED)
    status, answer = open_app(Client(), launch())
    assert status == 403 and answer["error"]


def test_a_groups_link_opens_the_app_on_its_evening() -> None:
    make_member(telegram_id=TELEGRAM_ID)
    evening = make_evening()
    assert open_app(Client(), launch(start_param=f"evening-{evening.pk}"))[1] == {
        "next": f"/evenings/{evening.pk}/"
    }
    # A bot button names it in the page's address (unsigned: it only picks the page).
    make_member(telegram_id=TELEGRAM_ID + 1)
    assert open_app(Client(), launch(telegram_id=TELEGRAM_ID + 1), start=f"evening-{evening.pk}")[
        1
    ] == {"next": f"/evenings/{evening.pk}/"}
    odd = open_app(Client(), launch(telegram_id=TELEGRAM_ID + 2), start="evening-x")
    assert odd[1]["next"] in ("/", "/tg/join/")


def test_a_telegram_user_who_is_not_a_member_joins_with_the_age_check() -> None:
    client = Client()
    assert open_app(client, launch())[1] == {"next": "/tg/join/"}
    form = client.get("/tg/join/").content.decode()
    assert 'value="Вера"' in form and 'name="birth_date"' in form
    young = client.post("/tg/join/", {"nickname": "Вера", "birth_date": "2015-01-01"})
    assert young.status_code == 422 and "21" in young.content.decode()
    assert not User.objects.filter(nickname="Вера").exists()
    joined = client.post("/tg/join/", {"nickname": "Вера", "birth_date": "1990-05-05"})
    assert joined.status_code == 302 and joined["Location"] == "/"
    member = User.objects.get(nickname="Вера")
    assert (member.telegram_id, member.birth_date) == (TELEGRAM_ID, date(1990, 5, 5))
    assert not member.has_usable_password()  # Telegram is the login
    assert client.get("/").wsgi_request.user == member
    # The next launch opens the app as the new member at once.
    assert open_app(Client(), launch())[1] == {"next": "/"}


def test_joining_needs_a_verified_launch_first() -> None:
    answer = Client().post("/tg/join/", {"nickname": "Кто-то", "birth_date": "1990-01-01"})
    assert answer.status_code == 302 and answer["Location"] == "/tg/"
    assert not User.objects.filter(nickname="Кто-то").exists()


def test_the_app_is_throttled_per_telegram_user(monkeypatch: pytest.MonkeyPatch) -> None:
    from club.kernel import throttle

    monkeypatch.setattr(throttle, "MINI_APP_PER_USER", throttle.Limit("mini-app-user-t", "3/m"))
    make_member(telegram_id=TELEGRAM_ID)
    answers = [open_app(Client(), launch())[0] for _ in range(4)]
    assert answers == [200, 200, 200, 429]


def test_the_settings_switch_publication_and_reminders_in_the_app() -> None:
    member = make_member(telegram_id=TELEGRAM_ID)
    client = Client()
    open_app(client, launch())
    page = client.get("/accounts/settings/").content.decode()
    assert 'name="reminders"' in page and 'class="app-tabs"' in page
    client.post("/accounts/settings/", {"publication_consent": "on"})
    member.refresh_from_db()
    assert (member.memberships.get().publication_consent, member.reminders) == (True, False)


def test_a_launch_with_what_a_database_cannot_store_joins_without_a_500() -> None:
    """The attack review: a lone surrogate in the first name (signed by Telegram) made the
    join page a 500, a NUL in the username the join itself."""
    client = Client()
    data = launch(user_fields={"first_name": "Ве\ud800ра", "username": "ve\x00ra"})
    assert open_app(client, data)[1] == {"next": "/tg/join/"}
    form = client.get("/tg/join/")
    assert form.status_code == 200 and "Ве\ufffdра" in form.content.decode()
    joined = client.post("/tg/join/", {"nickname": "Вера", "birth_date": "1990-05-05"})
    assert joined.status_code == 302
    assert User.objects.get(nickname="Вера").telegram_username == "ve\ufffdra"
