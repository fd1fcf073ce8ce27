import csv
import io
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from club.models import Evening, Registration, RegistrationSource
from club.services import registration_create
from tests.factories import make_evening, make_member, sign_up_many

pytestmark = pytest.mark.django_db


def test_raising_the_capacity_in_admin_promotes_from_the_reserve(
    admin_client_: Client, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    evening = make_evening(capacity=1)
    sign_up_many(evening, 3)
    data = {
        "starts_at_0": timezone.localtime(evening.starts_at).strftime("%d.%m.%Y"),
        "starts_at_1": timezone.localtime(evening.starts_at).strftime("%H:%M:%S"),
        "venue": evening.venue,
        "capacity": 2,
        "status": "scheduled",
        "opens_at_0": timezone.localtime(evening.opens_at).strftime("%d.%m.%Y"),
        "opens_at_1": timezone.localtime(evening.opens_at).strftime("%H:%M:%S"),
        "registrations-TOTAL_FORMS": "3",
        "registrations-INITIAL_FORMS": "3",
    }
    for index, registration in enumerate(evening.registrations.order_by("pk")):
        data[f"registrations-{index}-id"] = registration.pk
        data[f"registrations-{index}-evening"] = evening.pk
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client_.post(f"/admin/club/evening/{evening.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Evening.objects.get().capacity == 2
    assert Registration.objects.confirmed().count() == 2


def test_admin_marks_attendance_after_the_start(admin_client_: Client) -> None:
    evening = make_evening(capacity=2)
    came, missed = (r.registration for r in sign_up_many(evening, 2))
    Evening.objects.filter(pk=evening.pk).update(
        starts_at=timezone.now() - timedelta(minutes=5), opens_at=timezone.now() - timedelta(days=1)
    )
    admin_client_.post(
        "/admin/club/registration/", {"action": "mark_attended", "_selected_action": [came.pk]}
    )
    admin_client_.post(
        "/admin/club/registration/", {"action": "mark_no_show", "_selected_action": [missed.pk]}
    )
    assert sorted(Registration.objects.values_list("status", flat=True)) == ["attended", "no_show"]
    body = admin_client_.get("/admin/accounts/user/", {"o": "-2"}).content.decode()
    assert "field-no_shows" in body


def exported_rows(client: Client, evening: Evening) -> list[list[str]]:
    response = client.post(
        "/admin/club/evening/", {"action": "export_csv", "_selected_action": [evening.pk]}
    )
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(response.content.decode(), newline="")))


def test_admin_exports_the_sign_ups_as_csv(admin_client_: Client) -> None:
    evening = make_evening(capacity=1)
    names = [r.member.nickname for r in sign_up_many(evening, 2)]
    header, first, second = exported_rows(admin_client_, evening)
    assert header[:3] == ["evening", "nickname", "status"]
    assert first[1:3] == [names[0], "confirmed"]
    assert second[1:3] == [names[1], "reserve"]


# What OWASP lists as the start of a formula, and a quote that would open a cell of its own.
FORMULAS = ["-A1-A1", '=HYPERLINK("http://x")', "+1+1", "@SUM(A1)", "\t=1+2", "\r=3+4", "＝5+6"]


def test_the_csv_export_neutralises_nicknames_a_spreadsheet_would_run(
    admin_client_: Client,
) -> None:
    evening = make_evening(capacity=20)
    for nickname in [*FORMULAS, 'Ира","=1+2']:
        registration_create(
            member=make_member(nickname=nickname),
            evening_id=evening.pk,
            source=RegistrationSource.WEB,
        )
    _header, *rows = exported_rows(admin_client_, evening)
    assert [row[1] for row in rows] == [*("'" + name for name in FORMULAS), 'Ира","=1+2']
    assert all(len(row) == 9 for row in rows)  # the quote stayed inside its cell
    assert not [cell for row in rows for cell in row if cell.startswith(("=", "+", "-", "@"))]


def test_admin_promotes_a_member_to_the_front_of_the_reserve(admin_client_: Client) -> None:
    evening = make_evening(capacity=1)
    _seated, first, second = (r.registration for r in sign_up_many(evening, 3))
    admin_client_.post(
        "/admin/club/registration/", {"action": "promote", "_selected_action": [second.pk]}
    )
    reserve = list(Registration.objects.reserve().filter(evening=evening))
    assert reserve == [second, first]


def test_admin_cancels_an_evening_and_everyone_is_told(
    admin_client_: Client, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    from notifications.models import Notification

    evening = make_evening(capacity=1)
    sign_up_many(evening, 2)
    with django_capture_on_commit_callbacks(execute=True):
        admin_client_.post(
            "/admin/club/evening/",
            {"action": "cancel_evenings", "_selected_action": [evening.pk], "confirmed": "yes"},
        )
    assert Evening.objects.get().status == "cancelled"
    assert set(Registration.objects.values_list("status", flat=True)) == {"cancelled"}
    assert Notification.objects.filter(dedupe_key__startswith="evening-cancelled:").count() == 2


def test_an_evenings_sign_up_rows_do_not_repeat_the_evenings_name(admin_client_: Client) -> None:
    evening = make_evening(capacity=2)
    sign_up_many(evening, 3)
    page = admin_client_.get(f"/admin/club/evening/{evening.pk}/change/").content.decode()
    # The tab title, the breadcrumbs and the heading name the evening; its three rows do not.
    assert page.count(f"{evening}") == 3


def test_the_evenings_list_says_what_a_finished_or_cancelled_evening_s_places_were(
    admin_client_: Client,
) -> None:
    """A finished evening does not read «в игре: 0»: who came and who did not (the door's
    taps or the admins' marks), else how many were on the list; a cancelled one says so."""
    from django.utils import translation

    from club.admin import _sign_up_counts
    from club.models import EveningStatus, RegistrationStatus

    ahead = make_evening(capacity=2)
    sign_up_many(ahead, 3)
    settled = make_evening(capacity=3, starts_at=timezone.now() + timedelta(days=4))
    regs = [s.registration for s in sign_up_many(settled, 3)]
    Registration.objects.filter(pk__in=[regs[0].pk, regs[1].pk]).update(
        status=RegistrationStatus.ATTENDED
    )
    Registration.objects.filter(pk=regs[2].pk).update(status=RegistrationStatus.NO_SHOW)
    unmarked = make_evening(capacity=3, starts_at=timezone.now() + timedelta(days=5))
    sign_up_many(unmarked, 2)
    cancelled = make_evening(capacity=3, starts_at=timezone.now() + timedelta(days=6))
    Evening.objects.filter(pk__in=[settled.pk, unmarked.pk]).update(status=EveningStatus.FINISHED)
    Evening.objects.filter(pk=cancelled.pk).update(status=EveningStatus.CANCELLED)

    page = admin_client_.get("/admin/club/evening/").content.decode()
    assert "в игре: 2, в резерве: 1" in page
    assert "прошёл: пришли 2, не пришли 1" in page
    assert "прошёл: в списке было 2" in page
    assert "в игре: 0" not in page
    rows = {e.pk: e for e in listed_evenings([settled.pk, unmarked.pk, cancelled.pk])}
    with translation.override("en"):
        assert _sign_up_counts(rows[settled.pk]) == "over: 2 came, 1 did not"
        assert _sign_up_counts(rows[unmarked.pk]) == "over: 2 on the list"
        assert _sign_up_counts(rows[cancelled.pk]) == "cancelled"
    with translation.override("ru"):
        assert _sign_up_counts(rows[cancelled.pk]) == "отменён"


def listed_evenings(pks: list[int]) -> list[Evening]:
    """The evenings as the admin's list reads them (with its counts)."""
    from django.contrib.admin.sites import site
    from django.test import RequestFactory

    request = RequestFactory().get("/admin/club/evening/")
    return list(site._registry[Evening].get_queryset(request).filter(pk__in=pks))
