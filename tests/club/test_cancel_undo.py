"""«Не смогу» with a short undo window: the place is kept for UNDO_WINDOW, «Вернуть» takes
the press back, and the window's end gives the place up (a task, or the minute's sweep)."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from club import services, texts
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.models import Evening, Registration, RegistrationStatus
from notifications.models import Notification
from tests.bot.test_webhook import button, post, replies
from tests.factories import make_evening, make_member, sign_up_many

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


# An evening, its member in the one seat and the member waiting in the reserve.
type FullEvening = tuple[Evening, Registration, Registration]


@pytest.fixture
def full_evening() -> FullEvening:
    """One seat, taken, and one member waiting in the reserve."""
    evening = make_evening(capacity=1)
    seated, waiting = (result.registration for result in sign_up_many(evening, 2))
    return evening, seated, waiting


def status(registration: Registration) -> str:
    registration.refresh_from_db()
    return registration.status


def test_the_place_is_kept_through_the_window_and_goes_at_its_end(
    full_evening: FullEvening,
) -> None:
    evening, seated, waiting = full_evening
    now = timezone.now()
    services.registration_cancel(
        member=seated.signed_member,
        evening_id=evening.pk,
        undo_window=services.UNDO_WINDOW,
        now=now,
    )
    assert (status(seated), status(waiting)) == ("confirmed", "reserve")
    assert services.registrations_leave_due(now=now + timedelta(seconds=29)) == 0
    assert (status(seated), status(waiting)) == ("confirmed", "reserve")

    assert services.registrations_leave_due(now=now + services.UNDO_WINDOW) == 1
    assert (status(seated), status(waiting)) == ("cancelled", "confirmed")
    assert Notification.objects.filter(member=waiting.member, dedupe_key__startswith="promoted")
    assert Notification.objects.filter(member=seated.member, dedupe_key__startswith="cancelled")
    # The task queued for the window's end finds nothing more to do.
    assert not services.registration_leave(registration_id=seated.pk, now=now + timedelta(1))


def test_taking_it_back_keeps_the_place_as_it_was(full_evening: FullEvening) -> None:
    evening, seated, waiting = full_evening
    now = timezone.now()
    services.registration_cancel(
        member=seated.signed_member,
        evening_id=evening.pk,
        undo_window=services.UNDO_WINDOW,
        now=now,
    )
    services.registration_cancel_undo(
        member=seated.signed_member, evening_id=evening.pk, now=now + timedelta(seconds=10)
    )
    assert services.registrations_leave_due(now=now + timedelta(minutes=5)) == 0
    seated.refresh_from_db()
    assert (seated.status, seated.leaves_at, status(waiting)) == ("confirmed", None, "reserve")
    assert not Notification.objects.filter(dedupe_key__startswith="cancelled")


def test_after_the_window_it_is_too_late_to_take_it_back(full_evening: FullEvening) -> None:
    evening, seated, _waiting = full_evening
    now = timezone.now()
    services.registration_cancel(
        member=seated.signed_member,
        evening_id=evening.pk,
        undo_window=services.UNDO_WINDOW,
        now=now,
    )
    with pytest.raises(Refused) as refused:
        services.registration_cancel_undo(
            member=seated.signed_member, evening_id=evening.pk, now=now + services.UNDO_WINDOW
        )
    assert refused.value.code == RefusalCode.CONFLICT
    assert refused.value.message.startswith("Вернуть уже нельзя")


def test_pressing_twice_keeps_the_first_window(full_evening: FullEvening) -> None:
    evening, seated, _waiting = full_evening
    now = timezone.now()
    for later in (0, 20):
        services.registration_cancel(
            member=seated.signed_member,
            evening_id=evening.pk,
            undo_window=services.UNDO_WINDOW,
            now=now + timedelta(seconds=later),
        )
    seated.refresh_from_db()
    assert seated.leaves_at == now + services.UNDO_WINDOW


def test_the_api_gives_the_place_up_at_once(full_evening: FullEvening) -> None:
    evening, seated, waiting = full_evening
    services.registration_cancel(member=seated.signed_member, evening_id=evening.pk)
    assert (status(seated), status(waiting)) == ("cancelled", "confirmed")


def test_the_page_offers_to_take_it_back_and_does(full_evening: FullEvening) -> None:
    evening, seated, waiting = full_evening
    client = Client()
    client.force_login(seated.signed_member)
    body = client.post(f"/evenings/{evening.pk}/cancel/", headers=HTMX).content.decode()
    assert "Вы нажали «Не смогу»: место уйдёт в" in body
    assert f'hx-post="/evenings/{evening.pk}/undo/"' in body
    assert "Подтверждаю" not in body and ">Не смогу<" not in body
    body = client.post(f"/evenings/{evening.pk}/undo/", headers=HTMX).content.decode()
    assert "Возвращено: место снова ваше, как было." in body and ">Не смогу<" in body
    assert (status(seated), status(waiting)) == ("confirmed", "reserve")


def test_a_late_undo_on_the_page_is_refused_in_words(full_evening: FullEvening) -> None:
    evening, seated, _waiting = full_evening
    services.registration_cancel(member=seated.signed_member, evening_id=evening.pk)
    client = Client()
    client.force_login(seated.signed_member)
    answer = client.post(f"/evenings/{evening.pk}/undo/", headers=HTMX)
    assert answer.status_code == 409
    assert "Вернуть уже нельзя: место отдано." in answer.content.decode()


def in_telegram(registration: Registration, settings: Settings, telegram_id: int = 777) -> None:
    """The registration's member linked to Telegram, and the webhook's secret set."""
    settings.TELEGRAM_WEBHOOK_SECRET = "webhook-secret-1"
    registration.signed_member.telegram_id = telegram_id
    registration.signed_member.save(update_fields=["telegram_id"])


def leaves_at(registration: Registration) -> object:
    registration.refresh_from_db()
    return registration.leaves_at


def test_the_bots_cant_make_it_asks_first_and_changes_nothing(
    full_evening: FullEvening, settings: Settings
) -> None:
    evening, seated, waiting = full_evening
    in_telegram(seated, settings)
    in_telegram(waiting, settings, telegram_id=778)
    answer = post(button(f"cx:{evening.pk}")).json()
    assert answer["text"] == "Точно не сможете? Ответьте в сообщении ниже."
    question = replies()[-1]
    when = texts.sentence(texts.evening_when(evening, Club.current()))
    assert question.text == (
        f"{when}.\nОтказаться от места? 30 секунд его можно вернуть, потом оно перейдёт "
        "первому из резерва."
    )
    assert question.buttons == [
        [
            {"text": "Да, не смогу", "callback_data": f"cy:{evening.pk}"},
            {"text": "Нет, остаюсь", "callback_data": f"cn:{evening.pk}"},
        ]
    ]
    assert (status(seated), leaves_at(seated), status(waiting)) == ("confirmed", None, "reserve")
    # The reserve's member is asked about the reserve.
    post(button(f"cx:{evening.pk}", user_id=778))
    assert replies(778)[-1].text.endswith("Уйти из резерва? 30 секунд можно будет передумать.")
    assert (leaves_at(waiting), status(waiting)) == (None, "reserve")


def test_staying_keeps_the_place_as_it_was(full_evening: FullEvening, settings: Settings) -> None:
    evening, seated, waiting = full_evening
    in_telegram(seated, settings)
    post(button(f"cx:{evening.pk}"))
    sent = len(replies())
    answer = post(button(f"cn:{evening.pk}")).json()
    assert answer["text"] == "Хорошо: место остаётся за вами."
    assert len(replies()) == sent  # nothing more to read
    assert (status(seated), leaves_at(seated), status(waiting)) == ("confirmed", None, "reserve")
    assert services.registrations_leave_due(now=timezone.now() + timedelta(minutes=5)) == 0


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("cy:{other}", "Вы не записаны на этот вечер."),
        ("cn:{other}", "Вы не записаны на этот вечер."),
        ("cx:{other}", "Вы не записаны на этот вечер."),
        ("cy:999999", "Такого вечера нет."),
        ("cy:0", "Эта кнопка больше не работает."),
        ("cy:{evening}x", "Эта кнопка больше не работает."),
        ("cy:", "Эта кнопка больше не работает."),
        ("cy:-{evening}", "Эта кнопка больше не работает."),
    ],
)
def test_a_forged_or_stale_answer_is_refused_and_changes_nothing(
    full_evening: FullEvening, settings: Settings, data: str, expected: str
) -> None:
    evening, seated, waiting = full_evening
    other = make_evening(capacity=1)
    in_telegram(seated, settings)
    response = post(button(data.format(evening=evening.pk, other=other.pk)))
    assert response.status_code == 200
    assert response.json()["text"] == expected
    assert not replies()  # no question, no card
    assert (status(seated), leaves_at(seated), status(waiting)) == ("confirmed", None, "reserve")


def test_a_member_not_on_the_list_cannot_give_up_someone_elses_place(
    full_evening: FullEvening, settings: Settings
) -> None:
    evening, seated, waiting = full_evening
    in_telegram(seated, settings)
    outsider = make_member(telegram_id=779)
    answer = post(button(f"cy:{evening.pk}", user_id=779)).json()
    assert answer["text"] == "Вы не записаны на этот вечер."
    assert not Registration.objects.filter(member=outsider).exists()
    assert (status(seated), leaves_at(seated), status(waiting)) == ("confirmed", None, "reserve")


def test_a_question_after_the_start_is_answered_with_the_refusal(
    full_evening: FullEvening, settings: Settings
) -> None:
    evening, seated, _waiting = full_evening
    in_telegram(seated, settings)
    Evening.objects.filter(pk=evening.pk).update(starts_at=timezone.now() - timedelta(hours=1))
    for data in (f"cx:{evening.pk}", f"cy:{evening.pk}"):
        assert post(button(data)).json()["text"] == "Этот вечер уже прошёл."
    assert (status(seated), leaves_at(seated)) == ("confirmed", None)


def test_the_bot_offers_the_undo_button_and_takes_it_back(
    full_evening: FullEvening, settings: Settings
) -> None:
    evening, seated, waiting = full_evening
    in_telegram(seated, settings)
    post(button(f"cx:{evening.pk}"))
    answer = post(button(f"cy:{evening.pk}")).json()
    assert answer["text"] == "Вы отказались от места. Его ещё можно вернуть."
    card = replies()[-1]
    assert "место уйдёт в" in card.text
    assert card.buttons == [[{"text": "Вернуть", "callback_data": f"cu:{evening.pk}"}]]
    answer = post(button(f"cu:{evening.pk}")).json()
    assert answer["text"] == "Возвращено: место снова ваше, как было."
    assert (status(seated), status(waiting)) == (RegistrationStatus.CONFIRMED, "reserve")


def test_the_windows_end_is_queued_as_a_task_after_the_commit(
    full_evening: FullEvening, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    evening, seated, _waiting = full_evening
    with (
        mock.patch("club.kernel.queueing.app.send_task") as send_task,
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.registration_cancel(
            member=seated.signed_member, evening_id=evening.pk, undo_window=services.UNDO_WINDOW
        )
    send_task.assert_called_once_with(
        "club.tasks.registration_leave",
        args=(seated.pk,),
        countdown=services.UNDO_WINDOW.total_seconds(),
    )


def test_the_question_answered_already_shows_the_undo_card(
    full_evening: FullEvening, settings: Settings
) -> None:
    """«Не смогу» or «Нет, остаюсь» pressed again after «Да, не смогу»: the place is going,
    and the card with «Вернуть» says so; the window stands as it was."""
    evening, seated, _waiting = full_evening
    in_telegram(seated, settings)
    post(button(f"cx:{evening.pk}"))
    post(button(f"cy:{evening.pk}"))
    window = leaves_at(seated)
    for data in (f"cn:{evening.pk}", f"cx:{evening.pk}", f"cy:{evening.pk}"):
        answer = post(button(data)).json()
        assert answer["text"] in (
            "Место отдаётся.",
            "Вы отказались от места. Его ещё можно вернуть.",
        )
        card = replies()[-1]
        assert card.buttons == [[{"text": "Вернуть", "callback_data": f"cu:{evening.pk}"}]]
    assert (status(seated), leaves_at(seated)) == ("confirmed", window)
