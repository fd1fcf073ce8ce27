"""The webhook with real update JSON: the secret, repeats, every flow of the bot."""

import itertools
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from accounts import roles
from accounts.models import User
from club.models import Registration
from notifications.models import BotConversation, Notification, TelegramLinkCode
from tests.accounts.test_telegram_login import telegram_of
from tests.factories import EveningFields, MemberFields, make_evening, make_member
from tests.responses import Response

pytestmark = pytest.mark.django_db
SECRET = "webhook-secret-1"
_ids = itertools.count(10_000)


@pytest.fixture(autouse=True)
def _webhook_secret(settings: Settings) -> None:
    settings.TELEGRAM_WEBHOOK_SECRET = SECRET
    settings.TELEGRAM_BOT_USERNAME = "club_bot"


def post(body: object, *, secret: str = SECRET, raw: bytes | None = None) -> Response:
    headers = {"x-telegram-bot-api-secret-token": secret} if secret else {}
    if raw is not None:
        return Client().post(
            "/telegram/webhook/", raw, content_type="application/json", headers=headers
        )
    return Client().post(
        "/telegram/webhook/", body, content_type="application/json", headers=headers
    )


def message(text: str, *, user_id: int = 777, update_id: int | None = None) -> dict[str, Any]:
    return {
        "update_id": update_id or next(_ids),
        "message": {
            "message_id": 5,
            "date": 1765000000,
            "text": text,
            "from": {"id": user_id, "is_bot": False, "first_name": "Вера", "username": "vera_tg"},
            "chat": {"id": user_id, "type": "private", "first_name": "Вера"},
            **(
                {"entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]}
                if text.startswith("/")
                else {}
            ),
        },
    }


def button(data: str, *, user_id: int = 777) -> dict[str, Any]:
    return {
        "update_id": next(_ids),
        "callback_query": {
            "id": "cb-" + str(next(_ids)),
            "chat_instance": "42",
            "data": data,
            "from": {"id": user_id, "is_bot": False, "first_name": "Вера", "username": "vera_tg"},
            "message": {
                "message_id": 9,
                "date": 1765000000,
                "chat": {"id": user_id, "type": "private"},
            },
        },
    }


def replies(chat_id: int = 777) -> list[Notification]:
    return list(Notification.objects.filter(chat_id=chat_id).order_by("id"))


def test_a_wrong_or_missing_secret_is_403() -> None:
    assert post(message("/help"), secret="wrong").status_code == 403
    assert post(message("/help"), secret="").status_code == 403
    assert not Notification.objects.exists()


def test_malformed_and_unhandled_updates_get_200_and_change_nothing() -> None:
    assert post(None, raw=b"{not json").status_code == 200
    assert post([1, 2, 3]).status_code == 200
    assert post({"update_id": "x"}).status_code == 200
    assert post({"update_id": next(_ids), "edited_message": {"text": "hi"}}).status_code == 200
    group = message("/start")
    group["message"]["chat"] = {"id": -100, "type": "supergroup"}
    assert post(group).status_code == 200
    assert not Notification.objects.exists()


def test_ids_beyond_a_bigint_are_ignored_not_a_500() -> None:
    """Found by the fuzzer: an id past 2**63 failed the query (NumericValueOutOfRange)."""
    huge = 2**70
    assert post(message("/start", user_id=huge)).status_code == 200
    assert post(message("/help", update_id=huge)).status_code == 200
    callback = {"update_id": next(_ids), "callback_query": {"id": "1", "from": {"id": huge}}}
    assert post(callback).status_code == 200
    assert not Notification.objects.exists()


def test_a_repeated_update_is_handled_once() -> None:
    update = message("/help", update_id=555)
    post(update)
    post(update)
    assert len(replies()) == 1


def test_start_with_a_link_code_links_the_account() -> None:
    member = make_member(nickname="Вера")
    site = Client()
    site.force_login(member)
    response = site.post("/telegram/connect/")
    assert response.status_code == 302 and response["Location"].startswith(
        "https://t.me/club_bot?start="
    )
    code = response["Location"].split("start=")[1]
    assert len(code) <= 64
    # The bot names the account and links only when asked to.
    post(message(f"/start {code}"))
    member.refresh_from_db()
    assert member.telegram_id is None
    ask = replies()[0]
    assert "«Вера»" in ask.text
    post(button(ask.buttons[0][0]["callback_data"]))
    assert telegram_of(member) == (777, "vera_tg")
    assert "Telegram привязан к Вера" in replies()[1].text
    # Single use: the same code again links nothing.
    post(message(f"/start {code}", user_id=888))
    assert "ссылка устарела" in replies(888)[0].text.lower()


def test_a_link_code_never_replaces_a_members_telegram() -> None:
    member = make_member(nickname="Вера", telegram_id=555)
    TelegramLinkCode.objects.create(
        code="fresh-code", member=member, expires_at=timezone.now() + timedelta(minutes=5)
    )
    post(button("lk:fresh-code"))
    member.refresh_from_db()
    assert member.telegram_id == 555


def test_a_banned_member_is_refused_by_the_bot_as_by_the_site() -> None:
    evening = make_evening()
    member = make_member(nickname="Изгнанный", telegram_id=777, status="banned")
    consent = roles.consents_in(member)
    answer = post(button(f"su:{evening.pk}")).json()
    assert answer["text"] == "Этот аккаунт заблокирован."
    post(button("set:consent"))
    post(message("/evening"))
    member.refresh_from_db()
    assert member.memberships.get().publication_consent == consent
    assert not Registration.objects.filter(member=member).exists()
    assert replies()[-1].text == "Этот аккаунт заблокирован."


def test_an_expired_link_code_is_refused() -> None:
    member = make_member()
    TelegramLinkCode.objects.create(
        code="old-code", member=member, expires_at=timezone.now() - timedelta(seconds=1)
    )
    post(message("/start old-code"))
    member.refresh_from_db()
    assert member.telegram_id is None


def test_start_from_an_unknown_account_offers_two_ways() -> None:
    post(message("/start"))
    (reply,) = replies()
    assert "профиль" in reply.text and reply.buttons == [
        [{"text": "Зарегистрироваться здесь", "callback_data": "join"}]
    ]


def test_ok_igraem_signs_up_and_answers_at_once() -> None:
    member = make_member(telegram_id=777)
    evening = make_evening(capacity=15)
    response = post(button(f"su:{evening.pk}"))
    assert response.status_code == 200
    answer = response.json()
    assert answer["method"] == "answerCallbackQuery"
    assert answer["text"] == "Вы в игре: № 1 в списке из 15."
    registration = Registration.objects.get(member=member)
    assert (registration.status, registration.source) == ("confirmed", "bot")
    assert Notification.objects.filter(member=member, dedupe_key__startswith="seat:").exists()
    # «Подтверждаю», then «Не смогу» (which asks first) and «Да, не смогу».
    assert post(button(f"cf:{evening.pk}")).json()["text"] == "Спасибо: участие подтверждено."
    post(button(f"cx:{evening.pk}"))
    assert Registration.objects.get(member=member).leaves_at is None
    answer = post(button(f"cy:{evening.pk}")).json()
    assert answer["text"] == "Вы отказались от места. Его ещё можно вернуть."
    assert Registration.objects.get(member=member).leaves_at is not None  # the undo window


def test_a_full_evening_answers_with_the_reserve_position() -> None:
    evening = make_evening(capacity=1)
    make_member(telegram_id=1)
    post(button(f"su:{evening.pk}", user_id=1))
    make_member(telegram_id=777)
    assert post(button(f"su:{evening.pk}")).json()["text"] == "Мест нет: вы в резерве, позиция 1."


@pytest.mark.parametrize(
    ("member_fields", "evening_fields", "expected"),
    [
        ({"status": "suspended"}, {}, "Ваше членство приостановлено"),
        (
            {"birth_date": timezone.localdate().replace(year=timezone.localdate().year - 20)},
            {},
            "21+",
        ),
        ({}, {"status": "closed"}, "Запись на этот вечер закрыта."),
    ],
)
def test_refusals_are_clear_and_change_nothing(
    member_fields: MemberFields, evening_fields: EveningFields, expected: str
) -> None:
    fields: MemberFields = {**member_fields, "telegram_id": 777}
    make_member(**fields)
    evening = make_evening(**evening_fields)
    assert expected in post(button(f"su:{evening.pk}")).json()["text"]
    assert not Registration.objects.exists()


def test_buttons_from_an_unlinked_account_ask_to_link_first() -> None:
    evening = make_evening()
    answer = post(button(f"su:{evening.pk}")).json()
    assert "/start" in answer["text"]
    assert not Registration.objects.exists()


def test_evening_shows_my_status_and_the_right_buttons() -> None:
    member = make_member(telegram_id=777)
    evening = make_evening(capacity=15)
    post(message("/evening"))
    card = replies()[-1]
    assert "Свободно мест: 15 из 15." in card.text
    assert card.buttons == [[{"text": "Ок, играем", "callback_data": f"su:{evening.pk}"}]]
    post(button(f"su:{evening.pk}"))
    post(message("/evening"))
    card = replies()[-1]
    assert "Вы в игре: № 1 в списке." in card.text
    assert [b["text"] for b in card.buttons[0]] == ["Подтверждаю", "Не смогу"]
    assert member.registrations.count() == 1


def test_settings_switch_publication_and_reminders() -> None:
    member = make_member(telegram_id=777)
    post(message("/settings"))
    assert "Публиковать мой ник и баллы: вкл." in replies()[-1].text
    assert post(button("set:consent")).json()["text"] == "Настройки сохранены."
    post(button("set:reminders"))
    member.refresh_from_db()
    assert (member.memberships.get().publication_consent, member.reminders) == (False, False)
    assert "Публиковать мой ник и баллы: выкл." in replies()[-1].text


def test_signing_up_in_the_bot_with_the_21_plus_check() -> None:
    assert post(button("join")).json()["method"] == "answerCallbackQuery"
    post(message("Я"))
    assert "от 2 до 32" in replies()[-1].text
    make_member(nickname="Занятый")
    post(message("занятый"))
    assert "занят" in replies()[-1].text
    post(message("Ночной Ворон"))
    post(message("31.02.1990"))
    assert "ДД.ММ.ГГГГ" in replies()[-1].text
    too_young = timezone.localdate().replace(year=timezone.localdate().year - 18)
    post(message(too_young.strftime("%d.%m.%Y")))
    assert "21+" in replies()[-1].text
    assert not User.objects.filter(telegram_id=777).exists()
    post(message("07.03.1995"))
    member = User.objects.get(telegram_id=777)
    assert (member.nickname, member.has_usable_password()) == ("Ночной Ворон", False)
    assert not BotConversation.objects.exists()
    assert "Добро пожаловать в клуб, Ночной Ворон!" in replies()[-2].text


def test_help_and_unknown_text() -> None:
    post(message("/help"))
    post(message("привет"))
    assert all("/evening" in reply.text for reply in replies())


def test_the_evening_card_opens_the_club_app_on_an_https_site(settings: Settings) -> None:
    settings.SITE_URL = "https://club.example.org"
    make_member(telegram_id=777)
    evening = make_evening(capacity=15)
    post(message("/evening"))
    rows = replies()[-1].buttons
    assert rows[-1] == [
        {
            "text": "Открыть в приложении клуба",
            "web_app": f"https://club.example.org/tg/?startapp=evening-{evening.pk}",
        }
    ]
    settings.SITE_URL = "http://127.0.0.1:8000"  # Telegram opens only https in an app
    post(message("/evening"))
    assert all("web_app" not in button for row in replies()[-1].buttons for button in row)
