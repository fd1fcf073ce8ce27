from celery import shared_task

from games.online import sweep


@shared_task(ignore_result=True)
def online_sweep() -> None:
    """Every minute: move each online game on whose deadline has passed."""
    sweep.online_sweep()
