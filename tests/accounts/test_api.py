import pytest
from django.test import Client

from accounts.models import MembershipStatus, User
from accounts.services import api_token_create, member_set_status
from tests.factories import make_member

pytestmark = pytest.mark.django_db


def bearer(key: str) -> dict[str, str]:
    return {"authorization": f"Bearer {key}"}


def test_me_with_a_token(member: User) -> None:
    key = api_token_create(member=member).key
    response = Client().get("/api/v1/me", headers=bearer(key))
    assert response.status_code == 200
    assert response.json() == {
        "id": member.pk,
        "nickname": member.nickname,
        "birth_date": member.birth_date.isoformat(),
        "telegram_username": "",
        "telegram_linked": False,
        "publication_consent": True,
        "status": "active",
    }


def test_me_with_the_session(member_client: Client, member: User) -> None:
    assert member_client.get("/api/v1/me").json()["nickname"] == member.nickname


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"authorization": "Bearer mc_not-a-real-token"},
        {"authorization": "Bearer "},
        {"authorization": "Basic dXNlcjpwYXNz"},
        {"authorization": "Bearer " + "x" * 5000},
    ],
)
def test_a_missing_or_wrong_token_gets_a_json_401(headers: dict[str, str]) -> None:
    response = Client().get("/api/v1/me", headers=headers)
    assert response.status_code == 401
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert "Authorization: Bearer" in response.json()["detail"]
    assert response.json()["code"] == "unauthenticated"


def test_a_banned_members_token_stops_working(member: User) -> None:
    key = api_token_create(member=member).key
    member_set_status(member=member, status=MembershipStatus.BANNED)
    response = Client().get("/api/v1/me", headers=bearer(key))
    # The same words as the login form and the bot give a banned member.
    assert response.status_code == 403
    assert response.json() == {"detail": "Этот аккаунт заблокирован.", "code": "banned"}


def test_unknown_api_paths_and_methods_answer_in_json() -> None:
    response = Client().get("/api/v1/no-such-thing")
    assert response.status_code == 404
    assert response.json() == {"detail": "Такого адреса в API нет.", "code": "not_found"}
    response = Client().post("/api/v1/me")
    assert response.status_code == 405


def test_the_schema_and_docs_are_served() -> None:
    schema = Client().get("/api/v1/openapi.json").json()
    assert "/api/v1/me" in schema["paths"]
    docs = Client().get("/api/v1/docs")
    assert docs.status_code == 200
    assert "cdn.jsdelivr" not in docs.content.decode()


def test_another_members_token_is_theirs_not_mine() -> None:
    voron, lisa = make_member(nickname="Ворон"), make_member(nickname="Лиса")
    api_token_create(member=voron)
    key = api_token_create(member=lisa).key
    assert Client().get("/api/v1/me", headers=bearer(key)).json()["nickname"] == "Лиса"
