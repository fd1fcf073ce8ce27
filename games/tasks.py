"""The analysis runs in the worker, after the commit that ended (or corrected) a game.

Tasks take ids and re-read everything: each is safe to run twice or late.
"""

from datetime import timedelta

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from games import analysis, online_play, publication, recordings
from games.models import Game, GameStatus, PlayerScore, Recording, RecordingStatus

# After a scheme change, the group posts of games this recent are edited to the new scores;
# older posts stay as they were posted (their pages show the new scores).
REPOST_WITHIN = timedelta(days=30)


@shared_task(ignore_result=True, acks_late=True)
def game_analyse(game_id: int) -> None:
    analysis.game_analysis_build(game_id=game_id)
    analysis.ratings_replay()
    publication.game_post_sync(game_id=game_id)


@shared_task(ignore_result=True, acks_late=True)
def games_rescore() -> None:
    """Every game scored again by the current scheme (an admin saved a new version)."""
    changed = set(analysis.analyses_rebuild())
    recent = PlayerScore.objects.filter(ended_at__gte=timezone.now() - REPOST_WITHIN)
    for game_id in sorted(set(recent.values_list("game_id", flat=True)) & changed):
        publication.game_post_sync(game_id=game_id)


@shared_task(ignore_result=True, acks_late=True)
def member_posts_sync(member_id: int) -> None:
    """A member switched publication off (or on): every group post with them in it is
    edited to name them as the pages now do."""
    games = PlayerScore.objects.filter(member_id=member_id).values_list("game_id", flat=True)
    for game_id in sorted(set(games)):
        publication.game_post_sync(game_id=game_id)


@shared_task(ignore_result=True, acks_late=True)
def recording_analyse(recording_id: int) -> None:
    recordings.recording_analyse(recording_id=recording_id)


@shared_task(ignore_result=True)
def recordings_sweep() -> None:
    """Hourly: delete every recording past its retention (RULES.md §C)."""
    recordings.recordings_sweep()


# A task queued after a commit may be lost (a broker down at that moment, a worker killed
# mid-task): the catch-up finds in the database what should have happened by now.
ANALYSIS_GRACE = timedelta(minutes=2)
QUEUED_GRACE = timedelta(minutes=5)
PROCESSING_GRACE = timedelta(hours=1)


@shared_task(ignore_result=True)
def games_catch_up() -> None:
    """Every few minutes: analyse finished games that have no analysis yet, and start again
    the recordings whose analysis never began or never finished."""
    now = timezone.now()
    missing = Game.objects.filter(
        status=GameStatus.FINISHED, analysis__isnull=True, ended_at__lt=now - ANALYSIS_GRACE
    ).values_list("pk", flat=True)
    for game_id in list(missing[:100]):
        game_analyse.delay(game_id)
    stalled = Recording.objects.filter(
        Q(status=RecordingStatus.QUEUED, uploaded_at__lt=now - QUEUED_GRACE)
        | Q(status=RecordingStatus.PROCESSING, uploaded_at__lt=now - PROCESSING_GRACE)
    ).values_list("pk", flat=True)
    for recording_id in list(stalled[:20]):
        recording_analyse.delay(recording_id)


@shared_task(ignore_result=True)
def online_sweep() -> None:
    """Every minute: move each online game on whose deadline has passed."""
    online_play.online_sweep()
