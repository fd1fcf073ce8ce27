"""Every member told by their channels: Telegram when linked, email otherwise, or both as
the member chose; a row per channel, each with the outbox's dedupe, retry and in-doubt
rules; letters through Django's mail API (the locmem backend here, and real SMTP
conversations with a server on this machine for the refusals)."""

from __future__ import annotations

import re
import socketserver
import threading
from collections.abc import Iterator
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import NotifyBy, User
from club import services, texts
from club.kernel.clubs import Club
from club.models import Evening, RegistrationSource
from notifications.models import Notification, NotificationStatus
from notifications.sender import MAX_ATTEMPTS, notification_deliver, notifications_sweep
from notifications.services import member_notify
from tests.factories import make_evening, make_member
from tests.fake_telegram import FakeTelegram

pytestmark = pytest.mark.django_db


def deliver_all() -> list[str]:
    """Send every pending row once, as the task would; their outcomes."""
    pending = Notification.objects.filter(status=NotificationStatus.PENDING).order_by("pk")
    return [notification_deliver(pk).status for pk in pending.values_list("pk", flat=True)]


def rows_of(member: User) -> list[tuple[str, str]]:
    return list(
        Notification.objects.filter(member=member)
        .order_by("pk")
        .values_list("dedupe_key", "channel")
    )


def sign_up(member: User, evening: Evening) -> None:
    services.registration_create(
        member=member, evening_id=evening.pk, source=RegistrationSource.WEB
    )


def name_the_club(name: str) -> None:
    club = Club.current()
    club.name = name
    club.save()


def test_a_member_without_telegram_promoted_on_the_website_learns_it_by_email() -> None:
    name_the_club("Ночной город")
    evening = make_evening(capacity=1)
    seated, waiting = make_member(), make_member(nickname="Лиса", email="fox@example.com")
    sign_up(seated, evening)
    sign_up(waiting, evening)
    services.registration_cancel(member=seated, evening_id=evening.pk)
    deliver_all()
    (promotion,) = Notification.objects.filter(member=waiting, dedupe_key__startswith="promoted:")
    assert (promotion.channel, promotion.status) == ("email", "sent")
    letters = [m for m in mail.outbox if m.to == ["fox@example.com"]]
    assert len(letters) == 2  # the reserve place, then the seat
    letter = letters[-1]
    when = texts.sentence(texts.evening_when(evening, Club.current()))
    assert letter.subject == "Ночной город: Освободилось место — вы в игре!"
    assert "Здравствуйте, Лиса!" in letter.body
    assert f"№ 1 в списке из 1. {when}. Подтвердите" in letter.body
    assert f"Открыть на сайте: http://127.0.0.1:8000/evenings/{evening.pk}/" in letter.body
    assert "Клуб «Мафия»" not in letter.body and "Ночной город" in letter.body
    assert letter.from_email == '"Ночной город" <club@localhost>'
    assert "club@localhost" in str(letter.message()["From"])  # encodes as a header should


def test_a_promotion_in_telegram_gives_the_number_and_asks_to_confirm() -> None:
    evening = make_evening(capacity=1)
    seated, waiting = make_member(), make_member(telegram_id=8101)
    sign_up(seated, evening)
    sign_up(waiting, evening)
    services.registration_cancel(member=seated, evening_id=evening.pk)
    (promotion,) = Notification.objects.filter(member=waiting, dedupe_key__startswith="promoted:")
    when = texts.sentence(texts.evening_when(evening, Club.current()))
    assert promotion.channel == "telegram"
    assert promotion.text == (
        f"Освободилось место — вы в игре! № 1 в списке из 1. {when}. "
        "Подтвердите, пожалуйста, что придёте."
    )
    assert [[b["callback_data"] for b in promotion.buttons[0]]] == [
        [f"cf:{evening.pk}", f"cx:{evening.pk}"]
    ]
    assert re.search(r"\. [А-ЯЁ]", promotion.text.split("1 в списке из 1")[1])


def test_both_channels_write_two_rows_and_each_tells_once(fake_telegram: FakeTelegram) -> None:
    member = make_member(telegram_id=8102, notify_by=NotifyBy.BOTH, email="both@example.com")
    for _attempt in range(2):  # the same message twice: written once per channel
        member_notify(member=member, dedupe_key="news:1", text="Начинаем в 18:30.")
    assert rows_of(member) == [("news:1", "telegram"), ("news:1:email", "email")]
    assert deliver_all() == ["sent", "sent"]
    assert deliver_all() == []
    assert [c.params["text"] for c in fake_telegram.sent()] == ["Начинаем в 18:30."]
    assert [m.to for m in mail.outbox] == [["both@example.com"]]
    assert "Начинаем в 18:30." in mail.outbox[0].body


def test_a_sign_up_of_a_member_on_both_channels_is_confirmed_by_both() -> None:
    evening = make_evening(capacity=5)
    member = make_member(telegram_id=8103, notify_by=NotifyBy.BOTH)
    sign_up(member, evening)
    (registration,) = member.registrations.all()
    key = f"seat:{registration.pk}:{registration.arrival}"
    assert rows_of(member) == [(key, "telegram"), (f"{key}:email", "email")]
    texts_written = set(Notification.objects.filter(member=member).values_list("text", flat=True))
    assert len(texts_written) == 1 and "№ 1 в списке из 5" in texts_written.pop()


def test_the_key_means_told_whatever_the_channel_so_a_new_choice_adds_nothing() -> None:
    member = make_member(email="late@example.com")  # auto, no Telegram: email
    member_notify(member=member, dedupe_key="news:2", text="Вечер перенесён.")
    member.telegram_id = 8104
    member.save()
    member_notify(member=member, dedupe_key="news:2", text="Вечер перенесён.")
    assert rows_of(member) == [("news:2", "email")]


def test_telegram_only_without_telegram_is_recorded_as_not_told() -> None:
    member = make_member(notify_by=NotifyBy.TELEGRAM)
    member_notify(member=member, dedupe_key="news:3", text="Привет.")
    assert deliver_all() == ["skipped"]
    assert rows_of(member) == [("news:3", "telegram")] and mail.outbox == []


def test_email_only_goes_by_email_although_telegram_is_linked(fake_telegram: FakeTelegram) -> None:
    member = make_member(telegram_id=8105, notify_by=NotifyBy.EMAIL)
    member_notify(member=member, dedupe_key="news:4", text="Привет.")
    assert deliver_all() == ["sent"]
    assert fake_telegram.sent() == [] and len(mail.outbox) == 1


def test_a_member_on_auto_who_blocked_the_bot_is_told_by_email(fake_telegram: FakeTelegram) -> None:
    member = make_member(telegram_id=8106, email="blocked@example.com")
    member_notify(member=member, dedupe_key="news:5", text="Вы в игре!")
    fake_telegram.fail_next(403)
    assert deliver_all() == ["failed"]  # the Telegram row; its email row is written now
    assert deliver_all() == ["sent"]
    assert rows_of(member) == [("news:5", "telegram"), ("news:5:email", "email")]
    assert [m.to for m in mail.outbox] == [["blocked@example.com"]]
    member.refresh_from_db()
    member_notify(member=member, dedupe_key="news:6", text="Ещё новость.")
    assert rows_of(member)[-1] == ("news:6", "email")  # blocked: email from now on


def test_a_message_that_leaves_email_out_is_never_a_letter(fake_telegram: FakeTelegram) -> None:
    """`email=False` (an online game's steps): Telegram as usual; a member only email
    reaches gets no row; a blocked bot writes no letter in its place."""
    by_email = make_member(email="mail@example.com")
    both = make_member(telegram_id=8107, notify_by=NotifyBy.BOTH)
    blocking = make_member(telegram_id=8108, email="blocking@example.com")
    for member in (blocking, by_email, both):
        member_notify(member=member, dedupe_key=f"step:{member.pk}", text="Ночь 1.", email=False)
    assert rows_of(by_email) == []
    assert rows_of(both) == [(f"step:{both.pk}", "telegram")]
    fake_telegram.fail_next(403)  # the first row sent, `blocking`'s: the bot is blocked
    assert deliver_all() == ["failed", "sent"]
    assert deliver_all() == [] and mail.outbox == []
    assert rows_of(blocking) == [(f"step:{blocking.pk}", "telegram")]


class _SMTPHandler(socketserver.StreamRequestHandler):
    """Just enough of an SMTP server for smtplib: it refuses every recipient for good."""

    def reply(self, line: str) -> None:
        self.wfile.write(f"{line}\r\n".encode())

    def handle(self) -> None:
        self.reply("220 fake.test ESMTP")
        for raw in self.rfile:
            command = raw.decode().strip().upper()
            if command.startswith("EHLO") or command.startswith("HELO"):
                self.reply("250 fake.test")
            elif command.startswith("RCPT"):
                self.reply("550 5.1.1 No such mailbox")
            elif command.startswith("QUIT"):
                self.reply("221 Bye")
                return
            else:  # MAIL FROM, RSET, NOOP
                self.reply("250 OK")


@pytest.fixture
def refusing_smtp(settings: Settings) -> Iterator[None]:
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _SMTPHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": server.server_address[1], "timeout": 5},
        }
    }
    yield
    server.shutdown()
    server.server_close()


def test_an_address_the_mail_server_refuses_fails_at_once(refusing_smtp: None) -> None:
    member = make_member(email="nobody@example.com")
    (row_id,) = member_notify(member=member, dedupe_key="news:7", text="Привет.")
    assert notification_deliver(row_id).status == "failed"
    row = Notification.objects.get(pk=row_id)
    assert "550" in row.last_error and row.attempts == 1


def test_a_mail_server_that_does_not_answer_is_tried_again_with_backoff(
    settings: Settings,
) -> None:
    with socketserver.TCPServer(("127.0.0.1", 0), socketserver.BaseRequestHandler) as closed:
        port = closed.server_address[1]  # free once closed: nothing listens there
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "timeout": 2},
        }
    }
    member = make_member(email="later@example.com")
    (row_id,) = member_notify(member=member, dedupe_key="news:8", text="Привет.")
    outcome = notification_deliver(row_id)
    assert (outcome.status, outcome.retry_in) == ("pending", 0.5)
    Notification.objects.filter(pk=row_id).update(next_attempt_at=None, attempts=MAX_ATTEMPTS)
    assert notification_deliver(row_id).status == "failed"


class WorkerKilled(BaseException):
    """What a SIGKILL looks like from inside: nothing after it runs."""


def test_a_worker_killed_while_the_mail_server_talks_leaves_the_letter_in_doubt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    member = make_member(email="doubt@example.com")
    (row_id,) = member_notify(member=member, dedupe_key="news:9", text="Привет.")

    def killed(*args: object, **kwargs: object) -> None:
        raise WorkerKilled

    monkeypatch.setattr("django.core.mail.EmailMessage.send", killed)
    with pytest.raises(WorkerKilled):
        notification_deliver(row_id)
    with time_machine.travel(timezone.now() + timedelta(minutes=6)):
        in_doubt, due = notifications_sweep()
    assert (in_doubt, due) == (1, [])
    assert Notification.objects.get(pk=row_id).status == "failed"


def _reserve_of(count: int, evening: Evening) -> list[User]:
    members = [make_member(telegram_id=8200 + n) for n in range(count)]
    for member in members:
        sign_up(member, evening)
    return members


def told_of_moving_up() -> list[int]:
    keys = Notification.objects.filter(dedupe_key__startswith="reserve-up:")
    return sorted(n.member_id for n in keys if n.member_id is not None)


def test_the_reserve_hears_of_a_move_only_when_it_comes_into_the_first_three() -> None:
    evening = make_evening(capacity=1)
    seated, *waiting = _reserve_of(7, evening)  # reserve positions 1 to 6
    services.registration_cancel(member=seated, evening_id=evening.pk)
    # 1 is seated (and told so); 2→1 and 3→2 were within the three already; 4→3 crosses.
    assert told_of_moving_up() == [waiting[3].pk]
    services.registration_cancel(member=waiting[1], evening_id=evening.pk)  # position 1 leaves
    # 4→2 was told already; 5→3 crosses now; 6→4 does not.
    assert told_of_moving_up() == [waiting[3].pk, waiting[4].pk]
    note = Notification.objects.get(dedupe_key__startswith="reserve-up:", member=waiting[4])
    when = texts.sentence(texts.evening_when(evening, Club.current()))
    assert note.text.startswith("Вы продвинулись в резерве: позиция 3.") and when in note.text


def test_a_club_can_keep_the_reserve_quiet() -> None:
    club = Club.current()
    club.reserve_news_within = 0
    club.save()
    evening = make_evening(capacity=1)
    seated, *_waiting = _reserve_of(6, evening)
    services.registration_cancel(member=seated, evening_id=evening.pk)
    assert told_of_moving_up() == []


def test_the_password_reset_letter_goes_through_the_outbox() -> None:
    name_the_club("Ночной город")
    member = make_member(nickname="Ворон", email="raven@example.com")
    answer = Client().post("/accounts/password/reset/", {"email": "raven@example.com"})
    assert answer.status_code == 302
    (row,) = Notification.objects.filter(member=member)
    assert (row.channel, row.status) == ("email", "sent")
    assert row.dedupe_key.startswith(f"secret:password-reset:{member.pk}:")
    assert "/accounts/password/reset/" not in row.text  # the outbox keeps no live link
    (letter,) = mail.outbox
    assert letter.subject == "Ночной город: Сброс пароля"
    assert "Здравствуйте, Ворон!" in letter.body
    assert "Ночной город: кто-то запросил сброс пароля" in letter.body
    assert re.search(r"http://testserver/accounts/password/reset/\S+/\S+/", str(letter.body))
    assert "Клуб «Мафия»" not in letter.body


def test_a_member_chooses_the_channels_in_the_settings(member_client: Client, member: User) -> None:
    page = member_client.get("/accounts/settings/").content.decode()
    assert "Telegram, если привязан, иначе почта" in page
    member_client.post("/accounts/settings/", {"notify_by": "both", "reminders": "on"})
    member.refresh_from_db()
    assert member.notify_by == "both"
    answer = member_client.post("/accounts/settings/", {"notify_by": "pigeon"})
    assert answer.status_code == 200 and "Выберите корректный вариант" in answer.content.decode()
    member.refresh_from_db()
    assert member.notify_by == "both"
    member_client.post("/accounts/settings/", {})  # an older page without the choice
    member.refresh_from_db()
    assert member.notify_by == "both"
