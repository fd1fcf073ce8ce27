"""A member's membership of the club whose admin this is, edited on their page in the
Django admin by the club's admin (an organiser reads the members, changes none): the role,
the standing, the consent; a club is never left without an admin; a member added there is a
member of that club. Another club's membership is untouched."""

import pytest
from django.test import Client

from accounts import roles
from accounts.models import Membership, MembershipStatus, Role, User
from club.kernel.clubs import Club
from club.kernel.tenancy import club_scope, first_club_id
from club.models import RegistrationSource
from club.services import registration_create
from tests.accounts.test_lookalikes import change_form_post
from tests.factories import make_evening, make_member

pytestmark = pytest.mark.django_db


def client_of(member: User) -> Client:
    client = Client()
    client.force_login(member)
    return client


def membership(member: User, club: Club | None = None) -> Membership:
    return Membership.objects.get(user=member, club_id=club.pk if club else first_club_id())


def test_the_club_admin_makes_a_member_a_host_and_suspends_them() -> None:
    admin = make_member(nickname="Админ", role=Role.ADMIN)
    member = make_member(nickname="Будущий ведущий")
    client = client_of(admin)
    page = client.get(f"/admin/accounts/user/{member.pk}/change/").content.decode()
    assert 'name="club_role"' in page and 'name="club_status"' in page
    assert change_form_post(client, member, club_role="host") == 302
    assert membership(member).role == Role.HOST
    assert roles.can(User.objects.get(pk=member.pk), "host")
    assert change_form_post(client, member, club_status="suspended", club_status_reason="x") == 302
    row = membership(member)
    assert row.status == MembershipStatus.SUSPENDED and row.status_reason == "x"
    # The account stays open on the platform: the standing is the club's.
    assert User.objects.get(pk=member.pk).status == MembershipStatus.ACTIVE


def test_the_consent_is_the_clubs_and_moves_the_group_posts() -> None:
    admin = make_member(nickname="Админ", role=Role.ADMIN)
    member = make_member(nickname="Скромный")
    other = Club.objects.create(slug="b", name="B")
    with club_scope(other):
        make_member(nickname="Там")  # the other club has its own people
    Membership.objects.create(user=member, club=other)
    assert change_form_post(client_of(admin), member, club_consent="") == 302
    assert membership(member).publication_consent is False
    assert membership(member, other).publication_consent is True


def test_an_organiser_reads_the_members_and_changes_no_role_or_standing() -> None:
    organiser = make_member(nickname="Организатор", role=Role.ORGANISER)
    member = make_member(nickname="Игрок")
    client = client_of(organiser)
    page = client.get(f"/admin/accounts/user/{member.pk}/change/")
    assert page.status_code == 200 and 'name="club_role"' not in page.content.decode()
    answer = client.post(
        f"/admin/accounts/user/{member.pk}/change/",
        {"nickname": "Игрок", "club_role": "admin", "club_status": "banned"},
    )
    assert answer.status_code == 403
    row = membership(member)
    assert row.role == Role.MEMBER and row.status == MembershipStatus.ACTIVE
    # Nor through the list's actions.
    listing = client.get("/admin/accounts/user/").content.decode()
    assert 'value="suspend"' not in listing


def test_the_last_admin_of_a_club_cannot_step_down() -> None:
    admin = make_member(nickname="Единственный", role=Role.ADMIN)
    client = client_of(admin)
    change_form_post(client, admin, club_role="member")
    assert membership(admin).role == Role.ADMIN
    page = client.get(f"/admin/accounts/user/{admin.pk}/change/")
    assert page.status_code == 200
    second = make_member(nickname="Второй", role=Role.ADMIN)
    assert change_form_post(client, second, club_role="organiser") == 302
    assert membership(second).role == Role.ORGANISER


def test_a_member_added_in_a_clubs_admin_is_a_member_of_that_club() -> None:
    """By a platform admin: an account is the platform's, a club's admin adds none (people
    sign up themselves)."""
    other = Club.objects.create(slug="b", name="B")
    admin = make_member(nickname="Платформа", is_staff=True, is_superuser=True)
    answer = client_of(admin).post(
        "/c/b/admin/accounts/user/add/",
        {
            "nickname": "Новенький",
            "email": "new@example.org",
            "birth_date": "1990-01-01",
            "password1": "a long enough secret 42",
            "password2": "a long enough secret 42",
            "usable_password": "true",
            "api_tokens-TOTAL_FORMS": "0",
            "api_tokens-INITIAL_FORMS": "0",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    added = User.objects.get(nickname="Новенький")
    assert Membership.objects.filter(user=added, club=other, left_at__isnull=True).exists()
    assert not Membership.objects.filter(user=added).exclude(club=other).exists()


def test_the_last_admin_cannot_ban_themselves_either() -> None:
    admin = make_member(nickname="Единственный", role=Role.ADMIN)
    client = client_of(admin)
    change_form_post(client, admin, club_status="banned")
    assert membership(admin).status == MembershipStatus.ACTIVE
    client.post(
        "/admin/accounts/user/",
        {"action": "suspend", "_selected_action": [admin.pk], "index": 0},
    )
    assert membership(admin).status == MembershipStatus.ACTIVE


def test_a_new_clubs_admin_finds_the_clubs_sections_on_the_admins_home() -> None:
    """The role alone (no Django group) opens the index's sections: ClubRoleBackend
    answers has_module_perms."""
    other = Club.objects.create(slug="b", name="B")
    with club_scope(other):
        admin = make_member(nickname="Новый админ", role=Role.ADMIN)
    admin.groups.clear()
    page = client_of(admin).get("/c/b/admin/").content.decode()
    assert "/c/b/admin/club/evening/" in page and "/c/b/admin/accounts/user/" in page


def test_a_club_admin_cannot_take_over_a_visitors_or_another_clubs_account() -> None:
    """A member of club A who visited club B: B's admin sees them, and may set neither
    their password nor their email, nickname or Telegram; an account of B's alone is
    B's admin's to help with."""
    other = Club.objects.create(slug="b", name="B")
    visitor = make_member(nickname="Ворон")  # the first club's member
    with club_scope(other):
        admin = make_member(nickname="Админ Б", role=Role.ADMIN)
        own = make_member(nickname="Свой")
    Membership.objects.create(user=visitor, club=other)  # joined B too
    client = client_of(admin)
    url = f"/c/b/admin/accounts/user/{visitor.pk}/change/"
    page = client.get(url).content.decode()
    assert 'name="email"' not in page and 'name="nickname"' not in page
    assert 'name="club_role"' in page  # B's role for them is B's to set
    client.post(url, {"email": "stolen@example.com", "nickname": "Вор"})
    visitor.refresh_from_db()
    assert visitor.email != "stolen@example.com" and visitor.nickname == "Ворон"
    password = f"/c/b/admin/accounts/user/{visitor.pk}/password/"
    assert client.get(password).status_code == 403
    answer = client.post(password, {"password1": "x-long-secret-7", "password2": "x-long-secret-7"})
    assert answer.status_code == 403
    visitor.refresh_from_db()
    assert not visitor.check_password("x-long-secret-7")
    # Their own member's account: theirs to help with.
    assert (
        'name="email"' in client.get(f"/c/b/admin/accounts/user/{own.pk}/change/").content.decode()
    )
    assert client.get(f"/c/b/admin/accounts/user/{own.pk}/password/").status_code == 200


def test_the_list_tells_a_visitor_from_a_member() -> None:
    other = Club.objects.create(slug="b", name="B")
    visitor = make_member(nickname="Гость из А")
    with club_scope(other):
        admin = make_member(nickname="Админ Б", role=Role.ADMIN)
        make_member(nickname="Свой Б")
        evening = make_evening()
        registration_create(member=visitor, evening_id=evening.pk, source=RegistrationSource.WEB)
    rows = {
        row.nickname: row
        for row in client_of(admin).get("/c/b/admin/accounts/user/").context["cl"].result_list
    }
    assert rows["Гость из А"].role_here is None and rows["Гость из А"].joined_here is None
    assert rows["Свой Б"].role_here == Role.MEMBER and rows["Свой Б"].joined_here is not None
    page = client_of(admin).get("/c/b/admin/accounts/user/").content.decode()
    assert "гость" in page
