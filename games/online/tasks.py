from celery import shared_task
from django.utils import timezone

from club.kernel.tenancy import each_club_of
from games.models import Game, GameStatus
from games.online import sweep


@shared_task(ignore_result=True)
def online_sweep() -> int:
    """Every minute: move each online game on whose deadline has passed, club by club, in
    each club that has one due (one query finds them across the clubs)."""
    now = timezone.now()
    due = Game.all_clubs.filter(status=GameStatus.RUNNING, online__deadline_at__lte=now)
    return sum(sweep.online_sweep(now) for _club in each_club_of(due))
