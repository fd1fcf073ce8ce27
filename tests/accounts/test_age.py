from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.age import age_on, coming_of_age, is_of_age
from accounts.models import User


@pytest.mark.parametrize(
    ("birth", "on", "age"),
    [
        (date(2005, 12, 2), date(2026, 12, 2), 21),  # the birthday itself
        (date(2005, 12, 3), date(2026, 12, 2), 20),  # the day before it
        (date(2005, 1, 1), date(2026, 12, 31), 21),
        (date(2004, 2, 29), date(2025, 2, 28), 20),  # leap-day birthday, common year
        (date(2004, 2, 29), date(2025, 3, 1), 21),
        (date(2004, 2, 29), date(2024, 2, 29), 20),
    ],
)
def test_age_counts_full_years(birth: date, on: date, age: int) -> None:
    assert age_on(birth, on) == age


def test_exactly_the_minimum_age_today_is_of_age() -> None:
    assert is_of_age(date(2005, 12, 2), date(2026, 12, 2), 21)
    assert not is_of_age(date(2005, 12, 3), date(2026, 12, 2), 21)


def test_coming_of_age_of_a_leap_day_birth_is_the_first_of_march() -> None:
    assert coming_of_age(date(2004, 2, 29), 21) == date(2025, 3, 1)
    assert coming_of_age(date(2004, 2, 29), 20) == date(2024, 2, 29)
    assert coming_of_age(date(2005, 12, 3), 21) == date(2026, 12, 3)


@pytest.mark.django_db
def test_member_is_of_age_uses_the_club_minimum(member: User) -> None:
    from accounts.services import member_is_of_age
    from club.kernel.clubs import Club

    member.birth_date = date(2005, 12, 5)
    assert not member_is_of_age(member=member, on=date(2026, 12, 4))
    assert member_is_of_age(member=member, on=date(2026, 12, 5))
    club = Club.current()
    club.min_age = 18
    club.save()
    assert member_is_of_age(member=member, on=date(2026, 12, 4))


@pytest.mark.django_db
def test_the_under_age_refusal_ends_with_one_full_stop() -> None:
    too_young = (timezone.localdate() - timedelta(days=365 * 20)).isoformat()
    answer = Client().post(
        "/accounts/signup/",
        {
            "nickname": "Юный",
            "email": "young@example.com",
            "birth_date": too_young,
            "password1": "a-long-passphrase-9",
            "password2": "a-long-passphrase-9",
        },
    )
    text = answer.content.decode()
    assert "Будем рады вам с" in text and "г.." not in text
