"""The recordings' work in the worker: the sound's analysis, the retention sweep, and the
catch-up of analyses that never began or never finished."""

from datetime import timedelta

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from games.recordings import analysis, services
from games.recordings.models import Recording, RecordingStatus

QUEUED_GRACE = timedelta(minutes=5)
PROCESSING_GRACE = timedelta(hours=1)


@shared_task(ignore_result=True, acks_late=True)
def recording_analyse(recording_id: int) -> None:
    analysis.recording_analyse(recording_id=recording_id)


@shared_task(ignore_result=True)
def recordings_sweep() -> None:
    """Hourly: delete every recording past its retention (RULES.md §C), and drop the
    uploads abandoned for a day."""
    services.recordings_sweep()


@shared_task(ignore_result=True)
def recordings_catch_up() -> None:
    """Every few minutes: start again the analyses whose task was lost (a broker down when
    the upload completed) or whose worker died."""
    now = timezone.now()
    stalled = Recording.objects.filter(
        Q(status=RecordingStatus.QUEUED, uploaded_at__lt=now - QUEUED_GRACE)
        | Q(status=RecordingStatus.PROCESSING, uploaded_at__lt=now - PROCESSING_GRACE)
    ).values_list("pk", flat=True)
    for recording_id in list(stalled[:20]):
        recording_analyse.delay(recording_id)
