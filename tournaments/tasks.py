from celery import shared_task
from django.utils import timezone

from club.kernel.tenancy import each_club_of
from tournaments import services
from tournaments.models import Tournament


@shared_task(ignore_result=True)
def tournaments_sweep() -> int:
    """Every minute: tell each tournament's next round to its players once it is due, in
    each club with a tournament running (one query finds them across the clubs)."""
    now = timezone.now()
    running = Tournament.all_clubs.filter(
        finished_at__isnull=True, evening__starts_at__lte=now + services.FIRST_ROUND_TOLD
    )
    return sum(services.tournaments_sweep(now=now) for _club in each_club_of(running))
