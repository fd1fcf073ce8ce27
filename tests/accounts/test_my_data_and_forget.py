"""A member downloads everything the club holds about them, and asks to be forgotten
(history/exports/member_data.py, history/exports/forgetting.py, accounts.services
.member_forget): the account anonymised everywhere, their games kept under «Игрок N»."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import ApiToken, Membership, Role, User
from accounts.services import api_token_create
from club.kernel.clubs import Club
from club.kernel.tenancy import club_scope
from club.models import Registration, RegistrationStatus
from games.ratings import tasks
from notifications.models import Notification, NotificationChannel
from tests.factories import PASSWORD, make_evening, make_member, set_consent, sign_up_many
from tests.games.ratings.scored import BONUS, played
from tests.games.recording import Table, evening_with_players, make_host

pytestmark = pytest.mark.django_db


def read(response: Any) -> str:
    """A page's text, or a streamed file's."""
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return str(body.decode())


def client_of(member: User) -> Client:
    client = Client()
    assert client.login(username=member.nickname, password=PASSWORD)
    return client


@pytest.fixture
def game() -> Any:
    table: Table = (make_host(), *evening_with_players())
    game, _players = played(table, BONUS)
    tasks.game_analyse(game.pk)
    return game


def test_the_download_holds_the_members_own_rows_of_this_club_only(game: Any) -> None:
    fox = game.seats.get(number=2).member  # «Лиса»
    raven = game.seats.get(number=1).member  # «Ворон», who refuses publication
    set_consent(raven, consent=False)
    api_token_create(member=fox, name="мой бот")
    Notification.objects.create(
        dedupe_key="t1", member=fox, channel=NotificationChannel.EMAIL, text="Вы в списке"
    )
    north = Club.objects.create(slug="north", name="Северный клуб", venue="Маяк")
    with club_scope(north):
        Membership.objects.create(user=fox, club=north)
        Notification.objects.create(
            dedupe_key="t2", member=fox, channel=NotificationChannel.EMAIL, text="СеверСекрет"
        )
    response = client_of(fox).get(reverse("accounts:my_data"))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    text = response.content.decode()
    data = json.loads(text)
    assert data["account"]["nickname"] == "Лиса" and data["account"]["email"] == fox.email
    assert "password" not in text and "pbkdf2" not in text and "md5$" not in text
    assert data["membership"]["role"] == Role.MEMBER
    assert data["membership"]["publication_consent"] is True
    assert [r["status"] for r in data["registrations"]] == [RegistrationStatus.CONFIRMED]
    (mine,) = data["games"]
    nicks = [s["nick"] for s in mine["results"]["seats"]]
    assert nicks[1] == "Лиса" and nicks[0] == "Игрок 1"  # others as published
    assert "Ворон" not in text
    assert data["scores"][0]["seat"] == 2
    assert "Вы в списке" in [n["text"] for n in data["notifications"]]
    assert "СеверСекрет" not in text  # another club's rows are that club's
    assert [t["name"] for t in data["api_tokens"]] == ["мой бот"]
    token = ApiToken.objects.get(user=fox)
    assert token.key_hash not in text
    assert data["telegram"] == {"linked": False, "username": ""}


def test_a_wrong_nickname_or_the_last_admin_is_refused_and_nothing_changes(game: Any) -> None:
    fox = game.seats.get(number=2).member
    client = client_of(fox)
    answer = client.post(reverse("accounts:forget"), {"nickname": "Лис"}, follow=True)
    assert "Для подтверждения введите свой ник" in answer.content.decode()
    fox.refresh_from_db()
    assert fox.nickname == "Лиса" and fox.is_active
    admin = make_member(role=Role.ADMIN, nickname="Единственный")
    answer = client_of(admin).post(
        reverse("accounts:forget"), {"nickname": "единственный"}, follow=True
    )
    assert "последний администратор" in answer.content.decode()
    admin.refresh_from_db()
    assert admin.nickname == "Единственный" and admin.is_active


def test_after_forgetting_no_page_api_export_or_analysis_shows_the_old_name_or_email(
    game: Any,
) -> None:
    fox = game.seats.get(number=2).member
    email = fox.email
    key = api_token_create(member=fox, name="бот").key
    # A seat on a coming evening, with someone in the reserve behind it.
    evening = make_evening(capacity=1, starts_at=timezone.now() + timedelta(days=2))
    from club.models import RegistrationSource
    from club.services import registration_create

    registration_create(member=fox, evening_id=evening.pk, source=RegistrationSource.WEB)
    (waiting,) = sign_up_many(evening, 1)
    assert waiting.registration.status == RegistrationStatus.RESERVE
    client = client_of(fox)
    answer = client.post(reverse("accounts:forget"), {"nickname": " лиса "})
    assert answer.status_code == 302
    fox.refresh_from_db()
    assert fox.nickname.startswith("#forgotten-") and fox.email == ""
    assert not fox.is_active and not fox.has_usable_password()
    assert fox.telegram_id is None
    assert not ApiToken.objects.filter(user=fox).exists()
    assert not Membership.objects.get(user=fox).publication_consent
    # The session ended; the token and the password no longer open anything.
    assert client.get(reverse("accounts:settings")).status_code == 302
    assert Client().get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 401
    assert not Client().login(username="Лиса", password=PASSWORD)
    # The reserve moved up into the seat given up.
    assert Registration.objects.get(member=fox, evening=evening).status == (
        RegistrationStatus.CANCELLED
    )
    assert Registration.objects.get(pk=waiting.registration.pk).status == (
        RegistrationStatus.CONFIRMED
    )
    organiser = make_member(role=Role.ORGANISER, nickname="Организатор")
    staff = client_of(organiser)
    seen = [
        Client().get(reverse("game", args=[game.pk])),
        staff.get(reverse("game", args=[game.pk])),
        Client().get(reverse("leaderboard")),
        staff.get(reverse("leaderboard")),
        Client().get(f"/api/v1/games/{game.pk}/analysis"),
        staff.get(f"/api/v1/games/{game.pk}/analysis"),
        staff.get(reverse("history_export_club")),
        staff.get(reverse("history_export_club") + "?as=protocol"),
        staff.get(reverse("history_export_club") + "?as=exchange"),
    ]
    for response in seen:
        assert response.status_code == 200
        content = read(response)
        assert "Лиса" not in content and email not in content
    public = Client().get(reverse("game", args=[game.pk])).content.decode()
    assert "Игрок 2" in public
    # Their page is no more: the account is closed.
    assert Client().get(reverse("player", args=[fox.pk])).status_code == 404
