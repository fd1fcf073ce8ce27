"""The outbox has one INSERT (#39): notifications.services writes its rows with it, and a
sign-up's own statements (club/seating.py) write the member's message with the same one,
its rows a SELECT of the same columns. A row written either way reads the same."""

from __future__ import annotations

import pytest

from club import seating
from club.models import RegistrationSource
from club.services import registration_create
from notifications.models import Notification, NotificationStatus
from notifications.services import notification_enqueue, outbox_insert
from tests.factories import make_evening, make_member

pytestmark = pytest.mark.django_db


def test_the_sign_up_writes_its_message_with_the_outboxs_insert() -> None:
    insert, _rows, conflict = outbox_insert("⟨rows⟩").partition("⟨rows⟩")
    assert seating.NOTIFY.startswith(insert)
    assert seating.NOTIFY.endswith(conflict)


def test_a_sign_ups_row_and_a_services_row_read_the_same() -> None:
    member = make_member()
    registration_create(member=member, evening_id=make_evening().pk, source=RegistrationSource.WEB)
    (signed,) = Notification.objects.filter(member=member, dedupe_key__startswith="seat:")
    other = make_member()
    row_id = notification_enqueue(dedupe_key="plain:1", member=other, text="x")
    written = Notification.objects.get(pk=row_id)
    fields = ("chat_id", "channel", "subject", "status", "attempts", "last_error",
              "edit_of_id", "mailable", "buttons")  # fmt: skip
    assert [getattr(signed, f) for f in fields] == [getattr(written, f) for f in fields]
    assert signed.status == NotificationStatus.PENDING
    # The same key again: the service returns the row it wrote, which keeps its text.
    assert notification_enqueue(dedupe_key="plain:1", member=other, text="y") == row_id
    assert Notification.objects.get(pk=row_id).text == "x"
