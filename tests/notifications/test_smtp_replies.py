"""What a mail server's reply means for a letter, against a real SMTP server (aiosmtpd, in
this process): a 4xx to RCPT (greylisting, a provider's rate limit) is «not now», tried
again minutes later until the letter is taken; a 5xx is «never», the letter fails at once
and the organiser reads the server's reason under the message in the line-up's log.

The hole it closes (#37): every refused recipient was taken as permanent whatever its
code, so a greylisting server lost an organiser's message to all fifty members at once.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
import time_machine
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from django.test import Client
from django.utils import timezone
from pytest_django.fixtures import Settings

from club import lineup
from club.models import Evening
from notifications.models import Notification, NotificationStatus
from notifications.sender import MAX_ATTEMPTS, NOT_NOW_FIRST_WAIT, notification_deliver
from tests.factories import make_evening, make_member
from tests.games.recording import make_host

pytestmark = pytest.mark.django_db


@dataclass
class MailServer:
    """An aiosmtpd handler that answers each RCPT with the next of `replies` (then 250)
    and keeps every letter it takes."""

    replies: list[str] = field(default_factory=list)
    received: list[Envelope] = field(default_factory=list)

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if self.replies:
            return self.replies.pop(0)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.received.append(envelope)
        return "250 Message accepted for delivery"


@pytest.fixture
def mail_server(settings: Settings) -> Iterator[MailServer]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    handler = MailServer()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "timeout": 5},
        }
    }
    yield handler
    controller.stop()


def _message_to(evening: Evening, count: int) -> list[int]:
    """The organiser's message to an evening of `count` members who read email only; the
    ids of its outbox rows."""
    host = make_host()
    for _ in range(count):
        member = make_member()
        lineup.lineup_add_member(evening_id=evening.pk, member_id=member.pk, actor=host)
    lineup.evening_message(evening_id=evening.pk, text="Начинаем в 18:30", actor=host)
    rows = Notification.objects.filter(dedupe_key__startswith="evening-message:")
    return list(rows.order_by("pk").values_list("pk", flat=True))


def _soon() -> Evening:
    return make_evening(
        capacity=50,
        starts_at=timezone.now() + timedelta(hours=1),
        opens_at=timezone.now() - timedelta(days=1),
    )


def test_a_greylisted_letter_is_tried_again_minutes_later_and_arrives(
    mail_server: MailServer,
) -> None:
    (row_id,) = _message_to(_soon(), 1)
    mail_server.replies = ["451 4.7.1 Greylisted, please try again later"]
    first = notification_deliver(row_id)
    assert first.status == NotificationStatus.PENDING and mail_server.received == []
    assert first.retry_in is not None
    # Minutes, not the half second a network error gets: a greylist asks for a wait.
    assert 0.8 * NOT_NOW_FIRST_WAIT <= first.retry_in <= 1.2 * NOT_NOW_FIRST_WAIT
    row = Notification.objects.get(pk=row_id)
    assert row.last_error == "451 4.7.1 Greylisted, please try again later"
    early = notification_deliver(row_id)  # a task that comes before its time waits on
    assert early.status == NotificationStatus.PENDING and early.retry_in is not None
    assert mail_server.received == [] and Notification.objects.get(pk=row_id).attempts == 1
    with time_machine.travel(timezone.now() + timedelta(seconds=first.retry_in + 1)):
        assert notification_deliver(row_id).status == NotificationStatus.SENT
    (letter,) = mail_server.received
    member_email = Notification.objects.select_related("member").get(pk=row_id).member
    assert member_email is not None and letter.rcpt_tos == [member_email.email]
    assert Notification.objects.get(pk=row_id).attempts == 2


def test_an_evenings_fifty_letters_refused_for_now_all_wait_and_none_fails(
    mail_server: MailServer,
) -> None:
    rows = _message_to(_soon(), 50)
    mail_server.replies = ["451 4.7.1 Rate limit: try again later"] * 50
    outcomes = [notification_deliver(row_id) for row_id in rows]
    assert {outcome.status for outcome in outcomes} == {NotificationStatus.PENDING}
    # Spread, so that fifty letters do not come back to the rate limit in one second.
    waits = sorted(outcome.retry_in or 0.0 for outcome in outcomes)
    assert waits[-1] - waits[0] > 1.0
    with time_machine.travel(timezone.now() + timedelta(seconds=waits[-1] + 1)):
        assert {notification_deliver(row_id).status for row_id in rows} == {"sent"}
    assert len(mail_server.received) == 50


def test_a_letter_refused_for_now_every_time_fails_after_the_last_attempt(
    mail_server: MailServer,
) -> None:
    (row_id,) = _message_to(_soon(), 1)
    mail_server.replies = ["452 4.2.2 Mailbox full"] * MAX_ATTEMPTS
    waited = 0.0
    for attempt in range(1, MAX_ATTEMPTS + 1):
        with time_machine.travel(timezone.now() + timedelta(seconds=waited + 1)):
            outcome = notification_deliver(row_id)
        if attempt < MAX_ATTEMPTS:
            assert outcome.status == NotificationStatus.PENDING and outcome.retry_in is not None
            waited += outcome.retry_in + 1
    assert outcome.status == NotificationStatus.FAILED
    # The tries span the minutes a greylist or a provider's limit asks for.
    assert waited > 15 * 60
    assert mail_server.received == []


def test_a_letter_refused_for_good_fails_at_once_and_the_organiser_reads_why(
    mail_server: MailServer,
) -> None:
    evening = _soon()
    rows = _message_to(evening, 2)
    mail_server.replies = ["550 5.1.1 <nobody@example.org>: Recipient address rejected"]
    assert notification_deliver(rows[0]).status == NotificationStatus.FAILED
    assert notification_deliver(rows[1]).status == NotificationStatus.SENT
    refused = Notification.objects.select_related("member").get(pk=rows[0])
    assert refused.attempts == 1
    assert refused.last_error == "550 5.1.1 <nobody@example.org>: Recipient address rejected"
    assert refused.member is not None
    client = Client()
    client.force_login(make_host())
    page = client.get(f"/evenings/{evening.pk}/lineup/").content.decode()
    assert "отправлено: 1" in page
    assert (
        f'Не доставлено: <span translate="no">{refused.member.nickname}</span> (Почта): '
        "550 5.1.1 &lt;nobody@example.org&gt;: Recipient address rejected"
    ) in page
