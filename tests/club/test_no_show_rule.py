"""The no-show rule lives once (club.services.held_back_sits): a held-back member waits
behind the rest of the reserve until the last call, and from it takes a free seat like
anyone. The sign-up's own SQL (club/seating.py) and the promotions ask the same question,
so the first message a member gets is the truth and no correction follows (#37, item 18)."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from club import scheduling, services
from club.kernel.clubs import Club
from club.models import Evening, Registration, RegistrationSource, RegistrationStatus
from notifications.models import Notification
from tests.factories import make_evening, make_member

pytestmark = pytest.mark.django_db


def a_member_with_a_no_show() -> User:
    """The club's no-show rule on (one no-show in the last three evenings holds a member
    back), and a member it holds back."""
    club = Club.current()
    club.noshow_penalty_count, club.noshow_penalty_window = 1, 3
    club.save()
    member = make_member(telegram_id=71_001)
    past = make_evening(
        starts_at=timezone.now() - timedelta(days=7),
        opens_at=timezone.now() - timedelta(days=12),
    )
    Registration.objects.create(
        evening=past, member=member, status=RegistrationStatus.NO_SHOW,
        source=RegistrationSource.WEB, arrival=1,
    )  # fmt: skip
    return member


def after_the_last_call(capacity: int = 12) -> Evening:
    club = Club.current()
    hours = club.confirmation_deadline_hours
    return make_evening(
        capacity=capacity, starts_at=timezone.now() + timedelta(hours=hours, minutes=-30)
    )


def told(member: User) -> list[tuple[str, str]]:
    return [
        (key.split(":")[0], text)
        for key, text in Notification.objects.filter(member=member)
        .order_by("pk")
        .values_list("dedupe_key", "text")
    ]


def test_after_the_last_call_a_held_back_member_takes_a_free_seat_at_once_and_hears_once() -> None:
    member = a_member_with_a_no_show()
    evening = after_the_last_call()
    client = Client()
    client.force_login(member)
    client.post(reverse("evening_sign_up", args=[evening.pk]))
    registration = Registration.objects.get(evening=evening, member=member)
    assert registration.status == RegistrationStatus.CONFIRMED
    assert [kind for kind, _text in told(member)] == ["seat"]
    assert "№ 1" in told(member)[0][1]
    # The sweep that used to promote the member minutes later finds nothing to do.
    scheduling.schedule_sweep(now=timezone.now() + timedelta(minutes=1))
    assert [kind for kind, _text in told(member)] == ["seat"]


def test_before_the_last_call_the_held_back_member_waits_behind_the_reserve() -> None:
    member = a_member_with_a_no_show()
    evening = make_evening(capacity=12, starts_at=timezone.now() + timedelta(days=2))
    signed = services.registration_create(
        member=member, evening_id=evening.pk, source=RegistrationSource.WEB
    )
    assert (signed.seat, signed.position) == (None, 1)
    assert [kind for kind, _text in told(member)] == ["reserve"]


def test_after_the_last_call_a_held_back_newcomer_does_not_pass_the_held_back_waiting() -> None:
    """One seat free after the last call, a held-back member waiting for it since before
    (the sweep has not run yet): a second held-back member who signs up now comes after
    them in the reserve's order, so the seat is not theirs."""
    first = a_member_with_a_no_show()
    second = make_member(telegram_id=71_002)
    Registration.objects.create(
        evening=make_evening(
            starts_at=timezone.now() - timedelta(days=6),
            opens_at=timezone.now() - timedelta(days=11),
        ),
        member=second, status=RegistrationStatus.NO_SHOW, source=RegistrationSource.WEB,
        arrival=1,
    )  # fmt: skip
    evening = after_the_last_call(capacity=1)
    Registration.objects.create(
        evening=evening, member=first, status=RegistrationStatus.RESERVE,
        source=RegistrationSource.WEB, arrival=1, held_back=True,
    )  # fmt: skip
    Evening.objects.filter(pk=evening.pk).update(arrivals=1)
    signed = services.registration_create(
        member=second, evening_id=evening.pk, source=RegistrationSource.WEB
    )
    assert (signed.seat, signed.position) == (None, 2)
    promoted = services.evening_fill_seats(evening_id=evening.pk)
    assert [r.member for r in promoted] == [first]


def test_the_evening_page_says_what_the_sign_up_will_give_a_held_back_member() -> None:
    """Seats free before the last call: the held-back member's button says the reserve (and
    why), as the sign-up then does; another member's says a seat."""
    member = a_member_with_a_no_show()
    evening = make_evening(capacity=12, starts_at=timezone.now() + timedelta(days=2))
    client = Client()
    client.force_login(member)
    page = client.get(reverse("evening", args=[evening.pk])).content.decode()
    assert "Встать в резерв (позиция 1)" in page
    assert "Ок, играем" not in page
    assert "За неявки правило клуба ставит вашу запись в резерв" in page
    client.force_login(make_member())
    other = client.get(reverse("evening", args=[evening.pk])).content.decode()
    assert "Ок, играем" in other
    assert "Встать в резерв" not in other
