"""The recordings' work in the worker: the sound's analysis, the retention sweep, and the
catch-up of analyses that never began or never finished. The sweeps visit each club that
has recordings, each in its scope: a club's retention is its own."""

from datetime import timedelta

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from club.kernel.queueing import publish
from club.kernel.tenancy import each_club_of
from games.recordings import analysis, services
from games.recordings.models import Recording, RecordingStatus

QUEUED_GRACE = timedelta(minutes=5)
PROCESSING_GRACE = timedelta(hours=1)


@shared_task(ignore_result=True, acks_late=True)
def recording_analyse(recording_id: int) -> None:
    analysis.recording_analyse(recording_id=recording_id)


@shared_task(ignore_result=True)
def recordings_sweep() -> None:
    """Hourly: in each club with recordings, a task of its own deletes every recording past
    the club's retention (RULES.md §C) and drops the uploads abandoned for a day; then the
    files no recording of any club names."""
    for _club in each_club_of(Recording.all_clubs.filter(deleted_at__isnull=True)):
        publish("games.recordings.tasks.club_recordings_expire")
    services.recordings_orphans_sweep()


@shared_task(ignore_result=True)
def club_recordings_expire() -> int:
    """The club in scope's recordings past its retention, and its abandoned uploads."""
    return services.recordings_expire()


@shared_task(ignore_result=True)
def recordings_catch_up() -> None:
    """Every few minutes: start again the analyses whose task was lost (a broker down when
    the upload completed) or whose worker died, in each club, each queued in its club."""
    now = timezone.now()
    stalled = Recording.all_clubs.filter(
        Q(status=RecordingStatus.QUEUED, uploaded_at__lt=now - QUEUED_GRACE)
        | Q(status=RecordingStatus.PROCESSING, uploaded_at__lt=now - PROCESSING_GRACE)
    )
    for _club in each_club_of(stalled):
        ids = Recording.objects.filter(pk__in=stalled.values("pk")).values_list("pk", flat=True)
        for recording_id in list(ids[:20]):
            recording_analyse.delay(recording_id)
