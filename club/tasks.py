import sqlite3
from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone


@shared_task
def clear_expired_sessions() -> int:
    """Delete expired login sessions, so the session table does not grow without end."""
    deleted, _details = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted


@shared_task
def housekeeping() -> None:
    """Every few hours: forget what has expired, so no table grows without end. The
    platform's own tables (sessions, used signatures, the broker's), no club's rows."""
    from accounts.models import UsedSignature

    clear_expired_sessions()
    UsedSignature.objects.filter(expires_at__lt=timezone.now()).delete()
    tidy_embedded_broker()


def tidy_embedded_broker() -> int:
    """The embedded broker (kombu's SQLAlchemy transport) keeps every delivered message,
    marked invisible; drop those older than an hour. Nothing to do on Redis."""
    database = getattr(settings, "BROKER_DATABASE", None)
    if database is None:
        return 0
    # The transport stamps a message (its `timestamp` column, naive local time) when it is
    # delivered, which is when it becomes invisible.
    before = (datetime.now() - timedelta(hours=1)).isoformat(sep=" ")
    with sqlite3.connect(database, timeout=30) as broker:
        try:
            cursor = broker.execute(
                "DELETE FROM kombu_message WHERE visible = 0 AND timestamp < ?", [before]
            )
        except sqlite3.OperationalError:  # no message table yet
            return 0
        return cursor.rowcount


@shared_task
def schedule_sweep() -> list[int]:
    """Beat, every few minutes: each club's week in a task of its own, queued in the club's
    scope (a club whose announcement is slow holds up only itself); returns the clubs."""
    from club.kernel import tenancy
    from club.kernel.queueing import publish

    return [club_id for club_id in tenancy.each_club() if publish("club.tasks.club_schedule_sweep")]


@shared_task
def club_schedule_sweep() -> dict[str, list[int]]:
    """The week of the club in scope, in its time zone: make, open, announce, remind,
    release, finish (club/scheduling.py)."""
    from dataclasses import asdict

    from club.scheduling import schedule_sweep as sweep

    return asdict(sweep())


@shared_task
def registration_leave(registration_id: int) -> bool:
    """The end of a «Не смогу» undo window: the place is given up (club/services.py)."""
    from club.services import registration_leave as leave

    return leave(registration_id=registration_id)


@shared_task
def registrations_leave_due() -> int:
    """Each minute: places whose undo window ended while their task was lost, in each club
    that has one (one query finds them across the clubs)."""
    from club.kernel.tenancy import each_club_of
    from club.models import Registration
    from club.services import registrations_leave_due as sweep

    now = timezone.now()
    return sum(sweep(now=now) for _club in each_club_of(Registration.all_clubs.leaving_due(now)))


@shared_task(ignore_result=True)
def lineup_sync(evening_id: int) -> None:
    """The evening's line-up in the club's group, brought up to date (club/announcements.py)."""
    from club.announcements import evening_lineup_sync

    evening_lineup_sync(evening_id=evening_id)
