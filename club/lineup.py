"""The organiser's evening: what the person who runs it does by hand, from the line-up screen.

Each action is a change to the evening's seats made by the sign-up service's own steps
(club/seating.py's write, club/services.py's lock, promotion and outbox), so a freed seat
goes to the reserve and members are told exactly as when they act themselves; each is
written to the evening's log (LineupChange) with who did it. The door (club/views.py) lets
only hosts and admins in (games.access.may_host); these functions trust it and take the
organiser as `actor` for the log.

- add a member or a guest (a seat while seats are free, then the reserve), also at the door
  after the start, which a member's own sign-up is not;
- move someone from the reserve to a free seat, out of the reserve's order (an override);
- remove with a reason: did not come (a no-show, which the no-show rule counts), left (came
  and went), asked by phone (a cancellation); before the door opens (DOOR_OPENS before the
  start) only the last; a removal can be taken back for REMOVAL_UNDO (lineup_remove_undo),
  which puts the place back as it was, or at the front of the reserve if its seat went to
  the reserve meanwhile;
- check in at the door: `checked_in_at`, made attendance when the evening finishes;
- open a second table: the capacity doubles and the reserve moves up in order;
- a message to everyone on the list (and the reserve, if asked);
- find members to add: by nickname, as it looks (members_to_add).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from django.db import transaction
from django.db.models import Case, F, Q, Value, When
from django.db.models.functions import Replace
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import roles
from accounts.languages import speaking_to
from accounts.lookalikes import lookalike_key
from accounts.models import User
from accounts.validation import (
    NICKNAME_MAX_LENGTH,
    login_key,
    mixed_scripts_refusal,
    normalize_nickname,
    reads_as_a_site_word,
)
from club import buttons, seating, texts
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import INVISIBLE, storable_text
from club.models import (
    Evening,
    EveningStatus,
    Guest,
    LineupAction,
    LineupChange,
    Registration,
    RegistrationSource,
    RegistrationStatus,
    RemovalReason,
)
from club.queries import evening_lineup

# The sign-up service's own steps, shared so that the organiser's changes are its changes.
from club.services import (
    fill_seats,
    lineup_changed,
    lock_evening,
    refuse_unless_of_age_on_the_evening,
    refuse_unless_off_the_tables,
    seats_free,
)
from notifications.channels import email_reaches, member_channels, telegram_reaches
from notifications.models import Notification, NotificationChannel, NotificationStatus
from notifications.services import member_notify, notification_enqueue, notification_send_on_commit

# The door opens on the evening's day: check-in, and a removal as not come or left, from
# this long before the start.
DOOR_OPENS = timedelta(hours=12)
# A finger's double tap on a row's «came»: the second tap lands on what the first one's
# answer drew (a phone's answer comes back in well under the 0.1 to 0.5 s between the two
# taps) and would take the check-in straight back. A tap that reverses the same organiser's
# tap on the same row less than this long ago is that second tap: the first one stands.
# One second: twice a double tap's widest gap, short enough that an organiser who meant to
# take a check-in back finds the next tap works.
DOUBLE_TAP = timedelta(seconds=1)
# How long a removal («Убрать») can be taken back: long enough for the organiser to see the
# mistake on the answer (the wrong row, the wrong reason, someone who turns out to be at the
# door), short enough that nobody else has planned around the freed place for long.
REMOVAL_UNDO = timedelta(minutes=5)
MAX_MESSAGE = 1000
MAX_TABLES = 2

_PHONE = re.compile(r"\+?[0-9][0-9 ()-]{4,18}[0-9]")
_TELEGRAM = re.compile(r"[A-Za-z][A-Za-z0-9_]{4,31}")
# A guest's fields as the database holds them (club.models.Guest).
GUEST_NAME_MAX = Guest._meta.get_field("name").max_length or 32
PHONE_MAX = Guest._meta.get_field("phone").max_length or 20
# The username as typed may start with «@».
TELEGRAM_TYPED_MAX = 1 + (Guest._meta.get_field("telegram_username").max_length or 32)

# The members' search: what it shows at most, how long a search can be (no nickname is
# longer), and how much of what was sent it reads at all (a nickname pasted with invisible
# characters around it fits; anything longer is refused unread).
FOUND_LIMIT = 8
SEARCH_MAX = NICKNAME_MAX_LENGTH
SEARCH_READ = 8 * SEARCH_MAX
# «ё» in a nickname's look (its TR39 skeleton) is «е» with this mark: taken out, «ё» is «е».
_DIAERESIS = "\u0308"


def door_opens_at(evening: Evening) -> datetime:
    return evening.starts_at - DOOR_OPENS


def door_open(evening: Evening, now: datetime) -> bool:
    """From DOOR_OPENS before the start the door is kept: check-in, and a removal because
    someone did not come or left."""
    return now >= door_opens_at(evening)


def door_opens_text(evening: Evening, now: datetime, club: Club) -> str:
    """When the door opens, as the organiser reads it: the time on its day, the date too
    on another («06:00», «22:00, 5 декабря»)."""
    opens = timezone.localtime(door_opens_at(evening), club.zone)
    if opens.date() == timezone.localtime(now, club.zone).date():
        return date_format(opens, "H:i")
    return date_format(opens, "H:i, j E")


def _invisible(text: str) -> bool:
    return any(unicodedata.category(ch) in INVISIBLE for ch in text)


@dataclass(frozen=True)
class Added:
    registration: Registration
    seated: bool  # False: in the reserve
    place: int  # the seat number, or the reserve position


def _refuse_unless_running(evening: Evening) -> None:
    """The organiser changes an evening until it is over: finished or cancelled."""
    if evening.status == EveningStatus.CANCELLED:
        raise Refused(_("This evening is cancelled."), RefusalCode.CLOSED)
    if evening.status == EveningStatus.FINISHED:
        raise Refused(_("This evening is over."), RefusalCode.CLOSED)


def _evening(evening_id: int) -> Evening:
    evening = Evening.objects.filter(pk=evening_id).first()
    if evening is None:
        raise Refused(_("There is no such evening."), RefusalCode.NOT_FOUND)
    _refuse_unless_running(evening)
    return evening


def _log(
    evening_id: int,
    action: LineupAction,
    actor: User,
    registration: Registration | None = None,
    **fields: object,
) -> LineupChange:
    return LineupChange.objects.create(
        evening_id=evening_id, registration=registration, action=action, actor=actor, **fields
    )


def _log_promoted(evening_id: int, actor: User, promoted: list[Registration]) -> None:
    """The reserve's moves up that the organiser's action caused, one line each, after it."""
    LineupChange.objects.bulk_create(
        LineupChange(
            evening_id=evening_id,
            registration=registration,
            action=LineupAction.PROMOTED,
            actor=actor,
        )
        for registration in promoted
    )


def _added(evening: Evening, outcome: seating.Outcome) -> Added:
    written = outcome.written
    if not outcome.found:
        raise Refused(_("There is no such evening."), RefusalCode.NOT_FOUND)
    if written is None:
        _refuse_unless_running(Evening(status=outcome.status))
        raise Refused(_("Already on the evening's list."), RefusalCode.CONFLICT)
    for notification_id in written.notification_ids:
        notification_send_on_commit(notification_id)
    lineup_changed(evening.pk)
    registration = Registration.objects.select_related("member", "guest").get(
        pk=written.registration_id
    )
    return Added(registration, written.status == RegistrationStatus.CONFIRMED, written.place)


def _sign_up_by_organiser(
    evening: Evening,
    club: Club,
    now: datetime,
    *,
    member: User | None,
    guest_id: int | None,
) -> seating.Outcome:
    with speaking_to(member):
        when = texts.evening_when(evening, club)
        seat_text = texts.seat_confirmed(seat=seating.PLACE, capacity=evening.capacity, when=when)
        reserve_text = texts.in_reserve(position=seating.PLACE, when=when)
    return seating.sign_up(
        evening_id=evening.pk,
        member_id=member.pk if member is not None else None,
        guest_id=guest_id,
        source=RegistrationSource.LINEUP,
        held_back=False,  # the organiser's choice stands over the no-show rule
        held_back_sits=True,
        now=now,
        door=True,
        seat_text=seat_text,
        reserve_text=reserve_text,
        channels=member_channels(member) if member is not None else (),
    )


def lineup_add_member(
    *, evening_id: int, member_id: int, actor: User, now: datetime | None = None
) -> Added:
    """Put a member on the list: a free seat, else the end of the reserve; the member is
    told as at their own sign-up. Also after the start (a late arrival at the door)."""
    now = now or timezone.now()
    evening = _evening(evening_id)
    member = User.objects.filter(pk=member_id).first()
    if member is None:
        raise Refused(_("There is no such member."), RefusalCode.NOT_FOUND)
    if not roles.may_take_part(member):
        raise Refused(_("This member's membership is suspended or blocked."), RefusalCode.SUSPENDED)
    club = Club.current()
    refuse_unless_of_age_on_the_evening(member, evening, club)
    added = _added(evening, _sign_up_by_organiser(evening, club, now, member=member, guest_id=None))
    _log(evening.pk, LineupAction.ADDED, actor, added.registration)
    return added


def guest_clean(*, name: str, phone: str = "", telegram: str = "") -> tuple[str, str, str]:
    """A guest's name (1 to 32 characters, spaces folded, nothing invisible), phone (at most
    20 characters) and Telegram username (both optional), as stored; a refusal naming the
    field that is wrong. A field's length is checked before its characters are."""
    name, phone, telegram = name.strip(), phone.strip(), telegram.strip().removeprefix("@")
    if not 1 <= len(name) <= GUEST_NAME_MAX:
        raise Refused(
            _("A guest's name is 1 to 32 characters long."), RefusalCode.INVALID, fields={"name": 1}
        )
    if not storable_text(name) or _invisible(name):
        raise Refused(
            _("A guest's name cannot hold control characters or invisible ones."),
            RefusalCode.INVALID,
            fields={"name": 1},
        )
    name = normalize_nickname(name)
    if len(phone) > PHONE_MAX:
        raise Refused(
            _("A phone number is at most %(max)d characters long.") % {"max": PHONE_MAX},
            RefusalCode.INVALID,
            fields={"phone": 1},
        )
    if phone and not _PHONE.fullmatch(phone):
        raise Refused(
            _("A phone number is digits, with + ( ) - and spaces if you like."),
            RefusalCode.INVALID,
            fields={"phone": 1},
        )
    if telegram and not _TELEGRAM.fullmatch(telegram):
        raise Refused(
            _("A Telegram username is 5 to 32 letters, digits and _ and starts with a letter."),
            RefusalCode.INVALID,
            fields={"telegram": 1},
        )
    return name, phone, telegram


def refuse_unless_tells_apart(evening: Evening, name: str) -> None:
    """Refuse a guest's name (as guest_clean stored it) that could not be told apart on the
    evening's list or at its table, naming what it clashes with: a word that mixes
    alphabets, the site's own words for a guest or a hidden player («Гость», «Игрок 3»:
    accounts.validation.reads_as_a_site_word), a member's nickname, or another guest of the
    evening, in any letter case and in look-alike letters («петя» beside «Петя», «Вoрон»
    with a Latin «o» beside «Ворон»: accounts.lookalikes, the rule nicknames follow). The
    one check of every door that names a guest (the line-up's form is the only one: the
    host seats the evening's guests by id, games.starting)."""
    mixed = mixed_scripts_refusal(name)
    if mixed is not None:
        raise Refused(mixed, RefusalCode.INVALID, fields={"name": 1})
    site_word = reads_as_a_site_word(name)
    if site_word is not None:
        raise Refused(
            _(
                "The site writes «%(word)s» for a guest or a player whose name is not shown, "
                "so it cannot be a guest's name: write the guest's own name."
            )
            % {"word": site_word},
            RefusalCode.INVALID,
            fields={"name": 1},
        )
    looks = lookalike_key(name)
    member = (
        User.objects.filter(nickname_skeleton=looks)
        .order_by("date_joined", "pk")
        .values_list("nickname", flat=True)
        .first()
    )
    if member is not None and login_key(member) == login_key(name):
        raise Refused(
            _(
                "«%(nickname)s» is a member's nickname: a guest of that name could not be told "
                "apart from the member at the table. If this is the member, add them as a "
                "member; if not, add something to the guest's name (an initial, say)."
            )
            % {"nickname": member},
            RefusalCode.INVALID,
            fields={"name": 1},
        )
    if member is not None:
        raise Refused(
            _(
                "The name «%(name)s» looks too much like «%(nickname)s», a member's nickname: "
                "the two could not be told apart at the table. If this is the member, add "
                "them as a member; if not, add something to the guest's name (an initial, say)."
            )
            % {"name": name, "nickname": member},
            RefusalCode.INVALID,
            fields={"name": 1},
        )
    guests = Registration.objects.active().filter(evening=evening, guest__isnull=False)
    for other in guests.values_list("guest__name", flat=True).order_by("created_at", "pk"):
        if login_key(other) == login_key(name):
            # The same guest added twice (a form sent twice) is the likelier mistake.
            raise Refused(
                _(
                    "%(name)s is on this evening's list already. If this is someone else, add "
                    "something to the name to tell them apart (an initial, say)."
                )
                % {"name": other},
                RefusalCode.CONFLICT,
                fields={"name": 1},
            )
        if lookalike_key(other) == looks:
            raise Refused(
                _(
                    "The name «%(name)s» looks too much like «%(other)s», a guest on this "
                    "evening's list: add something to the name to tell them apart (an "
                    "initial, say)."
                )
                % {"name": name, "other": other},
                RefusalCode.INVALID,
                fields={"name": 1},
            )


def lineup_add_guest(
    *,
    evening_id: int,
    name: str,
    actor: User,
    of_age: bool,
    phone: str = "",
    telegram: str = "",
    now: datetime | None = None,
) -> Added:
    """Put a guest (no account: club.Guest) on the list, seat or reserve as anyone. The club
    is for adults, and a guest's age is the organiser's word: `of_age` says they vouched."""
    now = now or timezone.now()
    name, phone, telegram = guest_clean(name=name, phone=phone, telegram=telegram)
    club = Club.current()
    if not of_age:
        raise Refused(
            ngettext(
                "Confirm that the guest is %(age)d or over: the club is for adults.",
                "Confirm that the guest is %(age)d or over: the club is for adults.",
                club.min_age,
            )
            % {"age": club.min_age},
            RefusalCode.INVALID,
            fields={"of_age": 1},
        )
    evening = _evening(evening_id)
    refuse_unless_tells_apart(evening, name)
    guest = Guest.objects.create(name=name, phone=phone, telegram_username=telegram, added_by=actor)
    try:
        added = _added(
            evening, _sign_up_by_organiser(evening, club, now, member=None, guest_id=guest.pk)
        )
    except Refused:
        guest.delete()  # the evening ended meanwhile: no guest without a place
        raise
    _log(evening.pk, LineupAction.GUEST, actor, added.registration)
    return added


def _registration(evening: Evening, registration_id: int) -> Registration:
    registration = (
        Registration.objects.select_related("member", "guest")
        .filter(pk=registration_id, evening=evening)
        .first()
    )
    if registration is None:
        raise Refused(_("There is no such registration."), RefusalCode.NOT_FOUND)
    return registration


def _evening_of(registration_id: int) -> int:
    evening_id = (
        Registration.objects.filter(pk=registration_id).values_list("evening_id", flat=True).first()
    )
    if evening_id is None:
        raise Refused(_("There is no such registration."), RefusalCode.NOT_FOUND)
    return evening_id


def lineup_move_to_seat(*, registration_id: int, actor: User, now: datetime | None = None) -> Added:
    """Seat someone from the reserve ahead of its order (a deliberate override, logged).
    With no free seat they go to the front of the reserve: the next freed seat is theirs."""
    now = now or timezone.now()
    club = Club.current()
    with transaction.atomic(durable=True):
        evening = lock_evening(_evening_of(registration_id))
        _refuse_unless_running(evening)
        registration = _registration(evening, registration_id)
        if registration.status == RegistrationStatus.CONFIRMED:
            raise Refused(_("Has a seat already."), RefusalCode.CONFLICT)
        if registration.status != RegistrationStatus.RESERVE:
            raise Refused(_("Not on the list any more."), RefusalCode.CONFLICT)
        front = (
            Registration.objects.reserve().filter(evening=evening).values_list("arrival", flat=True)
        )
        # The organiser's move is also their approval of a visitor (Club.visitors).
        registration.held_back = registration.awaiting_approval = False
        if seats_free(evening):
            registration.status = RegistrationStatus.CONFIRMED
            registration.promoted_at = now
            registration.save(
                update_fields=["status", "promoted_at", "held_back", "awaiting_approval"]
            )
            if registration.member is not None:
                with speaking_to(registration.member):
                    notification_enqueue(
                        dedupe_key=f"promoted:{registration.pk}:{registration.arrival}",
                        member=registration.member,
                        text=texts.promoted(
                            seat=evening_lineup(evening).seat_of(registration) or 0,
                            capacity=evening.capacity,
                            when=texts.evening_when(evening, club),
                        ),
                        buttons=[[buttons.confirm(evening.pk), buttons.cancel(evening.pk)]],
                        link=texts.evening_link(evening),
                    )
        else:
            registration.arrival = min(front) - 1
            registration.save(update_fields=["arrival", "held_back", "awaiting_approval"])
        _log(evening.pk, LineupAction.MOVED, actor, registration)
        lineup_changed(evening.pk)
    lineup = evening_lineup(evening)
    seat = lineup.seat_of(registration)
    place = seat if seat is not None else lineup.position_of(registration)
    return Added(registration, seat is not None, place or 0)


# What a removal makes of the registration: a no-show is what the no-show rule counts;
# someone who left came; a call is a cancellation, as the member's own.
_REMOVED_AS = {
    RemovalReason.NO_SHOW: RegistrationStatus.NO_SHOW,
    RemovalReason.LEFT: RegistrationStatus.ATTENDED,
    RemovalReason.BY_PHONE: RegistrationStatus.CANCELLED,
}


@dataclass(frozen=True)
class Removed:
    registration: Registration
    reason: RemovalReason
    had_seat: bool  # False: was in the reserve
    promoted: list[Registration]  # who moved up from the reserve into the freed seat


def lineup_remove(
    *, registration_id: int, reason: str, actor: User, now: datetime | None = None
) -> Removed:
    """Take someone off the list or the reserve, for a reason. A freed seat goes to the
    reserve at once before the start (as a member's own cancellation does); after it the
    organiser seats whom they choose (lineup_move_to_seat), since the reserve may not be there."""
    if reason not in RemovalReason.values:
        raise Refused(
            _("Choose why: did not come, left, or asked by phone."),
            RefusalCode.INVALID,
            fields={"reason": 1},
        )
    removal = RemovalReason(reason)
    now = now or timezone.now()
    club = Club.current()
    with transaction.atomic(durable=True):
        evening = lock_evening(_evening_of(registration_id))
        _refuse_unless_running(evening)
        # Nobody «did not come» or «left» before the door opens: days before the evening
        # that would count a no-show (and tell the member so) for an evening not yet held.
        if removal != RemovalReason.BY_PHONE and not door_open(evening, now):
            raise Refused(
                _(
                    "Until the door opens (%(opens)s), someone is taken off the list only "
                    "at their own request by phone."
                )
                % {"opens": door_opens_text(evening, now, club)},
                RefusalCode.NOT_OPEN,
                fields={"reason": 1},
            )
        registration = _registration(evening, registration_id)
        if registration.status not in (RegistrationStatus.CONFIRMED, RegistrationStatus.RESERVE):
            raise Refused(_("Not on the list any more."), RefusalCode.CONFLICT)
        refuse_unless_off_the_tables(registration, no_show=removal == RemovalReason.NO_SHOW)
        had_seat = registration.status == RegistrationStatus.CONFIRMED
        # The log's line keeps the place as it was: what an undo puts back (lineup_remove_undo).
        change = _log(
            evening.pk,
            LineupAction.REMOVED,
            actor,
            registration,
            reason=removal,
            undo_until=now + REMOVAL_UNDO,
            prior_status=registration.status,
            prior_arrival=registration.arrival,
            prior_leaves_at=registration.leaves_at,
        )
        registration.status = _REMOVED_AS[removal]
        registration.leaves_at = None
        if removal == RemovalReason.BY_PHONE:
            registration.cancelled_at = now
        if removal == RemovalReason.LEFT:
            registration.left_at = now
        registration.save(update_fields=["status", "leaves_at", "cancelled_at", "left_at"])
        if registration.member is not None and removal != RemovalReason.LEFT:
            with speaking_to(registration.member):
                when = texts.evening_when(evening, club)
                notification_enqueue(
                    # By the log's line: removed again after an undo, the member is told again.
                    dedupe_key=f"removed:{registration.pk}:{registration.arrival}:{change.pk}",
                    member=registration.member,
                    text=texts.removed_by_phone(had_seat=had_seat, when=when)
                    if removal == RemovalReason.BY_PHONE
                    else texts.removed_no_show(when=when),
                )
        promoted = fill_seats(evening, club, now) if had_seat and now < evening.starts_at else []
        _log_promoted(evening.pk, actor, promoted)
        lineup_changed(evening.pk)
    return Removed(registration, removal, had_seat, promoted)


class UndoneAs(StrEnum):
    """Where an undone removal put the place back."""

    SEAT = "seat"  # the seat it had, still free
    RESERVE = "reserve"  # its place in the reserve, by its arrival
    # It had a seat, which went to the reserve meanwhile: whoever took it keeps it (they
    # were told it is theirs), and the place waits first in the reserve for the next one.
    RESERVE_FRONT = "reserve_front"


@dataclass(frozen=True)
class Restored:
    registration: Registration
    undone_as: UndoneAs
    place: int  # the seat number, or the reserve position
    promoted: list[Registration]  # who moved up from the reserve as a result (rarely anyone)


def removal_undo_refusal(
    change: LineupChange, registration: Registration, now: datetime
) -> Refused | None:
    """Why the removal logged as `change` cannot be taken back now, or None: once, within
    REMOVAL_UNDO, and only while the place is still as the removal left it (not put back
    on the list since, by an undo or a new sign-up)."""
    if registration.status in (RegistrationStatus.CONFIRMED, RegistrationStatus.RESERVE):
        return Refused(_("Back on the list already."), RefusalCode.CONFLICT)
    if (
        change.undo_until is None
        or change.reason not in RemovalReason.values
        or registration.status != _REMOVED_AS[RemovalReason(change.reason)]
        or registration.arrival != change.prior_arrival
    ):
        return Refused(
            _("This removal can no longer be taken back: the sign-up has changed since."),
            RefusalCode.CONFLICT,
        )
    if now >= change.undo_until:
        minutes = int(REMOVAL_UNDO.total_seconds()) // 60
        return Refused(
            ngettext(
                "Too late: a removal can be taken back for %(minutes)d minute only. Add them "
                "to the list again instead.",
                "Too late: a removal can be taken back for %(minutes)d minutes only. Add them "
                "to the list again instead.",
                minutes,
            )
            % {"minutes": minutes},
            RefusalCode.CONFLICT,
        )
    return None


def removals_to_undo(evening: Evening, now: datetime) -> dict[int, LineupChange]:
    """The evening's removals that can be taken back now, by the registration they took
    off: what the line-up screen offers «Вернуть» for."""
    recent = (
        LineupChange.objects.filter(
            evening=evening, action=LineupAction.REMOVED, undo_until__gt=now
        )
        .select_related("registration")
        .order_by("pk")
    )
    latest: dict[int, tuple[LineupChange, Registration]] = {}
    for change in recent:  # in order: a registration's latest removal last
        if change.registration is not None:
            latest[change.registration.pk] = (change, change.registration)
    return {
        registration_id: change
        for registration_id, (change, registration) in latest.items()
        if removal_undo_refusal(change, registration, now) is None
    }


def lineup_remove_undo(
    *, registration_id: int, change_id: int, actor: User, now: datetime | None = None
) -> Restored:
    """Take a removal back within REMOVAL_UNDO: the same sign-up, with its arrival, goes
    back where it was, a seat or its place in the reserve. A seat the reserve took meanwhile
    stays with whoever took it (they were told it is theirs); the place then waits first in
    the reserve for the next free seat. A member who was told of the removal is told they
    are back, in their language."""
    now = now or timezone.now()
    club = Club.current()
    with transaction.atomic(durable=True):
        evening = lock_evening(_evening_of(registration_id))
        _refuse_unless_running(evening)
        registration = _registration(evening, registration_id)
        change = LineupChange.objects.filter(
            pk=change_id, registration=registration, action=LineupAction.REMOVED
        ).first()
        if change is None:
            raise Refused(_("There is no such removal."), RefusalCode.NOT_FOUND)
        refusal = removal_undo_refusal(change, registration, now)
        if refusal is not None:
            raise refusal
        member = registration.member
        if member is not None and not roles.may_take_part(member):
            raise Refused(
                _("This member's membership is suspended or blocked."), RefusalCode.SUSPENDED
            )
        undone_as = _put_back(evening, registration, change)
        change.undo_until = None  # taken back once: a later removal has its own undo
        change.save(update_fields=["undo_until"])
        restored = _log(evening.pk, LineupAction.RESTORED, actor, registration)
        promoted: list[Registration] = []
        if undone_as == UndoneAs.RESERVE and now < evening.starts_at:
            # Back in the reserve beside a free seat (the no-show rule left it free): the
            # reserve's own rule says who takes it, as at a sign-up.
            promoted = fill_seats(evening, club, now)
            _log_promoted(evening.pk, actor, promoted)
        lineup = evening_lineup(evening)
        registration.refresh_from_db(fields=["status"])
        seat = lineup.seat_of(registration)
        place = seat if seat is not None else lineup.position_of(registration) or 0
        if (
            member is not None
            and change.reason != RemovalReason.LEFT
            and registration not in promoted
        ):
            # Told of the removal (someone who left was not): told they are back. A place
            # the reserve's rule seated at once was told so by the promotion.
            with speaking_to(member):
                when = texts.evening_when(evening, club)
                if seat is not None:
                    text = texts.removal_undone_seat(
                        seat=seat, capacity=evening.capacity, when=when
                    )
                elif undone_as == UndoneAs.RESERVE_FRONT:
                    text = texts.removal_undone_seat_taken(when=when)
                else:
                    text = texts.removal_undone_reserve(position=place, when=when)
                notification_enqueue(
                    dedupe_key=f"restored:{registration.pk}:{restored.pk}",
                    member=member,
                    text=text,
                    link=texts.evening_link(evening),
                )
        lineup_changed(evening.pk)
    if seat is not None:
        undone_as = UndoneAs.SEAT  # a reserve place that took a free seat at once
    return Restored(registration, undone_as, place, promoted)


def _put_back(evening: Evening, registration: Registration, change: LineupChange) -> UndoneAs:
    """The place as the removal found it: its status, arrival and any «Не смогу» still
    running out (leaves_at); a seat taken meanwhile makes it the reserve's first. The
    evening is locked."""
    registration.leaves_at = change.prior_leaves_at
    registration.cancelled_at = None
    registration.left_at = None
    if change.prior_status != RegistrationStatus.CONFIRMED:
        undone_as = UndoneAs.RESERVE
        registration.status = RegistrationStatus.RESERVE
    elif seats_free(evening):
        undone_as = UndoneAs.SEAT
        registration.status = RegistrationStatus.CONFIRMED
    else:
        undone_as = UndoneAs.RESERVE_FRONT
        registration.status = RegistrationStatus.RESERVE
        registration.held_back = False
        registration.arrival = _front_of_the_reserve(evening, registration)
    registration.save(
        update_fields=["status", "arrival", "held_back", "leaves_at", "cancelled_at", "left_at"]
    )
    return undone_as


def _front_of_the_reserve(evening: Evening, registration: Registration) -> int:
    """An arrival before everyone waiting and its own, that no place of the evening has:
    a new number, since the outbox keys of a promotion name the arrival (one this place was
    promoted under before is taken), and never another's, so no two seats tie in order."""
    taken = set(Registration.objects.filter(evening=evening).values_list("arrival", flat=True))
    waiting = Registration.objects.reserve().filter(evening=evening)
    arrival = min([registration.arrival, *waiting.values_list("arrival", flat=True)]) - 1
    while arrival in taken:
        arrival -= 1
    return arrival


def lineup_check_in(
    *, registration_id: int, actor: User, came: bool = True, now: datetime | None = None
) -> Registration:
    """One tap at the door: whoever holds a seat came (`came=False` takes a mistaken tap
    back). Tapped twice, the first time stands: a second tap that says the same changes
    nothing, and one that reverses the organiser's own tap on the row within DOUBLE_TAP
    (wall-clock time, as the log's) is the same finger's double tap and changes nothing
    either."""
    now = now or timezone.now()
    with transaction.atomic(durable=True):
        evening = lock_evening(_evening_of(registration_id))
        _refuse_unless_running(evening)
        if not door_open(evening, now):
            raise Refused(
                _("Check-in opens at %(opens)s.")
                % {"opens": door_opens_text(evening, now, Club.current())},
                RefusalCode.NOT_OPEN,
            )
        registration = _registration(evening, registration_id)
        if registration.status == RegistrationStatus.RESERVE:
            raise Refused(_("In the reserve: move them to a seat first."), RefusalCode.CONFLICT)
        if registration.status != RegistrationStatus.CONFIRMED:
            raise Refused(_("Not on the list any more."), RefusalCode.CONFLICT)
        if came == (registration.checked_in_at is not None):
            return registration
        if _double_tap(registration, actor):
            return registration
        registration.checked_in_at = now if came else None
        registration.save(update_fields=["checked_in_at"])
        taken_back = "" if came else LineupChange.TAKEN_BACK
        _log(evening.pk, LineupAction.CHECKED_IN, actor, registration, text=taken_back)
    return registration


def _double_tap(registration: Registration, actor: User) -> bool:
    """Whether the actor's last door tap on this row was less than DOUBLE_TAP ago."""
    last = (
        LineupChange.objects.filter(
            registration=registration, action=LineupAction.CHECKED_IN, actor=actor
        )
        .order_by("-pk")
        .values_list("created_at", flat=True)
        .first()
    )
    return last is not None and timezone.now() - last < DOUBLE_TAP


def evening_settle_attendance(*, evening_id: int) -> bool:
    """When an evening finishes, the door's taps become the attendance the no-show rule
    reads: a seat tapped in is attended, a seat never tapped a no-show. Only for an evening
    whose door was kept (someone was tapped in): without taps nobody is called a no-show.
    Returns whether the door was kept, so that every seat's attendance is recorded and
    nobody is asked to mark it again (club/scheduling.py's prompt)."""
    with transaction.atomic():
        seated = Registration.objects.confirmed().filter(evening_id=evening_id)
        if not seated.filter(checked_in_at__isnull=False).exists():
            return False
        seated.filter(checked_in_at__isnull=False).update(status=RegistrationStatus.ATTENDED)
        seated.filter(checked_in_at__isnull=True).update(status=RegistrationStatus.NO_SHOW)
        return True


def second_table_refusal(evening: Evening, people: int, club: Club) -> Refused | None:
    """Why a second table cannot be opened now, or None: once, and when the list and the
    reserve hold two tables' minimum."""
    if evening.tables >= MAX_TABLES:
        return Refused(_("The second table is open already."), RefusalCode.CONFLICT)
    need = MAX_TABLES * club.min_players
    if people < need:
        return Refused(
            ngettext(
                "A second table needs %(need)d person on the list and in the reserve; "
                "there are %(count)d.",
                "A second table needs %(need)d people on the list and in the reserve; "
                "there are %(count)d.",
                need,
            )
            % {"need": need, "count": people},
            RefusalCode.CONFLICT,
        )
    return None


def evening_open_second_table(
    *, evening_id: int, actor: User, now: datetime | None = None
) -> list[Registration]:
    """Open a second table: the capacity becomes two tables' and the reserve moves up in its
    order, each promoted member told. Returns the promoted."""
    now = now or timezone.now()
    club = Club.current()
    with transaction.atomic(durable=True):
        evening = lock_evening(evening_id)
        _refuse_unless_running(evening)
        people = Registration.objects.active().filter(evening=evening).count()
        refusal = second_table_refusal(evening, people, club)
        if refusal is not None:
            raise refusal
        evening.capacity *= MAX_TABLES
        evening.tables = MAX_TABLES
        evening.save(update_fields=["capacity", "tables"])
        # The organiser's action: the reserve moves up now, also after the start.
        promoted = fill_seats(evening, club, now, second_table=True)
        _log(evening.pk, LineupAction.SECOND_TABLE, actor)
        _log_promoted(evening.pk, actor, promoted)
        lineup_changed(evening.pk)
    return promoted


@dataclass(frozen=True)
class Reach:
    members: int  # the members the message was written to
    reached: int  # of them, those with a channel to receive it (queued in the outbox)
    unreachable: list[str]  # the nicknames of the rest
    guests: int = 0  # guests on the list (or in the reserve, if asked): no channel at all


_REACHES = {
    NotificationChannel.TELEGRAM: telegram_reaches,
    NotificationChannel.EMAIL: email_reaches,
}


def _tell_from_organiser(
    member: User, evening: Evening, club: Club, *, dedupe_key: str, text: str
) -> bool:
    """Send the organiser's `text` by the member's channels through the outbox (a row per
    channel), framed in the member's language (the organiser's words stay as written).
    True when one of them can reach the member (a linked, unblocked Telegram; an email)."""
    with speaking_to(member):
        when = texts.evening_when(evening, club)
        member_notify(
            member=member,
            dedupe_key=dedupe_key,
            text=texts.evening_message(when=when, text=text),
            subject=texts.evening_message_subject(when=when),
            link=texts.evening_link(evening),
        )
    return any(_REACHES[channel](member) for channel in member_channels(member))


def evening_message(
    *,
    evening_id: int,
    text: str,
    actor: User,
    include_reserve: bool = False,
    now: datetime | None = None,
) -> Reach:
    """The organiser's one message («начинаем в 18:30») to every member on the list (and
    the reserve if asked), each told once; guests have no channel and are not counted."""
    text = text.strip()
    if not 1 <= len(text) <= MAX_MESSAGE or not storable_text(text):
        raise Refused(
            _("A message is 1 to %(max)d characters long.") % {"max": MAX_MESSAGE},
            RefusalCode.INVALID,
            fields={"text": 1},
        )
    club = Club.current()
    with transaction.atomic(durable=True):
        evening = lock_evening(evening_id)
        _refuse_unless_running(evening)
        statuses = [RegistrationStatus.CONFIRMED]
        if include_reserve:
            statuses.append(RegistrationStatus.RESERVE)
        listed = list(
            Registration.objects.filter(evening=evening, status__in=statuses)
            .select_related("member")
            .order_by("status", "arrival")
        )
        members = [r.member for r in listed if r.member is not None]
        change = _log(evening.pk, LineupAction.MESSAGE, actor, text=text)
        unreachable = [
            member.nickname
            for member in members
            if not _tell_from_organiser(
                member,
                evening,
                club,
                dedupe_key=f"{_message_key(change.pk)}{member.pk}",
                text=text,
            )
        ]
        change.reached = len(members) - len(unreachable)
        change.save(update_fields=["reached"])
    return Reach(
        len(members), len(members) - len(unreachable), unreachable, len(listed) - len(members)
    )


def _message_key(change_id: int) -> str:
    """The start of the outbox keys of the message logged as `change_id` (a row per member
    and channel follows it)."""
    return f"evening-message:{change_id}:"


@dataclass(frozen=True)
class Undelivered:
    member: User | None
    channel: str  # the channel's name, as the organiser reads it
    reason: str  # as the mail server or Telegram gave it


@dataclass(frozen=True)
class Delivery:
    """What the outbox has done with a message to the evening so far: rows sent, rows still
    to go (retries included), and the rows that failed, each with its reason."""

    sent: int = 0
    waiting: int = 0
    failed: tuple[Undelivered, ...] = ()


def message_deliveries(change_ids: list[int]) -> dict[int, Delivery]:
    """The delivery of each message among `change_ids`, read from the outbox: what the
    organiser sees under the message in the line-up's log (a letter refused for good names
    the member and the server's reason; one refused for now is still waiting)."""
    if not change_ids:
        return {}
    wanted = Q()
    for change_id in change_ids:
        wanted |= Q(dedupe_key__startswith=_message_key(change_id))
    counts: dict[int, dict[str, int]] = {}
    failed: dict[int, list[Undelivered]] = {}
    for row in Notification.objects.filter(wanted).select_related("member").order_by("pk"):
        change_id = int(row.dedupe_key.split(":")[1])
        by_status = counts.setdefault(change_id, {})
        by_status[row.status] = by_status.get(row.status, 0) + 1
        if row.status == NotificationStatus.FAILED:
            channel = str(NotificationChannel(row.channel).label)
            undelivered = Undelivered(row.member, channel, row.last_error)
            failed.setdefault(change_id, []).append(undelivered)
    return {
        change_id: Delivery(
            sent=by_status.get(NotificationStatus.SENT, 0),
            waiting=by_status.get(NotificationStatus.PENDING, 0)
            + by_status.get(NotificationStatus.SENDING, 0),
            failed=tuple(failed.get(change_id, ())),
        )
        for change_id, by_status in counts.items()
    }


def search_text(raw: str) -> str:
    """What a typed search means: invisible characters taken out (a nickname copied from a
    chat may carry zero-width spaces or direction marks), compatibility forms folded (NFKC:
    «Ｌｉｓａ» is «Lisa»), spaces folded. Refused when longer than a nickname can be."""
    if len(raw) > SEARCH_READ:
        raise Refused(_search_too_long(), RefusalCode.INVALID, fields={"q": 1})
    visible = "".join(
        " " if ch.isspace() else ch
        for ch in raw
        if ch.isspace() or unicodedata.category(ch) not in INVISIBLE
    )
    text = normalize_nickname(unicodedata.normalize("NFKC", visible))
    if len(text) > SEARCH_MAX:
        raise Refused(_search_too_long(), RefusalCode.INVALID, fields={"q": 1})
    return text


def _search_too_long() -> str:
    return _("No nickname is longer than %(max)d characters: shorten the search.") % {
        "max": SEARCH_MAX
    }


def members_to_add(*, evening: Evening, query: str) -> list[User]:
    """Active members whose nickname holds `query` and who are not on the list already: at
    most FOUND_LIMIT, in one query, whatever was typed (search_text bounds it).

    The query is matched as the nickname looks: in any letter case, «ё» as «е», a look-alike
    letter (a Latin «a» in «Лисa», a zero for an «О») as the letter it looks like (the
    nickname's TR39 skeleton, accounts/lookalikes.py), and every other character as itself
    («%» and «_» are no wildcards). Nicknames that begin with the query come first, then
    those that hold it as typed, then look-alikes only."""
    text = search_text(query)
    if not text:
        return []
    typed = login_key(text).replace("ё", "е")
    looks = lookalike_key(text).replace(_DIAERESIS, "")
    on_list = Registration.objects.active().filter(evening=evening, member__isnull=False)
    return list(
        User.objects.filter(is_active=True)
        .exclude(pk__in=roles.barred_member_ids())
        .annotate(
            typed=Replace(F("nickname_key"), Value("ё"), Value("е")),
            looks=Replace(F("nickname_skeleton"), Value(_DIAERESIS), Value("")),
        )
        .filter(Q(typed__contains=typed) | Q(looks__contains=looks))
        .exclude(pk__in=on_list.values("member_id"))
        .annotate(
            rank=Case(
                When(typed__startswith=typed, then=Value(0)),
                When(typed__contains=typed, then=Value(1)),
                default=Value(2),
            )
        )
        .order_by("rank", "nickname_key", "pk")[:FOUND_LIMIT]
    )
