"""Who may do what in which club: the one answer to every question of power, at every
door (pages, API, bot, Mini App, templates, the Django admin).

A member's powers are their role in the club at hand (accounts.models.Membership), never
a global flag: a host of club A is a plain member of club B. The powers, each role having
those of the roles below it:

- "host": start and run games, seat the evening's line-up (hosts, organisers, admins);
- "organise": the club's evenings, tournaments, live links, the admin site, every name
  the club publishes (hidden ones too), the what-if (organisers and admins);
- "administer": the club's settings, its members' roles and standing (club admins).

A platform admin (an active superuser) may do everything in every club. A membership
gives powers only while it is present (not left) and active (not suspended or banned in
that club). A member with no membership of a club (never joined, a visitor) has none of
its powers, and is active there with consent to publication (the defaults), until the
club says otherwise.

`is_staff`, Django's gate to /admin/, is kept in step by `sync_staff`: it is set exactly
when the member organises or administers some club (or is a platform admin), so a club's
organiser can log into the admin, and the admin's lists are scoped to `club_ids_where`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from django.contrib.auth.models import AnonymousUser, Permission
from django.db.models import BooleanField, CharField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from accounts.models import Membership, MembershipStatus, Role, User
from club.kernel import tenancy
from club.kernel.clubs import Club

Power = Literal["host", "organise", "administer"]

# The least role that has each power.
_LEAST_ROLE: dict[str, Role] = {
    "host": Role.HOST,
    "organise": Role.ORGANISER,
    "administer": Role.ADMIN,
}
_RANK: dict[str, int] = {Role.MEMBER: 0, Role.HOST: 1, Role.ORGANISER: 2, Role.ADMIN: 3}
STAFF_ROLES = (Role.ORGANISER, Role.ADMIN)

# A member's memberships read once per member object (a request's user), by club id.
_CACHE = "_club_memberships"

Someone = User | AnonymousUser | None


def _club_id(club: Club | int | None) -> int:
    if club is None:
        return tenancy.current_club_id()
    return club if isinstance(club, int) else club.pk


def _user(who: Someone) -> User | None:
    return who if isinstance(who, User) and who.pk is not None else None


def is_platform_admin(who: Someone) -> bool:
    """An active superuser: every power in every club."""
    user = _user(who)
    return bool(user is not None and user.is_active and user.is_superuser)


def membership_in(who: Someone, club: Club | int | None = None) -> Membership | None:
    """`who`'s membership of `club` (the club in scope by default), left or not; None for
    nobody, a visitor or a member who never joined. Read once per member object."""
    user = _user(who)
    if user is None:
        return None
    club_id = _club_id(club)
    cache: dict[int, Membership | None] = user.__dict__.setdefault(_CACHE, {})
    if club_id not in cache:
        cache[club_id] = Membership.objects.filter(user=user, club_id=club_id).first()
    return cache[club_id]


def read_memberships(users: Iterable[User | None], club: Club | int | None = None) -> None:
    """Read the memberships of `club` (the club in scope by default) of every one of
    `users` in one query, for the questions asked about each later (a game's seats, a
    list's rows): without it each member's first question reads a row."""
    club_id = _club_id(club)
    waiting = [
        user
        for user in users
        if user is not None and user.pk is not None and club_id not in user.__dict__.get(_CACHE, {})
    ]
    if not waiting:
        return
    found = {
        row.user_id: row
        for row in Membership.objects.filter(club_id=club_id, user_id__in={u.pk for u in waiting})
    }
    for user in waiting:
        user.__dict__.setdefault(_CACHE, {})[club_id] = found.get(user.pk)


def memberships_of(user: User) -> list[Membership]:
    """Every club `user` joined, left ones too, with their clubs, first club first: what
    the member's settings list («Your clubs»)."""
    return list(Membership.objects.filter(user=user).select_related("club").order_by("club_id"))


def forget_memberships(user: User) -> None:
    """A membership of `user` changed: the next question reads it afresh."""
    user.__dict__.pop(_CACHE, None)


def club_role(who: Someone, club: Club | int | None = None) -> Role | None:
    """`who`'s role in `club` (the club in scope by default) while their membership gives
    powers (present and active); None otherwise. A platform admin's is their membership's
    too: `can` answers for them, whatever it says."""
    found = membership_in(who, club)
    if found is None or not found.present or found.status != MembershipStatus.ACTIVE:
        return None
    return Role(found.role)


def can(who: Someone, power: Power, club: Club | int | None = None) -> bool:
    """Whether `who` has `power` in `club` (the club in scope by default): the one
    question every door asks, e.g. `can(request.user, "host")`."""
    if is_platform_admin(who):
        return True
    user = _user(who)
    if user is None or not user.is_active:
        return False
    role = club_role(user, club)
    return role is not None and _RANK[role] >= _RANK[_LEAST_ROLE[power]]


def status_in(who: User, club: Club | int | None = None) -> MembershipStatus:
    """`who`'s standing in `club`: active unless that club suspended or banned them. A
    member who left keeps the standing they left with (a ban outlives a leave)."""
    found = membership_in(who, club)
    return MembershipStatus(found.status) if found is not None else MembershipStatus.ACTIVE


def may_log_in(who: User, club: Club | int | None = None) -> bool:
    """Whether `who` may be logged in on `club`'s pages (the club in scope by default): an
    account the platform keeps open, not banned by that club. Django's auth asks it at the
    login and on every request (accounts.backends), so a ban there logs the member out
    of that club at once, and of no other."""
    return who.is_active and status_in(who, club) != MembershipStatus.BANNED


def may_take_part(who: User, club: Club | int | None = None) -> bool:
    """Whether `who` may sign up, play and host in `club`: an account the platform keeps
    open, not suspended or banned by that club."""
    return who.is_active and status_in(who, club) == MembershipStatus.ACTIVE


def barred_member_ids(club: Club | int | None = None) -> QuerySet[Membership, Any]:
    """The ids of the members `club` (the club in scope by default) suspended or banned:
    a subquery for lists of members who may take part
    (`.exclude(pk__in=barred_member_ids())`)."""
    return Membership.objects.filter(
        club_id=_club_id(club), status__in=(MembershipStatus.SUSPENDED, MembershipStatus.BANNED)
    ).values("user_id")


def consents_in(who: User, club: Club | int | None = None) -> bool:
    """Whether `who` lets `club` publish their name and scores (yes unless they said no)."""
    found = membership_in(who, club)
    return found.publication_consent if found is not None else True


def consent_in_club(club: Club | int | None = None, member: str = "pk") -> Coalesce:
    """An expression for a query's annotation: the consent to publication in `club` (the
    club in scope by default) of the member whose id is the field `member` (e.g.
    "member_id" on a seat), yes when they have no membership there. For lists, where
    asking `consents_in` member by member would read a row each."""
    rows = Membership.objects.filter(user_id=OuterRef(member), club_id=_club_id(club))
    return Coalesce(
        Subquery(rows.values("publication_consent")[:1]), Value(True), output_field=BooleanField()
    )


def status_in_club(club: Club | int | None = None, member: str = "pk") -> Coalesce:
    """An expression for a query's annotation: the standing in `club` (the club in scope by
    default) of the member whose id is the field `member`, active when they have no
    membership there."""
    rows = Membership.objects.filter(user_id=OuterRef(member), club_id=_club_id(club))
    return Coalesce(
        Subquery(rows.values("status")[:1]),
        Value(MembershipStatus.ACTIVE.value),
        output_field=CharField(),
    )


def membership_in_club(field: str, club: Club | int | None = None, member: str = "pk") -> Subquery:
    """An expression for a query's annotation: `field` of the present membership in `club`
    (the club in scope by default) of the member whose id is the field `member`; None for
    a visitor or a member who left."""
    rows = Membership.objects.filter(
        user_id=OuterRef(member), club_id=_club_id(club), left_at__isnull=True
    )
    return Subquery(rows.values(field)[:1])


def club_ids_where(who: Someone, power: Power) -> frozenset[int] | None:
    """The ids of the clubs in which `who` has `power`; None for a platform admin, who has
    it in every club. The Django admin scopes its lists, forms, filters and actions to
    `club_ids_where(request.user, "organise")`; an empty set sees nothing."""
    if is_platform_admin(who):
        return None
    user = _user(who)
    if user is None or not user.is_active:
        return frozenset()
    roles = [role for role, rank in _RANK.items() if rank >= _RANK[_LEAST_ROLE[power]]]
    return frozenset(
        Membership.objects.filter(
            user=user, role__in=roles, status=MembershipStatus.ACTIVE, left_at__isnull=True
        ).values_list("club_id", flat=True)
    )


def club_members(club: Club | int | None = None) -> QuerySet[User]:
    """The members of `club` (the club in scope by default) who may take part there: joined
    and not left, active in that club, with accounts the platform keeps open. Whom a host
    may invite to an online game; another club's members are not offered, not even named."""
    return User.objects.filter(
        is_active=True,
        memberships__club_id=_club_id(club),
        memberships__status=MembershipStatus.ACTIVE,
        memberships__left_at__isnull=True,
    )


def other_admins(who: User, club: Club | int | None = None) -> bool:
    """Whether `club` (the club in scope by default) has an admin besides `who`, active
    there and not left: a club is never left without one."""
    return (
        Membership.objects.filter(
            club_id=_club_id(club),
            role=Role.ADMIN,
            status=MembershipStatus.ACTIVE,
            left_at__isnull=True,
        )
        .exclude(user_id=who.pk)
        .exists()
    )


def club_staff(club: Club | int | None = None) -> QuerySet[User]:
    """The organisers and admins of `club` (the club in scope by default), active there
    and not left, with accounts the platform keeps open: whom the club's chores go to."""
    return User.objects.filter(
        is_active=True,
        memberships__club_id=_club_id(club),
        memberships__role__in=STAFF_ROLES,
        memberships__status=MembershipStatus.ACTIVE,
        memberships__left_at__isnull=True,
    )


def should_be_staff(user: User) -> bool:
    """Django's is_staff as the roles say: a platform admin, or an organiser or admin of
    some club (active there and not left)."""
    if user.is_superuser:
        return True
    return Membership.objects.filter(
        user=user, role__in=STAFF_ROLES, status=MembershipStatus.ACTIVE, left_at__isnull=True
    ).exists()


def sync_staff(user: User) -> None:
    """Keep `user.is_staff` in step with their roles (called by every write of a role, a
    standing or a leave in accounts/services.py)."""
    staff = should_be_staff(user)
    if user.is_staff != staff:
        user.is_staff = staff
        user.save(update_fields=["is_staff"])


# --- Django's model permissions, per club -------------------------------------------------

# The rooms whose rows belong to a club: a club's staff manage them in the admin.
_CLUB_APPS = ("club", "games", "tournaments", "live", "notifications", "history")
# The clubs' own rows: a platform admin adds and removes clubs, a club admin changes theirs.
_CLUB_ROWS = {"club.add_club", "club.change_club", "club.delete_club"}
_MEMBER_READS = {"accounts.view_user", "accounts.view_membership"}
_MEMBER_WRITES = {"accounts.change_user", "accounts.add_membership", "accounts.change_membership"}


def _club_permissions() -> set[str]:
    rows = Permission.objects.filter(content_type__app_label__in=_CLUB_APPS).values_list(
        "content_type__app_label", "codename"
    )
    return {f"{app}.{codename}" for app, codename in rows}


def role_permissions(role: Role | None) -> frozenset[str]:
    """The Django permissions ("app.codename") that `role` gives in its club: a host may
    host, an organiser manages the club's rows and reads its members, a club admin also
    changes the club's settings and its members' roles and standing."""
    if role is None or role == Role.MEMBER:
        return frozenset()
    granted = {"accounts.host_games"}
    if _RANK[role] >= _RANK[Role.ORGANISER]:
        granted |= (_club_permissions() - _CLUB_ROWS) | _MEMBER_READS
    if role == Role.ADMIN:
        granted |= {"club.change_club"} | _MEMBER_WRITES
    return frozenset(granted)
