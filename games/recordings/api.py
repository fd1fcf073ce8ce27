"""/api/v1: a game's recording, uploaded in chunks from the host's phone.

`POST /games/{id}/recording` begins (or finds the begun) upload; for a game that has a
recording it is a replacement, and the old one stays until the worker has analysed the
new one (`replacement` stays true while it is queued and analysed; refused, it answers
`failed` with the `error` and the old one stays the game's).
`PUT /recordings/{id}/chunk` appends the bytes at `Upload-Offset`, which must be
what the server has (`GET /recordings/{id}` tells it: `received`), so a dropped connection
continues where it stopped; the last chunk queues the analysis, whose `progress` the same
GET shows, or answers `failed` with the `error` (unreadable, or longer than the club takes).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from django.core.exceptions import RequestDataTooBig
from django.http import FileResponse
from django.utils.translation import gettext as _
from ninja import Field, Header, Router, Schema, Status

from club.doors.requests import ApiRequest
from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import Moment
from club.kernel.schemas import ERRORS
from games.recordings import services as recordings
from games.recordings.audio.offset import SURE
from games.recordings.models import Recording

router = Router(tags=["recordings"])


class RecordingIn(Schema):
    name: str = Field(..., min_length=1, max_length=200)
    # Bytes; 0 and more than MAX_BYTES are refused by the service, with its message.
    size: int = Field(..., ge=0)
    started_at: Moment | None = None  # second 0 of the sound; the game's start if not given


class StartOut(Schema):
    """The recording's start as its sound told it (docs/audio.md)."""

    given_at: datetime  # the start the upload gave: the game's start unless given
    given_by_host: bool
    sound_at: datetime  # where the protocol fits the sound best
    offset_seconds: float  # sound_at - given_at
    confidence: float  # 0-1: claimed from `sure_from`
    sure: bool
    sure_from: float
    fits_given: bool | None  # within a second of sound_at (null: the sound is not sure)
    from_sound: bool  # the figures align with sound_at (else with given_at)


class PauseOut(Schema):
    """The recording was paused and resumed: nobody's voice is attributed on it."""

    at: float  # the recording's second from which the protocol fits later
    earliest: float  # the jump is somewhere between these seconds of the recording
    latest: float
    seconds: float  # how much later: the game's time the recording missed
    offset_after: float
    confidence_after: float


class RecordingOut(Schema):
    id: int
    game_id: int
    name: str
    size: int
    received: int
    stored_size: int | None  # what the club keeps (transcoded on arrival); null until stored
    chunk_bytes: int
    status: str
    progress: int
    error: str
    duration: float | None
    # An upload beside the game's recording, which stays the game's until this one is
    # analysed (then `replacement` turns false: this is the game's recording).
    replacement: bool
    started_at: datetime  # second 0 of the sound, as the figures align it
    start: StartOut | None  # null until analysed
    pause: PauseOut | None


def _out(recording: Recording) -> RecordingOut:
    return RecordingOut(
        id=recording.pk,
        game_id=recording.game_id,
        name=recording.original_name,
        size=recording.size,
        received=recording.received,
        stored_size=recording.stored_size,
        chunk_bytes=recordings.CHUNK_BYTES,
        status=recording.status,
        progress=recording.progress,
        error=recording.error,
        duration=recording.duration,
        replacement=recording.replacement,
        started_at=recording.started_at,
        start=_start_out(recording),
        pause=PauseOut(**recording.pause) if recording.pause else None,
    )


def _start_out(recording: Recording) -> StartOut | None:
    report = recordings.start_report(recording)
    if report is None:
        return None
    return StartOut(
        given_at=report.given_at,
        given_by_host=report.given_by_host,
        sound_at=report.sound_at,
        offset_seconds=report.offset_seconds,
        confidence=report.confidence,
        sure=report.sure,
        sure_from=SURE,
        fits_given=report.fits,
        from_sound=report.from_sound,
    )


@router.post("/games/{game_id}/recording", response={201: RecordingOut, **ERRORS})
def recording_start(
    request: ApiRequest, game_id: int, payload: RecordingIn
) -> Status[RecordingOut]:
    recording = recordings.recording_start(
        game_id=game_id,
        user=request.auth,
        name=payload.name,
        size=payload.size,
        started_at=payload.started_at,
    )
    return Status(201, _out(recording))


@router.get("/recordings/{recording_id}", response={200: RecordingOut, **ERRORS})
def recording_detail(request: ApiRequest, recording_id: int) -> RecordingOut:
    return _out(recordings.recording_for(request.auth, recording_id))


CHUNK_BODY = {
    "requestBody": {
        "required": True,
        "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
    }
}


@router.put(
    "/recordings/{recording_id}/chunk",
    response={200: RecordingOut, **ERRORS},
    openapi_extra=CHUNK_BODY,
)
def recording_chunk(
    request: ApiRequest,
    recording_id: int,
    offset: Annotated[int, Header(alias="Upload-Offset", ge=0)],
) -> RecordingOut:
    try:
        data = request.body
    except RequestDataTooBig as error:
        raise Refused(_("A chunk is 2 MB at most."), RefusalCode.TOO_LARGE) from error
    recording = recordings.recording_append(
        recording_id=recording_id, user=request.auth, offset=offset, data=data
    )
    return _out(recording)


@router.delete("/recordings/{recording_id}", response={204: None, **ERRORS})
def recording_delete(request: ApiRequest, recording_id: int) -> Status[None]:
    recordings.recording_delete(recording_id=recording_id, user=request.auth)
    return Status(204, None)


@router.get(
    "/recordings/{recording_id}/file",
    response={200: None, **ERRORS},
    # An int key, as ninja keys its own: a "200" beside 200 is a duplicated key in JSON.
    openapi_extra={"responses": {200: {"description": "The recording as stored."}}},
)
def recording_file(request: ApiRequest, recording_id: int) -> FileResponse:
    download = recordings.recording_open(recording_id=recording_id, user=request.auth)
    return FileResponse(download.file, as_attachment=True, filename=download.name)
