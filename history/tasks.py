"""The worker's part of a club's history: the analyses and ratings rebuilt after an
import's confirm or undo, and after a claim moved seats. Each task runs in the club's
scope its publish carried (club/kernel/tenancy.py) and is safe to run twice."""

from celery import shared_task

from history.imports import rebuild


@shared_task(ignore_result=True, acks_late=True)
def history_rebuild(history_import_id: int) -> None:
    rebuild.history_rebuild(history_import_id=history_import_id)


@shared_task(ignore_result=True, acks_late=True)
def claimed_games_rebuild(game_ids: list[int]) -> None:
    rebuild.games_rebuild(game_ids=game_ids)
