"""The evening page: buttons by htmx and by plain form posts, lists for members only."""

import pytest
from django.test import Client

from club.models import Registration
from tests.factories import make_evening, sign_up_many

pytestmark = pytest.mark.django_db
HTMX = {"hx-request": "true"}


def test_a_member_signs_up_confirms_and_cancels_with_htmx(member_client: Client, member) -> None:
    evening = make_evening(capacity=15)
    page = member_client.get(f"/evenings/{evening.pk}/").content.decode()
    assert "Ок, играем" in page and "Свободно 15 мест из 15" in page

    response = member_client.post(f"/evenings/{evening.pk}/signup/", headers=HTMX)
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="panel"') and "<html" not in body
    assert "Вы в игре: № 1 в списке." in body and "Подтверждаю" in body

    body = member_client.post(f"/evenings/{evening.pk}/confirm/", headers=HTMX).content.decode()
    assert "Спасибо: участие подтверждено." in body and "✓ участие подтверждено" in body
    assert Registration.objects.get(member=member).attendance_confirmed_at is not None

    # «Не смогу» keeps the place for the undo window, and says until when.
    body = member_client.post(f"/evenings/{evening.pk}/cancel/", headers=HTMX).content.decode()
    assert "Вы нажали «Не смогу»: место уйдёт в" in body and "Вернуть" in body
    assert Registration.objects.get(member=member).leaves_at is not None


def test_every_button_also_works_as_a_plain_form_post(member_client: Client, member) -> None:
    evening = make_evening(capacity=1)
    sign_up_many(evening, 1)
    response = member_client.post(f"/evenings/{evening.pk}/signup/")
    assert response.status_code == 302 and response["Location"] == f"/evenings/{evening.pk}/"
    page = member_client.get(response["Location"]).content.decode()
    assert "Мест нет: вы в резерве." in page
    assert "Вы в резерве, позиция 1." in page


def test_a_refusal_is_shown_and_changes_nothing(member_client: Client, member) -> None:
    evening = make_evening(status="closed")
    body = member_client.post(f"/evenings/{evening.pk}/signup/", headers=HTMX).content.decode()
    assert "Запись на этот вечер закрыта." in body
    assert not Registration.objects.exists()
    body = member_client.post(f"/evenings/{evening.pk}/cancel/", headers=HTMX).content.decode()
    assert "Вы не записаны на этот вечер." in body


def test_the_lists_show_nicknames_to_members_only(client: Client, member_client: Client) -> None:
    evening = make_evening(capacity=1)
    seated, waiting = (r.registration.member.nickname for r in sign_up_many(evening, 2))
    assert seated not in client.get(f"/evenings/{evening.pk}/").content.decode()
    page = member_client.get(f"/evenings/{evening.pk}/").content.decode()
    assert seated in page and "Резерв" in page and waiting in page


def test_anonymous_visitors_are_sent_to_log_in(client: Client) -> None:
    evening = make_evening()
    response = client.post(f"/evenings/{evening.pk}/signup/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.get("/evenings/999999/").status_code == 404


def test_a_post_without_the_csrf_token_is_refused(member) -> None:
    evening = make_evening()
    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    assert client.post(f"/evenings/{evening.pk}/signup/").status_code == 403
    assert not Registration.objects.exists()


def test_my_evenings_and_the_calendar_feed(member_client: Client, member) -> None:
    evening = make_evening(venue="GrandDaddy")
    member_client.post(f"/evenings/{evening.pk}/signup/")
    mine = member_client.get("/evenings/mine/").content.decode()
    assert "GrandDaddy</span></a>" in mine and "в игре, № 1 в списке" in mine
    feed = Client().get("/evenings.ics")
    assert feed["Content-Type"] == "text/calendar; charset=utf-8"
    body = feed.content.decode()
    assert "BEGIN:VCALENDAR" in body and f"UID:evening-{evening.pk}@mafia-club" in body
    assert "LOCATION:GrandDaddy" in body


def test_the_home_page_lists_upcoming_evenings_with_seats_taken(client: Client) -> None:
    evening = make_evening(capacity=15)
    sign_up_many(evening, 3)
    body = client.get("/").content.decode()
    assert f"/evenings/{evening.pk}/" in body and "Свободно 12 мест из 15" in body
