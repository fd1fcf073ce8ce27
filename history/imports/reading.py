"""An upload read by the worker, not the request: a 10,000-game XLSX took 26–44 s to read
and a 5,000-game protocol export 34 s (docs/benchmarks.md), past the web worker's 30 s
timeout (docs/deploy.md), which killed the request and left the organiser a gateway error.
The request keeps the file (HistoryUpload) and queues the read; the page polls until the
preview is ready, as it polls the rebuild after a confirm."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import User
from club.kernel.queueing import queue_on_commit
from games.models import Role
from history.formats.reading import read_history
from history.formats.records import Source
from history.imports import services
from history.models import HistoryImport, HistoryUpload, ImportSource, ImportStatus

logger = logging.getLogger(__name__)

READ_TASK = "history.tasks.history_read"


def upload_received(*, author: User, filename: str, data: bytes, language: str) -> HistoryImport:
    """The upload kept for the worker's reader; refused at once if the file was imported."""
    services.previews_drop()
    sha256 = services.file_digest(data)
    services.refuse_if_imported(sha256)
    with transaction.atomic():
        found = HistoryImport.objects.create(
            author=author,
            filename=filename[:255],
            sha256=sha256,
            source=ImportSource.SPREADSHEET,  # the reader says which once it has read
            status=ImportStatus.READING,
            language=language[:8],
        )
        HistoryUpload.objects.create(history_import=found, data=data)
        queue_on_commit(READ_TASK, found.pk)
    return found


def upload_read(*, history_import_id: int) -> None:
    """The worker's read of a kept upload into its preview; safe to run twice (a read
    upload has no file left), and a file the reader breaks on is marked unreadable rather
    than left «being read» for ever."""
    found = HistoryImport.objects.filter(pk=history_import_id, status=ImportStatus.READING).first()
    upload = HistoryUpload.objects.filter(history_import_id=history_import_id).first()
    if found is None or upload is None:
        return
    with translation.override(found.language or None):
        try:
            read = read_history(bytes(upload.data), filename=found.filename, roles=_catalogue())
            source = read.source or (read.games[0].source if read.games else Source.SPREADSHEET)
            games, problems = services.preview_parts(read)
        except Exception:  # a reader's bug: the organiser is told, the worker goes on
            logger.exception("History import %s: the file could not be read", history_import_id)
            _unreadable(history_import_id)
            return
    with transaction.atomic():
        updated = HistoryImport.objects.filter(
            pk=history_import_id, status=ImportStatus.READING
        ).update(
            status=ImportStatus.PREVIEW,
            source=ImportSource(source.value),
            records=games,
            problems=problems,
            counts={"read": len(games), "problems": len(problems)},
        )
        HistoryUpload.objects.filter(history_import_id=history_import_id).delete()
        if updated:
            # One preview of a file at a time: the newer upload replaces the older.
            HistoryImport.objects.filter(sha256=found.sha256, status=ImportStatus.PREVIEW).exclude(
                pk=history_import_id
            ).delete()


def _unreadable(history_import_id: int) -> None:
    with transaction.atomic():
        HistoryImport.objects.filter(pk=history_import_id, status=ImportStatus.READING).update(
            status=ImportStatus.UNREADABLE,
            counts={
                "error": _("The file could not be read. Check that it is a CSV, XLSX or JSON file.")
            },
        )
        HistoryUpload.objects.filter(history_import_id=history_import_id).delete()


def _catalogue() -> dict[str, str]:
    return {role.code: role.name_ru for role in Role.objects.all()}


def stalled_reads() -> list[int]:
    """The club's uploads still waiting for a read long after they came (the task lost)."""
    return list(
        services.stalled_imports().filter(status=ImportStatus.READING).values_list("pk", flat=True)
    )
