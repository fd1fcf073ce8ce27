"""What is stored of a recording, and that all of it goes: an uncompressed upload is
replaced by its small stored form before the analysis (with an audit row), every stored
form is deleted on time, a recording deleted while it is transcoded is not stored again,
and what a killed process leaves behind (a file no row names) is deleted by the sweep."""

from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import time_machine
from django.db import DatabaseError
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from games.recordings import analysis as recording_analysis
from games.recordings import services as recordings
from games.recordings.audio import compact
from games.recordings.models import Recording, RecordingDeletion, RecordingStatus
from tests.games.recordings import test_recordings
from tests.games.recordings.test_recordings import SOUND, Played, ended_at, upload
from tests.sound import script, write

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recording_storage")]
played = test_recordings.played  # a finished game with timed speeches


def stored(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in (tmp_path / "media").rglob("*") if p.is_file())


def uploads(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in (tmp_path / "uploads").glob("*"))


def wav48(tmp_path: Path) -> Path:
    """The game as a phone set to its best records it: 48 kHz stereo 16-bit WAV."""
    sound = script(np.random.default_rng(3), SOUND)
    return write(tmp_path / "game.wav", sound, "wav48")


def test_an_uncompressed_upload_is_stored_small_and_every_form_goes_on_time(
    played: Played,
    tmp_path: Path,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    host, game, began = played
    path = wav48(tmp_path)
    with django_capture_on_commit_callbacks(execute=True):  # the partial file goes then
        recording = upload(host, game, path, began, chunk=recordings.CHUNK_BYTES)
    assert stored(tmp_path) == [f"game-{game.pk}.wav"] and uploads(tmp_path) == []
    with django_capture_on_commit_callbacks(execute=True):
        analysed = recording_analysis.recording_analyse(recording_id=recording.pk)
    assert analysed is not None and analysed.status == RecordingStatus.ANALYSED
    assert stored(tmp_path) == [f"game-{game.pk}.m4a"] and uploads(tmp_path) == []
    # 102 s: 19.6 MB of WAV, 0.6 MB of AAC at 48 kbit/s.
    assert analysed.file.size < path.stat().st_size / 25
    assert analysed.size == recording.received == path.stat().st_size  # what was uploaded
    with (
        time_machine.travel(ended_at(game) + timedelta(days=3, minutes=1)),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert recordings.recordings_sweep() == 1
    assert stored(tmp_path) == []
    audit = RecordingDeletion.objects.filter(recording_id=recording.pk).order_by("pk")
    assert [(row.reason, row.file_name) for row in audit] == [
        ("compacted", f"recordings/game-{game.pk}.wav"),
        ("retention", f"recordings/game-{game.pk}.m4a"),
    ]


def test_a_recording_deleted_while_it_is_transcoded_is_not_stored_again(
    played: Played,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    host, game, began = played
    with django_capture_on_commit_callbacks(execute=True):
        recording = upload(host, game, wav48(tmp_path), began, chunk=recordings.CHUNK_BYTES)
    transcode = compact.transcode

    def host_deletes_meanwhile(*args: Any, **kwargs: Any) -> float:
        seconds = transcode(*args, **kwargs)
        recordings.recording_delete(recording_id=recording.pk, user=host)
        return seconds

    monkeypatch.setattr(compact, "transcode", host_deletes_meanwhile)
    with django_capture_on_commit_callbacks(execute=True):
        assert recording_analysis.recording_analyse(recording_id=recording.pk) is None
    gone = Recording.objects.get(pk=recording.pk)
    assert (gone.status, gone.file.name, gone.voiced) == (RecordingStatus.DELETED, "", None)
    assert stored(tmp_path) == [] and uploads(tmp_path) == []  # nor the transcoded temp file
    assert list(RecordingDeletion.objects.values_list("reason", flat=True)) == ["by_hand"]


def test_the_files_a_killed_process_left_are_deleted_by_the_sweep(
    played: Played,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    host, game, began = played
    recording = upload(host, game, wav48(tmp_path), began, chunk=recordings.CHUNK_BYTES)
    wav, m4a = f"game-{game.pk}.wav", f"game-{game.pk}.m4a"
    # The worker stores the m4a, and its commit fails: the row still names the wav.
    save = Recording.save

    def commit_fails(self: Recording, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("update_fields") == ["file", "stored_size"]:
            raise DatabaseError("the connection dropped")
        save(self, *args, **kwargs)

    monkeypatch.setattr(Recording, "save", commit_fails)
    with pytest.raises(DatabaseError):
        recording_analysis.recording_analyse(recording_id=recording.pk)
    monkeypatch.undo()
    assert stored(tmp_path) == [m4a, wav]
    assert Recording.objects.get(pk=recording.pk).file.name == f"recordings/{wav}"
    with django_capture_on_commit_callbacks(execute=True):
        assert recordings.recordings_sweep() == 0
    assert stored(tmp_path) == [m4a, wav]  # a file just stored may be named any moment
    later = timezone.now() + recordings.ORPHAN_AGE + timedelta(minutes=1)
    with time_machine.travel(later), django_capture_on_commit_callbacks(execute=True):
        assert recordings.recordings_sweep() == 0  # no recording was due: only the orphan
    assert stored(tmp_path) == [wav]
    # Analysed again (the catch-up), the m4a is named and the wav's deletion is killed
    # before it runs (its on-commit callback never does): the sweep deletes the wav later.
    Recording.objects.filter(pk=recording.pk).update(status=RecordingStatus.QUEUED)
    analysed = recording_analysis.recording_analyse(recording_id=recording.pk)
    assert analysed is not None and analysed.file.name == f"recordings/{m4a}"
    assert stored(tmp_path) == [m4a, wav]
    with time_machine.travel(later + recordings.ORPHAN_AGE):
        recordings.recordings_sweep()
    assert stored(tmp_path) == [m4a]
    assert Path(analysed.file.path).exists()  # a named file is never an orphan


def test_a_recording_stored_as_it_came_is_not_transcoded(played: Played, tmp_path: Path) -> None:
    host, game, began = played
    path = write(tmp_path / "game.m4a", script(np.random.default_rng(3), SOUND), "m4a")
    recording = upload(host, game, path, began)
    analysed = recording_analysis.recording_analyse(recording_id=recording.pk)
    assert analysed is not None and analysed.file.name == recording.file.name
    assert Path(analysed.file.path).read_bytes() == path.read_bytes()
    assert not RecordingDeletion.objects.exists()
