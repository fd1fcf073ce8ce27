"""HEAD is answered wherever GET is (uptime monitors use it), and `make run`'s DEBUG shows
the site's own «Не найдено», never Django's technical 404 (issue #27)."""

from __future__ import annotations

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

from accounts.models import User
from tests.factories import make_evening, make_member

pytestmark = pytest.mark.django_db


def test_head_answers_where_get_does_with_the_same_headers_and_no_body(
    member_client: Client,
) -> None:
    evening = make_evening()
    pages = [
        "/",
        f"/evenings/{evening.pk}/",
        "/evenings/mine/",
        "/evenings.ics",
        "/leaderboard/",
        "/accounts/profile/",
        "/healthz",
        "/api/v1/evenings",
    ]
    for url in pages:
        got = member_client.get(url)
        head = member_client.head(url)
        assert head.status_code == got.status_code == 200, url
        assert head.content == b""
        assert head["Content-Type"] == got["Content-Type"]
        # A page with a fresh CSRF token or nonce differs in length by a few bytes at most.
        assert abs(int(head["Content-Length"]) - len(got.content)) < 200, url


def test_head_is_refused_where_get_is(member_client: Client) -> None:
    evening = make_evening()
    answer = member_client.head(f"/evenings/{evening.pk}/signup/")
    assert answer.status_code == 405 and answer["Allow"] == "POST"


@pytest.mark.parametrize("debug", [True, False])
def test_a_hidden_players_old_link_is_the_sites_own_not_found_page(
    client: Client, settings: Settings, debug: bool
) -> None:
    settings.DEBUG = debug
    hidden: User = make_member(publication_consent=False)
    for url in [f"/players/{hidden.pk}/", "/no-such-page/"]:
        answer = client.get(url)
        page = answer.content.decode()
        assert answer.status_code == 404, url
        assert "Не найдено" in page and "Using the URLconf" not in page, url
