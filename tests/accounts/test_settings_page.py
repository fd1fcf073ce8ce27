import pytest
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_publication_consent_switches_off_and_on_by_plain_post(
    member_client: Client, member: User
) -> None:
    response = member_client.post("/accounts/settings/", {})
    assert response.status_code == 302
    assert member.memberships.get().publication_consent is False
    member_client.post("/accounts/settings/", {"publication_consent": "on"})
    assert member.memberships.get().publication_consent is True


def test_publication_consent_by_htmx_returns_the_form_partial(
    member_client: Client, member: User
) -> None:
    response = member_client.post("/accounts/settings/", {}, headers={"hx-request": "true"})
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<form id="consent"')
    assert "<html" not in body
    assert member.memberships.get().publication_consent is False


def test_settings_need_a_login(client: Client) -> None:
    assert client.post("/accounts/settings/", {}).status_code == 302
