from celery import shared_task
from django.contrib.sessions.models import Session
from django.utils import timezone


@shared_task
def clear_expired_sessions() -> int:
    """Delete expired login sessions, so the session table does not grow without end."""
    deleted, _details = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted


@shared_task
def schedule_sweep() -> dict[str, list[int]]:
    """The club's week: make, open, announce, remind, release, finish (club/scheduling.py)."""
    from dataclasses import asdict

    from club.scheduling import schedule_sweep as sweep

    return asdict(sweep())
