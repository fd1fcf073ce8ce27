"""Telegram's login popup: signed data posted from our own pages; forgeries, replays and
takeovers refused.

The takeover it closes (#14): the login link used to be a GET that also linked, so a
logged-in member who opened an attacker's genuine signed link had the attacker's Telegram
linked to their account, and the attacker could then log in as them.
"""

import hashlib
import hmac
import time
from collections.abc import Callable, Iterator

import pytest
from django.test import Client, override_settings

from accounts.models import User
from tests.factories import make_member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bot_token")]

BOT_TOKEN = "123456:TEST-token-for-the-widget"
LOGIN = "/accounts/telegram/login/"
LINK, UNLINK = "/accounts/telegram/link/", "/accounts/telegram/unlink/"


@pytest.fixture
def bot_token() -> Iterator[None]:
    with override_settings(TELEGRAM_BOT_TOKEN=BOT_TOKEN, TELEGRAM_BOT_USERNAME="club_bot"):
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


def link_nonce(client: Client) -> str:
    """The nonce the profile page puts in its «Link Telegram» form."""
    page = client.get("/accounts/profile/")
    assert page.status_code == 200
    nonce: str = page.context["telegram_link_nonce"]
    return nonce


def telegram_of(member: User) -> tuple[int | None, str]:
    """The member's Telegram account as the database has it now."""
    member.refresh_from_db()
    return member.telegram_id, member.telegram_username


def logged_in_as(client: Client) -> int | None:
    value = client.session.get("_auth_user_id")
    return int(value) if value is not None else None


# --- logging in -----------------------------------------------------------------------


def test_a_linked_member_logs_in_by_a_post(client: Client) -> None:
    member = make_member(nickname="Вера", telegram_id=777)
    response = client.post(LOGIN, widget_data())
    assert response.status_code == 302
    assert response["Location"] == "/accounts/profile/"
    assert logged_in_as(client) == member.pk
    member.refresh_from_db()
    assert member.telegram_username == "vera_tg"


def test_the_login_takes_no_get_so_a_sent_link_does_nothing(client: Client) -> None:
    make_member(telegram_id=777)
    response = client.get(LOGIN, widget_data())
    assert response.status_code == 405
    assert logged_in_as(client) is None


def test_the_login_needs_the_pages_csrf_token() -> None:
    make_member(telegram_id=777)
    client = Client(enforce_csrf_checks=True)
    assert client.post(LOGIN, widget_data()).status_code == 403
    assert logged_in_as(client) is None


def test_a_signed_payload_logs_in_once(client: Client) -> None:
    member = make_member(telegram_id=777)
    data = widget_data()
    client.post(LOGIN, data)
    assert logged_in_as(client) == member.pk
    other = Client()
    response = other.post(LOGIN, data, follow=True)
    assert "уже использован" in response.content.decode()
    assert logged_in_as(other) is None


def test_logging_in_never_links_even_when_logged_in(member_client: Client, member: User) -> None:
    response = member_client.post(LOGIN, widget_data(555), follow=True)
    assert "ещё не привязан" in response.content.decode()
    member.refresh_from_db()
    assert member.telegram_id is None


def test_an_unknown_telegram_account_is_told_to_sign_up_first(client: Client) -> None:
    response = client.post(LOGIN, widget_data(999), follow=True)
    assert "Этот Telegram ещё не привязан" in response.content.decode()
    assert logged_in_as(client) is None


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda data: {**data, "id": "778"}, "не подлинные"),
        (lambda data: {**data, "hash": "0" * 64}, "не подлинные"),
        (lambda data: {key: value for key, value in data.items() if key != "hash"}, "неполные"),
        (lambda data: signed({"id": "777", "auth_date": "soon"}), "повреждены"),
        (lambda data: signed({"id": "777", "auth_date": "²"}), "повреждены"),
        (lambda data: signed({"id": "9" * 30, "auth_date": str(int(time.time()))}), "повреждены"),
        (
            lambda data: signed({"id": "777", "auth_date": "1"}, token="999:other-bot"),
            "не подлинные",
        ),
    ],
)
def test_forged_data_is_refused(
    client: Client, tamper: Callable[[dict[str, str]], dict[str, str]], message: str
) -> None:
    make_member(telegram_id=777)
    response = client.post(LOGIN, tamper(widget_data()), follow=True)
    assert message in response.content.decode()
    assert logged_in_as(client) is None


@pytest.mark.parametrize(
    "forged_hash",
    ["é", "é" * 64, "ÿ" + "0" * 63, "\u0661" * 64],
    ids=["e-acute", "64-e-acute", "y-diaeresis-and-hex", "arabic-digits"],
)
def test_a_hash_that_is_not_ascii_is_refused_as_a_wrong_one(
    client: Client, forged_hash: str
) -> None:
    """hmac.compare_digest refuses a str that is not ASCII with a TypeError: the widget's
    door answered 500 to `hash=é` (#24)."""
    make_member(telegram_id=777)
    response = client.post(LOGIN, {**widget_data(), "hash": forged_hash}, follow=True)
    assert response.status_code == 200
    assert "не подлинные" in response.content.decode()
    assert logged_in_as(client) is None
    nonce_client = Client()
    nonce_client.force_login(make_member())
    linked = nonce_client.post(
        LINK, {**widget_data(555), "hash": forged_hash, "nonce": link_nonce(nonce_client)}
    )
    assert linked.status_code == 302
    assert not User.objects.filter(telegram_id=555).exists()


def test_data_older_than_a_day_is_refused(client: Client) -> None:
    make_member(telegram_id=777)
    stale = widget_data(auth_date=int(time.time()) - 24 * 60 * 60 - 5)
    response = client.post(LOGIN, stale, follow=True)
    assert "истёк" in response.content.decode()
    assert logged_in_as(client) is None


def test_a_banned_member_cannot_log_in_with_telegram(client: Client) -> None:
    make_member(telegram_id=777, status="banned")
    response = client.post(LOGIN, widget_data(), follow=True)
    assert "Этот аккаунт заблокирован." in response.content.decode()
    assert logged_in_as(client) is None


def test_without_a_bot_token_telegram_login_is_off(client: Client) -> None:
    make_member(telegram_id=777)
    with override_settings(TELEGRAM_BOT_TOKEN=""):
        response = client.post(LOGIN, widget_data(), follow=True)
    assert "не настроен" in response.content.decode()


# --- linking --------------------------------------------------------------------------


def test_the_profile_page_links_telegram(member_client: Client, member: User) -> None:
    nonce = link_nonce(member_client)
    response = member_client.post(LINK, {**widget_data(555), "nonce": nonce}, follow=True)
    assert "Telegram привязан" in response.content.decode()
    member.refresh_from_db()
    assert (member.telegram_id, member.telegram_username) == (555, "vera_tg")


def test_an_attackers_genuine_payload_cannot_be_linked_without_the_pages_nonce(
    member_client: Client, member: User
) -> None:
    """The victim is logged in; the attacker's signed data arrives without the nonce that
    only the victim's own profile page holds (a link, a forged form)."""
    attacker = widget_data(666)
    for sent in (attacker, {**attacker, "nonce": "guessed"}):
        response = member_client.post(LINK, sent, follow=True)
        assert "истёк" in response.content.decode()
    member.refresh_from_db()
    assert member.telegram_id is None
    # …so the attacker's Telegram logs nobody in.
    assert logged_in_as(Client()) is None
    intruder = Client()
    intruder.post(LOGIN, widget_data(666))
    assert logged_in_as(intruder) is None


def test_the_nonce_is_good_for_one_link(member_client: Client, member: User) -> None:
    nonce = link_nonce(member_client)
    member_client.post(LINK, {**widget_data(555), "nonce": nonce})
    member_client.post(UNLINK)
    response = member_client.post(LINK, {**widget_data(556), "nonce": nonce}, follow=True)
    assert "истёк" in response.content.decode()
    member.refresh_from_db()
    assert member.telegram_id is None


def test_an_existing_link_is_never_replaced(member_client: Client) -> None:
    victim = make_member(nickname="Жертва", telegram_id=111)
    client = Client()
    client.force_login(victim)
    response = client.post(LINK, {**widget_data(666), "nonce": link_nonce(client)}, follow=True)
    assert "Сначала отвяжите" in response.content.decode()
    victim.refresh_from_db()
    assert victim.telegram_id == 111


def test_telegram_linked_to_another_member_is_not_moved(
    member_client: Client, member: User
) -> None:
    make_member(nickname="Другой", telegram_id=777)
    nonce = link_nonce(member_client)
    response = member_client.post(LINK, {**widget_data(777), "nonce": nonce}, follow=True)
    assert "уже привязан к другому участнику" in response.content.decode()
    member.refresh_from_db()
    assert member.telegram_id is None


def test_a_payload_used_to_log_in_cannot_be_linked_again(
    member_client: Client, member: User
) -> None:
    make_member(nickname="Владелец", telegram_id=777)
    data = widget_data(777)
    Client().post(LOGIN, data)
    response = member_client.post(LINK, {**data, "nonce": link_nonce(member_client)}, follow=True)
    assert "уже использован" in response.content.decode()


def test_unlinking_frees_the_account_for_a_new_link(member_client: Client, member: User) -> None:
    member.telegram_id, member.telegram_username = 555, "old"
    member.save()
    member_client.post(UNLINK)
    assert telegram_of(member) == (None, "")
    member_client.post(LINK, {**widget_data(556), "nonce": link_nonce(member_client)})
    member.refresh_from_db()
    assert member.telegram_id == 556


def test_linking_and_unlinking_need_a_login(client: Client) -> None:
    for url in (LINK, UNLINK):
        response = client.post(url, widget_data())
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.usefixtures("bot_token")
def test_a_signed_username_with_a_nul_logs_in_and_is_kept_storable(client: Client) -> None:
    member = make_member(nickname="Вера", telegram_id=777)
    fields = {"id": "777", "first_name": "Вера", "username": "vera\x00tg",
              "auth_date": str(int(time.time()))}  # fmt: skip
    response = client.post(LOGIN, signed(fields))
    assert response.status_code == 302 and logged_in_as(client) == member.pk
    member.refresh_from_db()
    assert member.telegram_username == "vera\ufffdtg"
