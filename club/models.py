from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Case, F, Value, When, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from club.kernel.clubs import Club, Weekday, validate_timezone  # noqa: F401
from club.kernel.errors import RefusalCode, Refused
from club.kernel.tenancy import ClubScopedManager, club_key

if TYPE_CHECKING:
    from accounts.models import User


class EveningStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("Scheduled")
    CLOSED = "closed", _("Closed")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


class EveningQuerySet(models.QuerySet["Evening"]):
    def upcoming(self) -> EveningQuerySet:
        return self.filter(
            starts_at__gte=timezone.now(),
            status__in=[EveningStatus.SCHEDULED, EveningStatus.CLOSED],
        ).order_by("starts_at")


# The name of the constraint of one evening per start: a write that breaks it is refused as
# club/services.py's refuse_if_evening_at refuses it (one_evening_per_start).
ONE_EVENING_PER_START = "evening_one_per_start"


class Evening(models.Model):
    """One game evening of the club at a venue."""

    club = club_key("evenings")
    starts_at = models.DateTimeField(_("starts at"))
    venue = models.CharField(_("venue"), max_length=128)
    capacity = models.PositiveSmallIntegerField(
        _("seats"), validators=[MinValueValidator(1), MaxValueValidator(200)]
    )
    status = models.CharField(
        _("status"), max_length=16, choices=EveningStatus.choices, default=EveningStatus.SCHEDULED
    )
    opens_at = models.DateTimeField(_("sign-up opens at"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Incremented under the evening's lock: each sign-up's place in the order of arrival.
    arrivals = models.PositiveIntegerField(default=0, editable=False)
    unconfirmed_released_at = models.DateTimeField(
        _("unconfirmed seats released"), null=True, blank=True, editable=False
    )
    # The weekly slot this evening stands for, when the schedule made it: an evening moved
    # or cancelled by an admin still fills its slot, so the schedule never makes it again.
    scheduled_for = models.DateField(_("weekly slot"), null=True, blank=True)
    signup_announced_at = models.DateTimeField(
        _("sign-up announced"), null=True, blank=True, editable=False
    )
    reminders_sent_at = models.DateTimeField(
        _("reminders sent"), null=True, blank=True, editable=False
    )
    # How many tables the evening plays at: the organiser opens a second one when enough
    # people came (club/lineup.py's evening_open_second_table), which doubles the capacity.
    tables = models.PositiveSmallIntegerField(
        _("tables"),
        default=1,
        editable=False,
        validators=[MinValueValidator(1), MaxValueValidator(2)],
    )

    objects = ClubScopedManager.from_queryset(EveningQuerySet)()
    all_clubs = EveningQuerySet.as_manager()

    class Meta:
        verbose_name = _("evening")
        verbose_name_plural = _("evenings")
        ordering = ["-starts_at"]
        indexes = [models.Index(fields=["club", "starts_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(opens_at__lte=models.F("starts_at")),
                name="evening_opens_before_start",
                violation_error_message=_("Sign-up must open before the evening starts."),
            ),
            # One evening of the club at one start; a cancelled one frees its start. Every
            # door asks club/services.py's refuse_if_evening_at first, with a link to the
            # evening there; this is the race's last word.
            models.UniqueConstraint(
                fields=["club", "starts_at"],
                condition=~models.Q(status=EveningStatus.CANCELLED),
                name=ONE_EVENING_PER_START,
                violation_error_message=_("Another evening starts at this moment."),
            ),
            models.UniqueConstraint(
                fields=["club", "scheduled_for"], name="evening_one_per_weekly_slot"
            ),
        ]

    def __str__(self) -> str:
        local = timezone.localtime(self.starts_at)
        return f"{local:%d.%m.%Y %H:%M} — {self.venue}"

    def signup_refusal(self, now: datetime | None = None) -> Refused | None:
        """Why a sign-up is refused now, or None while the evening is open for it: from
        `opens_at` until it starts, unless closed or cancelled. The one definition; the
        sign-up's SQL (club/seating.py) asks the same in its WHERE, proven equal by
        tests/club/test_places.py."""
        now = now or timezone.now()
        if self.status == EveningStatus.CANCELLED:
            return Refused(_("This evening is cancelled."), RefusalCode.CLOSED)
        if self.status == EveningStatus.FINISHED or now >= self.starts_at:
            return Refused(_("This evening has already taken place."), RefusalCode.CLOSED)
        if self.status == EveningStatus.CLOSED:
            return Refused(_("Sign-up for this evening is closed."), RefusalCode.CLOSED)
        if now < self.opens_at:
            when = timezone.localtime(self.opens_at, Club.current().zone)
            return Refused(
                _("Sign-up opens %(when)s.") % {"when": date_format(when, "j E, H:i")},
                RefusalCode.NOT_OPEN,
            )
        return None

    def is_open_for_signup(self, now: datetime | None = None) -> bool:
        return self.signup_refusal(now) is None

    def change_refusal(self, now: datetime | None = None) -> Refused | None:
        """Why a seat can no longer change hands (a cancellation, a confirmation, a
        promotion): the evening has taken place, or was cancelled."""
        now = now or timezone.now()
        if (
            self.status in (EveningStatus.FINISHED, EveningStatus.CANCELLED)
            or now >= self.starts_at
        ):
            return Refused(_("This evening has already taken place."), RefusalCode.CLOSED)
        return None


class RegistrationStatus(models.TextChoices):
    CONFIRMED = "confirmed", _("Confirmed")
    RESERVE = "reserve", _("Reserve")
    CANCELLED = "cancelled", _("Cancelled")
    ATTENDED = "attended", _("Attended")
    NO_SHOW = "no_show", _("No-show")


class RegistrationSource(models.TextChoices):
    BOT = "bot", _("Telegram bot")
    WEB = "web", _("Website")
    API = "api", _("API")
    ADMIN = "admin", _("Admin")
    # The organiser's line-up screen (club/lineup.py): a member or guest added by hand.
    LINEUP = "lineup", _("The evening's line-up")


def free_seats(capacity: int, confirmed: int) -> int:
    """The seats left of an evening: never negative (an admin may lower the capacity below
    the confirmed; nobody loses a seat for it)."""
    return max(capacity - confirmed, 0)


# RULES.md §A: a table seats 12 to 15 players; the minimum is a club setting, the 15 is not.
TABLE_MAX_SEATS = 15


def capacity_fits_tables(capacity: int, min_per_table: int) -> bool:
    """Whether the fewest tables that seat `capacity` players can each start a game: an
    evening of 20 seats is two tables of 10 (too few) or one of 20 (too many)."""
    tables = max(1, -(-capacity // TABLE_MAX_SEATS))
    return capacity >= tables * min_per_table


def table_shares(people: int, tables: int, min_per_table: int) -> list[int] | None:
    """How `people` sit at `tables` tables so that every table reaches its minimum: as even
    as possible (24 at two tables of 12 to 15 are 12 + 12, 25 are 13 + 12), the earlier
    tables taking the odd one, none above TABLE_MAX_SEATS (the rest wait for the next
    game). None when there are too few for every table's minimum."""
    if tables < 1 or people < tables * min_per_table:
        return None
    base, odd = divmod(min(people, tables * TABLE_MAX_SEATS), tables)
    return [base + (1 if index < odd else 0) for index in range(tables)]


# The one order of an evening's line-up, and so of every number a member reads: «seat N» is
# a place among the confirmed by arrival; «reserve position N» a place in the reserve, the
# held-back last, then by arrival. place_in_line() numbers every read by it;
# club/seating.py's SQL numbers a new sign-up the same way (the one documented second copy:
# tests/club/test_places.py proves the two agree).
SEAT_ORDER = ("arrival",)
RESERVE_ORDER = ("held_back", "arrival")


def place_in_line() -> Window:
    """`.annotate(place=place_in_line())`: a registration's place (from 1) among its
    evening's rows of its own status, in SEAT_ORDER for the confirmed (the seat number) and
    RESERVE_ORDER for the reserve (the reserve position). The window numbers the rows the
    query reads: filter by evening and status only (whole partitions), never by member."""
    held_back_last = Case(
        When(status=RegistrationStatus.RESERVE, then=F("held_back")),
        default=Value(False),
        output_field=models.BooleanField(),
    )
    return Window(
        RowNumber(),
        partition_by=[F("evening_id"), F("status")],
        # The id breaks a tie of arrivals (an admin's promotion takes the number before the
        # reserve's first, which a seat may hold): a read and Lineup.promoting agree.
        order_by=[held_back_last.asc(), F("arrival").asc(), F("pk").asc()],
    )


class RegistrationQuerySet(models.QuerySet["Registration"]):
    def confirmed(self) -> RegistrationQuerySet:
        return self.filter(status=RegistrationStatus.CONFIRMED)

    def reserve(self) -> RegistrationQuerySet:
        """The reserve in the order it is promoted: a held-back member after the rest."""
        return self.filter(status=RegistrationStatus.RESERVE).order_by(*RESERVE_ORDER)

    def active(self) -> RegistrationQuerySet:
        return self.filter(status__in=[RegistrationStatus.CONFIRMED, RegistrationStatus.RESERVE])

    def leaving_due(self, now: datetime) -> RegistrationQuerySet:
        """Places whose «Не смогу» undo window has ended: to be given up now."""
        return self.active().filter(leaves_at__lte=now)


class Registration(models.Model):
    """A member's sign-up for an evening: a seat, a place in the reserve, or neither."""

    club = club_key("registrations")
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="registrations",
        verbose_name=_("member"),
        null=True,
        blank=True,
    )
    guest = models.ForeignKey(
        "Guest",
        on_delete=models.CASCADE,
        related_name="registrations",
        verbose_name=_("guest"),
        null=True,
        blank=True,
    )
    evening = models.ForeignKey(
        Evening, on_delete=models.CASCADE, related_name="registrations", verbose_name=_("evening")
    )
    status = models.CharField(_("status"), max_length=16, choices=RegistrationStatus.choices)
    source = models.CharField(_("source"), max_length=8, choices=RegistrationSource.choices)
    # The evening's arrival counter when the member last signed up (or was moved to the
    # front of the reserve by an admin): the reserve is served in this order.
    arrival = models.IntegerField(_("arrival"))
    # Sent to the reserve first for no-shows: promoted only when nobody else waits.
    held_back = models.BooleanField(_("held back for no-shows"), default=False)
    # A visitor from another club where the club lets visitors in by approval
    # (Club.visitors): waits in the reserve, never promoted by itself, until an organiser
    # promotes them (club.services.registration_promote).
    awaiting_approval = models.BooleanField(
        _("awaiting the organiser's approval"), default=False, db_default=False
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    attendance_confirmed_at = models.DateTimeField(_("attendance confirmed"), null=True, blank=True)
    promoted_at = models.DateTimeField(_("promoted"), null=True, blank=True)
    cancelled_at = models.DateTimeField(_("cancelled"), null=True, blank=True)
    # «Не смогу» pressed on the site or in the bot: the place is kept until this moment, so
    # the member can take the press back (the undo window); then it is given up.
    leaves_at = models.DateTimeField(_("leaves at"), null=True, blank=True)
    # The organiser's tap at the door. The seat stays a seat (confirmed) while the evening
    # runs; when it finishes, the door's taps become the attendance no-show tracking reads.
    checked_in_at = models.DateTimeField(_("came"), null=True, blank=True)
    # Taken off the list as gone («Уход с вечера»): they came (attended, for the no-show
    # rule), but are no longer there to be seated at the evening's next game.
    left_at = models.DateTimeField(_("left"), null=True, blank=True)

    objects = ClubScopedManager.from_queryset(RegistrationQuerySet)()
    all_clubs = RegistrationQuerySet.as_manager()

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["arrival"]
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "member"], name="registration_one_per_member_and_evening"
            ),
            models.UniqueConstraint(
                fields=["evening", "guest"], name="registration_one_per_guest_and_evening"
            ),
            # A place is a member's or a guest's, never both or nobody's.
            models.CheckConstraint(
                condition=models.Q(member__isnull=False, guest__isnull=True)
                | models.Q(member__isnull=True, guest__isnull=False),
                name="registration_member_or_guest",
            ),
        ]
        indexes = [
            models.Index(fields=["evening", "status", "arrival"]),
            models.Index(fields=["club", "member"]),
        ]

    def __str__(self) -> str:
        # Without the evening: the rows of an evening's sign-ups in the admin name it above.
        return f"{self.member or self.guest}: {self.get_status_display()}"

    @property
    def signed_member(self) -> User:
        """The member of a place that can only be a member's (their own sign-up, a test's);
        a guest's place there is a bug, not a refusal."""
        if self.member is None:
            raise ValueError(f"Registration {self.pk} is a guest's.")
        return self.member

    @property
    def listed_name(self) -> str:
        """How the evening's lists for members (the page, the group, the API) name this
        place: a member by nickname; a guest as «Гость», their name being the organiser's
        and the hosts' only (club.Guest)."""
        if self.member is not None:
            return self.member.nickname
        return str(_("Guest"))

    def may_take_back(self, now: datetime) -> bool:
        """«Не смогу» was pressed and its undo window still runs."""
        return self.leaves_at is not None and self.leaves_at > now


class Guest(models.Model):
    """Someone the organiser brought onto an evening's list who is not a member: no account,
    no sign-in, no messages. A guest may be seated at a live table under their name, which
    is shown to the club's members and hosts only: published pages (analyses, ratings, the
    group's posts) never name a guest, unless an admin links the guest to a member and that
    member consents to publication (games/access.py's name_visible)."""

    club = club_key("guests")
    # A person's name («Имя»), not a thing's («Название», as a club's or a role's).
    name = models.CharField(pgettext_lazy("person", "name"), max_length=32)
    phone = models.CharField(_("phone"), max_length=20, blank=True, default="")
    telegram_username = models.CharField(
        _("Telegram username"), max_length=32, blank=True, default=""
    )
    # Set by an admin once the guest became (or turned out to be) a member.
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="as_guest",
        verbose_name=_("linked member"),
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("added by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # A player of the club's old records (history/imports/) whom no member was matched to:
    # «unclaimed» until a member claims them and the organiser approves (history.claims).
    from_history = models.BooleanField(_("from the club's history"), default=False)

    objects = ClubScopedManager()
    all_clubs = models.Manager()  # noqa: DJ012 (the default manager comes first)

    class Meta:
        verbose_name = _("guest")
        verbose_name_plural = _("guests")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return str(_("%(name)s (guest)") % {"name": self.name})

    @property
    def phone_end(self) -> str:
        """The phone's last four digits: enough to tell two guests of one name apart on the
        organiser's screen without showing the number."""
        digits = "".join(ch for ch in self.phone if ch.isdigit())
        return digits[-4:]


class LineupAction(models.TextChoices):
    ADDED = "added", _("Added a member")
    GUEST = "guest", _("Added a guest")
    MOVED = "moved", _("Moved from the reserve")
    # The reserve moving up in its order because of the organiser's action (a removal, the
    # second table): not their choice of whom, but their doing.
    PROMOTED = "promoted", _("Moved up from the reserve")
    REMOVED = "removed", _("Removed")
    CHECKED_IN = "checked_in", _("Came")
    SECOND_TABLE = "second_table", _("Opened a second table")
    MESSAGE = "message", _("Message to the evening")
    # A removal taken back within its undo window (club/lineup.py's lineup_remove_undo).
    RESTORED = "restored", _("Removal taken back")


class RemovalReason(models.TextChoices):
    NO_SHOW = "no_show", _("Did not come")
    LEFT = "left", _("Left")
    BY_PHONE = "by_phone", _("Asked by phone")


class LineupChange(models.Model):
    """The organiser's log of an evening: every change they made by hand, with who made it
    (a move past the reserve's order is a deliberate override, and says so here)."""

    evening = models.ForeignKey(
        Evening, on_delete=models.CASCADE, related_name="lineup_changes", verbose_name=_("evening")
    )
    registration = models.ForeignKey(
        Registration,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("registration"),
    )
    action = models.CharField(_("action"), max_length=16, choices=LineupAction.choices)
    reason = models.CharField(
        _("reason"), max_length=16, choices=RemovalReason.choices, blank=True, default=""
    )
    text = models.TextField(_("text"), blank=True, default="")
    # A message: how many members it reached (those with a channel to send it by).
    reached = models.PositiveIntegerField(_("reached"), null=True, blank=True)
    # A removal: until when it can be taken back (None once taken back), and the place as it
    # was, for the undo to restore (club/lineup.py's lineup_remove_undo).
    undo_until = models.DateTimeField(_("can be taken back until"), null=True, blank=True)
    prior_status = models.CharField(
        _("status before"), max_length=16, choices=RegistrationStatus.choices, blank=True
    )
    prior_arrival = models.IntegerField(_("arrival before"), null=True, blank=True)
    prior_leaves_at = models.DateTimeField(_("leaves at before"), null=True, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("by"),
    )
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("line-up change")
        verbose_name_plural = _("line-up changes")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.label} ({self.created_at:%d.%m %H:%M})"

    # A door tap taking a check-in back is logged as a check-in whose text is "-".
    TAKEN_BACK = "-"

    @property
    def label(self) -> str:
        """What the change was, as the log reads: a check-in taken back says so."""
        if self.action == LineupAction.CHECKED_IN and self.text == self.TAKEN_BACK:
            return str(_("Check-in taken back"))
        return str(self.get_action_display())
