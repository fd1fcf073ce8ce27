"""The analysis of a recording's sound, in the worker: voice activity over the whole file
(Silero VAD under onnxruntime), an optional transcript, and the speech figures against the
game's log (games/recordings/audio/)."""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import timedelta
from typing import Any

import numpy as np
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.recordings import services
from games.recordings.audio import cost, decode, encoder, features, speakers, vad
from games.recordings.audio.alignment import Alignment, align, announcements, places
from games.recordings.audio.offset import OffsetFound, find_offset
from games.recordings.models import FoulSuggestion, Recording, RecordingStatus, SuggestionStatus

logger = logging.getLogger(__name__)


def recording_analyse(*, recording_id: int) -> Recording | None:
    """Voice activity over the whole recording, with progress; safe to run twice."""
    claimed = Recording.objects.filter(
        pk=recording_id, status__in=[RecordingStatus.QUEUED, RecordingStatus.PROCESSING]
    ).update(status=RecordingStatus.PROCESSING, progress=0)
    if not claimed:
        return None
    recording = Recording.objects.get(pk=recording_id)
    expected_frames = max(1, int((recording.duration or 0) / vad.FRAME_SECONDS))
    last_reported = [0]

    def report(frames: int) -> None:
        percent = min(99, 100 * frames // expected_frames)
        if percent >= last_reported[0] + 5:
            last_reported[0] = percent
            Recording.objects.filter(pk=recording_id).update(progress=percent)

    frame_features: list[np.ndarray] = []
    mel_frames = encoder.MelFrames()

    def described(blocks: Iterable[np.ndarray]) -> Iterator[np.ndarray]:
        """The blocks on their way to the VAD, each also described for the speakers (the
        MFCC and the speaker encoder's mel frames): one decoding of the file serves all."""
        for block in blocks:
            frame_features.append(features.mfcc(block))
            mel_frames.feed(block)
            yield block

    # The header's length was checked at the upload; the sound itself is counted here, so
    # a header that is missing or wrong costs no more than the club's limit of work.
    longest = services.longest_seconds()
    try:
        # An uncompressed or unplayable upload becomes its small stored form first.
        compacted = services.recording_compact(recording, longest=longest)
        if compacted is None:
            return None  # deleted while it was being transcoded: nothing of it is kept
        recording = compacted
        # What the analysis of the sound costs (decoding to the attribution, as the benches
        # measure it), logged with the result: wall time and, what the targets are on, CPU.
        clock = cost.Clock()
        with recording.file.open("rb") as sound:
            sound_blocks = decode.blocks(sound, vad.BLOCK_SAMPLES, longest=longest)
            probs = vad.probabilities(described(sound_blocks), report)
    except decode.TooLong as error:
        logger.warning("Recording %s failed: %s", recording_id, error)
        _fail(recording_id, services.too_long(math.inf))
        return None
    except (decode.UnreadableAudio, OSError) as error:
        logger.warning("Recording %s failed: %s", recording_id, error)
        _fail(recording_id, _("The sound could not be decoded."))
        return None
    voiced = [[a, b] for a, b in vad.segments(probs)]
    duration = len(probs) * vad.FRAME_SECONDS
    start = _sound_start(recording, voiced, duration)  # sets recording.started_at
    heard = speakers.Sound(
        np.concatenate(frame_features) if frame_features else np.zeros((0, features.FEATURES)),
        *mel_frames.finish(),
    )
    frame_features.clear()  # the joined copy is all that is needed now
    # A paused recording's time line is broken after the pause, and a given start the sound
    # contradicts puts every window in the wrong place: nobody's voice is attributed on
    # such a time line (the recording's page says why) rather than garbage.
    broken = services.timeline_broken(
        paused=start.pause is not None,
        sure=start.sure,
        given_by_host=recording.start_given,
        fits=start.fits_given,
    )
    attribution = None if broken else _who_spoke(recording, heard, voiced, duration)
    spent = clock.spent()
    transcript, note = _transcribe(recording)
    with transaction.atomic():
        # The game's rows locked as every writer locks them: a replacement takes the place
        # of the recording it replaces in this transaction, with its analysis.
        services.lock_game_recordings(recording.game_id)
        if not Recording.objects.filter(pk=recording_id, deleted_at__isnull=True).update(
            status=RecordingStatus.ANALYSED,
            progress=100,
            duration=duration,
            voiced=voiced,
            speakers=attribution.as_dict() if attribution else None,
            transcript=transcript,
            transcript_note=note,
            analysed_at=timezone.now(),
            **_start_fields(recording, start),
        ):
            return None  # deleted while it was being analysed: nothing of it is kept
        services.take_place(recording)
        if attribution is None:
            FoulSuggestion.objects.filter(
                recording=recording, status=SuggestionStatus.PENDING
            ).delete()
        else:
            _suggest(recording, attribution)
    logger.info("Recording %s analysed: %s", recording_id, spent.described(duration))
    return Recording.objects.get(pk=recording_id)


def _sound_start(recording: Recording, voiced: list[list[float]], duration: float) -> OffsetFound:
    """Where the protocol fits the sound (audio/offset.py), and the start the analysis
    aligns with from here on, set on `recording.started_at`: the sound's when it is sure of
    it and nobody gave a start, else the given one."""
    given = recording.given_start
    found = find_offset(voiced, duration, recording.game.events.effective(), given)
    recording.given_started_at = given
    recording.started_at = given
    if found.sure and not recording.start_given:
        recording.started_at = given + timedelta(seconds=found.offset_seconds)
    return found


def _start_fields(recording: Recording, start: OffsetFound) -> dict[str, Any]:
    return {
        "started_at": recording.started_at,
        "given_started_at": recording.given_started_at,
        "start_offset": round(start.offset_seconds, 1),
        "start_confidence": round(start.confidence, 3),
        "pause": start.pause.as_dict() if start.pause else None,
    }


def _fail(recording_id: int, error: str) -> None:
    Recording.objects.filter(pk=recording_id).update(
        status=RecordingStatus.FAILED, error=error[:300]
    )


def _who_spoke(
    recording: Recording, sound: speakers.Sound, voiced: list[list[float]], duration: float
) -> speakers.Attribution:
    """Each stretch of voice attributed to a seat, the host's speech windows teaching the
    voices and the phases' announcements the host's own (audio/speakers.py), with the
    game's protocol as it stands now."""
    events = recording.game.events.effective()
    windows, nights = places(events, recording.started_at, duration)
    return speakers.attribute(
        sound,
        voiced,
        [speakers.Window(*window) for window in windows],
        nights,
        host=announcements(events, recording.started_at, duration),
    )


def _suggest(recording: Recording, attribution: speakers.Attribution) -> None:
    """The fouls the sound suggests, for the host to accept or dismiss; an analysis run
    again replaces the ones still waiting and keeps the host's decisions, and talk the log
    already holds a foul for (given by the host, or accepted from an earlier recording of
    the game) is not suggested again."""
    FoulSuggestion.objects.filter(recording=recording, status=SuggestionStatus.PENDING).delete()
    decided = set(
        FoulSuggestion.objects.filter(recording=recording).values_list("seat", "during", "start")
    )
    events = recording.game.events.effective()

    def logged(found: speakers.Suggestion) -> bool:
        at = recording.started_at
        return services.foul_logged(
            events,
            found.seat,
            at + timedelta(seconds=found.start),
            at + timedelta(seconds=found.end),
        )

    FoulSuggestion.objects.bulk_create(
        FoulSuggestion(
            recording=recording,
            seat=found.seat,
            during=found.during,
            start=round(found.start, 2),
            end=round(found.end, 2),
            seconds=round(found.seconds, 1),
        )
        for found in attribution.suggestions
        if (found.seat, found.during, round(found.start, 2)) not in decided and not logged(found)
    )


TRANSCRIPT_UNCONFIGURED = "skipped:unconfigured"
TRANSCRIPT_NOT_INSTALLED = "skipped:not_installed"
TRANSCRIPT_DONE = "faster-whisper"


def _transcribe(recording: Recording) -> tuple[dict[str, Any] | None, str]:
    """A transcript per speech when a local faster-whisper model is configured."""
    model_dir = settings.WHISPER_MODEL_DIR
    if not model_dir:
        return None, TRANSCRIPT_UNCONFIGURED
    try:
        from faster_whisper import WhisperModel  # optional: not among the dependencies
    except ImportError:
        return None, TRANSCRIPT_NOT_INSTALLED
    model = WhisperModel(model_dir, device="cpu", compute_type="int8")
    with recording.file.open("rb") as sound:
        audio = np.concatenate(list(decode.blocks(sound, vad.BLOCK_SAMPLES)))
    pieces, _info = model.transcribe(audio, language="ru")
    return {"segments": [[p.start, p.end, p.text] for p in pieces]}, TRANSCRIPT_DONE


def recording_alignment(
    recording: Recording, events: Sequence[Mapping[str, Any]] | None = None
) -> Alignment | None:
    """The speech figures of an analysed recording, against the game's current log (or
    the effective `events` a page has already read); None for a recording paused and
    resumed, or whose given start the sound contradicts (its time line is broken)."""
    if recording.voiced is None or recording.duration is None:
        return None
    report = services.start_report(recording)
    if report is not None and report.timeline_broken:
        return None
    if events is None:
        events = recording.game.events.effective()
    return align(recording.voiced, events, recording.started_at, recording.duration)
