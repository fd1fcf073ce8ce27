"""After an import is confirmed or undone, and after a claim moves seats: the games'
analyses built and the club's ratings replayed (games/ratings/analysis.py, fold.py), in the
worker (history.tasks), with the import's progress for its page. Seasons are read from the
scores, so they follow."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from club.kernel.queueing import publish
from games.models import Game, GameStatus
from games.ratings import analysis, fold
from games.ratings.presets import scheme_by_game
from history.models import HistoryImport, ImportStatus

# The share of the progress the analyses take; the ratings' replay is the rest.
ANALYSES_SHARE = 90
STEPS = 50  # the progress is written at most this many times


def history_rebuild(*, history_import_id: int) -> None:
    """Idempotent: a second run finds the import done and does nothing."""
    found = HistoryImport.objects.filter(pk=history_import_id).first()
    if found is None or not found.working:
        return
    if found.status == ImportStatus.IMPORTING:
        ids = list(
            Game.objects.filter(imported__history_import=found, status=GameStatus.FINISHED)
            .order_by("ended_at", "pk")
            .values_list("pk", flat=True)
        )
        scheme_of = scheme_by_game()
        every = max(1, len(ids) // STEPS)
        for start in range(0, len(ids), every):
            # A step's games in one transaction: one commit (and its flush to disk) per
            # step, not per game; a step lost to a crash is built again by the next run.
            with transaction.atomic():
                for game_id in ids[start : start + every]:
                    analysis.game_analysis_build(game_id=game_id, scheme_of=scheme_of)
            _progress(found, ANALYSES_SHARE * min(start + every, len(ids)) // len(ids))
    _progress(found, ANALYSES_SHARE)
    fold.ratings_replay()
    # The rating across clubs, for a club in a league that counts its games.
    publish("leagues.tasks.platform_rating_rebuild")
    final = ImportStatus.IMPORTED if found.status == ImportStatus.IMPORTING else ImportStatus.UNDONE
    HistoryImport.objects.filter(pk=found.pk, status=found.status).update(
        status=final, progress=100
    )


def _progress(found: HistoryImport, percent: int) -> None:
    HistoryImport.objects.filter(pk=found.pk).update(progress=percent)


def games_rebuild(*, game_ids: Sequence[int]) -> None:
    """The analyses of games whose seats changed hands (a claim), then the ratings."""
    scheme_of = scheme_by_game()
    for game_id in sorted(game_ids):
        analysis.game_analysis_build(game_id=game_id, scheme_of=scheme_of)
    fold.ratings_replay()
    publish("leagues.tasks.platform_rating_rebuild")
