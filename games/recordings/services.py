"""A game's recording: chunked, resumable upload from the host's phone, the analysis of
its sound in the worker, and its deletion on time (RULES.md §C: 3 days, always).

Uploads land in a local partial file (appended under the recording's row lock, at the
offset the phone names, so a retried or resumed chunk never doubles); once complete the
file is probed (it must open, hold sound, and be no longer than the club's limit), goes to
Django's storage (local files, or S3 through django-storages) and the analysis is queued
after the commit. The hourly sweep deletes every recording whose time
has come — all that are overdue after a downtime, none still within its time — and writes
an audit row for each.
"""

from __future__ import annotations

import logging
import math
import os
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.core.files import File
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from club.club_settings import ClubSettings
from club.errors import CONFLICT, FORBIDDEN, INVALID, NOT_FOUND, Refused
from club.queueing import queue_on_commit
from games import access
from games import services as games_services
from games.models import Game
from games.recordings.audio import decode
from games.recordings.models import (
    FoulSuggestion,
    Recording,
    RecordingDeletion,
    RecordingStatus,
    SuggestionStatus,
)
from games.rules.events import moment_problem

logger = logging.getLogger(__name__)

MAX_BYTES = 300 * 1024 * 1024
CHUNK_BYTES = 2 * 1024 * 1024  # under Django's 2.5 MB limit on a request body held in memory
FORMATS = {".m4a", ".aac", ".mp4", ".ogg", ".opus", ".oga", ".mp3", ".wav", ".webm"}


def _partial_path(recording: Recording) -> Path:
    folder = Path(settings.RECORDING_UPLOAD_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{recording.pk}.part"


def due_at(game: Game, club: ClubSettings | None = None) -> datetime:
    """When the game's recording must be gone: `audio_retention_days` after the game."""
    club = club or ClubSettings.load()
    return game.retention_from + timedelta(days=club.audio_retention_days)


def longest_seconds() -> float:
    """The longest recording the club takes: `max_recording_minutes`."""
    return ClubSettings.load().max_recording_minutes * 60.0


def too_long(seconds: float) -> str:
    """Why a recording of `seconds` (infinity: more than the limit, no one knows how
    much) is refused, in the reader's language."""
    limit = _clock(longest_seconds())
    if math.isinf(seconds):
        return _("The recording is longer than %(limit)s, the longest the club takes.") % {
            "limit": limit
        }
    return _("The recording lasts %(length)s; the club takes recordings up to %(limit)s.") % {
        "length": _clock(seconds),
        "limit": limit,
    }


def _clock(seconds: float) -> str:
    whole = round(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def recording_for(user: User, recording_id: int, *, lock: bool = False) -> Recording:
    """The recording, if this user may have it (the game's host or an admin)."""
    rows = Recording.objects.select_related("game")
    if lock:
        rows = rows.select_for_update(of=("self",))
    recording = rows.filter(pk=recording_id).first()
    if recording is None or recording.status == RecordingStatus.DELETED:
        raise Refused(_("There is no such recording."), "not_found", NOT_FOUND)
    if not access.runs(user, recording.game):
        raise Refused(
            _("Only the game's host and admins have its recording."), "forbidden", FORBIDDEN
        )
    return recording


def recording_start(
    *, game_id: int, user: User, name: str, size: int, started_at: datetime | None = None
) -> Recording:
    """Begin an upload (or resume the one already begun for the same file)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise Refused(_("There is no such game."), "not_found", NOT_FOUND)
    if not access.runs(user, game):
        raise Refused(
            _("Only the game's host and admins upload its recording."), "forbidden", FORBIDDEN
        )
    # Everything is checked before anything is touched: a refusal changes nothing.
    if started_at is not None and moment_problem(started_at) is not None:
        raise Refused(_("The recording's start is not a time the club can store."))
    if "\x00" in name or os.path.splitext(name.lower())[1] not in FORMATS:
        raise Refused(
            _("Upload an m4a, ogg, opus, mp3, wav or webm recording."), "invalid", INVALID
        )
    if not 0 < size <= MAX_BYTES:
        raise Refused(_("A recording is up to 300 MB."), "invalid", INVALID)
    if due_at(game) <= timezone.now():
        raise Refused(
            _("Recordings are kept %(days)d days after the game; this game is older.")
            % {"days": ClubSettings.load().audio_retention_days},
            "invalid",
            INVALID,
        )
    with transaction.atomic():
        current = Recording.objects.select_for_update().filter(game=game).first()
        if current is not None:
            resumable = current.status == RecordingStatus.UPLOADING
            if resumable and (current.original_name, current.size) == (name[:200], size):
                return current
            if current.status in (RecordingStatus.QUEUED, RecordingStatus.PROCESSING):
                raise Refused(
                    _("The game's recording is being analysed; try again when it is done."),
                    "conflict",
                    CONFLICT,
                )
            _delete(current, reason="replaced", by=user)
            current.delete()
        return Recording.objects.create(
            game=game,
            uploaded_by=user,
            original_name=name[:200],
            size=size,
            started_at=started_at or game.started_at,
        )


def recording_append(*, recording_id: int, user: User, offset: int, data: bytes) -> Recording:
    """Append a chunk at `offset`, which must be what the server has (a conflict answers
    with the right offset, so the phone continues from there)."""
    if len(data) > CHUNK_BYTES:
        raise Refused(_("A chunk is 2 MB at most."), "invalid", INVALID)
    with transaction.atomic():
        recording = recording_for(user, recording_id, lock=True)
        if recording.status != RecordingStatus.UPLOADING:
            raise Refused(
                _("This recording is uploaded already."),
                "conflict",
                CONFLICT,
                offset=recording.received,
            )
        if offset != recording.received:
            raise Refused(
                _("The server has %(offset)d bytes of this file: continue from there.")
                % {"offset": recording.received},
                "conflict",
                CONFLICT,
                offset=recording.received,
            )
        if not data or offset + len(data) > recording.size:
            raise Refused(_("The chunk does not fit the file's declared size."), "invalid", INVALID)
        path = _partial_path(recording)
        with open(path, "ab") as partial:
            partial.truncate(offset)  # whatever a failed earlier write left is not counted
            partial.write(data)
        recording.received = offset + len(data)
        recording.save(update_fields=["received"])
        if recording.received == recording.size:
            _complete(recording, path)
    return recording


def recording_store_whole(
    *, game_id: int, user: User, upload: Any, started_at: datetime | None = None
) -> Recording:
    """The plain form's upload: the whole file at once (Django has spooled it to disk)."""
    recording = recording_start(
        game_id=game_id, user=user, name=upload.name, size=upload.size, started_at=started_at
    )
    with transaction.atomic():
        recording = recording_for(user, recording.pk, lock=True)
        if recording.status != RecordingStatus.UPLOADING:
            return recording
        path = _partial_path(recording)
        with open(path, "wb") as partial:
            for chunk in upload.chunks():
                partial.write(chunk)
        recording.received = recording.size
        recording.save(update_fields=["received"])
        _complete(recording, path)
    return recording


def _complete(recording: Recording, path: Path) -> None:
    """The last byte is in: check it is sound no longer than the club takes (the
    container's header says how long), move it to storage, queue the analysis."""
    try:
        duration = decode.probe(str(path), longest=longest_seconds())
    except decode.UnreadableAudio as error:
        logger.info("Recording %s unreadable: %s", recording.pk, error)
        _fail(recording, path, _("The file is not a recording that can be read."))
        return
    if duration > longest_seconds():
        logger.info("Recording %s refused: %.0f s long", recording.pk, duration)
        _fail(recording, path, too_long(duration))
        return
    with open(path, "rb") as partial:
        extension = os.path.splitext(recording.original_name.lower())[1]  # one of FORMATS
        recording.file.save(f"game-{recording.game_id}{extension}", File(partial), save=False)
    recording.duration = duration
    recording.status, recording.uploaded_at = RecordingStatus.QUEUED, timezone.now()
    recording.save(update_fields=["file", "status", "uploaded_at", "duration"])
    name = recording.file.name
    transaction.on_commit(lambda: path.unlink(missing_ok=True))
    queue_on_commit("games.recordings.tasks.recording_analyse", recording.pk)
    logger.info("Recording %s stored as %s", recording.pk, name)


def _fail(recording: Recording, path: Path, error: str) -> None:
    """A complete upload the club cannot use: its bytes go, the message stays."""
    path.unlink(missing_ok=True)
    recording.status, recording.error = RecordingStatus.FAILED, error[:300]
    recording.save(update_fields=["status", "error"])


# --- deletion --------------------------------------------------------------------------


def _delete(recording: Recording, *, reason: str, by: User | None = None) -> None:
    """The sound and all that is derived from it but the numbers; an audit row. Call it in
    a transaction: the row changes with it, and the files go only once it commits, so a
    request refused or rolled back after this point has destroyed nothing."""
    name = recording.file.name or ""
    storage, partial = recording.file.storage, _partial_path(recording)
    RecordingDeletion.objects.create(
        recording_id=recording.pk,
        game_id=recording.game_id,
        file_name=name or recording.original_name,
        size=recording.received,
        due_at=due_at(recording.game),
        deleted_at=timezone.now(),
        reason=reason,
        by=by,
    )
    Recording.objects.filter(pk=recording.pk).update(
        file="", transcript=None, status=RecordingStatus.DELETED, deleted_at=timezone.now()
    )

    def remove_files() -> None:
        if name:
            storage.delete(name)
        partial.unlink(missing_ok=True)

    transaction.on_commit(remove_files)


def recording_delete(*, recording_id: int, user: User) -> None:
    """The host or an admin deletes the recording before its time."""
    with transaction.atomic():
        recording = recording_for(user, recording_id, lock=True)
        _delete(recording, reason="by_hand", by=user)


def recordings_sweep(now: datetime | None = None) -> int:
    """Delete every recording whose game is older than the retention; returns how many."""
    now = now or timezone.now()
    club = ClubSettings.load()
    retention = timedelta(days=club.audio_retention_days)
    due = Recording.objects.due(now=now, retention=retention).values_list("pk", flat=True)
    deleted = 0
    for recording_id in list(due):
        with transaction.atomic():
            recording = (
                Recording.objects.select_for_update(of=("self",))
                .select_related("game")
                .filter(pk=recording_id, deleted_at__isnull=True)
                .first()
            )
            if recording is not None:
                _delete(recording, reason="retention")
                deleted += 1
    return deleted


@dataclass(frozen=True)
class Download:
    recording: Recording
    file: IO[bytes]


def recording_open(*, recording_id: int, user: User) -> Download:
    """The host's or an admin's copy; nothing serves a deleted recording."""
    recording = recording_for(user, recording_id)
    if not recording.file:
        raise Refused(_("The recording is not uploaded yet."), "not_found", NOT_FOUND)
    return Download(recording, recording.file.open("rb"))


def suggestion_decide(*, suggestion_id: int, user: User, accept: bool) -> FoulSuggestion:
    """The host's answer to a foul the recording suggests: accepted, it is a foul in the
    game's log (a finished game counts it and changes nothing else); dismissed, it stays
    only as dismissed. Deciding twice is refused."""
    suggestion = (
        FoulSuggestion.objects.select_related("recording__game").filter(pk=suggestion_id).first()
    )
    if suggestion is None:
        raise Refused(_("There is no such suggestion."), "not_found", NOT_FOUND)
    game = suggestion.recording.game
    if not access.runs(user, game):
        raise Refused(_("Only the game's host decides on its fouls."), "forbidden", FORBIDDEN)
    with transaction.atomic():
        decided = FoulSuggestion.objects.filter(
            pk=suggestion.pk, status=SuggestionStatus.PENDING
        ).update(
            status=SuggestionStatus.ACCEPTED if accept else SuggestionStatus.DISMISSED,
            decided_by=user,
            decided_at=timezone.now(),
        )
        if not decided:
            raise Refused(_("This suggestion is decided already."), "decided", CONFLICT)
        if accept:
            games_services.game_record_event(
                game_id=game.pk,
                author=user,
                event={
                    "type": "foul",
                    "seat": suggestion.seat,
                    "reason": suggestion_reason(suggestion),
                },
                seq=None,
                client_id=None,
            )
    suggestion.refresh_from_db()
    return suggestion


def suggestion_reason(suggestion: FoulSuggestion) -> str:
    """What the foul says in the log, in the club's language (the protocol is the club's)."""
    with translation.override(settings.LANGUAGE_CODE):
        if suggestion.during is None:
            return _("the recording: %(seconds)d s of talk at night") % {
                "seconds": round(suggestion.seconds)
            }
        return _("the recording: %(seconds)d s of talk in seat %(during)d's speech") % {
            "seconds": round(suggestion.seconds),
            "during": suggestion.during,
        }
