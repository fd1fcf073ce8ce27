import re

import pytest
from django.core import mail
from django.test import Client

from accounts.models import MembershipStatus
from accounts.services import member_set_status
from tests.factories import PASSWORD, make_member

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "login", ["Ворон", "ворон", " ВОРОН ", "voron@example.com", "VORON@example.com"]
)
def test_members_log_in_with_nickname_or_email_in_any_case(client: Client, login: str) -> None:
    make_member(nickname="Ворон", email="voron@example.com")
    response = client.post("/accounts/login/", {"username": login, "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/profile/"


def test_a_wrong_password_is_refused(client: Client) -> None:
    make_member(nickname="Ворон")
    response = client.post("/accounts/login/", {"username": "Ворон", "password": "wrong"})
    assert response.status_code == 200
    assert "Пожалуйста, введите правильные" in response.content.decode()


def test_a_banned_member_cannot_log_in_and_a_suspended_one_can(client: Client) -> None:
    banned = make_member(nickname="Изгнанник")
    member_set_status(member=banned, status=MembershipStatus.BANNED, reason="cheating")
    assert banned.memberships.get().status == MembershipStatus.BANNED
    response = client.post("/accounts/login/", {"username": "Изгнанник", "password": PASSWORD})
    assert response.status_code == 200

    suspended = make_member(nickname="Отдыхающий")
    member_set_status(member=suspended, status=MembershipStatus.SUSPENDED, reason="no-shows")
    response = client.post("/accounts/login/", {"username": "Отдыхающий", "password": PASSWORD})
    assert response.status_code == 302


def test_logout_is_a_post(member_client: Client) -> None:
    assert member_client.get("/accounts/logout/").status_code == 405
    assert member_client.post("/accounts/logout/").status_code == 302
    assert member_client.get("/accounts/profile/").status_code == 302


def test_password_reset_sends_a_link_that_sets_a_new_password(client: Client) -> None:
    make_member(nickname="Лиса", email="lisa@example.com")
    response = client.post("/accounts/password/reset/", {"email": "lisa@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"http://\S+/accounts/password/reset/\S+/\S+/", str(mail.outbox[0].body))
    assert link is not None
    response = client.get(link.group(0), follow=True)
    assert response.status_code == 200
    confirm_url = response.redirect_chain[-1][0]
    response = client.post(
        confirm_url,
        {"new_password1": "a-brand-new-secret-7", "new_password2": "a-brand-new-secret-7"},
    )
    assert response.status_code == 302
    assert client.login(username="Лиса", password="a-brand-new-secret-7")


def test_password_reset_for_an_unknown_email_says_the_same_and_sends_nothing(
    client: Client,
) -> None:
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert mail.outbox == []


def test_profile_needs_a_login(client: Client) -> None:
    response = client.get("/accounts/profile/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
