from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.lookalikes import lookalike_key
from accounts.validation import login_key
from club.kernel.secret_keys import SecretKeyed


class MembershipStatus(models.TextChoices):
    ACTIVE = "active", _("Active")
    # May log in and look around, may not sign up for evenings.
    SUSPENDED = "suspended", _("Suspended")
    # May not log in at all.
    BANNED = "banned", _("Banned")


class NotifyBy(models.TextChoices):
    """How the club tells a member of their seats and evenings (notifications/channels.py)."""

    AUTO = "auto", _("Telegram when linked, email otherwise")
    TELEGRAM = "telegram", _("Telegram only")
    EMAIL = "email", _("Email only")
    BOTH = "both", _("Telegram and email")


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def get_by_natural_key(self, username: str | None) -> User:
        # Nicknames are unique ignoring case, so a login in any case finds the member.
        return self.get(nickname_key=login_key(username or ""))

    def with_email(self, email: str) -> models.QuerySet[User]:
        """The members whose email is `email` in any letter case, as the database compares
        either way: upper case (Django's iexact, under which a dotless «ı» is an «i») or
        lower case (the unique constraint, under which an «İ» is)."""
        lower = self.annotate(email_lower=Lower("email"))
        return lower.filter(
            models.Q(email__iexact=email) | models.Q(email_lower=Lower(models.Value(email)))
        ).exclude(email="")

    def by_login(self, login: str) -> User | None:
        """The member a login names: the nickname or the email, in any letter case. A login
        that names two members (an email that folds to two) names none: it never logs
        into someone else's account."""
        login = login.strip()
        query = models.Q(nickname_key=login_key(login))
        if "@" in login:
            query |= models.Q(pk__in=self.with_email(login).values("pk"))
        named = list(self.filter(query)[:2])
        return named[0] if len(named) == 1 else None

    def by_nickname(self, nickname: str) -> User | None:
        """The member with this nickname, in any letter case of any script."""
        return self.filter(nickname_key=login_key(nickname)).first()

    def lookalikes(self) -> models.QuerySet[User]:
        """Members whose nickname looks like another member's (the same skeleton): those
        who had one before the rule (`lookalike_kept`) and their look-alikes."""
        shared = (
            self.order_by()
            .values("nickname_skeleton")
            .annotate(members=models.Count("pk"))
            .filter(members__gt=1)
            .values("nickname_skeleton")
        )
        return self.filter(nickname_skeleton__in=shared)

    def lookalike_groups(self) -> list[list[str]]:
        """The nicknames of each look-alike group, the earliest member's first."""
        groups: dict[str, list[str]] = {}
        members = self.lookalikes().order_by("nickname_skeleton", "date_joined", "pk")
        for skeleton, nickname in members.values_list("nickname_skeleton", "nickname"):
            groups.setdefault(skeleton, []).append(nickname)
        return list(groups.values())

    def create_user(self, nickname: str, password: str | None = None, **fields: Any) -> User:
        user = self.model(nickname=nickname, **fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_superuser(self, nickname: str, password: str | None = None, **fields: Any) -> User:
        fields.setdefault("is_staff", True)
        fields.setdefault("is_superuser", True)
        return self.create_user(nickname, password, **fields)


class NicknameDerivedField(models.CharField[str, str]):
    """A column derived from the member's nickname whenever the row is written (save and
    bulk_create alike), so the two never disagree."""

    @staticmethod
    def derive(nickname: str) -> str:
        raise NotImplementedError

    def pre_save(self, model_instance: models.Model, add: bool) -> str:
        value = self.derive(model_instance.nickname)  # type: ignore[attr-defined]
        setattr(model_instance, self.attname, value)
        return value


class NicknameKeyField(NicknameDerivedField):
    """A member's nickname_key: the nickname case-folded (accounts.validation.login_key)."""

    @staticmethod
    def derive(nickname: str) -> str:
        return login_key(nickname)


class NicknameSkeletonField(NicknameDerivedField):
    """A member's nickname_skeleton: what the nickname looks like (TR39, case folded;
    accounts.lookalikes.lookalike_key)."""

    @staticmethod
    def derive(nickname: str) -> str:
        return lookalike_key(nickname)


class User(AbstractBaseUser, PermissionsMixin):
    """A club member: the nickname is the public game name and the login."""

    nickname = models.CharField(_("nickname"), max_length=32)
    # The nickname case-folded for every script (SQLite's LOWER() folds ASCII only): what
    # makes «ЛИСА» the same nickname as «Лиса», for uniqueness and for logging in.
    nickname_key = NicknameKeyField(max_length=64, unique=True, editable=False)
    # What the nickname looks like: «Ворон», «Вoрон» (Latin o) and «Bopoн» have one. Unique
    # (see Meta), so that of two look-alike sign-ups at once the database refuses the second.
    nickname_skeleton = NicknameSkeletonField(max_length=255, db_index=True, editable=False)
    # Members who already had a look-alike nickname when the rule came in (migration 0006)
    # keep it: the uniqueness skips them, and the admin's member list points them out.
    # The earliest member of each look-alike group holds the skeleton, so a newcomer still
    # clashes with that one. Renamed in the admin, a member is held to the rule again.
    lookalike_kept = models.BooleanField(default=False, editable=False)
    email = models.EmailField(_("email"), blank=True, default="")
    birth_date = models.DateField(_("birth date"))
    telegram_id = models.BigIntegerField(_("Telegram id"), null=True, blank=True, unique=True)
    telegram_username = models.CharField(
        _("Telegram username"), max_length=64, blank=True, default=""
    )
    reminders = models.BooleanField(
        _("evening reminders"),
        default=True,
        help_text=_("Reminders and the day's attendance request. Seat changes are always sent."),
    )
    notify_by = models.CharField(
        _("tell me by"), max_length=8, choices=NotifyBy.choices, default=NotifyBy.AUTO
    )
    # A personal report after each of the member's games (games/ratings/reports.py), by
    # their channels. Off unless they ask; the bot offers it once (offered_at).
    game_reports = models.BooleanField(
        _("a report after each game"),
        default=False,
        help_text=_(
            "Role, result, points with their reasons, the rating's change and the speech "
            "figures, to the member alone after each analysed game."
        ),
    )
    game_reports_offered_at = models.DateTimeField(
        _("reports offered in the bot"), null=True, blank=True
    )
    # The language of every message and letter the club writes to the member
    # (accounts/languages.py): learnt at sign-up, in the Mini App and when Telegram is
    # linked, until the member (or the admin) chooses one (`language_chosen`).
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text=_("Messages, reminders and letters to the member are written in it."),
    )
    language_chosen = models.BooleanField(
        _("language chosen by the member"),
        default=False,
        help_text=_(
            "Chosen on the site or set here: Telegram's and the Mini App's language no "
            "longer change it."
        ),
    )
    # The platform's standing of the account: banned here closes it in every club (a
    # platform admin's to set). A club's own standing is the membership's.
    status = models.CharField(
        _("account status"),
        max_length=16,
        choices=MembershipStatus.choices,
        default=MembershipStatus.ACTIVE,
    )
    status_reason = models.CharField(_("reason"), max_length=255, blank=True, default="")
    status_changed_at = models.DateTimeField(_("status changed"), null=True, blank=True)
    # Derived from the status so that the two can never disagree; Django's auth reads it.
    is_active = models.GeneratedField(
        expression=models.Case(
            models.When(status=MembershipStatus.BANNED, then=models.Value(False)),
            default=models.Value(True),
        ),
        output_field=models.BooleanField(),
        db_persist=True,
    )
    is_staff = models.BooleanField(_("staff"), default=False)
    date_joined = models.DateTimeField(_("joined"), default=timezone.now)

    objects = UserManager()

    USERNAME_FIELD = "nickname"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = ["birth_date"]

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = [Lower("nickname")]
        permissions = [("host_games", _("Can host and record games"))]
        constraints = [
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name="accounts_user_email_ci_unique",
                violation_error_message=_("A member with this email already exists."),
            ),
            models.UniqueConstraint(
                fields=["nickname_skeleton"],
                condition=models.Q(lookalike_kept=False),
                name="accounts_user_nickname_skeleton_unique",
                violation_error_message=_("This nickname looks like a member's nickname."),
            ),
        ]

    def __str__(self) -> str:
        return self.nickname

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The key and the skeleton follow the nickname (NicknameDerivedField), also when
        # only it is saved.
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "nickname" in update_fields:
            kwargs["update_fields"] = {*update_fields, "nickname_key", "nickname_skeleton"}
        super().save(*args, **kwargs)


class Role(models.TextChoices):
    """A member's part in one club, lowest first: each role has the powers of the ones
    before it (accounts/roles.py says which)."""

    MEMBER = "member", _("Member")
    HOST = "host", _("Host")
    ORGANISER = "organiser", _("Organiser")
    ADMIN = "admin", _("Club admin")


class Membership(models.Model):
    """A member's membership of one club: their role there (pretix's teams: powers per
    club, not a global staff flag), their standing (active, suspended, banned: in that
    club only) and their consent to publication of their name and scores (in that club's
    pages, posts and exports). One row per member and club; leaving keeps the row with
    `left_at` set, so a return restores the history and a ban outlives a leave.

    The default manager is not scoped to the club in scope: a member's page lists all
    their clubs. Questions of power go through accounts/roles.py."""

    user = models.ForeignKey(
        User, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("member")
    )
    club = models.ForeignKey(
        "club.Club",
        on_delete=models.PROTECT,
        related_name="memberships",
        verbose_name=_("club"),
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER)
    status = models.CharField(
        _("membership status"),
        max_length=16,
        choices=MembershipStatus.choices,
        default=MembershipStatus.ACTIVE,
    )
    status_reason = models.CharField(_("reason"), max_length=255, blank=True, default="")
    status_changed_at = models.DateTimeField(_("status changed"), null=True, blank=True)
    publication_consent = models.BooleanField(
        _("publish my nickname and scores"),
        default=True,
        help_text=_(
            "When off, the club's published analyses and leaderboards show the member anonymously."
        ),
    )
    joined_at = models.DateTimeField(_("joined the club"), default=timezone.now)
    left_at = models.DateTimeField(_("left the club"), null=True, blank=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        ordering = ["club_id", "joined_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "club"], name="accounts_membership_one_per_club"
            ),
        ]
        indexes = [models.Index(fields=["club", "role"], name="accounts_membership_role")]

    def __str__(self) -> str:
        return f"{self.user_id} @ {self.club_id}: {self.role}"

    @property
    def present(self) -> bool:
        """A member now: joined and not left."""
        return self.left_at is None

    @property
    def can_sign_up_for_evenings(self) -> bool:
        return self.present and self.status == MembershipStatus.ACTIVE


class ApiTokenQuerySet(models.QuerySet["ApiToken"]):
    def matching(self, key: str) -> ApiTokenQuerySet:
        return self.filter(key_hash=ApiToken.hash_key(key))


class ApiToken(SecretKeyed, models.Model):
    """A personal API token. Only its hash is stored: the key is shown once, when made."""

    PREFIX = "mc_"

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=64, blank=True, default="")
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    # The first characters, so a member can tell their tokens apart.
    key_start = models.CharField(_("starts with"), max_length=12, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.key_start}… ({self.user})"


class UsedSignature(models.Model):
    """A signed Telegram payload already taken (a login widget's data, a Mini App's
    initData): each is accepted once, so a copied link or a captured request cannot be
    replayed. Kept until the payload would have expired anyway."""

    digest = models.CharField(max_length=128, unique=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("used signature")
        verbose_name_plural = _("used signatures")

    def __str__(self) -> str:
        return self.digest[:12]
