"""Django admin, one club at a time (#41, item 4).

The admin answers under each club's prefix: /admin/ is the first club's, /c/<slug>/admin/
club <slug>'s (club.doors.middleware.ClubMiddleware opens that club's scope). Who may enter
a club's admin is `may_administer`: a platform admin (a superuser) every club's, anyone else
only the clubs they run. Inside, every list, change form, inline, choice, autocomplete,
raw-id lookup, filter, action and export reads the club in scope only:

- a club's own rows (an evening, a game …) are read through their scoped default manager,
  and `ClubRowsAdmin` filters again by the row's path to its club — the only filter for
  a row that belongs to its club through a parent (a line-up change through its evening,
  a tournament's table through its round);
- every choice of a row of another model (a foreign key's select, its raw id, its
  autocomplete) is narrowed the same way (`club_choices`), and a choice of a person to
  the club's people (`club_people`);
- the platform's own rows (the role deck, the scoring presets and their versions, the
  permission groups) are read by a club's admins and changed by a platform admin only
  (`PlatformRowsAdmin`); the accounts are listed to a club's admins as the club's people
  only (`ClubPeopleAdmin`).

tests/club/test_admin_isolation.py holds every registered admin to one of these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.contrib.auth.forms import AuthenticationForm
from django.db import models
from django.db.models import Q, QuerySet
from django.forms import ValidationError
from django.http import HttpRequest
from django.urls import get_script_prefix, reverse

from accounts import roles
from accounts.forms import AdminLoginForm
from club.kernel import tenancy

if TYPE_CHECKING:
    from accounts.models import User
    from club.kernel.clubs import Club


# How a row of each model reaches its club, for models whose rows belong to a club through
# a parent (a model with its own `club` key needs no entry). Platform-wide models (users,
# the role deck, scoring presets and schemes, groups) have none: they are nobody's club's.
CLUB_PATHS: dict[str, str] = {
    "club.club": "pk",
    "club.lineupchange": "evening__club",
    "games.seat": "game__club",
    "games.gameevent": "game__club",
    "online.onlinetable": "game__club",
    "ratings.playerscore": "game__club",
    "ratings.gameanalysis": "game__club",
    "recordings.recordingdeletion": "game__club",
    "recordings.foulsuggestion": "recording__club",
    "tournaments.round": "tournament__club",
    "tournaments.table": "round__tournament__club",
    "tournaments.tablejudge": "tournament__club",
    "tournaments.keptapart": "tournament__club",
    "tournaments.absence": "registration__club",
    "tournaments.judgeconflict": "registration__club",
    "live.livelinkuse": "link__club",
}


def club_path(model: type[models.Model]) -> str | None:
    """The lookup from a row of `model` to its club, or None for a platform-wide model."""
    path = CLUB_PATHS.get(model._meta.label_lower)
    if path is not None:
        return path
    if any(field.name == "club" for field in model._meta.get_fields()):
        return "club"
    return None


def of_the_club[R: models.Model](queryset: QuerySet[R], club_id: int | None = None) -> QuerySet[R]:
    """`queryset` narrowed to the club in scope (or `club_id`); a platform-wide model's rows
    are left as they are."""
    path = club_path(queryset.model)
    if path is None:
        return queryset
    club_id = club_id if club_id is not None else tenancy.current_club_id()
    return queryset.filter(**{"pk" if path == "pk" else f"{path}_id": club_id})


def may_administer(user: Any, club: Club | int) -> bool:
    """Whether `user` may open `club`'s admin: its organisers and club admins
    (accounts/roles.py's "organise"), and a platform admin every club's."""
    return roles.can(user, "organise", club)


def is_platform_admin(user: Any) -> bool:
    return roles.is_platform_admin(user)


def club_people(club_id: int | None = None) -> QuerySet[User]:
    """The accounts a club's admin may see and choose: its members (present), and whoever
    signed up for its evenings or played there as a guest with an account (a visitor)."""
    from accounts.models import Membership, User
    from club.models import Guest, Registration

    club_id = club_id if club_id is not None else tenancy.current_club_id()
    members = Membership.objects.filter(club_id=club_id, left_at__isnull=True).values("user_id")
    signed_up = Registration.all_clubs.filter(club_id=club_id).values("member_id")
    guests = Guest.all_clubs.filter(club_id=club_id, member__isnull=False).values("member_id")
    return User.objects.filter(Q(pk__in=members) | Q(pk__in=signed_up) | Q(pk__in=guests))


def club_address(club: Club, url_name: str, *args: Any) -> str:
    """An address of `club`'s pages, from any club's: reversed here, moved from this
    club's prefix to `club`'s (the first club's pages have none)."""
    from club.kernel.clubs import Club

    here = get_script_prefix()
    current = Club.current()
    root = here.removesuffix(f"c/{current.slug}/")
    there = root if club.pk == tenancy.first_club_id() else f"{root}c/{club.slug}/"
    return there + reverse(url_name, args=args).removeprefix(here)


def _club_of(request: HttpRequest | None) -> int:
    club = getattr(request, "club", None)
    return club.pk if club is not None else tenancy.current_club_id()


class ClubChoices:
    """A form's choice of a row (a select, a raw id, an autocomplete's answer on save) is a
    row of the club in scope; a choice of a person, one of the club's people."""

    def formfield_for_foreignkey(
        self, db_field: Any, request: HttpRequest | None = None, **kwargs: Any
    ) -> Any:
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]
        _narrow(field, db_field.related_model, request)
        return field

    def formfield_for_manytomany(
        self, db_field: Any, request: HttpRequest | None = None, **kwargs: Any
    ) -> Any:
        field = super().formfield_for_manytomany(db_field, request, **kwargs)  # type: ignore[misc]
        _narrow(field, db_field.related_model, request)
        return field


def _narrow(field: Any, model: type[models.Model], request: HttpRequest | None) -> None:
    queryset = getattr(field, "queryset", None)
    if queryset is None:
        return
    from accounts.models import User

    if issubclass(model, User):
        field.queryset = queryset.filter(pk__in=club_people(_club_of(request)).values("pk"))
    else:
        field.queryset = of_the_club(queryset, _club_of(request))


class ClubRowsAdmin[R: models.Model](ClubChoices, admin.ModelAdmin[R]):
    """A club's rows: the club in scope's only, in the list, the forms, the actions and the
    exports (the actions and exports get their rows from this queryset)."""

    def get_queryset(self, request: HttpRequest) -> QuerySet[R]:
        return of_the_club(super().get_queryset(request), _club_of(request))


class _ClubRowsInline(ClubChoices):
    """An inline's rows belong to its parent's club (filtered again all the same); its
    choices are narrowed as the parent's are."""

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)  # type: ignore[misc]
        return of_the_club(queryset, _club_of(request))


class ClubTabularInline[R: models.Model, P: models.Model](
    _ClubRowsInline, admin.TabularInline[R, P]
):
    pass


class ClubStackedInline[R: models.Model, P: models.Model](
    _ClubRowsInline, admin.StackedInline[R, P]
):
    pass


class PlatformRowsAdmin[R: models.Model](admin.ModelAdmin[R]):
    """The platform's rows, shared by every club (the role deck, scoring presets and their
    versions, permission groups): a club's admins read them, a platform admin changes them
    (a change here changes every club)."""

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return is_platform_admin(request.user) and super().has_add_permission(request, *args)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_platform_admin(request.user) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_platform_admin(request.user) and super().has_delete_permission(request, obj)


class PlatformOnlyAdmin[R: models.Model](admin.ModelAdmin[R]):
    """Rows that are the platform's and say something of every club's games at once: for
    a platform admin only."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_platform_admin(request.user) and super().has_module_permission(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_platform_admin(request.user) and super().has_view_permission(request, obj)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return is_platform_admin(request.user) and super().has_add_permission(request, *args)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_platform_admin(request.user) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_platform_admin(request.user) and super().has_delete_permission(request, obj)


# What only a platform admin sets on an account: the powers over every club.
# The account's platform-wide powers and standing (a ban there closes it in every club).
PLATFORM_POWERS = (
    "is_staff",
    "is_superuser",
    "groups",
    "user_permissions",
    "status",
    "status_reason",
)


# An account's own fields: the person's, on every club's pages. A club's admin edits them
# (and sets the password) only on an account that is their clubs' alone.
ACCOUNT_FIELDS = (
    "nickname",
    "email",
    "birth_date",
    "telegram_id",
    "telegram_username",
    "language",
    "language_chosen",
)


def account_is_theirs(user: Any, account: Any) -> bool:
    """Whether `user` may edit `account`'s own fields: a platform admin always; a club's
    admin when every club the account ever joined is one they administer. A visitor's, or
    a member's of another club too, is not theirs: changing its email or password there
    would take it over in every club."""
    from accounts.models import Membership

    administered = roles.club_ids_where(user, "administer")
    if administered is None:
        return True
    joined = set(Membership.objects.filter(user=account).values_list("club_id", flat=True))
    return bool(joined) and joined <= administered


class ClubPeopleAdmin[R: models.Model](ClubChoices, admin.ModelAdmin[R]):
    """The accounts, to a club's admin: the club's people only (the list, the raw-id and
    autocomplete lookups that read it); the powers over the platform, and the own fields
    and password of an account that is not the club's alone (account_is_theirs), are a
    platform admin's to set."""

    def get_queryset(self, request: HttpRequest) -> QuerySet[R]:
        queryset = super().get_queryset(request)
        if is_platform_admin(request.user):
            return queryset
        return queryset.filter(pk__in=club_people(_club_of(request)).values("pk"))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = tuple(super().get_readonly_fields(request, obj))
        if is_platform_admin(request.user):
            return fields
        fixed: tuple[str, ...] = PLATFORM_POWERS
        if obj is not None and not account_is_theirs(request.user, obj):
            fixed = (*fixed, *ACCOUNT_FIELDS)
        return (*fields, *(name for name in fixed if name not in fields))

    def user_change_password(self, request: HttpRequest, id: str, form_url: str = "") -> Any:
        """A password is set by a platform admin, or by a club's admin on an account that
        is their clubs' alone and no staff's (another admin's would let them log in as
        that admin)."""
        target = self.get_object(request, id)
        if (
            target is not None
            and not is_platform_admin(request.user)
            and target.pk != request.user.pk
            and (
                getattr(target, "is_staff", False)
                or getattr(target, "is_superuser", False)
                or not account_is_theirs(request.user, target)
            )
        ):
            from django.core.exceptions import PermissionDenied

            raise PermissionDenied
        return super().user_change_password(request, id, form_url)  # type: ignore[misc]


class ClubAdminLoginForm(AdminLoginForm):
    """The admin's login: an account that may run the club at this address (Django's own
    asks for the staff flag, which says nothing of which club), behind the same lock on
    failed logins as the site's login page."""

    def confirm_login_allowed(self, user: Any) -> None:
        AuthenticationForm.confirm_login_allowed(self, user)
        if self.request is None or not may_administer(user, _club_of(self.request)):
            raise ValidationError(
                self.error_messages["invalid_login"],
                code="invalid_login",
                params={"username": self.username_field.verbose_name},
            )


class ClubAdminSite(admin.AdminSite):
    """Django's admin site, entered club by club (`may_administer`)."""

    login_form = ClubAdminLoginForm

    def has_permission(self, request: HttpRequest) -> bool:
        return may_administer(request.user, _club_of(request))

    def each_context(self, request: HttpRequest) -> dict[str, Any]:
        context = super().each_context(request)
        context["platform_admin"] = is_platform_admin(request.user)
        return context
