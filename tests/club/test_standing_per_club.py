"""A member's standing and consent are each club's own (accounts.models.Membership): a
suspension in club B does not stop a sign-up in club A, and a refusal of publication in
club B hides the member in B and not in A. A role is each club's too."""

from collections.abc import Iterator

import pytest
from django.test import Client

from accounts import roles
from accounts.models import MembershipStatus, Role, User
from accounts.services import member_set_publication_consent, member_set_status
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.kernel.tenancy import club_scope
from club.models import RegistrationSource
from club.services import registration_create
from games import access
from tests.factories import make_evening, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def first() -> Iterator[Club]:
    club = Club.current()
    with club_scope(club):
        yield club


@pytest.fixture
def other(first: Club) -> Club:
    return Club.objects.create(slug="b", name="B")


@pytest.fixture
def member(first: Club, other: Club) -> User:
    member = make_member(nickname="Странник")
    with club_scope(other):
        member_set_status(member=member, status=MembershipStatus.SUSPENDED, reason="no-shows")
    return User.objects.get(pk=member.pk)


def test_suspended_in_club_b_still_signs_up_in_club_a(
    first: Club, other: Club, member: User
) -> None:
    ours = make_evening()
    signed = registration_create(member=member, evening_id=ours.pk, source=RegistrationSource.WEB)
    assert signed.registration.member_id == member.pk
    with club_scope(other):
        theirs = make_evening()
        with pytest.raises(Refused) as refused:
            registration_create(member=member, evening_id=theirs.pk, source=RegistrationSource.WEB)
    assert refused.value.code == RefusalCode.SUSPENDED


def test_consent_off_in_club_b_hides_the_member_in_b_only(first: Club, other: Club) -> None:
    shy = make_member(nickname="Тихоня")
    member_set_publication_consent(member=shy, consent=False, club=other)
    fresh = User.objects.get(pk=shy.pk)
    assert access.may_see_name(fresh, None, club=first)
    assert not access.may_see_name(fresh, None, club=other)
    with club_scope(other):
        assert not access.may_see_name(User.objects.get(pk=shy.pk), None)
    # The player's page: named on club A's site, not found on club B's.
    assert Client().get(f"/players/{shy.pk}/").status_code == 200
    assert Client().get(f"/c/b/players/{shy.pk}/").status_code == 404


def test_club_b_staff_see_the_hidden_name_in_b_but_are_nobody_in_a(
    first: Club, other: Club
) -> None:
    shy = make_member(nickname="Тихоня")
    member_set_publication_consent(member=shy, consent=False, club=first)
    organiser = make_member(nickname="Организатор Б")
    from accounts.services import member_set_role

    member_set_role(member=organiser, role=Role.ORGANISER, club=other)
    fresh = User.objects.get(pk=shy.pk)
    assert not access.may_see_name(fresh, organiser, club=first)
    assert roles.can(organiser, "organise", other)
    assert not access.may_host(organiser, first)
    assert access.may_host(organiser, other)
