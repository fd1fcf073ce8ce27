import pytest
from django.contrib.auth.models import Group
from django.test import Client

from accounts import roles
from accounts.models import Membership, User
from club.kernel.clubs import Club
from tests.factories import make_member

pytestmark = pytest.mark.django_db

# The management form of the (read-only) API token inline on the member page.
NO_TOKENS = {"api_tokens-TOTAL_FORMS": "0", "api_tokens-INITIAL_FORMS": "0"}


def test_members_are_searchable_by_nickname_and_telegram_username(admin_client_: Client) -> None:
    make_member(nickname="Ворон", telegram_username="raven_tg")
    make_member(nickname="Лиса")
    body = admin_client_.get("/admin/accounts/user/", {"q": "raven"}).content.decode()
    assert "Ворон" in body and "Лиса" not in body
    body = admin_client_.get("/admin/accounts/user/", {"q": "лис"}).content.decode()
    assert "Лиса" in body and "Ворон" not in body


def test_members_filter_by_status(admin_client_: Client) -> None:
    make_member(nickname="Ворон", status="suspended")
    make_member(nickname="Лиса")
    body = admin_client_.get("/admin/accounts/user/", {"status": "suspended"}).content.decode()
    assert "Ворон" in body and "Лиса" not in body


def test_admin_suspends_and_reactivates_members(admin_client_: Client) -> None:
    voron, lisa = make_member(nickname="Ворон"), make_member(nickname="Лиса")
    admin_client_.post(
        "/admin/accounts/user/",
        {"action": "suspend", "_selected_action": [voron.pk, lisa.pk]},
    )
    standing = Membership.objects.get(user=voron, club=Club.current())
    assert standing.status == "suspended"
    assert standing.status_changed_at is not None
    assert "Админ" in standing.status_reason
    admin_client_.post(
        "/admin/accounts/user/", {"action": "reactivate", "_selected_action": [voron.pk]}
    )
    standing.refresh_from_db()
    assert (standing.status, standing.status_reason) == ("active", "")
    assert roles.status_in(lisa) == "suspended"


def test_admin_cannot_add_an_underage_member(admin_client_: Client) -> None:
    response = admin_client_.post(
        "/admin/accounts/user/add/",
        {
            "nickname": "Юнга",
            "birth_date": "2015-01-01",
            "password1": "long-enough-password-1",
            "password2": "long-enough-password-1",
            "usable_password": "true",
            **NO_TOKENS,
        },
    )
    assert response.status_code == 200
    assert "Клуб только для игроков 21+" in response.content.decode()
    assert not User.objects.filter(nickname="Юнга").exists()


def test_admin_adds_an_adult_member(admin_client_: Client) -> None:
    response = admin_client_.post(
        "/admin/accounts/user/add/",
        {
            "nickname": "Новичок",
            "birth_date": "1995-01-01",
            "password1": "long-enough-password-1",
            "password2": "long-enough-password-1",
            "usable_password": "true",
            **NO_TOKENS,
        },
    )
    assert response.status_code == 302
    assert User.objects.filter(nickname="Новичок").exists()


def test_the_hosts_group_may_record_games() -> None:
    host = make_member(nickname="Ведущий")
    assert not host.has_perm("accounts.host_games")
    host.groups.add(Group.objects.get(name="Ведущие"))
    host = User.objects.get(pk=host.pk)
    assert host.has_perm("accounts.host_games")


def test_members_cannot_open_the_admin(member_client: Client) -> None:
    response = member_client.get("/admin/accounts/user/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
