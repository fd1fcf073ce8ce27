"""The sign-up page: who gets in, and what everyone else is told."""

from datetime import UTC, datetime

import pytest
import time_machine
from django.test import Client

from accounts.models import User
from tests.factories import make_member
from tests.responses import Response

pytestmark = pytest.mark.django_db

# 22:30 UTC on 2 December is already 01:30 on 3 December in Moscow, the club's zone.
LATE_EVENING_UTC = datetime(2026, 12, 2, 22, 30, tzinfo=UTC)


def sign_up(client: Client, **overrides: str) -> Response:
    data = {
        "nickname": "Ворон",
        "email": "voron@example.com",
        "birth_date": "1990-05-01",
        "password1": "tabletop-night-42",
        "password2": "tabletop-night-42",
    }
    data.update(overrides)
    return client.post("/accounts/signup/", data)


def test_sign_up_creates_the_member_and_logs_them_in(client: Client) -> None:
    response = sign_up(client, nickname="  Ворон   Ночной ")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/profile/"
    member = User.objects.get()
    assert member.nickname == "Ворон Ночной"
    joined = member.memberships.get()  # a member of the club whose site they signed up on
    assert joined.publication_consent is True and joined.status == "active"
    assert member.check_password("tabletop-night-42")
    assert client.get("/accounts/profile/").status_code == 200


@time_machine.travel(LATE_EVENING_UTC, tick=False)
def test_exactly_21_today_in_the_clubs_time_zone_is_accepted(client: Client) -> None:
    # In UTC it is still 2 December, so this person would be 21 only "tomorrow".
    response = sign_up(client, birth_date="2005-12-03")
    assert response.status_code == 302
    assert User.objects.filter(nickname="Ворон").exists()


@time_machine.travel(LATE_EVENING_UTC, tick=False)
def test_21_tomorrow_is_refused_with_a_clear_message_and_nothing_stored(client: Client) -> None:
    response = sign_up(client, birth_date="2005-12-04")
    assert response.status_code == 200
    text = response.content.decode()
    assert "Клуб только для игроков 21+" in text
    assert "4 декабря 2026" in text
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("birth_date", "2999-01-01", "Дата рождения не может быть в будущем."),
        ("birth_date", "1899-12-31", "Дата рождения не может быть раньше 1900 года."),
        ("birth_date", "31.02.2000", "Введите правильную дату."),
        ("birth_date", "вчера", "Введите правильную дату."),
        ("birth_date", "", "Обязательное поле."),
        ("nickname", "Я", "Никнейм — от 2 до 32 символов."),
        ("nickname", "Очень длинный никнейм из многих слов", "Никнейм — от 2 до 32 символов."),
        ("nickname", "x" * 65, "не более 64 символов"),
        ("nickname", "Ворон!", "Никнейм может содержать только"),
        ("nickname", "<script>", "Никнейм может содержать только"),
        ("nickname", "12345", "В никнейме нужна хотя бы одна буква."),
        ("email", "not-an-email", "Введите правильный адрес электронной почты."),
        ("password2", "another-password-1", "Пароли не совпадают."),
    ],
)
def test_bad_input_is_refused_with_a_russian_message(
    client: Client, field: str, value: str, message: str
) -> None:
    response = sign_up(client, **{field: value})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.exists()


def test_a_nickname_taken_in_another_letter_case_is_refused(client: Client) -> None:
    make_member(nickname="Ворон")
    response = sign_up(client, nickname="ВОРОН")
    assert "Этот никнейм занят." in response.content.decode()
    assert User.objects.count() == 1


def test_an_email_taken_in_another_letter_case_is_refused(client: Client) -> None:
    make_member(email="voron@example.com")
    response = sign_up(client, email="VORON@example.com")
    assert "Участник с такой почтой уже есть." in response.content.decode()
    assert User.objects.count() == 1


def test_a_weak_password_is_refused(client: Client) -> None:
    response = sign_up(client, password1="12345678", password2="12345678")
    assert response.status_code == 200
    assert not User.objects.exists()


def test_the_page_speaks_english_on_request(client: Client) -> None:
    client.cookies["django_language"] = "en"
    response = sign_up(client, nickname="Raven", birth_date="2999-01-01")
    assert "The birth date cannot be in the future." in response.content.decode()


def test_the_service_refuses_underage_members_from_any_door() -> None:
    from datetime import date

    from accounts.services import member_sign_up, refusal_fields
    from club.kernel.errors import Refused

    with pytest.raises(Refused) as caught:
        member_sign_up(nickname="Юнга", birth_date=date.today(), password=None)
    assert "birth_date" in refusal_fields(caught.value)
    assert not User.objects.exists()


def test_an_email_that_folds_to_a_members_is_refused_at_every_door(admin_client_: Client) -> None:
    """The attack review: the admin's form took «ırina@…» (a dotless «ı») beside
    «irina@…», which the database matches to both, so her email logged into the other
    account; and «İRINA@…» (a dotted capital «İ») at the sign-up page hit the database's
    constraint and was told the nickname was taken."""
    irina = make_member(nickname="Ирина", email="irina@example.com")
    added = admin_client_.post(
        "/admin/accounts/user/add/",
        {"nickname": "Двойник", "email": "ırina@example.com", "birth_date": "1990-01-01",
         "password1": "long-enough-password-1", "password2": "long-enough-password-1"},
    )  # fmt: skip
    assert added.status_code == 200 and "уже есть" in added.content.decode()
    assert not User.objects.filter(nickname="Двойник").exists()
    answer = Client().post(
        "/accounts/signup/",
        {"nickname": "Новая", "email": "İRINA@example.com", "birth_date": "1990-01-01",
         "password1": "long-enough-password-1", "password2": "long-enough-password-1"},
    )  # fmt: skip
    page = answer.content.decode()
    assert answer.status_code == 200 and "уже есть" in page and "никнейм занят" not in page
    # Two members whose emails fold together (made before the rule): the email logs in
    # to neither, never to the wrong one.
    User.objects.filter(pk=make_member(nickname="Двойник").pk).update(email="ırina@example.com")
    assert User.objects.by_login("irina@example.com") is None
    assert User.objects.by_login("Ирина") == irina
