from celery import shared_task

from games.online import services


@shared_task(ignore_result=True)
def online_sweep() -> None:
    """Every minute: move each online game on whose deadline has passed."""
    services.online_sweep()
