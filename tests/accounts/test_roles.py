"""Powers per club (accounts/roles.py): a role in one club is nothing in another, a
platform admin may do everything, is_staff follows the roles, and Django's permissions
answer for the club in scope."""

from collections.abc import Iterator

import pytest

from accounts import roles, services
from accounts.models import Membership, MembershipStatus, Role, User
from club.kernel.clubs import Club
from club.kernel.tenancy import club_scope
from tests.factories import make_member

pytestmark = pytest.mark.django_db


def is_staff(user: User) -> bool:
    """Django's admin gate as stored now."""
    return User.objects.get(pk=user.pk).is_staff


@pytest.fixture
def first() -> Iterator[Club]:
    club = Club.current()
    with club_scope(club):  # the members are made on the first club's site
        yield club


@pytest.fixture
def other(first: Club) -> Club:
    return Club.objects.create(slug="b", name="B")


def test_a_host_of_one_club_is_a_plain_member_of_another(first: Club, other: Club) -> None:
    host = make_member(role=Role.HOST)
    assert roles.can(host, "host", first)
    assert not roles.can(host, "organise", first)
    assert not roles.can(host, "host", other)
    with club_scope(other):
        assert not roles.can(host, "host")
        assert not host.has_perm("accounts.host_games")
    with club_scope(first):
        assert roles.can(host, "host")
        assert User.objects.get(pk=host.pk).has_perm("accounts.host_games")


def test_each_role_has_the_powers_of_the_roles_below_it(first: Club) -> None:
    expected = {
        Role.MEMBER: set(),
        Role.HOST: {"host"},
        Role.ORGANISER: {"host", "organise"},
        Role.ADMIN: {"host", "organise", "administer"},
    }
    for role, powers in expected.items():
        member = make_member(role=role)
        held = {p for p in ("host", "organise", "administer") if roles.can(member, p, first)}
        assert held == powers, role


def test_a_platform_admin_may_do_everything_everywhere(other: Club) -> None:
    boss = make_member(is_staff=True, is_superuser=True)
    assert roles.can(boss, "administer", other)
    assert roles.club_ids_where(boss, "organise") is None


def test_a_suspended_or_departed_organiser_loses_the_powers(first: Club) -> None:
    organiser = make_member(role=Role.ORGANISER)
    services.member_set_status(
        member=organiser, status=MembershipStatus.SUSPENDED, reason="", club=first
    )
    assert not roles.can(organiser, "host", first)
    assert not is_staff(organiser)
    services.member_set_status(member=organiser, status=MembershipStatus.ACTIVE, club=first)
    assert is_staff(organiser)
    services.member_leave_club(member=organiser, club=first)
    assert not roles.can(organiser, "host", first) and not is_staff(organiser)
    membership = Membership.objects.get(user=organiser, club=first)
    assert membership.role == Role.MEMBER and membership.left_at is not None


def test_is_staff_follows_an_organiser_role_in_any_club(first: Club, other: Club) -> None:
    member = make_member()
    assert not is_staff(member)
    services.member_set_role(member=member, role=Role.ORGANISER, club=other)
    assert is_staff(member)
    assert roles.club_ids_where(member, "organise") == frozenset({other.pk})
    assert roles.club_ids_where(member, "host") == frozenset({other.pk})
    services.member_set_role(member=member, role=Role.HOST, club=other)
    assert not is_staff(member)


def test_an_organiser_has_the_clubs_model_permissions_only_in_their_club(
    first: Club, other: Club
) -> None:
    organiser = make_member()
    services.member_set_role(member=organiser, role=Role.ORGANISER, club=other)
    with club_scope(other):
        fresh = User.objects.get(pk=organiser.pk)
        assert fresh.has_perm("club.change_evening")
        assert fresh.has_perm("games.change_game")
        assert not fresh.has_perm("club.change_club")
        assert not fresh.has_perm("accounts.change_membership")
    with club_scope(first):
        assert not User.objects.get(pk=organiser.pk).has_perm("club.change_evening")
    admin = make_member()
    services.member_set_role(member=admin, role=Role.ADMIN, club=other)
    with club_scope(other):
        fresh = User.objects.get(pk=admin.pk)
        assert fresh.has_perm("club.change_club") and fresh.has_perm("accounts.change_membership")
        assert not fresh.has_perm("club.add_club")


def test_joining_again_keeps_a_ban(first: Club) -> None:
    member = make_member()
    services.member_set_status(member=member, status=MembershipStatus.BANNED, club=first)
    services.member_leave_club(member=member, club=first)
    services.member_join_club(member=member, club=first)
    assert roles.status_in(member, first) == MembershipStatus.BANNED
    assert not roles.may_take_part(member, first)


def test_nobody_and_a_visitor_have_no_powers(first: Club, other: Club) -> None:
    member = make_member()
    assert not roles.can(None, "host", first)
    assert roles.membership_in(member, other) is None
    assert roles.status_in(member, other) == MembershipStatus.ACTIVE
    assert roles.consents_in(member, other) is True
    assert not roles.can(member, "host", other)
