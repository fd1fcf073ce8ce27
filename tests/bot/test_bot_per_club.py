"""A bot per club (#41, item 5): two clubs, two bots on the fake Bot API. Each club's
webhook opens only with its own secret, each club's bot acts on its own club only (a
button carrying the other club's evening does nothing), the Mini App takes only a launch
its own club's bot signed, and every message goes through the bot of the club it is
about, never the other's."""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from pytest_django import Settings

from club.kernel.bots import club_bot
from club.kernel.clubs import Club
from club.kernel.tenancy import club_scope, first_club_id
from club.models import Evening, Registration
from notifications.models import Notification, NotificationStatus, TelegramUpdate
from notifications.sender import notification_deliver
from tests.accounts.test_mini_app import launch
from tests.factories import make_evening, make_member
from tests.fake_telegram import FakeTelegram
from tests.responses import Response

pytestmark = pytest.mark.django_db
A_SECRET, B_SECRET = "a-webhook-secret", "b-webhook-secret"
B_TOKEN = "654321:club-b-token"
_ids = itertools.count(70_000)


@dataclass(frozen=True)
class TwoBots:
    a: Club
    b: Club
    a_token: str
    b_token: str
    server: FakeTelegram


@pytest.fixture
def two_bots(fake_telegram: FakeTelegram, settings: Settings) -> Iterator[TwoBots]:
    """The first club on the server's bot (the settings), club B on its own."""
    settings.TELEGRAM_WEBHOOK_SECRET = A_SECRET
    settings.TELEGRAM_BOT_USERNAME = "club_bot"
    settings.TELEGRAM_MINI_APP_MAX_AGE_SECONDS = 3600
    fake_telegram.add_bot(B_TOKEN, "b_club_bot")
    b = Club.objects.create(
        slug="b",
        name="B",
        telegram_bot_token=B_TOKEN,
        telegram_bot_username="b_club_bot",
        telegram_webhook_secret=B_SECRET,
    )
    a = Club.objects.get(pk=first_club_id())
    yield TwoBots(a, b, fake_telegram.token, B_TOKEN, fake_telegram)


def webhook(prefix: str, body: object, secret: str) -> Response:
    return Client().post(
        f"{prefix}/telegram/webhook/",
        body,
        content_type="application/json",
        headers={"x-telegram-bot-api-secret-token": secret},
    )


def press(data: str, telegram_id: int, update_id: int | None = None) -> dict[str, Any]:
    return {
        "update_id": update_id or next(_ids),
        "callback_query": {
            "id": f"cb-{next(_ids)}",
            "chat_instance": "1",
            "data": data,
            "from": {"id": telegram_id, "is_bot": False, "first_name": "Лиса"},
        },
    }


def deliver_pending(club: Club) -> None:
    with club_scope(club):
        for pk in Notification.objects.filter(status=NotificationStatus.PENDING).values_list(
            "pk", flat=True
        ):
            notification_deliver(pk)


def evening_in(club: Club) -> Evening:
    with club_scope(club):
        return make_evening(capacity=15)


def test_each_club_has_its_bot_and_the_first_club_falls_back_to_the_settings(
    two_bots: TwoBots, settings: Settings
) -> None:
    a, b = club_bot(two_bots.a), club_bot(two_bots.b)
    assert (a.token, a.username, a.secret) == (two_bots.a_token, "club_bot", A_SECRET)
    assert (b.token, b.username, b.secret) == (B_TOKEN, "b_club_bot", B_SECRET)
    assert (a.bot_id, b.bot_id) == ("123456", "654321")
    assert not a.console and not b.console
    # A third club without a bot of its own is in console mode: the server's bot is the
    # first club's only, never another club's.
    c = Club.objects.create(slug="c", name="C")
    assert club_bot(c).token == "" and club_bot(c).console
    with club_scope(two_bots.b):
        assert club_bot() == b


def test_a_clubs_webhook_opens_only_with_its_own_secret(two_bots: TwoBots) -> None:
    member = make_member(telegram_id=4100)
    assert webhook("/c/b", press("help", 4100), A_SECRET).status_code == 403
    assert webhook("", press("help", 4100), B_SECRET).status_code == 403
    assert not TelegramUpdate.all_clubs.exists()
    assert webhook("/c/b", press("help", 4100), B_SECRET).status_code == 200
    assert webhook("", press("help", 4100), A_SECRET).status_code == 200
    assert sorted(TelegramUpdate.all_clubs.values_list("club_id", flat=True)) == sorted(
        [two_bots.a.pk, two_bots.b.pk]
    )
    assert member.pk  # the member exists in neither club's way: one account


def test_each_bots_update_ids_are_its_own(two_bots: TwoBots) -> None:
    """Two bots number their updates each on its own: the same id at both webhooks is two
    updates, each handled once."""
    make_member(telegram_id=4101)
    a_evening, b_evening = evening_in(two_bots.a), evening_in(two_bots.b)
    assert webhook("", press(f"su:{a_evening.pk}", 4101, 5), A_SECRET).status_code == 200
    assert webhook("/c/b", press(f"su:{b_evening.pk}", 4101, 5), B_SECRET).status_code == 200
    assert webhook("/c/b", press(f"su:{b_evening.pk}", 4101, 5), B_SECRET).status_code == 200
    assert TelegramUpdate.all_clubs.filter(update_id=5).count() == 2
    assert Registration.all_clubs.filter(evening=a_evening).count() == 1
    assert Registration.all_clubs.filter(evening=b_evening).count() == 1


def test_a_button_in_club_bs_bot_acts_on_club_b_only(two_bots: TwoBots) -> None:
    member = make_member(telegram_id=4200)
    a_evening, b_evening = evening_in(two_bots.a), evening_in(two_bots.b)
    # Club A's evening's id pressed in club B's bot: no such evening there.
    for action in ("su", "cf", "cx", "cy"):
        answer = webhook("/c/b", press(f"{action}:{a_evening.pk}", 4200), B_SECRET)
        assert answer.status_code == 200
    assert not Registration.all_clubs.filter(evening=a_evening).exists()
    answer = webhook("/c/b", press(f"su:{b_evening.pk}", 4200), B_SECRET)
    assert answer.json()["text"].startswith("Вы в игре")
    registration = Registration.all_clubs.get(member=member)
    assert (registration.evening_id, registration.club_id) == (b_evening.pk, two_bots.b.pk)
    # The reply is club B's, and club B's bot sends it; club A's bot says nothing.
    assert set(Notification.all_clubs.values_list("club_id", flat=True)) == {two_bots.b.pk}
    deliver_pending(two_bots.a)
    deliver_pending(two_bots.b)
    (sent,) = two_bots.server.sent()
    assert (sent.token, sent.params["chat_id"]) == (B_TOKEN, 4200)
    assert sent.params["text"].startswith("Вы в игре!")


def test_a_member_in_two_clubs_is_told_by_each_clubs_bot_about_that_club(
    two_bots: TwoBots,
) -> None:
    """One account, one Telegram id: each club's bot writes to the same chat id."""
    make_member(telegram_id=4300)
    a_evening, b_evening = evening_in(two_bots.a), evening_in(two_bots.b)
    webhook("", press(f"su:{a_evening.pk}", 4300), A_SECRET)
    webhook("/c/b", press(f"su:{b_evening.pk}", 4300), B_SECRET)
    deliver_pending(two_bots.b)
    deliver_pending(two_bots.a)
    by_a, by_b = two_bots.server.sent(two_bots.a_token), two_bots.server.sent(B_TOKEN)
    assert [call.params["chat_id"] for call in by_a] == [4300]
    assert [call.params["chat_id"] for call in by_b] == [4300]
    rows = Notification.all_clubs.filter(chat_id=4300, status=NotificationStatus.SENT)
    assert sorted(rows.values_list("club_id", flat=True)) == sorted([two_bots.a.pk, two_bots.b.pk])


def test_the_mini_app_of_club_b_takes_only_club_bs_bots_launch(two_bots: TwoBots) -> None:
    member = make_member(telegram_id=4400)
    signed_by_a = launch(telegram_id=4400, token=two_bots.a_token)
    signed_by_b = launch(telegram_id=4400, token=B_TOKEN)
    for prefix, foreign in (("/c/b", signed_by_a), ("", signed_by_b)):
        client = Client()
        refused = client.post(f"{prefix}/tg/auth/", {"init_data": foreign})
        assert refused.status_code == 422 and "не от Telegram" in refused.json()["error"]
        assert client.get(f"{prefix}/").wsgi_request.user.is_anonymous
    for prefix, own in (("/c/b", signed_by_b), ("", signed_by_a)):
        client = Client()
        opened = client.post(f"{prefix}/tg/auth/", {"init_data": own})
        assert opened.status_code == 200, opened.content
        assert client.get(f"{prefix}/").wsgi_request.user == member


def test_the_pages_name_the_clubs_own_bot(two_bots: TwoBots) -> None:
    member = make_member()
    client = Client()
    client.force_login(member)
    connect = client.post("/c/b/telegram/connect/")
    assert connect["Location"].startswith("https://t.me/b_club_bot?start=")
    connect = client.post("/telegram/connect/")
    assert connect["Location"].startswith("https://t.me/club_bot?start=")


def test_telegram_setup_sets_each_clubs_webhook_through_its_bot(
    two_bots: TwoBots, settings: Settings
) -> None:
    settings.SITE_URL = "https://clubs.example.org"
    out = io.StringIO()
    call_command("telegram_setup", "--club", "b", stdout=out)
    (hook,) = [c for c in two_bots.server.calls if c.method == "setWebhook"]
    assert hook.token == B_TOKEN
    assert hook.params["url"] == "https://clubs.example.org/c/b/telegram/webhook/"
    assert hook.params["secret_token"] == B_SECRET
    (menu,) = [c for c in two_bots.server.calls if c.method == "setChatMenuButton"]
    assert menu.params["menu_button"]["web_app"]["url"] == "https://clubs.example.org/c/b/tg/"
    # A club that gave only a token: its username from getMe, a secret made and kept.
    two_bots.server.add_bot("777000:club-c-token", "c_club_bot")
    Club.objects.create(slug="c", name="C", telegram_bot_token="777000:club-c-token")
    Club.objects.create(slug="d", name="D")  # no bot: skipped
    two_bots.server.calls.clear()
    call_command("telegram_setup", "--all", stdout=out)
    hooks = {c.token: c.params for c in two_bots.server.calls if c.method == "setWebhook"}
    assert hooks.keys() == {two_bots.a_token, B_TOKEN, "777000:club-c-token"}
    assert hooks[two_bots.a_token]["url"] == "https://clubs.example.org/telegram/webhook/"
    assert hooks[two_bots.a_token]["secret_token"] == A_SECRET
    c = Club.objects.get(slug="c")
    assert c.telegram_bot_username == "c_club_bot"
    assert len(c.telegram_webhook_secret) >= 32
    assert hooks["777000:club-c-token"]["secret_token"] == c.telegram_webhook_secret
    assert "d: no bot (console mode), skipped." in out.getvalue()
    assert "3 of 4 clubs' bots set up." in out.getvalue()


def test_telegram_poll_reads_the_chosen_clubs_bot(two_bots: TwoBots) -> None:
    make_member(telegram_id=4500)
    b_evening = evening_in(two_bots.b)
    two_bots.server.updates.append(press(f"su:{b_evening.pk}", 4500))
    call_command("telegram_poll", "--once", "--club", "b")
    fetched = {c.token for c in two_bots.server.calls if c.method == "getUpdates"}
    assert fetched == {B_TOKEN}
    assert Registration.all_clubs.get().evening_id == b_evening.pk
    (toast,) = [c for c in two_bots.server.calls if c.method == "answerCallbackQuery"]
    assert toast.token == B_TOKEN
