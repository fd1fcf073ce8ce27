"""No admin path changes who holds a seat except through the sign-up services (issue #27):
the admin is driven with the test client, as a club admin would click it, bulk delete
included; and the schedule's sweep repairs an evening whose free seats and waiting reserve
coexist, saying so in the log."""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from club.models import Evening, Registration, RegistrationSource, RegistrationStatus
from club.scheduling import schedule_sweep
from club.services import SignUp, registration_create
from tests.factories import make_evening, make_member, sign_up_many

pytestmark = pytest.mark.django_db

CaptureOnCommit = Callable[..., AbstractContextManager[list[Callable[[], Any]]]]
CHANGELIST = "/admin/club/registration/"


def statuses(evening: Evening) -> list[tuple[str, str]]:
    """The evening's line-up as (nickname, status), in order of arrival."""
    return [
        (r.signed_member.nickname, r.status)
        for r in Registration.objects.filter(evening=evening).select_related("member")
    ]


def seated_and_reserve(capacity: int, count: int) -> tuple[Evening, list[SignUp]]:
    evening = make_evening(capacity=capacity)
    return evening, sign_up_many(evening, count)


def test_the_bulk_delete_of_sign_ups_is_not_offered_nor_done(admin_client_: Client) -> None:
    evening, signed = seated_and_reserve(1, 2)
    seat = signed[0].registration
    page = admin_client_.get(CHANGELIST).content.decode()
    assert 'value="delete_selected"' not in page
    answer = admin_client_.post(
        CHANGELIST, {"action": "delete_selected", "_selected_action": [seat.pk], "post": "yes"}
    )
    assert answer.status_code in (200, 302)
    assert Registration.objects.filter(evening=evening).count() == 2
    # Nor one by one: the delete page is closed.
    assert admin_client_.get(f"{CHANGELIST}{seat.pk}/delete/").status_code == 403
    assert admin_client_.post(f"{CHANGELIST}{seat.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Registration.objects.filter(pk=seat.pk, status=RegistrationStatus.CONFIRMED).exists()


def test_cancelling_sign_ups_in_admin_asks_then_moves_the_reserve_up(
    admin_client_: Client,
) -> None:
    evening, signed = seated_and_reserve(2, 4)
    seats = [signed[0].registration.pk, signed[1].registration.pk]
    asked = admin_client_.post(CHANGELIST, {"action": "withdraw", "_selected_action": seats})
    assert asked.status_code == 200
    assert "Отменить эти записи?" in asked.content.decode()
    assert Registration.objects.confirmed().filter(evening=evening).count() == 2
    done = admin_client_.post(
        CHANGELIST, {"action": "withdraw", "_selected_action": seats, "confirmed": "yes"}
    )
    assert done.status_code == 302
    names = [s.member.nickname for s in signed]
    assert statuses(evening) == [
        (names[0], "cancelled"),
        (names[1], "cancelled"),
        (names[2], "confirmed"),
        (names[3], "confirmed"),
    ]
    # The freed seats went to the reserve, not to whoever signs up next.
    newcomer = registration_create(
        member=make_member(), evening_id=evening.pk, source=RegistrationSource.WEB
    )
    assert newcomer.position == 1


def test_a_sign_ups_fields_cannot_be_changed_in_admin(admin_client_: Client) -> None:
    evening, signed = seated_and_reserve(1, 2)
    waiting = signed[1].registration
    other = make_evening(capacity=5)
    page = admin_client_.get(f"{CHANGELIST}{waiting.pk}/change/").content.decode()
    assert 'name="status"' not in page and 'name="arrival"' not in page
    admin_client_.post(
        f"{CHANGELIST}{waiting.pk}/change/",
        {"status": "confirmed", "evening": other.pk, "arrival": 0, "held_back": ""},
    )
    waiting.refresh_from_db()
    assert (waiting.status, waiting.evening_id) == ("reserve", evening.pk)
    assert admin_client_.get(f"{CHANGELIST}add/").status_code == 403


def evening_form(evening: Evening, **changes: object) -> dict[str, object]:
    """The evening's change form as the admin posts it, with `changes`."""
    from django.utils import timezone

    data: dict[str, object] = {
        "starts_at_0": timezone.localtime(evening.starts_at).strftime("%d.%m.%Y"),
        "starts_at_1": timezone.localtime(evening.starts_at).strftime("%H:%M:%S"),
        "venue": evening.venue,
        "capacity": evening.capacity,
        "status": evening.status,
        "opens_at_0": timezone.localtime(evening.opens_at).strftime("%d.%m.%Y"),
        "opens_at_1": timezone.localtime(evening.opens_at).strftime("%H:%M:%S"),
        "registrations-TOTAL_FORMS": "0",
        "registrations-INITIAL_FORMS": "0",
    }
    for index, registration in enumerate(evening.registrations.order_by("pk")):
        data[f"registrations-{index}-id"] = registration.pk
        data[f"registrations-{index}-evening"] = evening.pk
        data["registrations-TOTAL_FORMS"] = data["registrations-INITIAL_FORMS"] = str(index + 1)
    data.update(changes)
    return data


def test_an_evening_is_cancelled_only_by_the_action_that_tells_everyone(
    admin_client_: Client,
) -> None:
    evening, _signed = seated_and_reserve(1, 2)
    url = f"/admin/club/evening/{evening.pk}/change/"
    answer = admin_client_.post(url, evening_form(evening, status="cancelled"))
    assert answer.status_code == 200  # the form refuses the choice
    assert Evening.objects.get().status == "scheduled"
    assert set(Registration.objects.values_list("status", flat=True)) == {"confirmed", "reserve"}
    # Nor deleted with its sign-ups, one by one or in bulk.
    assert admin_client_.get(f"/admin/club/evening/{evening.pk}/delete/").status_code == 403
    admin_client_.post(
        "/admin/club/evening/",
        {"action": "delete_selected", "_selected_action": [evening.pk], "post": "yes"},
    )
    assert Evening.objects.filter(pk=evening.pk).exists()


def test_cancelling_an_evening_asks_first(
    admin_client_: Client, django_capture_on_commit_callbacks: CaptureOnCommit
) -> None:
    evening, _signed = seated_and_reserve(1, 2)
    action = {"action": "cancel_evenings", "_selected_action": [evening.pk]}
    asked = admin_client_.post("/admin/club/evening/", action).content.decode()
    assert "Отменить эти вечера?" in asked and "2 участникам придёт сообщение" in asked
    assert Evening.objects.get().status == "scheduled"
    with django_capture_on_commit_callbacks(execute=True):
        admin_client_.post("/admin/club/evening/", {**action, "confirmed": "yes"})
    assert Evening.objects.get().status == "cancelled"


def test_lowering_and_raising_the_capacity_go_through_the_service(
    admin_client_: Client, django_capture_on_commit_callbacks: CaptureOnCommit
) -> None:
    evening, signed = seated_and_reserve(12, 14)
    url = f"/admin/club/evening/{evening.pk}/change/"
    with django_capture_on_commit_callbacks(execute=True):
        answer = admin_client_.post(url, evening_form(evening, capacity=13), follow=True)
    assert Registration.objects.confirmed().filter(evening=evening).count() == 13
    # 13 seats make a table: no warning. 20 make neither one table nor two.
    assert "так не собрать" not in answer.content.decode()
    evening.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        answer = admin_client_.post(url, evening_form(evening, capacity=20), follow=True)
    assert "Мест: 20 — столы по 12–15 игроков так не собрать" in answer.content.decode()
    assert Registration.objects.confirmed().filter(evening=evening).count() == 14
    assert signed[13].member.nickname in {
        r.signed_member.nickname for r in Registration.objects.confirmed().select_related("member")
    }


def test_a_member_holding_a_seat_is_deleted_only_after_the_sign_up_is_cancelled(
    admin_client_: Client,
) -> None:
    evening, signed = seated_and_reserve(1, 3)
    seated: User = signed[0].member
    delete = {"action": "delete_selected", "_selected_action": [seated.pk], "post": "yes"}
    asked = admin_client_.post("/admin/accounts/user/", {**delete, "post": ""})
    assert "запись" in asked.content.decode()  # what stands in the way, by name
    assert admin_client_.post("/admin/accounts/user/", delete).status_code == 403
    assert User.objects.filter(pk=seated.pk).exists()
    admin_client_.post(
        CHANGELIST,
        {"action": "withdraw", "_selected_action": [signed[0].registration.pk], "confirmed": "yes"},
    )
    assert admin_client_.post("/admin/accounts/user/", delete).status_code == 302
    assert not User.objects.filter(pk=seated.pk).exists()
    names = [s.member.nickname for s in signed]
    assert statuses(evening) == [(names[1], "confirmed"), (names[2], "reserve")]


def test_the_sweep_repairs_free_seats_beside_a_waiting_reserve(
    caplog: pytest.LogCaptureFixture,
) -> None:
    evening, signed = seated_and_reserve(2, 5)
    # Planted: two seats freed behind the services' back, as admin's bulk delete once did.
    Registration.objects.filter(
        pk__in=[signed[0].registration.pk, signed[1].registration.pk]
    ).delete()
    held = signed[4].registration
    Registration.objects.filter(pk=held.pk).update(held_back=True)
    with caplog.at_level(logging.WARNING, logger="club.scheduling"):
        report = schedule_sweep()
    assert report.repaired == [evening.pk]
    names = [s.member.nickname for s in signed]
    assert statuses(evening) == [
        (names[2], "confirmed"),
        (names[3], "confirmed"),
        (names[4], "reserve"),  # held back for no-shows: not yet, and not a fault
    ]
    assert f"Evening {evening.pk} had 2 free seats while 2 waited in the reserve" in caplog.text
    # Run again, nothing is left to repair: no line.
    caplog.clear()
    assert schedule_sweep().repaired == []
    assert "free seats" not in caplog.text


def test_a_sign_ups_person_is_read_only_and_guests_are_told_apart(admin_client_: Client) -> None:
    """The walk (B11-admin-reg-guest-500.png): changing «Гость» on a sign-up answered 500
    (registration_member_or_guest, or the evening's one place per guest). Member, guest and
    evening are read-only there; the sign-ups' list names a guest «… (гость)» (it showed
    «-»), and same-named guests apart by phone, Telegram username or number; a member the
    organiser added on the line-up comes «Состав вечера», not «Админка»."""
    from club import lineup
    from club.models import Guest
    from tests.games.recording import make_host

    host = make_host()
    evening, signed = seated_and_reserve(15, 1)
    mine = signed[0].registration
    # One name once on an evening's list (the line-up refuses a second «Марина»), so the
    # namesakes come to three evenings; admin's lists still have to tell them apart.
    other, _ = seated_and_reserve(15, 0)
    third_evening, _ = seated_and_reserve(15, 0)
    added = [
        lineup.lineup_add_guest(
            evening_id=on.pk, name=name, of_age=True, actor=host, phone=phone, telegram=tg
        ).registration
        for on, name, phone, tg in (
            (evening, "Марина", "+7 916 123-45-67", ""),
            (other, "Марина", "", "marina_k"),
            (third_evening, "Марина", "", ""),
            (evening, "Андрей", "", ""),
        )
    ]
    third = Guest.objects.get(registrations=added[2])
    walk_in = lineup.lineup_add_member(
        evening_id=evening.pk, member_id=make_member(nickname="Kapitan").pk, actor=host
    ).registration
    assert walk_in.source == RegistrationSource.LINEUP
    for registration, guest in ((mine, added[3].guest_id), (added[0], added[1].guest_id)):
        page = admin_client_.get(f"{CHANGELIST}{registration.pk}/change/").content.decode()
        assert 'name="guest"' not in page and 'name="member"' not in page
        assert 'name="evening"' not in page
        answer = admin_client_.post(f"{CHANGELIST}{registration.pk}/change/", {"guest": guest})
        assert answer.status_code in (200, 302)
        registration.refresh_from_db()
        assert (registration.member_id, registration.guest_id) == (
            mine.member_id if registration == mine else None,
            None if registration == mine else added[0].guest_id,
        )
    listed = admin_client_.get(CHANGELIST).content.decode()
    assert "Марина (гость, +7 916 123-45-67)" in listed
    assert "Марина (гость, @marina_k)" in listed
    assert f"Марина (гость, № {third.pk})" in listed
    assert "Андрей (гость)" in listed
    assert "Состав вечера" in listed
    guests = admin_client_.get("/admin/club/guest/").content.decode()
    assert f"Марина (№ {third.pk})" in guests and ">Андрей<" in guests


def test_the_places_the_line_up_added_before_read_as_the_line_ups() -> None:
    """club/migrations/0014_registration_source_lineup.py: the line-up wrote its places
    «admin»; those its log records as added (a member or a guest) become «lineup», the rest
    stay."""
    import importlib

    from django.apps import apps

    from club import lineup
    from tests.games.recording import make_host

    migration = importlib.import_module("club.migrations.0014_registration_source_lineup")
    host = make_host()
    evening, signed = seated_and_reserve(15, 1)
    member = lineup.lineup_add_member(
        evening_id=evening.pk, member_id=make_member().pk, actor=host
    ).registration
    guest = lineup.lineup_add_guest(
        evening_id=evening.pk, name="Олег", of_age=True, actor=host
    ).registration
    Registration.objects.update(source=RegistrationSource.ADMIN)
    migration.lineup_sources(apps, None)
    sources = dict(Registration.objects.values_list("pk", "source"))
    assert sources == {signed[0].registration.pk: "admin", member.pk: "lineup", guest.pk: "lineup"}


def test_deleting_a_seated_sign_up_is_refused_with_a_page_that_cancels_it_instead(
    admin_member: User,
) -> None:
    """Issue 37 (15e): the delete page of a sign-up that holds a seat stays closed (403), but
    is the admin's own page saying why (its member must be told) with a button that cancels
    that sign-up by the `withdraw` action: the member is told, the reserve moves up, and the
    cancelled row may then be deleted."""
    import re

    from notifications.models import Notification

    client = Client(enforce_csrf_checks=True)  # the page's form carries its token
    client.force_login(admin_member)
    _evening, signed = seated_and_reserve(1, 2)
    seat, waiting = signed[0].registration, signed[1].registration
    nick = signed[0].member.nickname

    refused = client.get(f"{CHANGELIST}{seat.pk}/delete/")
    assert refused.status_code == 403
    assert "admin/base_site.html" in [t.name for t in refused.templates]
    page = refused.content.decode()
    assert f"{nick} занимает место на вечере" in page
    assert "участника, у которого есть место, нужно предупредить" in page
    assert 'id="user-tools"' in page  # the admin's header, not the site's bare 403
    (form,) = re.findall(r'<form method="post" action="([^"]+)">(.*?)</form>', page, re.S)
    action, fields = form
    assert action == CHANGELIST
    assert 'value="Отменить эту запись (участника предупредят)"' in fields
    posted = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', fields))
    assert posted["action"] == "withdraw" and posted["_selected_action"] == str(seat.pk)
    assert posted["csrfmiddlewaretoken"]
    # A plain post of the delete form is refused as well, and deletes nothing.
    assert client.post(f"{CHANGELIST}{seat.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Registration.objects.filter(pk=seat.pk, status=RegistrationStatus.CONFIRMED).exists()

    done = client.post(action, posted)
    assert done.status_code == 302
    seat.refresh_from_db()
    waiting.refresh_from_db()
    assert seat.status == RegistrationStatus.CANCELLED
    assert waiting.status == RegistrationStatus.CONFIRMED  # the reserve moved up
    assert Notification.objects.filter(member=signed[0].member).exists()  # and they are told
    assert Notification.objects.filter(member=signed[1].member).exists()
    # Cancelled, it holds no place: its delete page is Django's own confirmation now.
    assert client.get(f"{CHANGELIST}{seat.pk}/delete/").status_code == 200


def test_deleting_a_seated_guest_is_refused_with_the_way_to_the_line_up(
    admin_client_: Client,
) -> None:
    """A guest's sign-up is not cancelled by the admin's action (a guest is taken off on the
    line-up, with a reason): its refusal links there and offers no cancel button."""
    from club import lineup
    from tests.games.recording import make_host

    evening = make_evening(capacity=12)
    guest = lineup.lineup_add_guest(
        evening_id=evening.pk, name="Марина", of_age=True, actor=make_host()
    ).registration
    refused = admin_client_.get(f"{CHANGELIST}{guest.pk}/delete/")
    assert refused.status_code == 403
    page = refused.content.decode()
    assert "Марина (гость) занимает место на вечере" in page
    assert f'href="/evenings/{evening.pk}/lineup/"' in page
    assert 'name="action"' not in page
