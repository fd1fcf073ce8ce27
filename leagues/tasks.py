"""The platform's rating is rebuilt in the worker (leagues/rating.py), queued by name after
the commit of a change that may move it: "leagues.tasks.platform_rating_rebuild" with the
game's id when a game is analysed (games/ratings/tasks.py), without one when games were
rated or unrated, rescored, or a club joined or left an accepting league."""

from celery import shared_task

from leagues import rating


@shared_task(ignore_result=True, acks_late=True)
def platform_rating_rebuild(game_id: int | None = None) -> None:
    """Nothing to do (two small reads) for a game whose club counts in no league, or when
    no club does: a single club's site never folds anything."""
    if game_id is not None and not rating.game_counts(game_id):
        return
    if game_id is None and not rating.counted_club_ids():
        return
    rating.platform_rating_rebuild()
