"""The worker's part of a club's history: an upload's read into its preview, the games of a
confirmed import created, the analyses
and ratings rebuilt after an import's confirm or undo, and after a claim moved seats. Each
task runs in the club's scope its publish carried (club/kernel/tenancy.py) and is safe to
run twice."""

from celery import shared_task

from club.kernel.queueing import publish
from club.kernel.tenancy import each_club_of
from history.imports import confirming, reading, rebuild, services


@shared_task(ignore_result=True, acks_late=True)
def history_rebuild(history_import_id: int) -> None:
    rebuild.history_rebuild(history_import_id=history_import_id)


@shared_task(ignore_result=True, acks_late=True)
def history_read(history_import_id: int) -> None:
    reading.upload_read(history_import_id=history_import_id)


@shared_task(ignore_result=True, acks_late=True)
def history_confirm(history_import_id: int) -> None:
    confirming.confirm_run(history_import_id=history_import_id)


@shared_task(ignore_result=True, acks_late=True)
def claimed_games_rebuild(game_ids: list[int]) -> None:
    rebuild.games_rebuild(game_ids=game_ids)


@shared_task(ignore_result=True)
def history_catch_up() -> None:
    """Every ten minutes: an upload still being read, a confirm whose games are still not
    created, an import still rebuilding long after its confirm or undo (its task lost to a
    broker down at the commit, or a killed worker) is queued again (each task is
    idempotent), and previews a day old are dropped, in each club that has them."""
    stalled = services.stalled_imports(every_club=True)
    due = stalled | services.old_previews(every_club=True)
    for _club in each_club_of(due):
        reads = set(reading.stalled_reads())
        confirms = set(confirming.stalled_confirms())
        for history_import_id in services.stalled_imports().values_list("pk", flat=True):
            task = services.REBUILD_TASK
            if history_import_id in reads:
                task = reading.READ_TASK
            elif history_import_id in confirms:
                task = services.CONFIRM_TASK
            publish(task, history_import_id)
        services.previews_drop()
