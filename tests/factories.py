"""Plain factory functions: enough for our models without another dependency."""

import itertools
from datetime import date, timedelta

from django.utils import timezone

from accounts.models import User
from club.kernel.club_settings import ClubSettings
from club.models import Evening

_numbers = itertools.count(1)
PASSWORD = "correct-horse-battery"


def make_member(**fields: object) -> User:
    number = next(_numbers)
    fields.setdefault("nickname", f"Игрок {number}")
    fields.setdefault("birth_date", date(1990, 1, 1))
    fields.setdefault("email", f"member{number}@example.com")
    password = fields.pop("password", PASSWORD)
    return User.objects.create_user(password=password, **fields)


def make_evening(**fields: object) -> Evening:
    club = ClubSettings.load()
    starts_at = fields.pop("starts_at", timezone.now() + timedelta(days=3))
    fields.setdefault("venue", club.venue)
    fields.setdefault("capacity", club.seats_per_evening)
    fields.setdefault("opens_at", timezone.now() - timedelta(days=1))
    return Evening.objects.create(starts_at=starts_at, **fields)


def sign_up_many(evening: Evening, count: int, **member_fields: object) -> list:
    """`count` new members signed up for `evening` in order (through the service)."""
    from club.models import RegistrationSource
    from club.services import registration_create

    return [
        registration_create(
            member=make_member(**member_fields),
            evening_id=evening.pk,
            source=RegistrationSource.WEB,
        )
        for _ in range(count)
    ]
