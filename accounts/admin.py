from collections.abc import Callable
from datetime import date
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import Group, Permission
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from accounts import roles, services
from accounts.lookalikes import lookalikes_report
from accounts.models import ApiToken, MembershipStatus, Role, User
from club.doors.admin_scope import ClubPeopleAdmin, PlatformRowsAdmin
from club.kernel.errors import Refused
from club.models import RegistrationStatus


def _field[T](clean: Callable[[], T]) -> T:
    """A service's refusal of a field, as the admin form's error beside it."""
    try:
        return clean()
    except Refused as refusal:
        raise forms.ValidationError(refusal.message) from refusal


class _MemberChecks:
    """The same nickname, email and age checks as the sign-up page, for members made in
    admin."""

    instance: User
    cleaned_data: dict[str, Any]

    def clean_nickname(self) -> str:
        nickname = self.cleaned_data["nickname"]
        if self.instance.pk and nickname == self.instance.nickname:
            # Unchanged, even a look-alike kept from before the rule: editing anything else
            # (a ban, say) does not wait for a rename.
            return str(nickname)
        nickname = _field(
            lambda: services.nickname_clean(nickname, exclude_member_id=self.instance.pk)
        )
        self.instance.lookalike_kept = False  # a new nickname is held to the rule
        return nickname

    def clean_email(self) -> str:
        # The sign-up's rule: Django's own form would take «ırina@…» beside «irina@…»,
        # which the database then matches to both (found by the attack review).
        email = self.cleaned_data["email"]
        return _field(lambda: services.email_clean(email, exclude_member_id=self.instance.pk))

    def clean_birth_date(self) -> date:
        birth_date: date = self.cleaned_data["birth_date"]
        if self.instance.pk and birth_date == self.instance.birth_date:
            return birth_date
        return _field(lambda: services.birth_date_clean(birth_date))


class MemberCreationForm(_MemberChecks, AdminUserCreationForm[User]):
    class Meta:
        model = User
        fields = ("nickname", "email", "birth_date")


class MemberChangeForm(_MemberChecks, UserChangeForm[User]):
    """The account, and its membership of the club whose admin this is (one account, a
    role, a standing and a consent per club: accounts.models.Membership)."""

    club_role = forms.ChoiceField(label=_("role in the club"), choices=Role.choices)
    club_status = forms.ChoiceField(label=_("membership status"), choices=MembershipStatus.choices)
    club_status_reason = forms.CharField(label=_("reason"), max_length=255, required=False)
    club_consent = forms.BooleanField(
        label=_("publish their nickname and scores"),
        required=False,
        help_text=_(
            "When off, the club's published analyses and leaderboards show the member anonymously."
        ),
    )

    class Meta:
        model = User
        fields = "__all__"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        found = roles.membership_in(self.instance) if self.instance.pk else None
        self.initial.update(
            club_role=found.role if found else Role.MEMBER,
            club_status=found.status if found else MembershipStatus.ACTIVE,
            club_status_reason=found.status_reason if found else "",
            club_consent=found.publication_consent if found else True,
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        # A club is never left without an admin: its last one may not step down, nor be
        # suspended or banned there (they could not log in to undo it).
        stays = (
            data.get("club_role") == Role.ADMIN
            and data.get("club_status") == MembershipStatus.ACTIVE
        )
        was = self.initial.get("club_role") == Role.ADMIN
        if was and not stays and not roles.other_admins(self.instance):
            raise forms.ValidationError(
                _("The club would have no admin: make another member its admin first.")
            )
        return data


class ApiTokenInline(admin.TabularInline[ApiToken, User]):
    model = ApiToken
    extra = 0
    fields = ("name", "key_start", "created_at", "last_used_at")
    readonly_fields = fields
    can_delete = True

    def has_add_permission(self, request: HttpRequest, obj: User | None = None) -> bool:
        return False  # keys are made where they can be shown once: profile page or command


# Django stores a permission's name in English when it makes it ("Can add evening"): the
# admin shows it in the reader's language instead, from the model's own verbose name.
DEFAULT_PERMISSIONS = {
    "add": _("can add"),
    "change": _("can change"),
    "delete": _("can delete"),
    "view": _("can view"),
}


def permission_label(permission: Permission) -> str:
    """«Клуб | вечер | может добавлять»: Django's «app | model | name», in the reader's
    language (a custom permission's name is a translated string of the code)."""
    content_type = permission.content_type
    model = content_type.model_class()
    action, _underscore, model_name = permission.codename.partition("_")
    if model is not None and action in DEFAULT_PERMISSIONS and model_name == model._meta.model_name:
        name = str(DEFAULT_PERMISSIONS[action])
    else:
        name = gettext(permission.name)
    if model is None:
        return f"{content_type} | {name}"
    return f"{model._meta.app_config.verbose_name} | {model._meta.verbose_name} | {name}"


class PermissionsInTheReadersLanguage:
    """The permissions' lists of a member and of a group, labelled by permission_label."""

    def formfield_for_manytomany(
        self, db_field: Any, request: HttpRequest | None = None, **kwargs: Any
    ) -> forms.ModelMultipleChoiceField[Any] | None:
        field = super().formfield_for_manytomany(db_field, request, **kwargs)  # type: ignore[misc]
        if field is not None and db_field.name in ("permissions", "user_permissions"):
            field.label_from_instance = permission_label
        return field  # type: ignore[no-any-return]


admin.site.unregister(Group)


@admin.register(Group)
class ClubGroupAdmin(PlatformRowsAdmin[Group], PermissionsInTheReadersLanguage, GroupAdmin):
    pass


class LookalikeFilter(admin.SimpleListFilter):
    title = _("look-alike nickname")
    parameter_name = "lookalike"

    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[User]
    ) -> list[tuple[str, StrOrPromise]]:
        return [("yes", _("Looks like another member's"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> QuerySet[User]:
        if self.value() == "yes":
            return queryset.filter(pk__in=User.objects.lookalikes().values("pk"))
        return queryset


class ClubStatusFilter(admin.SimpleListFilter):
    """The members by their standing in the club whose admin this is."""

    title = _("membership status")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return list(MembershipStatus.choices)

    def queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> QuerySet[User]:
        if self.value() is None:
            return queryset
        return queryset.annotate(standing=roles.status_in_club()).filter(standing=self.value())


@admin.register(User)
class MemberAdmin(ClubPeopleAdmin[User], PermissionsInTheReadersLanguage, UserAdmin[User]):
    form = MemberChangeForm
    add_form = MemberCreationForm
    list_display = (
        "nickname",
        "no_shows",
        "telegram_username",
        "email",
        "birth_date",
        "club_role",
        "club_status",
        "language",
        "club_consent",
        "club_joined",
    )
    list_filter = (
        ClubStatusFilter,
        "is_staff",
        "language",
        LookalikeFilter,
        "groups",
    )
    search_fields = ("nickname", "telegram_username", "email")
    ordering = ("nickname",)
    readonly_fields = ("last_login", "date_joined", "status_changed_at")
    fieldsets = (
        (None, {"fields": ("nickname", "password")}),
        (_("Personal"), {"fields": ("email", "birth_date")}),
        (_("Messages"), {"fields": ("language", "language_chosen")}),
        (_("Telegram"), {"fields": ("telegram_id", "telegram_username")}),
        (
            _("In this club"),
            {"fields": ("club_role", "club_status", "club_status_reason", "club_consent")},
        ),
        # The platform's: banned here, the account is closed in every club.
        (_("Account"), {"fields": ("status", "status_reason", "status_changed_at")}),
        (
            _("Permissions"),
            {"fields": ("is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        (_("Dates"), {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": ("nickname", "email", "birth_date", "password1", "password2"),
            },
        ),
    )
    inlines = (ApiTokenInline,)
    actions = ("suspend", "reactivate")

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        # The data check an admin sees: members whose nicknames already looked alike when
        # the look-alike rule came in (accounts/migrations/0006_nickname_skeleton.py),
        # until one is renamed.
        groups = User.objects.lookalike_groups()
        if groups and request.method == "GET":
            messages.warning(
                request,
                _(
                    "These members' nicknames look alike: %(groups)s. Where they could be "
                    "taken for each other, rename one (the filter «look-alike nickname» "
                    "lists them)."
                )
                % {"groups": lookalikes_report(groups)},
            )
        return super().changelist_view(request, extra_context)

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        no_show = Q(registrations__status=RegistrationStatus.NO_SHOW)
        return (
            super()
            .get_queryset(request)
            .annotate(
                no_show_count=Count("registrations", filter=no_show),
                standing=roles.status_in_club(),
                consents=roles.consent_in_club(),
                role_here=roles.membership_in_club("role"),
                joined_here=roles.membership_in_club("joined_at"),
            )
        )

    @admin.display(description=_("role in the club"), ordering="role_here")
    def club_role(self, member: User) -> str:
        # A visitor (signed up or played here, no membership) is not the club's member.
        role = getattr(member, "role_here", None)
        return str(Role(role).label) if role else gettext("visitor")

    @admin.display(description=_("joined the club"), ordering="joined_here")
    def club_joined(self, member: User) -> Any:
        return getattr(member, "joined_here", None)

    @admin.display(description=_("membership status"), ordering="standing")
    def club_status(self, member: User) -> str:
        # The standing in the club whose admin this is (annotated by get_queryset).
        return str(MembershipStatus(getattr(member, "standing", MembershipStatus.ACTIVE)).label)

    @admin.display(description=_("publish their nickname and scores"), boolean=True)
    def club_consent(self, member: User) -> bool:
        return bool(getattr(member, "consents", True))

    @admin.display(description=_("no-shows"), ordering="no_show_count")
    def no_shows(self, member: User) -> int:
        return int(getattr(member, "no_show_count", 0))  # annotated by get_queryset

    def save_model(
        self, request: HttpRequest, obj: User, form: forms.ModelForm[User], change: bool
    ) -> None:
        if "language" in form.changed_data and "language_chosen" not in form.changed_data:
            # Set by the admin (at the member's word): Telegram's no longer changes it.
            obj.language_chosen = True
        if "status" in form.changed_data:
            obj.status_changed_at = timezone.now()
        super().save_model(request, obj, form, change)
        if not change:  # made by this club's admin: a member of this club
            services.member_join_club(member=obj)
            return
        data, changed = form.cleaned_data, set(form.changed_data)
        if "club_role" in changed:
            services.member_set_role(member=obj, role=Role(data["club_role"]))
        if changed & {"club_status", "club_status_reason"}:
            services.member_set_status(
                member=obj,
                status=MembershipStatus(data["club_status"]),
                reason=data["club_status_reason"],
            )
        if "club_consent" in changed:
            services.member_set_publication_consent(member=obj, consent=data["club_consent"])

    def _set_status(
        self, request: HttpRequest, queryset: QuerySet[User], status: str, reason: str
    ) -> int:
        count = 0
        for member in queryset:
            if roles.status_in(member) == status:
                continue
            if roles.club_role(member) == Role.ADMIN and not roles.other_admins(member):
                continue  # the club's last admin stays (MemberChangeForm.clean says why)
            services.member_set_status(
                member=member, status=MembershipStatus(status), reason=reason
            )
            count += 1
        return count

    @admin.action(description=_("Suspend the selected members"), permissions=["change"])
    def suspend(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        reason = _("Suspended by %(admin)s") % {"admin": request.user}
        count = self._set_status(request, queryset, MembershipStatus.SUSPENDED, str(reason))
        self.message_user(
            request,
            ngettext("%(count)d member suspended.", "%(count)d members suspended.", count)
            % {"count": count},
            messages.SUCCESS,
        )

    @admin.action(description=_("Reactivate the selected members"), permissions=["change"])
    def reactivate(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        count = self._set_status(request, queryset, MembershipStatus.ACTIVE, "")
        self.message_user(
            request,
            ngettext("%(count)d member reactivated.", "%(count)d members reactivated.", count)
            % {"count": count},
            messages.SUCCESS,
        )
