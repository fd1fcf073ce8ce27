"""The club's week, as sweeps that look in the database for what is due.

Each sweep is idempotent and catch-up safe: run twice it does nothing more, and after beat
was down for days it does what is still due, once, and nothing stale (no evening in the
past, no reminder for an evening that has happened, no announcement twice). Celery beat runs
`club.tasks.schedule_sweep`, which runs them all in order, every few minutes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from accounts import roles
from accounts.languages import speaking_to
from club import buttons, queries, services, texts
from club.announcements import evening_announce_signup
from club.calendar import EVENING_LENGTH
from club.kernel.clubs import Club
from club.kernel.errors import Refused
from club.lineup import evening_settle_attendance
from club.models import Evening, EveningStatus, RegistrationStatus
from club.schedule import next_evening_start, signup_opens_at
from notifications.services import notification_enqueue

logger = logging.getLogger(__name__)

# Reminders go out on the evening's day from this local hour.
REMINDER_FROM = time(10, 0)


@dataclass
class SweepReport:
    created: list[int] = field(default_factory=list)
    announced: list[int] = field(default_factory=list)
    reminded: list[int] = field(default_factory=list)
    released: list[int] = field(default_factory=list)
    finished: list[int] = field(default_factory=list)
    repaired: list[int] = field(default_factory=list)


def slot_filled(starts_at: datetime, club: Club) -> bool:
    """The weekly slot of `starts_at` (a weekly start) is filled: by the evening the
    schedule made for it (wherever it was moved, even cancelled), or by any evening an
    admin put on that day."""
    slot = starts_at.astimezone(club.zone).date()
    day_start = datetime.combine(slot, time.min, tzinfo=club.zone)
    filled = Evening.objects.filter(scheduled_for=slot) | Evening.objects.filter(
        starts_at__gte=day_start, starts_at__lt=day_start + timedelta(days=1)
    )
    return filled.exists()


def next_free_evening_start(*, now: datetime, club: Club) -> datetime:
    """The first weekly start after `now` whose slot no evening fills: what the admin's
    «Добавить вечер» offers (on a game day before the start, the evening of that day
    exists, so it offers the week after), never the start of an evening there is."""
    starts_at = next_evening_start(club, now)
    while slot_filled(starts_at, club):
        starts_at = next_evening_start(club, starts_at)
    return starts_at


def evening_ensure_next(*, now: datetime, club: Club) -> Evening | None:
    """Make the next weekly evening unless its slot is filled (even by a moved or cancelled
    evening). Only ever the next one: never an evening in the past."""
    starts_at = next_evening_start(club, now)
    if slot_filled(starts_at, club):
        return None
    slot = starts_at.astimezone(club.zone).date()
    try:
        with transaction.atomic():
            return Evening.objects.create(
                starts_at=starts_at,
                venue=club.venue,
                capacity=club.seats_per_evening,
                opens_at=signup_opens_at(club, starts_at),
                scheduled_for=slot,
            )
    except IntegrityError:
        # Another sweep made it a moment ago, or an admin put an evening at its start
        # (the slot's mark or one evening per start, club/models.py).
        return None


def _claim(evening_id: int, mark: str, now: datetime, **conditions: object) -> bool:
    """Set a once-only mark on the evening; True for the one caller that set it."""
    return bool(
        Evening.objects.filter(pk=evening_id, **{f"{mark}__isnull": True}, **conditions).update(
            **{mark: now}
        )
    )


def schedule_sweep(*, now: datetime | None = None) -> SweepReport:
    now = now or timezone.now()
    club = Club.current()
    report = SweepReport()
    created = evening_ensure_next(now=now, club=club)
    if created is not None:
        report.created.append(created.pk)
    live = Evening.objects.filter(status=EveningStatus.SCHEDULED, starts_at__gt=now)
    for evening in live.filter(opens_at__lte=now, signup_announced_at__isnull=True):
        if _claim(evening.pk, "signup_announced_at", now):
            evening_announce_signup(evening_id=evening.pk)
            report.announced.append(evening.pk)
    deadline = timedelta(hours=club.confirmation_deadline_hours)
    for evening in live.filter(reminders_sent_at__isnull=True):
        local_day = timezone.localtime(evening.starts_at, club.zone).date()
        remind_from = datetime.combine(local_day, REMINDER_FROM, tzinfo=club.zone)
        if remind_from <= now < evening.starts_at - deadline and _claim(
            evening.pk, "reminders_sent_at", now
        ):
            _remind(evening, club)
            report.reminded.append(evening.pk)
    for evening in live.filter(starts_at__lte=now + deadline):
        if services.evening_release_unconfirmed(evening_id=evening.pk, now=now):
            report.released.append(evening.pk)
        services.evening_fill_seats(evening_id=evening.pk, now=now)  # the last call
    report.repaired = evenings_repair_seats(now=now)
    over = Evening.objects.filter(
        status__in=[EveningStatus.SCHEDULED, EveningStatus.CLOSED],
        starts_at__lte=now - EVENING_LENGTH,
    )
    for evening in over:
        if Evening.objects.filter(pk=evening.pk, status=evening.status).update(
            status=EveningStatus.FINISHED
        ):
            # Attendance the door recorded is not asked for again: the admins are asked
            # to mark who came only for an evening whose door nobody kept.
            if not evening_settle_attendance(evening_id=evening.pk):
                _prompt_admins(evening, club)
            report.finished.append(evening.pk)
    return report


def evenings_repair_seats(*, now: datetime) -> list[int]:
    """Find the evenings not yet started whose free seats and waiting reserve coexist (a
    member not held back waits while a seat is free: a row changed outside the services, as
    an admin's delete once did) and promote in order, saying so in the log. Held-back members
    waiting beside free seats are the no-show rule at work, not a fault."""
    confirmed = Count("registrations", filter=Q(registrations__status=RegistrationStatus.CONFIRMED))
    waiting = Count(
        "registrations",
        filter=Q(registrations__status=RegistrationStatus.RESERVE, registrations__held_back=False),
    )
    broken = (
        Evening.objects.filter(
            status__in=[EveningStatus.SCHEDULED, EveningStatus.CLOSED], starts_at__gt=now
        )
        .annotate(confirmed=confirmed, waiting=waiting)
        .filter(confirmed__lt=F("capacity"), waiting__gt=0)
        .values_list("pk", "capacity", "confirmed", "waiting")
    )
    repaired = []
    for evening_id, capacity, seated, waiting_count in broken:
        try:
            promoted = services.evening_fill_seats(evening_id=evening_id, now=now)
        except Refused:  # started or cancelled meanwhile: no seat to give any more
            continue
        logger.warning(
            "Evening %d had %d free seats while %d waited in the reserve: repaired, "
            "%d promoted in order",
            evening_id,
            capacity - seated,
            waiting_count,
            len(promoted),
        )
        repaired.append(evening_id)
    return repaired


def _remind(evening: Evening, club: Club) -> None:
    lineup = queries.evening_lineup(evening)
    with transaction.atomic():
        for seat, registration in enumerate(lineup.confirmed, start=1):
            if registration.member is None or not registration.member.reminders:
                continue  # the seat number stays the member's place among all the seated
            with speaking_to(registration.member):
                keys = (
                    []
                    if registration.attendance_confirmed_at
                    else [[buttons.confirm(evening.pk), buttons.cancel(evening.pk)]]
                )
                notification_enqueue(
                    dedupe_key=f"reminder:{registration.pk}:{registration.arrival}",
                    member=registration.member,
                    text=texts.reminder(when=texts.evening_when(evening, club), seat=seat),
                    buttons=keys,
                    link=texts.evening_link(evening),  # a letter's way to confirm
                )


def _prompt_admins(evening: Evening, club: Club) -> None:
    # Each admin by their own channels: one without Telegram is told by email.
    admins = roles.club_staff(club)
    with transaction.atomic():
        for admin in admins:
            with speaking_to(admin):
                notification_enqueue(
                    dedupe_key=f"mark-no-shows:{evening.pk}:{admin.pk}",
                    member=admin,
                    text=texts.mark_no_shows(when=texts.evening_when(evening, club)),
                )
