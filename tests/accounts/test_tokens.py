import hashlib

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from accounts.models import ApiToken, User
from tests.factories import make_member

pytestmark = pytest.mark.django_db


def test_a_token_made_on_the_profile_page_is_shown_once_and_stored_hashed(
    member_client: Client, member: User
) -> None:
    response = member_client.post("/accounts/tokens/", {"name": "phone"})
    assert response.status_code == 200
    token = ApiToken.objects.get(user=member)
    body = response.content.decode()
    key = body.split('class="token-key">')[1].split("<")[0]
    assert key.startswith("mc_")
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert key not in member_client.get("/accounts/profile/").content.decode()
    api = Client().get("/api/v1/me", headers={"authorization": f"Bearer {key}"})
    assert api.json()["nickname"] == member.nickname


def test_tokens_by_htmx_render_only_the_tokens_partial(member_client: Client) -> None:
    response = member_client.post(
        "/accounts/tokens/", {"name": "x"}, headers={"hx-request": "true"}
    )
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="tokens"')
    assert "<html" not in body


def test_a_member_revokes_their_token_but_not_anothers(member_client: Client, member: User) -> None:
    mine = ApiToken.objects.create(user=member, key_hash="a" * 64, key_start="mc_a")
    other = ApiToken.objects.create(user=make_member(), key_hash="b" * 64, key_start="mc_b")
    member_client.post(f"/accounts/tokens/{other.pk}/revoke/")
    assert ApiToken.objects.filter(pk=other.pk).exists()
    member_client.post(f"/accounts/tokens/{mine.pk}/revoke/")
    assert not ApiToken.objects.filter(pk=mine.pk).exists()


def test_the_command_prints_a_token_per_member(capsys: pytest.CaptureFixture[str]) -> None:
    make_member(nickname="Ворон")
    make_member(nickname="Лиса")
    call_command("api_token", "ворон", "Лиса")
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["Ворон", "Лиса"]
    for line in lines:
        nick, key = line.rsplit(" ", 1)
        assert (
            Client()
            .get("/api/v1/me", headers={"authorization": f"Bearer {key}"})
            .json()["nickname"]
            == nick
        )


def test_the_command_makes_no_token_when_a_name_is_unknown() -> None:
    make_member(nickname="Ворон")
    with pytest.raises(CommandError, match="Призрак"):
        call_command("api_token", "Ворон", "Призрак")
    assert not ApiToken.objects.exists()
