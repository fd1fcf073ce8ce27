from celery import shared_task

from tournaments import services


@shared_task(ignore_result=True)
def tournaments_sweep() -> None:
    """Every minute: tell each tournament's next round to its players once it is due."""
    services.tournaments_sweep()
