"""Plain factory functions: enough for our models without another dependency."""

import itertools
from datetime import date, datetime, timedelta
from typing import TypedDict, Unpack

from django.utils import timezone

from accounts import roles
from accounts.models import Membership, MembershipStatus, Role, User
from club.kernel import tenancy
from club.kernel.clubs import Club
from club.models import Evening
from club.services import SignUp

_numbers = itertools.count(1)
PASSWORD = "correct-horse-battery"


class MemberFields(TypedDict, total=False):
    """The member's fields a test may set (a misspelt one fails mypy, not a test run)."""

    nickname: str
    birth_date: date
    email: str
    telegram_id: int | None
    telegram_username: str
    publication_consent: bool
    reminders: bool
    notify_by: str
    language: str
    language_chosen: bool
    lookalike_kept: bool
    status: str  # the standing in the club in scope (accounts.models.Membership)
    role: str  # the role in the club in scope (accounts.models.Role)
    is_staff: bool  # without is_superuser: a club admin of the club in scope
    is_superuser: bool


class EveningFields(TypedDict, total=False):
    """The evening's fields a test may set."""

    starts_at: datetime
    opens_at: datetime
    venue: str
    capacity: int
    status: str


def make_member(*, password: str = PASSWORD, **fields: Unpack[MemberFields]) -> User:
    number = next(_numbers)
    fields.setdefault("nickname", f"Игрок {number}")
    fields.setdefault("birth_date", date(1990, 1, 1))
    # example.org: the demo club (demo_data) has member1@example.com and on, and a test may
    # load it first in its process.
    fields.setdefault("email", f"player{number}@example.org")
    # What is the club's (the standing, the consent, the role) goes to the member's
    # membership of the club in scope, as a sign-up on its site makes it; a test that makes
    # members of several clubs outside any scope makes them the first club's.
    standing = {
        "status": fields.pop("status", MembershipStatus.ACTIVE),
        "publication_consent": fields.pop("publication_consent", True),
    }
    role = fields.pop("role", Role.MEMBER)
    if fields.get("is_staff") and not fields.get("is_superuser") and role == Role.MEMBER:
        role = Role.ADMIN
    member = User.objects.create_user(password=password, **fields)
    club_id = tenancy.scoped_club_id() or tenancy.first_club_id()
    Membership.objects.create(user=member, club_id=club_id, role=role, **standing)
    roles.sync_staff(member)  # an organiser's or a club admin's is_staff, as the service sets it
    return member


def set_consent(*members: User | int, consent: bool) -> None:
    """The members' consent to publication in the club in scope, written as a test's
    fixture (the service, member_set_publication_consent, also edits the group's posts)."""
    for member in members:
        member_id = member if isinstance(member, int) else member.pk
        Membership.objects.update_or_create(
            user_id=member_id, club=Club.current(), defaults={"publication_consent": consent}
        )
        if isinstance(member, User):
            roles.forget_memberships(member)


def set_standing(member: User | int, status: str) -> None:
    """The member's standing in the club in scope, written as a test's fixture."""
    member_id = member if isinstance(member, int) else member.pk
    Membership.objects.update_or_create(
        user_id=member_id, club=Club.current(), defaults={"status": status}
    )
    if isinstance(member, User):
        roles.forget_memberships(member)


def make_evening(**fields: Unpack[EveningFields]) -> Evening:
    club = Club.current()
    fields.setdefault("starts_at", timezone.now() + timedelta(days=3))
    fields.setdefault("venue", club.venue)
    fields.setdefault("capacity", club.seats_per_evening)
    # Opened a day ago, or a day before it starts for an evening in the past (a test's fixed
    # date that the calendar has passed: the database holds that sign-up opens before it).
    fields.setdefault("opens_at", min(timezone.now(), fields["starts_at"]) - timedelta(days=1))
    return Evening.objects.create(**fields)


def sign_up_many(
    evening: Evening, count: int, **member_fields: Unpack[MemberFields]
) -> list[SignUp]:
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
