"""A game's recording: chunked, resumable upload from the host's phone, the analysis of
its sound in the worker, and its deletion on time (RULES.md §C: 3 days, always).

Uploads land in a local partial file (appended under the recording's row lock, at the
offset the phone names, so a retried or resumed chunk never doubles); once complete the
file is probed by its bytes, whatever its name (it must open as one of the phones'
formats, hold sound whose first frame decodes, and be no longer than the club's limit),
goes to Django's storage (local files, or S3 through django-storages) under a name its
header gives, and the analysis is queued after the commit. The worker first puts a
recording that is uncompressed, lossless or unplayable in a browser into its small stored
form (audio/compact.py), in place of the upload. A new upload for a game that has a
recording is a replacement beside it: the game keeps its recording and analysis until
the new one is complete, readable and analysed by the worker (which reads all of its
sound: a header may lie about its length), and then the two change places in one
transaction; a replacement that is unreadable, too long (by its header at the upload or by
its sound in the worker), or abandoned (no chunk for UPLOAD_EXPIRES) changes nothing, and
stays beside the game's recording with the reason until a new upload or the sweep.
The hourly sweep deletes every recording whose time has come — all that
are overdue after a downtime, none still within its time — and the abandoned uploads, and
writes an audit row for each; and it deletes any file of the recordings' folder that no
recording names (what a process killed between a database commit and a file's deletion
left).
"""

from __future__ import annotations

import logging
import math
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.core.files import File
from django.db import transaction
from django.db.models import FileField
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.kernel.queueing import queue_on_commit
from games import access
from games.access import Viewer
from games.models import Game
from games.recording import game_record_event
from games.recordings.audio import compact, decode, offset
from games.recordings.models import (
    FoulSuggestion,
    Recording,
    RecordingDeletion,
    RecordingStatus,
    SuggestionStatus,
)
from games.rules.events import moment_problem

logger = logging.getLogger(__name__)

# Five hours of 48 kHz stereo 16-bit WAV (3.5 GB; three hours are 2.1 GB): the club's
# longest recording, uncompressed. What is stored is small whatever came (audio/compact.py).
MAX_BYTES = 4 * 1024**3
# An upload without a chunk for this long is abandoned: the sweep removes it (the phone
# resumes a dropped upload within minutes; a day covers a night without a network).
UPLOAD_EXPIRES = timedelta(days=1)
# A recording's start may lie this far from the game's (a recorder started early, a game
# recorded on one long file): further is a typing slip, which no analysis could mend.
START_REACH = timedelta(hours=12)
CHUNK_BYTES = 2 * 1024 * 1024  # under Django's 2.5 MB limit on a request body held in memory
# A file in the recordings' folder that no recording names, this old, is an orphan: a file
# is named by its row in the transaction that stores it, which lasts seconds.
ORPHAN_AGE = timedelta(hours=2)


def _partial_path(recording: Recording) -> Path:
    folder = Path(settings.RECORDING_UPLOAD_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{recording.pk}.part"


def due_at(game: Game, club: Club | None = None) -> datetime:
    """When the game's recording must be gone: `audio_retention_days` after the game."""
    club = club or Club.current()
    return game.retention_from + timedelta(days=club.audio_retention_days)


def longest_seconds() -> float:
    """The longest recording the club takes: `max_recording_minutes`."""
    return Club.current().max_recording_minutes * 60.0


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


def lock_game_recordings(game_id: int) -> list[Recording]:
    """The game's recording and its replacement, locked in one order (by id) by every
    writer, so two of them never wait on each other."""
    return list(
        Recording.objects.select_for_update(of=("self",))
        .select_related("game")
        .filter(game_id=game_id)
        .order_by("pk")
    )


def _locked(recording_id: int) -> Recording | None:
    """The recording, locked with its game's other row (see lock_game_recordings)."""
    game_id = Recording.objects.filter(pk=recording_id).values_list("game_id", flat=True).first()
    rows = [] if game_id is None else lock_game_recordings(game_id)
    return next((row for row in rows if row.pk == recording_id), None)


def recording_for(user: User, recording_id: int, *, lock: bool = False) -> Recording:
    """The recording, if this user may have it (the game's host or an admin); `lock`
    locks it with its game's other recording row."""
    if lock:
        recording = _locked(recording_id)
    else:
        recording = Recording.objects.select_related("game").filter(pk=recording_id).first()
    if recording is None or recording.status == RecordingStatus.DELETED:
        raise Refused(_("There is no such recording."), RefusalCode.NOT_FOUND)
    refuse_unless_keeper(user, recording.game)
    return recording


def refuse_unless_keeper(user: Viewer, game: Game) -> None:
    """A game's recording is its host's and the admins' (games/access.runs), at every door."""
    if not access.runs(user, game):
        raise Refused(
            _("Only the game's host and admins have its recording."), RefusalCode.FORBIDDEN
        )


def recording_start(
    *, game_id: int, user: User, name: str, size: int, started_at: datetime | None = None
) -> Recording:
    """Begin an upload (or resume the one already begun for the same file). A game that
    has a recording keeps it until the new one is analysed: the upload is its
    replacement."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise Refused(_("There is no such game."), RefusalCode.NOT_FOUND)
    if not access.runs(user, game):
        raise Refused(
            _("Only the game's host and admins upload its recording."), RefusalCode.FORBIDDEN
        )
    # Everything is checked before anything is touched: a refusal changes nothing.
    if started_at is not None and moment_problem(started_at) is not None:
        raise Refused(
            _("The recording's start is not a time the club can store."), RefusalCode.INVALID
        )
    if started_at is not None and abs(started_at - game.started_at) > START_REACH:
        raise Refused(
            _("The recording's start is more than %(hours)d hours from the game's start.")
            % {"hours": START_REACH // timedelta(hours=1)},
            RefusalCode.INVALID,
        )
    # Any name: what the file is, its bytes say when the upload completes (_complete).
    if "\x00" in name:
        raise Refused(
            _("The file's name holds a character that cannot be stored."), RefusalCode.INVALID
        )
    if size <= 0:
        raise Refused(_("The file is empty: choose the recording itself."), RefusalCode.INVALID)
    if size > MAX_BYTES:
        raise Refused(_("A recording is up to 4 GB."), RefusalCode.INVALID)
    if due_at(game) <= timezone.now():
        raise Refused(
            _("Recordings are kept %(days)d days after the game; this game is older.")
            % {"days": Club.current().audio_retention_days},
            RefusalCode.CONFLICT,
        )
    with transaction.atomic():
        # Two starts at once for a game with no row yet would both create one: the game's
        # own row, locked first, makes the second wait and see the first's.
        Game.objects.select_for_update().filter(pk=game.pk).exists()
        rows = lock_game_recordings(game.pk)
        for row in rows:
            if row.status == RecordingStatus.UPLOADING and (row.original_name, row.size) == (
                name[:200],
                size,
            ):
                return row  # the same file again: the upload goes on where it stopped
        current = next((row for row in rows if not row.replacement), None)
        # The game's recording, or its replacement, in the worker: a third file would race it.
        if any(row.status in (RecordingStatus.QUEUED, RecordingStatus.PROCESSING) for row in rows):
            raise Refused(
                _("The game's recording is being analysed; try again when it is done."),
                RefusalCode.CONFLICT,
            )
        current = _discard_unfinished(rows, current, user)
        return Recording.objects.create(
            game=game,
            uploaded_by=user,
            original_name=name[:200],
            size=size,
            started_at=started_at or game.started_at,
            replacement=current is not None,
        )


def _discard_unfinished(
    rows: list[Recording], current: Recording | None, user: User
) -> Recording | None:
    """A new upload begins: an earlier replacement, or a first upload never finished, has
    nothing to keep. The recording the new one replaces, if one is left."""
    for row in rows:
        if row.replacement or row.status == RecordingStatus.UPLOADING:
            _discard(row, reason="replaced", by=user)
            if row is current:
                current = None
    return current


def recording_append(*, recording_id: int, user: User, offset: int, data: bytes) -> Recording:
    """Append a chunk at `offset`, which must be what the server has (a conflict answers
    with the right offset, so the phone continues from there)."""
    if len(data) > CHUNK_BYTES:
        raise Refused(_("A chunk is 2 MB at most."), RefusalCode.TOO_LARGE)
    with transaction.atomic():
        recording = recording_for(user, recording_id, lock=True)
        if recording.status != RecordingStatus.UPLOADING:
            raise Refused(
                _("This recording is uploaded already."),
                RefusalCode.CONFLICT,
                offset=recording.received,
            )
        if offset != recording.received:
            raise Refused(
                _("The server has %(offset)d bytes of this file: continue from there.")
                % {"offset": recording.received},
                RefusalCode.CONFLICT,
                offset=recording.received,
            )
        if not data or offset + len(data) > recording.size:
            raise Refused(
                _("The chunk does not fit the file's declared size."), RefusalCode.INVALID
            )
        path = _partial_path(recording)
        with open(path, "ab") as partial:
            partial.truncate(offset)  # whatever a failed earlier write left is not counted
            partial.write(data)
        recording.received = offset + len(data)
        recording.last_chunk_at = timezone.now()
        recording.save(update_fields=["received", "last_chunk_at"])
        if recording.received == recording.size:
            _complete(recording, path, by=user)
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
        _complete(recording, path, by=user)
    return recording


def unreadable(problem: decode.Problem) -> str:
    """Why a complete upload is not a recording, in the reader's language."""
    if problem == decode.Problem.NO_AUDIO:
        return _("The file holds no sound (a video without a sound track?): upload the recording.")
    if problem == decode.Problem.UNDECODABLE:
        return _(
            "The file's sound does not decode: it is damaged, or in a codec the club does not read."
        )
    return _(
        "The file is not a sound recording, or it is cut short. The club takes m4a, mp3, "
        "ogg, opus, webm, wav, flac, aiff, caf, amr, 3gp and wma: upload the file the "
        "phone saved."
    )


def _complete(recording: Recording, path: Path, *, by: User) -> None:
    """The last byte is in: check by its bytes that it is sound no longer than the club
    takes (the container's header says how long), move it to storage under the name its
    header gives, queue the analysis (a replacement takes its place only once analysed).
    Call it with the game's rows locked."""
    try:
        header = decode.inspect(str(path), longest=longest_seconds())
    except decode.UnreadableAudio as error:
        logger.info("Recording %s unreadable (%s): %s", recording.pk, error.problem.value, error)
        _fail(recording, path, unreadable(error.problem))
        return
    duration = header.seconds
    if duration > longest_seconds():
        logger.info("Recording %s refused: %.0f s long", recording.pk, duration)
        _fail(recording, path, too_long(duration))
        return
    with open(path, "rb") as partial:
        # The name's extension is the header's, never the upload's: a file called
        # "game.m4a" that holds AMR is stored as .amr, and a name says nothing else.
        stored_as = f"game-{recording.game_id}{header.extension}"
        recording.file.save(stored_as, File(partial), save=False)
    # A replacement stays one until the worker has read all of its sound (take_place): a
    # header may say 10 minutes of a file that holds 5 hours, and only the decoding tells.
    recording.duration, recording.stored_size = duration, recording.size
    recording.status, recording.uploaded_at = RecordingStatus.QUEUED, timezone.now()
    recording.save(update_fields=["file", "status", "uploaded_at", "duration", "stored_size"])
    name = recording.file.name
    transaction.on_commit(lambda: path.unlink(missing_ok=True))
    queue_on_commit("games.recordings.tasks.recording_analyse", recording.pk)
    logger.info("Recording %s stored as %s", recording.pk, name)


def take_place(recording: Recording) -> None:
    """A replacement the worker has read and analysed becomes the game's recording: the
    one it replaces (with its file and analysis) goes now, not before. Call it in a
    transaction, with the game's rows locked (lock_game_recordings)."""
    if not Recording.objects.filter(pk=recording.pk, replacement=True).exists():
        return
    replaced = Recording.objects.filter(game_id=recording.game_id, replacement=False).first()
    if replaced is not None:
        _discard(replaced, reason="replaced", by=recording.uploaded_by)
    Recording.objects.filter(pk=recording.pk).update(replacement=False)
    recording.replacement = False


def recording_compact(recording: Recording, *, longest: float) -> Recording | None:
    """The worker's first step: a recording that is not kept as it came (uncompressed,
    lossless, unplayable in a browser: audio/compact.py) is transcoded to the stored form,
    which takes the upload's place; the upload is deleted with an audit row. The
    recording as it is now; None if it was deleted (or replaced) meanwhile: then nothing
    of it is stored again. Raises decode.UnreadableAudio and decode.TooLong as the
    analysis's decoding does."""
    uploaded = recording.file.name or ""
    with recording.file.open("rb") as sound:
        header = decode.inspect(sound, longest=longest)
    if compact.stored_as_uploaded(header, recording.file.size):
        return recording
    # A file without a name (gone with the process, whatever kills it), on the worker's
    # disk: the transcoded sound is never left behind there.
    with tempfile.TemporaryFile() as small:
        with recording.file.open("rb") as sound:
            seconds = compact.transcode(sound, small, longest=longest)
        small.seek(0)
        with transaction.atomic():
            current = _locked(recording.pk)
            if current is None or current.deleted_at is not None or current.file.name != uploaded:
                return None
            storage = current.file.storage
            # Stored, and the commit then fails: a file no row names, which the sweep
            # deletes (recordings_orphans_sweep).
            name = f"game-{current.game_id}{compact.EXTENSION}"
            current.file.save(name, File(small), save=False)
            current.stored_size = current.file.size
            current.save(update_fields=["file", "stored_size"])
            _audit(current, file_name=uploaded, reason="compacted", by=None)
            transaction.on_commit(lambda: storage.delete(uploaded))
    logger.info(
        "Recording %s compacted: %s (%s, %d bytes) to %s (%.0f s, %d bytes)",
        recording.pk, uploaded, header.codec, recording.received, current.file.name, seconds,
        current.file.size,
    )  # fmt: skip
    return current


def _fail(recording: Recording, path: Path, error: str) -> None:
    """A complete upload the club cannot use: its bytes go, the message stays. A first
    upload is then the game's failed recording; a replacement leaves the game's recording
    as it was."""
    path.unlink(missing_ok=True)
    recording.status, recording.error = RecordingStatus.FAILED, error[:300]
    recording.save(update_fields=["status", "error"])


# --- deletion --------------------------------------------------------------------------


def _delete(recording: Recording, *, reason: str, by: User | None = None) -> None:
    """The sound and all that is derived from it but the numbers; an audit row. Call it in
    a transaction: the row changes with it, and the files go only once it commits, so a
    request refused or rolled back after this point has destroyed nothing."""
    _forget_sound(recording, reason=reason, by=by)
    Recording.objects.filter(pk=recording.pk).update(
        file="", transcript=None, status=RecordingStatus.DELETED, deleted_at=timezone.now()
    )


def _discard(recording: Recording, *, reason: str, by: User | None = None) -> None:
    """The sound and the row with it: a recording replaced, or an upload that never became
    the game's recording. As `_delete`, in a transaction."""
    if recording.status != RecordingStatus.DELETED:  # else its audit row is written already
        _forget_sound(recording, reason=reason, by=by)
    Recording.objects.filter(pk=recording.pk).delete()


def _forget_sound(recording: Recording, *, reason: str, by: User | None) -> None:
    """The audit row now, the files once the transaction commits."""
    name = recording.file.name or ""
    storage, partial = recording.file.storage, _partial_path(recording)
    _audit(recording, file_name=name or recording.original_name, reason=reason, by=by)

    def remove_files() -> None:
        if name:
            storage.delete(name)
        partial.unlink(missing_ok=True)

    transaction.on_commit(remove_files)


def _audit(recording: Recording, *, file_name: str, reason: str, by: User | None) -> None:
    RecordingDeletion.objects.create(
        recording_id=recording.pk,
        game_id=recording.game_id,
        file_name=file_name,
        size=recording.received,
        due_at=due_at(recording.game),
        deleted_at=timezone.now(),
        reason=reason,
        by=by,
    )


def recording_delete(*, recording_id: int, user: User) -> None:
    """The host or an admin deletes the recording before its time (or drops the
    replacement being uploaded: the game's recording stays)."""
    with transaction.atomic():
        recording = recording_for(user, recording_id, lock=True)
        if recording.replacement:
            _discard(recording, reason="by_hand", by=user)
        else:
            _delete(recording, reason="by_hand", by=user)


def recordings_sweep(now: datetime | None = None) -> int:
    """The club in scope's recordings past its retention and abandoned uploads deleted
    (recordings_expire); returns how many. Then the orphaned files of every club."""
    now = now or timezone.now()
    deleted = recordings_expire(now)
    recordings_orphans_sweep(now)
    return deleted


def recordings_expire(now: datetime | None = None) -> int:
    """Delete every recording of the club in scope whose game is older than the club's
    retention, and every upload abandoned for UPLOAD_EXPIRES; returns how many."""
    now = now or timezone.now()
    club = Club.current()
    retention = timedelta(days=club.audio_retention_days)
    due = set(Recording.objects.due(now=now, retention=retention).values_list("pk", flat=True))
    abandoned = set(
        Recording.objects.abandoned(since=now - UPLOAD_EXPIRES).values_list("pk", flat=True)
    )
    deleted = 0
    for recording_id in sorted(due | abandoned):
        with transaction.atomic():
            recording = _locked(recording_id)
            if recording is None or recording.deleted_at is not None:
                continue
            if recording_id in due:
                if recording.replacement:
                    _discard(recording, reason="retention")
                else:
                    _delete(recording, reason="retention")
            elif (  # still: a chunk may have come since the list was read
                Recording.objects.abandoned(since=now - UPLOAD_EXPIRES)
                .filter(pk=recording_id)
                .exists()
            ):
                _discard(recording, reason="abandoned")
            else:
                continue
            deleted += 1
    return deleted


def recordings_orphans_sweep(now: datetime | None = None) -> int:
    """Delete the files of the recordings' folder that no recording names and that are
    ORPHAN_AGE old, and log each; how many. They are what a process killed between a
    commit and a file's deletion left (the audit row of that deletion was written in the
    commit), or a transcoded file whose commit failed (its recording still names the
    upload it was made from). The folder is every club's: a file is kept if a recording
    of any club names it."""
    now = now or timezone.now()
    field = Recording._meta.get_field("file")
    assert isinstance(field, FileField)
    storage, folder = field.storage, str(field.upload_to).rstrip("/")
    try:
        _folders, names = storage.listdir(folder)
    except FileNotFoundError:
        return 0  # nothing was ever stored
    named = set(Recording.all_clubs.exclude(file="").values_list("file", flat=True))
    removed = 0
    for name in (f"{folder}/{base}" for base in names):
        if name in named:
            continue
        try:
            if storage.get_modified_time(name) > now - ORPHAN_AGE:
                continue
        except FileNotFoundError:  # a club's own sweep deleted it a moment ago
            continue
        logger.warning("Recording file %s named by no recording: deleted", name)
        storage.delete(name)
        removed += 1
    return removed


@dataclass(frozen=True)
class Download:
    recording: Recording
    file: IO[bytes]
    size: int  # of the stored file (a transcoded one is not the upload's size)
    name: str  # the upload's name with the stored form's extension


def recording_open(*, recording_id: int, user: User) -> Download:
    """The host's or an admin's copy; nothing serves a deleted recording."""
    recording = recording_for(user, recording_id)
    if not recording.file:
        raise Refused(_("The recording is not uploaded yet."), RefusalCode.NOT_FOUND)
    stored = recording.file.name or ""
    name = Path(recording.original_name).stem + Path(stored).suffix
    return Download(recording, recording.file.open("rb"), recording.file.size, name)


def suggestion_decide(
    *, suggestion_id: int, user: User, accept: bool, game_id: int | None = None
) -> FoulSuggestion:
    """The host's answer to a foul the recording suggests: accepted, it is a foul in the
    game's log (a finished game counts it and changes nothing else); dismissed, it stays
    only as dismissed. Deciding twice is refused, and so is a foul for talk the log already
    holds a foul for (a recording replaced and analysed again suggests it anew).
    `game_id`: the game the door was asked through; another game's suggestion is not
    found there."""
    suggestion = (
        FoulSuggestion.objects.select_related("recording__game").filter(pk=suggestion_id).first()
    )
    if suggestion is not None and game_id is not None and suggestion.recording.game_id != game_id:
        suggestion = None
    if suggestion is None:
        raise Refused(_("There is no such suggestion."), RefusalCode.NOT_FOUND)
    game = suggestion.recording.game
    if not access.runs(user, game):
        raise Refused(_("Only the game's host decides on its fouls."), RefusalCode.FORBIDDEN)
    with transaction.atomic():
        if accept and foul_logged(
            game.events.effective(),
            suggestion.seat,
            suggestion.recording.started_at + timedelta(seconds=suggestion.start),
            suggestion.recording.started_at + timedelta(seconds=suggestion.end),
        ):
            raise Refused(
                _("The game's log already holds a foul for this talk."), RefusalCode.CONFLICT
            )
        decided = FoulSuggestion.objects.filter(
            pk=suggestion.pk, status=SuggestionStatus.PENDING
        ).update(
            status=SuggestionStatus.ACCEPTED if accept else SuggestionStatus.DISMISSED,
            decided_by=user,
            decided_at=timezone.now(),
        )
        if not decided:
            raise Refused(_("This suggestion is decided already."), RefusalCode.CONFLICT)
        if accept:
            game_record_event(
                game_id=game.pk,
                author=user,
                event={
                    "type": "foul",
                    "seat": suggestion.seat,
                    "reason": suggestion_reason(suggestion),
                    # Its moment in the game: the timeline places it there, not at the end.
                    "at": (
                        suggestion.recording.started_at + timedelta(seconds=suggestion.start)
                    ).isoformat(),
                },
                seq=None,
                client_id=None,
            )
    suggestion.refresh_from_db()
    return suggestion


FOUL_NEAR_SECONDS = 2.0  # a foul logged this close to a stretch of talk was given for it


def foul_logged(
    events: Sequence[Mapping[str, Any]], seat: int, start: datetime, end: datetime
) -> bool:
    """Whether the log holds a foul for `seat` at a moment within [start, end] (or
    FOUL_NEAR_SECONDS of it): one given for that talk, by the host's tap or a suggestion
    accepted from an earlier analysis or recording."""
    near = timedelta(seconds=FOUL_NEAR_SECONDS)
    for event in events:
        if event.get("type") != "foul" or event.get("seat") != seat or "at" not in event:
            continue
        try:
            moment = datetime.fromisoformat(str(event["at"]))
        except ValueError:
            continue
        if start - near <= moment <= end + near:
            return True
    return False


def suggestion_reason(suggestion: FoulSuggestion) -> str:
    """What the foul says in the log, in the club's language (the protocol is the club's)."""
    with translation.override(settings.LANGUAGE_CODE):
        if suggestion.during is None:
            return _("the recording: %(seconds)d s of talk at night") % {
                "seconds": round(suggestion.seconds)
            }
        # The speaker by reference (games/reasons.py): words like «игрока 3» may be a
        # seated player's nickname, which a reason may not write.
        return _("the recording: %(seconds)d s of talk in the speech of %(during)s") % {
            "seconds": round(suggestion.seconds),
            "during": f"{{seat:{suggestion.during}}}",
        }


# --- the recording's start, from its sound ---------------------------------------------


@dataclass(frozen=True)
class StartReport:
    """What the analysis found of the recording's start (audio/offset.py), for the
    recording's page and the API: moments aware, offsets in seconds."""

    game_started_at: datetime
    given_at: datetime  # the start the upload gave: the game's start unless given
    given_by_host: bool  # someone gave it (Recording.start_given)
    used_at: datetime  # the start the figures align with
    sound_at: datetime  # where the protocol fits the sound best
    offset_seconds: float  # sound_at - given_at
    confidence: float  # 0-1
    sure: bool  # the sound's start is claimed (offset.SURE)
    fits: bool | None  # the given start is within offset.FITS_SECONDS of it (None: unsure)
    from_sound: bool  # the figures align with the sound's start
    pause: dict[str, float] | None  # offset.Pause.as_dict()

    @property
    def timeline_broken(self) -> bool:
        """Nothing is worked out on this time line: paused and resumed, or a start someone
        gave that the sound surely contradicts (timeline_broken)."""
        return timeline_broken(
            paused=self.pause is not None,
            sure=self.sure,
            given_by_host=self.given_by_host,
            fits=self.fits,
        )

    @property
    def after_game_start(self) -> float:
        """Seconds from the game's start to the sound's (negative: before it)."""
        return (self.sound_at - self.game_started_at).total_seconds()


def timeline_broken(*, paused: bool, sure: bool, given_by_host: bool, fits: bool | None) -> bool:
    """Whether the protocol's time line on the recording is known to be wrong: the
    recording was paused and resumed, or the sound is sure the start someone gave is not
    its start. Then no voice is attributed, no foul suggested, no speech figure worked out:
    figures from a wrong time line are wrong data (the page says what to do instead)."""
    return paused or (sure and given_by_host and fits is False)


def start_report(recording: Recording) -> StartReport | None:
    """The recording's start as the sound told it, once analysed (None before)."""
    if recording.start_offset is None or recording.start_confidence is None:
        return None
    sure = recording.start_confidence >= offset.SURE
    given = recording.given_start
    return StartReport(
        game_started_at=recording.game.started_at,
        given_at=given,
        given_by_host=recording.start_given,
        used_at=recording.started_at,
        sound_at=given + timedelta(seconds=recording.start_offset),
        offset_seconds=recording.start_offset,
        confidence=recording.start_confidence,
        sure=sure,
        fits=abs(recording.start_offset) <= offset.FITS_SECONDS if sure else None,
        from_sound=recording.started_at != given,
        pause=recording.pause,
    )


def recording_use_sound_start(*, recording_id: int, user: User, offset_seen: float) -> Recording:
    """The host takes the start the sound found instead of the one given (which does not
    fit it): it becomes the given start, and the recording is analysed again with it.
    `offset_seen`: the offset the host's page showed; if the analysis has changed since,
    nothing is done."""
    with transaction.atomic():
        recording = recording_for(user, recording_id, lock=True)
        report = start_report(recording)
        if recording.status != RecordingStatus.ANALYSED or not recording.file:
            raise Refused(
                _("Only a recording analysed and still kept can be analysed again."),
                RefusalCode.CONFLICT,
            )
        if report is None or abs(report.offset_seconds - offset_seen) > 0.05:
            raise Refused(
                _("The recording's analysis has changed since the page was read: look again."),
                RefusalCode.CONFLICT,
            )
        if not report.sure:
            raise Refused(
                _("The sound does not tell when the recording started."), RefusalCode.CONFLICT
            )
        if report.fits:
            raise Refused(_("The given start already fits the sound."), RefusalCode.CONFLICT)
        if report.pause:
            raise Refused(
                _("The recording was paused: another start does not mend its time line."),
                RefusalCode.CONFLICT,
            )
        Recording.objects.filter(pk=recording.pk).update(
            given_started_at=report.sound_at,
            started_at=report.sound_at,
            status=RecordingStatus.QUEUED,
            progress=0,
        )
        queue_on_commit("games.recordings.tasks.recording_analyse", recording.pk)
    recording.refresh_from_db()
    return recording


def span_text(seconds: float) -> str:
    """A length for the host to read, in their language: «12 с», «2 мин 10 с», «1 мин»,
    «1 ч 5 мин»."""
    whole = round(abs(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, rest = divmod(rest, 60)
    if hours:
        return _("%(hours)d h %(minutes)d min") % {"hours": hours, "minutes": minutes}
    if minutes and not rest:
        return _("%(minutes)d min") % {"minutes": minutes}
    if minutes:
        return _("%(minutes)d min %(seconds)d s") % {"minutes": minutes, "seconds": rest}
    return _("%(seconds)d s") % {"seconds": rest}
