"""Writes on evenings and registrations: every rule of the sign-up lives here.

Locking (after pretix): every change to an evening's seats runs in one durable transaction
that first locks the evening's row (`lock_evening`; a sign-up takes the same row lock with the
UPDATE that numbers its arrival, club/seating.py), then re-reads and writes. All
sign-ups, cancellations and promotions of one evening are therefore serialized, so the
confirmed never exceed the capacity, a promotion happens once, and the arrival counter
(taken under the lock) orders the reserve exactly as the sign-ups took the lock.
"""

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts import roles
from accounts.languages import speaking_to
from accounts.models import User
from accounts.services import member_is_of_age
from club import buttons, reserve_news, seating, texts
from club.kernel.clubs import Club, Visitors
from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import shows_something, storable_text
from club.kernel.queueing import queue_on_commit
from club.models import (
    ONE_EVENING_PER_START,
    Evening,
    EveningStatus,
    Registration,
    RegistrationSource,
    RegistrationStatus,
    free_seats,
)
from club.queries import Lineup, at_the_tables, evening_lineup
from club.schedule import signup_opens_at
from notifications.channels import member_channels
from notifications.services import notification_enqueue, notification_send_on_commit

MAX_CAPACITY = 200


@dataclass(frozen=True)
class SignUp:
    registration: Registration
    created: bool  # False: the member was already in (a double tap returns the same)
    seat: int | None  # "seat N of capacity" for a confirmed member
    position: int | None  # place in the reserve, from 1

    @property
    def member(self) -> User:
        """Who signed up: a member's own sign-up is always a member's (a guest's place is
        the organiser's, club/lineup.py)."""
        member = self.registration.member
        assert member is not None
        return member


def lineup_changed(evening_id: int) -> None:
    """The evening's seats or reserve changed: once committed, its line-up message in the
    club's group follows (a task; nothing when the club has no group). Every change of the
    line-up calls it, this module's and the organiser's (club/lineup.py)."""
    if Club.current().telegram_group_chat_id is not None:
        queue_on_commit("club.tasks.lineup_sync", evening_id, countdown=1)


def lock_evening(evening_id: int) -> Evening:
    """The evening's row, locked until the transaction ends: the lock of every seat change."""
    evening = Evening.objects.select_for_update().filter(pk=evening_id).first()
    if evening is None:
        raise Refused(_("There is no such evening."), RefusalCode.NOT_FOUND)
    return evening


def _refuse_unless_open(evening: Evening, now: datetime) -> None:
    refusal = evening.signup_refusal(now)
    if refusal is not None:
        raise refusal


def _refuse_if_started(evening: Evening, now: datetime) -> None:
    refusal = evening.change_refusal(now)
    if refusal is not None:
        raise refusal


def _next_arrival(evening: Evening) -> int:
    evening.arrivals += 1
    Evening.objects.filter(pk=evening.pk).update(arrivals=evening.arrivals)
    return evening.arrivals


def seats_free(evening: Evening) -> int:
    """The evening's free seats now (club.models.free_seats: never negative, though an admin
    may lower the capacity below the confirmed). Read under the evening's lock to act on it."""
    return free_seats(
        evening.capacity, Registration.objects.confirmed().filter(evening=evening).count()
    )


def recent_no_shows(member: User, club: Club, now: datetime | None = None) -> int:
    """The member's no-shows over their last `noshow_penalty_window` evenings (the ones
    they did not cancel): what the club's no-show rule counts."""
    statuses = list(
        Registration.objects.filter(member=member, evening__starts_at__lt=now or timezone.now())
        .exclude(status=RegistrationStatus.CANCELLED)
        .order_by("-evening__starts_at")
        .values_list("status", flat=True)[: club.noshow_penalty_window]
    )
    return statuses.count(RegistrationStatus.NO_SHOW)


def is_visitor(member: User, club: Club) -> bool:
    """A member of the platform who is not the club's: no membership there, or one left."""
    membership = roles.membership_in(member, club)
    return membership is None or not membership.present


def visitor_awaits(member: User, club: Club) -> bool:
    """The club's rule for visitors (Club.visitors) on a member who is not the club's (no
    membership there, or one they left): refused where the club takes its members only;
    True where a visitor waits in the reserve for an organiser's approval."""
    if not is_visitor(member, club):
        return False
    if club.visitors == Visitors.MEMBERS_ONLY:
        raise Refused(_("This club's evenings are for its members only."), RefusalCode.FORBIDDEN)
    return club.visitors == Visitors.BY_APPROVAL


def is_held_back(member: User, club: Club, now: datetime) -> bool:
    """The no-show rule holds the member back: a sign-up of theirs waits behind the rest of
    the reserve until the last call (held_back_sits)."""
    if not club.noshow_penalty_count:
        return False
    return recent_no_shows(member, club, now) >= club.noshow_penalty_count


def last_call(evening: Evening, club: Club) -> datetime:
    """From now on held-back members may take free seats too."""
    return evening.starts_at - timedelta(hours=club.confirmation_deadline_hours)


def held_back_sits(evening: Evening, club: Club, now: datetime) -> bool:
    """The no-show rule's one question: may a held-back member take a free seat now? From
    the last call on, yes; before it they wait behind the rest of the reserve. The
    promotions (fill_seats) and a sign-up's own seat (club/seating.py) both ask it here."""
    return now >= last_call(evening, club)


def fill_seats(
    evening: Evening, club: Club, now: datetime, *, second_table: bool = False
) -> list[Registration]:
    """Promote from the reserve into free seats, in order, each member told their number
    on the list and asked to confirm; those left waiting who moved up into the reserve's
    first places are told so (club/reserve_news.py). The evening must be locked
    (lock_evening): this module's writes and the organiser's line-up (club/lineup.py) call
    it under that lock.
    `second_table`: the seats are a second table's (nobody freed them), and the promoted
    are told so."""
    return _promote(evening, club, now, evening_lineup(evening), second_table=second_table)[0]


def _promote(
    evening: Evening,
    club: Club,
    now: datetime,
    lineup: Lineup,
    *,
    second_table: bool = False,
) -> tuple[list[Registration], Lineup]:
    """fill_seats from the line-up as the caller read it under the evening's lock (the
    free seats, the reserve in its order, the positions before): the seats and positions
    after are numbered from it in memory, so a promotion reads the line-up once. Returns
    the promoted and the line-up after them."""
    free = lineup.seats_left(evening.capacity)
    if not free:
        return [], lineup
    sits = held_back_sits(evening, club, now)
    # A visitor awaiting approval waits for the organiser, whatever seats are free.
    ready = [r for r in lineup.reserve if not r.awaiting_approval]
    promoted = [r for r in ready if sits or not r.held_back][:free]
    if not promoted:
        return [], lineup
    before = reserve_news.positions(evening, lineup.reserve)
    for registration in promoted:
        registration.status = RegistrationStatus.CONFIRMED
        registration.promoted_at = now
        registration.save(update_fields=["status", "promoted_at"])
    lineup = lineup.promoting(promoted)
    told = texts.promoted_to_second_table if second_table else texts.promoted
    for registration in promoted:
        with speaking_to(registration.member):
            notification_enqueue(
                dedupe_key=f"promoted:{registration.pk}:{registration.arrival}",
                member=registration.member,
                text=told(
                    seat=lineup.seat_of(registration) or 0,
                    capacity=evening.capacity,
                    when=texts.evening_when(evening, club),
                ),
                buttons=[[buttons.confirm(evening.pk), buttons.cancel(evening.pk)]],
                link=texts.evening_link(evening),
            )
    reserve_news.tell_moved_up(evening, before, club, lineup.reserve)
    return list(promoted), lineup


def registration_create(
    *, member: User, evening_id: int, source: RegistrationSource, now: datetime | None = None
) -> SignUp:
    """Sign a member up: a free seat if there is one, else the end of the reserve.

    What can be checked before the lock is checked before it, and the messages are rendered
    before it too; the write under the lock is one message to the database
    (club/seating.py), since every sign-up of the evening waits on it.
    """
    now = now or timezone.now()
    if not roles.may_take_part(member):
        raise Refused(
            _("Your membership is suspended: sign-up is not available."), RefusalCode.SUSPENDED
        )
    evening = Evening.objects.filter(pk=evening_id).first()
    if evening is None:
        raise Refused(_("There is no such evening."), RefusalCode.NOT_FOUND)
    _refuse_unless_open(evening, now)
    club = Club.current()
    refuse_unless_of_age_on_the_evening(member, evening, club)
    awaiting = visitor_awaits(member, club)
    held_back = is_held_back(member, club, now)
    with speaking_to(member):
        when = texts.evening_when(evening, club)
        seat_text = texts.seat_confirmed(seat=seating.PLACE, capacity=evening.capacity, when=when)
        reserve_text = (
            _(
                "You asked to play on %(when)s as a visitor from another club: an organiser "
                "of the club will let you in, and you will be told."
            )
            % {"when": when}
            if awaiting
            else texts.in_reserve(position=seating.PLACE, when=when)
        )
    outcome = seating.sign_up(
        evening_id=evening.pk,
        member_id=member.pk,
        source=source,
        held_back=held_back,
        held_back_sits=held_back_sits(evening, club, now),
        now=now,
        seat_text=seat_text,
        reserve_text=reserve_text,
        channels=member_channels(member),
        awaiting=awaiting,
    )
    if not outcome.found:
        raise Refused(_("There is no such evening."), RefusalCode.NOT_FOUND)
    written = outcome.written
    if written is None:
        # An admin may have closed or resized the evening since it was read; else the
        # member was in already and a double tap returns the registration as it is.
        evening.status, evening.capacity = outcome.status, outcome.capacity
        _refuse_unless_open(evening, now)
        registration = Registration.objects.select_related("evening").get(
            evening_id=evening.pk, member=member
        )
        return _describe(registration, created=False)
    for notification_id in written.notification_ids:
        notification_send_on_commit(notification_id)
    lineup_changed(evening.pk)
    # The row as written, without reading it back; any other field loads on first use.
    registration = Registration.from_db(
        None,
        [
            "id",
            "evening_id",
            "member_id",
            "status",
            "source",
            "arrival",
            "held_back",
            "awaiting_approval",
        ],
        [
            written.registration_id,
            evening.pk,
            member.pk,
            written.status,
            source,
            written.arrival,
            held_back,
            awaiting,
        ],
    )
    registration.evening, registration.member = evening, member
    confirmed = written.status == RegistrationStatus.CONFIRMED
    return SignUp(
        registration,
        created=True,
        seat=written.place if confirmed else None,
        position=None if confirmed else written.place,
    )


def _describe(registration: Registration, *, created: bool, lineup: Lineup | None = None) -> SignUp:
    """The sign-up's answer: its seat or position in `lineup` (the caller's, current), else
    as read."""
    lineup = lineup if lineup is not None else evening_lineup(registration.evening_id)
    return SignUp(
        registration,
        created,
        seat=lineup.seat_of(registration),
        position=lineup.position_of(registration),
    )


# How long «Не смогу» on the site or in the bot can be taken back: the place is kept so
# long, then given up (and a freed seat goes to the first of the reserve).
UNDO_WINDOW = timedelta(seconds=30)


def registration_cancel(
    *,
    member: User,
    evening_id: int,
    undo_window: timedelta = timedelta(0),
    now: datetime | None = None,
) -> Registration:
    """Give up a seat or a place in the reserve.

    With an undo window (the site's and the bot's «Не смогу») the place is kept until the
    window ends, and `registration_cancel_undo` takes the press back until then; the
    window's end gives the place up (a task queued for that moment, and the minute's sweep
    `registrations_leave_due` if the task was lost). Without one (the API) it goes at once.
    """
    now = now or timezone.now()
    if not undo_window:
        return _leave(member=member, evening_id=evening_id, now=now)
    with transaction.atomic(durable=True):
        evening = lock_evening(evening_id)
        _refuse_if_started(evening, now)
        registration = _active_registration(evening, member)
        if registration.leaves_at is None:  # pressed twice: the first window stands
            registration.leaves_at = now + undo_window
            registration.save(update_fields=["leaves_at"])
            queue_on_commit(
                "club.tasks.registration_leave",
                registration.pk,
                countdown=undo_window.total_seconds(),
            )
    return registration


def registration_cancel_asked(
    *, member: User, evening_id: int, now: datetime | None = None
) -> Registration:
    """The place «Не смогу» would give up, before the member is asked whether to: refused
    as `registration_cancel` would refuse it (no such evening, taken place, not signed up),
    so a stale button asks nothing. Changes nothing."""
    now = now or timezone.now()
    evening = Evening.objects.filter(pk=evening_id).first()
    if evening is None:
        raise Refused(_("There is no such evening."), RefusalCode.NOT_FOUND)
    _refuse_if_started(evening, now)
    return _active_registration(evening, member)


def registration_cancel_undo(
    *, member: User, evening_id: int, now: datetime | None = None
) -> Registration:
    """Take «Не смогу» back within its window: the place stays the member's, as it was."""
    now = now or timezone.now()
    with transaction.atomic(durable=True):
        evening = lock_evening(evening_id)
        registration = (
            Registration.objects.active()
            .filter(evening=evening, member=member, leaves_at__isnull=False)
            .first()
        )
        if registration is None or not registration.may_take_back(now):
            raise Refused(
                _("Too late to take it back: the place is given up. You can sign up again."),
                RefusalCode.CONFLICT,
            )
        registration.leaves_at = None
        registration.save(update_fields=["leaves_at"])
    return registration


def registration_leave(*, registration_id: int, now: datetime | None = None) -> bool:
    """The end of an undo window: give the place up, unless it was taken back (or is given
    up already). True when it was given up now."""
    now = now or timezone.now()
    registration = (
        Registration.objects.leaving_due(now)
        .select_related("member")
        .filter(pk=registration_id)
        .first()
    )
    if registration is None or registration.member is None:
        return False
    try:
        _leave(member=registration.member, evening_id=registration.evening_id, now=now, due=True)
    except Refused:  # taken back or given up meanwhile: nothing is due
        return False
    return True


def registrations_leave_due(*, now: datetime | None = None) -> int:
    """The minute's sweep: every place whose undo window has ended and is still held (a
    lost task, a worker that was down) is given up now."""
    now = now or timezone.now()
    due = list(Registration.objects.leaving_due(now).values_list("pk", flat=True))
    return sum(registration_leave(registration_id=pk, now=now) for pk in due)


def _active_registration(evening: Evening, member: User) -> Registration:
    registration = Registration.objects.active().filter(evening=evening, member=member).first()
    if registration is None:
        raise Refused(_("You are not signed up for this evening."), RefusalCode.NOT_FOUND)
    return registration


def _leave(
    *, member: User, evening_id: int, now: datetime, due: bool = False, by_club: bool = False
) -> Registration:
    """Give the place up now; a freed seat goes to the reserve at once. `due`: the end of an
    undo window, which counts only if the window is still running out (not taken back), and
    which stands even when the evening began during the window. `by_club`: an admin took
    the place, and the member is told who did and what became of it."""
    club = Club.current()
    with transaction.atomic(durable=True):
        evening = lock_evening(evening_id)
        if not due:
            _refuse_if_started(evening, now)
        registration = _active_registration(evening, member)
        if due and (registration.leaves_at is None or registration.may_take_back(now)):
            raise Refused(_("The place was taken back."), RefusalCode.CONFLICT)
        had_seat = registration.status == RegistrationStatus.CONFIRMED
        # Leaving the reserve moves those behind up (a freed seat's promotions tell them).
        before = None if had_seat else reserve_news.positions(evening)
        registration.status = RegistrationStatus.CANCELLED
        registration.cancelled_at = now
        registration.leaves_at = None
        registration.save(update_fields=["status", "cancelled_at", "leaves_at"])
        with speaking_to(member):
            notification_enqueue(
                dedupe_key=f"cancelled:{registration.pk}:{registration.arrival}",
                member=member,
                text=texts.removed_by_club(
                    had_seat=had_seat, when=texts.evening_when(evening, club)
                )
                if by_club
                else texts.cancelled(when=texts.evening_when(evening, club)),
            )
        if had_seat and evening.change_refusal(now) is None:
            fill_seats(evening, club, now)
        elif before is not None:
            reserve_news.tell_moved_up(evening, before, club)
        lineup_changed(evening.pk)
    return registration


def registration_confirm_attendance(
    *, member: User, evening_id: int, now: datetime | None = None
) -> Registration:
    """«Подтверждаю»: a member with a seat says they are coming. Repeating it changes nothing."""
    now = now or timezone.now()
    with transaction.atomic(durable=True):
        evening = lock_evening(evening_id)
        _refuse_if_started(evening, now)
        registration = Registration.objects.filter(
            evening=evening, member=member, status=RegistrationStatus.CONFIRMED
        ).first()
        if registration is None:
            raise Refused(
                _("Only a member with a seat can confirm attendance."), RefusalCode.CONFLICT
            )
        if registration.attendance_confirmed_at is None:
            registration.attendance_confirmed_at = now
            registration.save(update_fields=["attendance_confirmed_at"])
    return registration


def evening_fill_seats(*, evening_id: int, now: datetime | None = None) -> list[Registration]:
    """Promote into any free seats (for the last-call sweep, when held-back members may go)."""
    now = now or timezone.now()
    club = Club.current()
    with transaction.atomic(durable=True):
        evening = lock_evening(evening_id)
        _refuse_if_started(evening, now)
        promoted = fill_seats(evening, club, now)
        if promoted:
            lineup_changed(evening.pk)
        return promoted


def evening_release_unconfirmed(*, evening_id: int, now: datetime | None = None) -> int:
    """At the deadline, seats still unconfirmed go to the end of the reserve (when the club
    setting says so), and the reserve moves up. Runs once per evening; returns how many
    seats were released."""
    now = now or timezone.now()
    club = Club.current()
    if not club.release_unconfirmed_seats:
        return 0
    with transaction.atomic(durable=True):
        evening = lock_evening(evening_id)
        if (
            evening.unconfirmed_released_at is not None
            or evening.status not in (EveningStatus.SCHEDULED, EveningStatus.CLOSED)
            or not last_call(evening, club) <= now < evening.starts_at
        ):
            return 0
        unconfirmed = list(
            Registration.objects.confirmed()
            .filter(evening=evening, attendance_confirmed_at__isnull=True)
            .select_related("member")
            .order_by("arrival")
        )
        for registration in unconfirmed:
            registration.status = RegistrationStatus.RESERVE
            registration.arrival = _next_arrival(evening)
            registration.save(update_fields=["status", "arrival"])
        evening.unconfirmed_released_at = now
        evening.save(update_fields=["unconfirmed_released_at"])
        fill_seats(evening, club, now)
        lineup_changed(evening.pk)
        lineup = evening_lineup(evening)
        for registration in unconfirmed:
            position = lineup.position_of(registration)
            if position is not None:
                with speaking_to(registration.member):
                    notification_enqueue(
                        dedupe_key=f"released:{registration.pk}:{registration.arrival}",
                        member=registration.member,
                        text=texts.released_unconfirmed(
                            position=position, when=texts.evening_when(evening, club)
                        ),
                    )
    return len(unconfirmed)


def evening_set_capacity(*, evening_id: int, capacity: int, now: datetime | None = None) -> Evening:
    """Raising the capacity promotes from the reserve at once; lowering it never unseats
    anyone (the seats above the new capacity simply are not refilled)."""
    if not 1 <= capacity <= MAX_CAPACITY:
        raise Refused(
            _("The capacity is a number from 1 to %(max)d.") % {"max": MAX_CAPACITY},
            RefusalCode.INVALID,
        )
    now = now or timezone.now()
    club = Club.current()
    with transaction.atomic(durable=True):
        evening = lock_evening(evening_id)
        evening.capacity = capacity
        evening.save(update_fields=["capacity"])
        # A closed evening's seats still pass to its reserve, as at a cancellation.
        if evening.change_refusal(now) is None:
            fill_seats(evening, club, now)
            lineup_changed(evening.pk)
    return evening


def evening_cancel(*, evening_id: int, now: datetime | None = None) -> Evening:
    """An admin cancels an evening: every sign-up is cancelled and its member told."""
    now = now or timezone.now()
    club = Club.current()
    with transaction.atomic(durable=True):
        evening = lock_evening(evening_id)
        if evening.status == EveningStatus.CANCELLED:
            return evening
        evening.status = EveningStatus.CANCELLED
        evening.save(update_fields=["status"])
        for registration in (
            Registration.objects.active().filter(evening=evening).select_related("member")
        ):
            registration.status = RegistrationStatus.CANCELLED
            registration.cancelled_at = now
            registration.save(update_fields=["status", "cancelled_at"])
            with speaking_to(registration.member):
                notification_enqueue(
                    dedupe_key=f"evening-cancelled:{registration.pk}",
                    member=registration.member,
                    text=texts.evening_cancelled(when=texts.evening_when(evening, club)),
                )
    return evening


def evening_move(*, evening_id: int, starts_at: datetime, now: datetime | None = None) -> Evening:
    """An admin moves an evening: sign-ups keep their places, and their members are told.
    Refused onto the start of another evening (one_evening_per_start)."""
    now = now or timezone.now()
    club = Club.current()
    if starts_at <= now:
        raise Refused(_("An evening is moved to the future."), RefusalCode.INVALID)
    with transaction.atomic(durable=True):
        evening = lock_evening(evening_id)
        evening.starts_at = starts_at
        evening.opens_at = min(evening.opens_at, starts_at)
        evening.reminders_sent_at = None
        # A cancelled evening holds no start: it may be moved onto another's.
        held = evening.status != EveningStatus.CANCELLED
        with one_evening_per_start(starts_at, other_than=evening.pk) if held else nullcontext():
            evening.save(update_fields=["starts_at", "opens_at", "reminders_sent_at"])
        stamp = int(starts_at.timestamp())
        for registration in (
            Registration.objects.active().filter(evening=evening).select_related("member")
        ):
            with speaking_to(registration.member):
                notification_enqueue(
                    dedupe_key=f"evening-moved:{registration.pk}:{stamp}",
                    member=registration.member,
                    text=texts.evening_moved(when=texts.evening_when(evening, club)),
                )
    return evening


def registration_promote(*, registration_id: int, now: datetime | None = None) -> SignUp:
    """An admin moves a member to the front of the reserve; a free seat goes to them at once."""
    now = now or timezone.now()
    club = Club.current()
    evening_id = (
        Registration.objects.filter(pk=registration_id).values_list("evening_id", flat=True).first()
    )
    if evening_id is None:
        raise Refused(_("There is no such registration."), RefusalCode.NOT_FOUND)
    with transaction.atomic(durable=True):
        evening = lock_evening(evening_id)
        _refuse_if_started(evening, now)
        lineup = evening_lineup(evening)  # read once: the promotion numbers from it
        registration = next((r for r in lineup.reserve if r.pk == registration_id), None)
        if registration is None:
            raise Refused(_("Only a member in the reserve can be promoted."), RefusalCode.CONFLICT)
        registration.arrival = min(r.arrival for r in lineup.reserve) - 1
        # The organiser's promotion is also their approval of a visitor (Club.visitors).
        registration.held_back = registration.awaiting_approval = False
        registration.save(update_fields=["arrival", "held_back", "awaiting_approval"])
        _promoted, lineup = _promote(evening, club, now, lineup.to_the_front(registration))
        lineup_changed(evening.pk)
        return _describe(registration, created=False, lineup=lineup)


def registration_mark_attendance(
    *, registration_id: int, attended: bool, now: datetime | None = None
) -> Registration:
    """After the start, an admin marks who came (attended) and who did not (no-show)."""
    now = now or timezone.now()
    registration = Registration.objects.select_related("evening").filter(pk=registration_id).first()
    if registration is None:
        raise Refused(_("There is no such registration."), RefusalCode.NOT_FOUND)
    if now < registration.evening.starts_at:
        raise Refused(_("Attendance is marked after the evening starts."), RefusalCode.CONFLICT)
    if registration.status == RegistrationStatus.CANCELLED:
        raise Refused(_("This member cancelled their sign-up."), RefusalCode.CONFLICT)
    if not attended:
        refuse_unless_off_the_tables(registration, no_show=True)
    registration.status = RegistrationStatus.ATTENDED if attended else RegistrationStatus.NO_SHOW
    registration.save(update_fields=["status"])
    return registration


def evening_create(
    *,
    starts_at: datetime,
    capacity: int | None = None,
    venue: str | None = None,
    opens_at: datetime | None = None,
    now: datetime | None = None,
) -> Evening:
    """A new evening, with the club's defaults for what is not given."""
    now = now or timezone.now()
    club = Club.current()
    if timezone.is_naive(starts_at):
        starts_at = starts_at.replace(tzinfo=club.zone)
    if starts_at <= now:
        raise Refused(_("An evening is created in the future."), RefusalCode.INVALID)
    capacity = club.seats_per_evening if capacity is None else capacity
    if not 1 <= capacity <= MAX_CAPACITY:
        raise Refused(
            _("The capacity is a number from 1 to %(max)d.") % {"max": MAX_CAPACITY},
            RefusalCode.INVALID,
        )
    venue = (venue or club.venue).strip()
    # The tournaments' check too: a venue of invisible characters only names no place.
    if not shows_something(venue) or len(venue) > 128 or not storable_text(venue):
        raise Refused(_("The venue is 1 to 128 characters long."), RefusalCode.INVALID)
    if opens_at is None:
        opens_at = min(signup_opens_at(club, starts_at), starts_at)
    elif timezone.is_naive(opens_at):
        opens_at = opens_at.replace(tzinfo=club.zone)
    if opens_at > starts_at:
        raise Refused(_("Sign-up must open before the evening starts."), RefusalCode.INVALID)
    with one_evening_per_start(starts_at):
        return Evening.objects.create(
            starts_at=starts_at, capacity=capacity, venue=venue, opens_at=opens_at
        )


# --- One evening per start -------------------------------------------------------------------


def evening_at(starts_at: datetime, *, other_than: int | None = None) -> Evening | None:
    """The club's evening (not cancelled) that starts at `starts_at`, other than the one
    with id `other_than` (an evening moved stays clear of itself)."""
    there = Evening.objects.exclude(status=EveningStatus.CANCELLED).filter(starts_at=starts_at)
    if other_than is not None:
        there = there.exclude(pk=other_than)
    return there.order_by("pk").first()


def refuse_if_evening_at(starts_at: datetime, *, other_than: int | None = None) -> None:
    """The rule of one evening per start (a cancelled one frees its start), for every door
    that makes or moves an evening: the admin's form, the API, the tournaments. Refused as
    `conflict`, its details naming the evening there (`evening`: its id), which a door may
    link to. The database holds the same rule (club.models.ONE_EVENING_PER_START)."""
    existing = evening_at(starts_at, other_than=other_than)
    if existing is not None:
        club = Club.current()
        when = date_format(timezone.localtime(existing.starts_at, club.zone), "j E Y, H:i")
        raise Refused(
            _("Another evening already starts at this time: %(when)s.") % {"when": when},
            RefusalCode.CONFLICT,
            evening=existing.pk,
        )


def breaks_one_evening_per_start(error: IntegrityError) -> bool:
    """The database refused a write for the constraint of one evening per start."""
    diag = getattr(error.__cause__, "diag", None)
    return getattr(diag, "constraint_name", None) == ONE_EVENING_PER_START


@contextmanager
def one_evening_per_start(starts_at: datetime, *, other_than: int | None = None) -> Iterator[None]:
    """Around the write that makes or moves an evening to `starts_at`: refused first when
    another evening starts then, and when another writer won the race between that check
    and the write (the constraint's IntegrityError, once the winner committed), refused the
    same way, not a failure. The write runs in a savepoint, so the caller's transaction
    goes on."""
    refuse_if_evening_at(starts_at, other_than=other_than)
    try:
        with transaction.atomic():
            yield
    except IntegrityError as error:
        if not breaks_one_evening_per_start(error):
            raise
        refuse_if_evening_at(starts_at, other_than=other_than)
        # The other evening was cancelled or moved since: the start may be free again.
        raise Refused(_("Another evening starts at this moment."), RefusalCode.CONFLICT) from error


# --- An admin's change to a sign-up ----------------------------------------------------------


def registration_withdraw(*, registration_id: int, now: datetime | None = None) -> Registration:
    """An admin takes a sign-up off the evening (in place of deleting its row): the same as
    the member's own «Не смогу» without the undo window. The member is told, and a freed
    seat goes to the first of the reserve at once."""
    now = now or timezone.now()
    registration = Registration.objects.select_related("member").filter(pk=registration_id).first()
    if registration is None:
        raise Refused(_("There is no such registration."), RefusalCode.NOT_FOUND)
    if registration.status not in (RegistrationStatus.CONFIRMED, RegistrationStatus.RESERVE):
        raise Refused(_("This member holds no place on this evening."), RefusalCode.CONFLICT)
    if registration.member is None:
        raise Refused(
            _("A guest is taken off on the evening's line-up, with a reason."),
            RefusalCode.CONFLICT,
        )
    return _leave(
        member=registration.member, evening_id=registration.evening_id, now=now, by_club=True
    )


def refuse_unless_of_age_on_the_evening(member: User, evening: Evening, club: Club) -> None:
    """The age rule of a place on an evening's list, whoever puts the member there (the
    member's own sign-up or the organiser's line-up)."""
    evening_date = timezone.localtime(evening.starts_at, club.zone).date()
    if not member_is_of_age(member=member, on=evening_date, club=club):
        raise Refused(
            _("The club is for players aged %(age)d and over on the evening's date.")
            % {"age": club.min_age},
            RefusalCode.UNDERAGE,
        )


def refuse_unless_off_the_tables(registration: Registration, *, no_show: bool) -> None:
    """Who is taken off an evening's list (club/lineup.py's remove) or marked a no-show: never
    someone sitting in one of its running games, and never as a no-show someone seated in
    any of its games (club/queries.py's at_the_tables reads the seats)."""
    tables = at_the_tables(registration)
    if tables.playing is not None:
        raise Refused(
            _("In game %(number)d now: they can be taken off the list once it is over.")
            % {"number": tables.playing},
            RefusalCode.CONFLICT,
        )
    if no_show and tables.played:
        raise Refused(
            _("Seated in a game of this evening: not a no-show."),
            RefusalCode.CONFLICT,
        )
