from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Role, User
from accounts.services import api_token_create
from club.doors.api import describe_error
from club.models import Evening, Registration
from tests.factories import EveningFields, MemberFields, make_evening, make_member, sign_up_many

pytestmark = pytest.mark.django_db


def api(member: User | None = None) -> tuple[Client, dict[str, str]]:
    member = member or make_member()
    return Client(), {"authorization": f"Bearer {api_token_create(member=member).key}"}


def test_sign_up_returns_201_then_200_for_the_same_registration() -> None:
    evening = make_evening(capacity=1)
    client, auth = api()
    url = f"/api/v1/evenings/{evening.pk}/registration"
    first = client.post(url, headers=auth)
    assert (first.status_code, first.json()) == (
        201,
        {"status": "confirmed", "position": None, "seat": 1},
    )
    again = client.post(url, headers=auth)
    assert (again.status_code, again.json()["status"]) == (200, "confirmed")
    other, other_auth = api()
    reserve = other.post(url, headers=other_auth)
    assert (reserve.status_code, reserve.json()) == (
        201,
        {"status": "reserve", "position": 1, "seat": None},
    )


def test_cancel_and_confirm() -> None:
    evening = make_evening(capacity=5)
    client, auth = api()
    url = f"/api/v1/evenings/{evening.pk}/registration"
    client.post(url, headers=auth)
    confirmed = client.post(url + "/confirm", headers=auth)
    assert confirmed.status_code == 200 and confirmed.json()["attendance_confirmed_at"]
    cancelled = client.delete(url, headers=auth)
    assert (cancelled.status_code, cancelled.json()) == (200, {"status": "cancelled"})
    again = client.delete(url, headers=auth)
    assert (again.status_code, again.json()) == (
        404,
        {"detail": "Вы не записаны на этот вечер.", "code": "not_found"},
    )
    refused = client.post(url + "/confirm", headers=auth)
    assert refused.status_code == 409


@pytest.mark.parametrize(
    ("member_fields", "evening_fields", "status", "code"),
    [
        (
            {"birth_date": timezone.localdate().replace(year=timezone.localdate().year - 20)},
            {},
            403,
            "underage",
        ),
        ({"status": "suspended"}, {}, 403, "suspended"),
        ({}, {"status": "closed"}, 409, "closed"),
        ({}, {"status": "cancelled"}, 409, "closed"),
        ({}, {"opens_at": timezone.now() + timedelta(days=1)}, 409, "not_open"),
    ],
)
def test_refusals_are_json_4xx_and_change_nothing(
    member_fields: MemberFields, evening_fields: EveningFields, status: int, code: str
) -> None:
    evening = make_evening(**evening_fields)
    client, auth = api(make_member(**member_fields))
    response = client.post(f"/api/v1/evenings/{evening.pk}/registration", headers=auth)
    assert response.status_code == status
    assert isinstance(response.json()["detail"], str) and response.json()["code"] == code
    assert not Registration.objects.exists()


def test_unknown_evening_is_404() -> None:
    client, auth = api()
    assert client.post("/api/v1/evenings/424242/registration", headers=auth).status_code == 404
    assert client.get("/api/v1/evenings/424242", headers=auth).json() == {
        "detail": "Такого вечера нет.",
        "code": "not_found",
    }


def test_evening_detail_lists_nicknames_with_the_reserve_in_order() -> None:
    evening = make_evening(capacity=2)
    nicknames = [r.member.nickname for r in sign_up_many(evening, 4)]
    client, auth = api()
    body = client.get(f"/api/v1/evenings/{evening.pk}", headers=auth).json()
    assert body["confirmed"] == nicknames[:2]
    assert body["reserve"] == nicknames[2:]
    assert body["capacity"] == 2 and body["status"] == "scheduled"
    listed = client.get("/api/v1/evenings", headers=auth).json()
    assert [(e["id"], e["confirmed_count"]) for e in listed] == [(evening.pk, 2)]


def test_only_admins_create_evenings() -> None:
    payload = {"starts_at": (timezone.now() + timedelta(days=7)).isoformat(), "capacity": 14}
    client, auth = api()
    response = client.post(
        "/api/v1/evenings", payload, content_type="application/json", headers=auth
    )
    assert response.status_code == 403
    admin = make_member(role=Role.ORGANISER)
    client, auth = api(admin)
    response = client.post(
        "/api/v1/evenings", payload, content_type="application/json", headers=auth
    )
    assert response.status_code == 201
    body = response.json()
    assert (body["capacity"], body["venue"], body["status"]) == (14, "GrandDaddy", "scheduled")
    assert Evening.objects.count() == 1


@pytest.mark.parametrize(
    "payload",
    [
        {"starts_at": "2020-01-01T18:00:00+03:00", "capacity": 15},
        {"starts_at": "not a date", "capacity": 15},
        {"starts_at": "2099-01-01T18:00:00+03:00", "capacity": 0},
        {"starts_at": "2099-01-01T18:00:00+03:00", "capacity": 15, "venue": ""},
        # Seen by nobody: a zero-width space and a direction mark (tournaments refused it).
        {"starts_at": "2099-01-01T18:00:00+03:00", "capacity": 15, "venue": "\u200b\u200e"},
        {
            "starts_at": "2099-01-01T18:00:00+03:00",
            "capacity": 15,
            "opens_at": "2099-02-01T00:00:00+03:00",
        },
        {"capacity": 15},
        {"starts_at": "2099-01-01T18:00:00+03:00", "capacity": True},  # lax pydantic: 1
        {"starts_at": "2099-01-01T18:00:00+03:00", "capacity": "15"},
    ],
)
def test_bad_evenings_are_422(payload: dict[str, object]) -> None:
    admin = make_member(is_superuser=True)
    client, auth = api(admin)
    response = client.post(
        "/api/v1/evenings", payload, content_type="application/json", headers=auth
    )
    assert response.status_code == 422
    assert isinstance(response.json()["detail"], str) and response.json()["code"] == "invalid"
    assert not Evening.objects.exists()


@pytest.mark.parametrize(
    ("payload", "language", "said"),
    [
        (
            {"starts_at": "not a date", "capacity": 15},
            "ru",
            "Неверные данные: starts_at: должно быть датой и временем (ISO 8601)",
        ),
        (
            {"starts_at": "not a date", "capacity": 15},
            "en",
            "Invalid input: starts_at: must be a date and time (ISO 8601)",
        ),
        ({"starts_at": "2099-01-01T18:00:00+03:00"}, "ru", "capacity: обязательное поле"),
        # A validator's own reasons, in the reader's language and without pydantic's
        # "Value error, " (the helper's walk of #30 read them in English).
        (
            {"starts_at": "2099-01-01T18:00:00", "capacity": 15},
            "ru",
            "starts_at: нужен часовой пояс, например 2026-12-20T18:00:00+03:00",
        ),
        (
            {"starts_at": 1767000000, "capacity": 15},
            "ru",
            "Неверные данные: starts_at: должно быть датой и временем (ISO 8601)",
        ),
        (
            {"starts_at": "1800-01-01T18:00:00+03:00", "capacity": 15},
            "ru",
            "starts_at: год должен быть в пределах 1900–2999",
        ),
        (
            {"starts_at": "2099-01-01T18:00:00", "capacity": 15},
            "en",
            "starts_at: needs its time zone, e.g. 2026-12-20T18:00:00+03:00",
        ),
        (
            {"starts_at": "2099-01-01T18:00:00+03:00", "capacity": "many"},
            "ru",
            "capacity: должно быть целым числом",
        ),
    ],
)
def test_a_422_says_what_is_wrong_in_the_readers_language(
    payload: dict[str, object], language: str, said: str
) -> None:
    """Pydantic's own words are English: the walk of #30 read them in a Russian client."""
    client, auth = api(make_member(is_superuser=True))
    client.cookies["django_language"] = language  # the site's language switch
    response = client.post(
        "/api/v1/evenings", payload, content_type="application/json", headers=auth
    )
    assert response.status_code == 422
    assert said in response.json()["detail"]


def test_a_422_names_the_choices_and_the_form_in_the_readers_language() -> None:
    client = Client()
    admin, auth = api(make_member(is_superuser=True))
    # A number too long for pydantic to read (5,000 digits: its int_parsing_size) is said
    # in the reader's language too, whatever the door.
    for door in ("/api/v1/evenings/1/players?table=", "/api/v1/tournaments/1/standings?as_of="):
        huge = admin.get(door + "9" * 5000, headers=auth).json()["detail"]
        assert huge.endswith(": должно быть целым числом"), (door, huge)
    empty = admin.post("/api/v1/evenings", content_type="application/json", headers=auth)
    assert empty.status_code == 422
    assert empty.json()["detail"] == (
        "Неверные данные: starts_at: обязательное поле; capacity: обязательное поле"
    )
    # A body missing as a whole names no field: it says what is missing.
    whole = {"type": "missing", "loc": ("body", "payload"), "msg": "Field required"}
    assert describe_error(whole) == "Запросу нужно тело в JSON."
    wrong_sort = client.get("/api/v1/leaderboard?sort=luck").json()["detail"]
    assert wrong_sort.startswith("Неверные данные: sort: допустимо одно из: 'points', ")
    assert " or " not in wrong_sort
    wrong_season = client.get("/api/v1/leaderboard?season=spring").json()["detail"]
    assert wrong_season == "Неверные данные: season: не в том виде, что ожидается"


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
def test_a_number_that_is_not_finite_is_said_as_such(number: str) -> None:
    """JSON as Python reads it takes NaN and Infinity; they fail the bound, which said
    «не больше 5,0» of a number that is not one."""
    admin, auth = api(make_member(is_superuser=True))
    body = f'{{"name": "Кубок", "final_weight": {number}}}'
    response = admin.post(
        "/api/v1/tournaments", body, content_type="application/json", headers=auth
    )
    assert response.status_code == 422
    assert "final_weight: должно быть конечным числом" in response.json()["detail"]


def test_the_session_needs_the_csrf_token_for_writes(member: User) -> None:
    evening = make_evening()
    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    response = client.post(f"/api/v1/evenings/{evening.pk}/registration")
    assert response.status_code == 403
    assert not Registration.objects.exists()
    client.get("/")  # sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    response = client.post(
        f"/api/v1/evenings/{evening.pk}/registration", headers={"x-csrftoken": token}
    )
    assert response.status_code == 201


def test_a_body_that_is_not_json_gets_a_clear_400() -> None:
    client, auth = api(make_member(is_superuser=True))
    response = client.post(
        "/api/v1/evenings", "{not json", content_type="application/json", headers=auth
    )
    assert (response.status_code, response.json()) == (
        400,
        {"detail": "Тело запроса — не корректный JSON.", "code": "unreadable"},
    )


def test_a_value_of_several_allowed_types_is_named_as_the_reader_wrote_it() -> None:
    """pydantic names the union's branch after the field («options.a.bool»), once per
    branch; the reader wrote «options.a»."""
    admin, auth = api(make_member(is_superuser=True))
    body = {"member_ids": [], "starts_at": "2099-01-03T18:00:00+03:00", "options": {"a": [1]}}
    response = admin.post(
        "/api/v1/online-games", body, content_type="application/json", headers=auth
    )
    assert response.status_code == 422
    detail = response.json()["detail"]
    for said in ("должно быть true или false", "должно быть целым числом", "должно быть текстом"):
        assert f"options.a: {said}" in detail, detail
    assert "options.a.bool" not in detail and "options.a.int" not in detail
