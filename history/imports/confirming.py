"""An import's confirm run by the worker, not the request: 10,000 results-only games took
12.5 s to create on a loaded machine and a 5,000-game protocol export would outlive the
web worker's 30 s timeout (docs/benchmarks.md, docs/deploy.md). The request keeps the
organiser's choices (services.confirm_asked); this creates the games in the one
transaction of services.import_confirm, then the rebuild is queued as before. A refusal
puts the import back to its preview with the refusal's words, in the language of the
organiser who confirmed."""

from __future__ import annotations

import logging

from django.utils import translation
from django.utils.translation import gettext as _

from club.kernel.errors import RefusalCode, Refused
from history.imports import services
from history.models import HistoryImport, ImportStatus

logger = logging.getLogger(__name__)


def confirm_run(*, history_import_id: int) -> None:
    """Idempotent: an import past «confirming» (created, or sent back) is left alone."""
    found = HistoryImport.objects.filter(
        pk=history_import_id, status=ImportStatus.CONFIRMING
    ).first()
    if found is None:
        return
    with translation.override(found.language or None):
        actor = found.confirmed_by or found.author
        try:
            if actor is None:
                raise Refused(
                    _("The organiser who confirmed the import has left: confirm it again."),
                    RefusalCode.CONFLICT,
                )
            services.import_confirm(
                history_import_id=history_import_id,
                actor=actor,
                choices=found.choices,
                expected=ImportStatus.CONFIRMING,
            )
        except Refused as refusal:
            _back_to_preview(history_import_id, refusal.message)
        except Exception:  # a bug: nothing was written; the organiser is told, the worker goes on
            logger.exception("History import %s: the games could not be created", history_import_id)
            _back_to_preview(
                history_import_id,
                _("The games could not be created; nothing was written. Try to confirm again."),
            )


def _back_to_preview(history_import_id: int, message: str) -> None:
    found = HistoryImport.objects.filter(
        pk=history_import_id, status=ImportStatus.CONFIRMING
    ).first()
    if found is None:  # a second run refused because the first one created the games
        return
    HistoryImport.objects.filter(pk=found.pk, status=ImportStatus.CONFIRMING).update(
        status=ImportStatus.PREVIEW,
        imported_at=None,
        counts={**found.counts, "refusal": message},
    )


def stalled_confirms() -> list[int]:
    """The club's confirms still waiting for their worker long after they came (the task lost)."""
    return list(
        services.stalled_imports()
        .filter(status=ImportStatus.CONFIRMING)
        .values_list("pk", flat=True)
    )
