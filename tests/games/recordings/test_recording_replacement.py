"""Replacing a game's recording: the recording it has, with its analysis and the published
figures, stays until the worker has analysed the new one; a new one that is unreadable,
too long (by its header, or by its sound when the header lies) or abandoned changes
nothing. Through both doors: the API the phone's uploader
uses, and the page's plain form."""

from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from club.kernel.clubs import Club
from games.models import Game
from games.ratings import analysis as ratings_analysis
from games.recordings import analysis as recording_analysis
from games.recordings import services as recordings
from games.recordings import tasks as recording_tasks
from games.recordings.models import Recording, RecordingDeletion, RecordingStatus
from tests.games.recordings import test_recordings
from tests.games.recordings.test_recordings import Played, sound_file, upload
from tests.games.recordings.test_recordings_api import bearer, begin, put
from tests.sound import quiet, write

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recording_storage")]
played = test_recordings.played  # a finished game with timed speeches


@pytest.fixture
def analysed(played: Played, tmp_path: Path) -> tuple[User, Game, Recording]:
    """The game's recording, analysed, and its analysis published."""
    host, game, began = played
    recording = upload(host, game, sound_file(tmp_path, "wav"), began)
    analysed = recording_analysis.recording_analyse(recording_id=recording.pk)
    assert analysed is not None
    ratings_analysis.game_analysis_build(game_id=game.pk)
    return host, game, analysed


def assert_kept(game: Game, recording: Recording) -> None:
    """The game's recording is the one it had: its row, its file, its figures, and the
    figures published on the game's page and in the API."""
    current = Recording.objects.get(pk=recording.pk)
    assert current.status == RecordingStatus.ANALYSED
    assert current.voiced == recording.voiced and current.speakers == recording.speakers
    assert Path(current.file.path).read_bytes() == Path(recording.file.path).read_bytes()
    audio = Client().get(f"/api/v1/games/{game.pk}/analysis").json()["audio"]
    assert [s["seat"] for s in audio["speeches"]] == [1, 2, 3]
    site = Client()
    site.force_login(game.host)
    assert site.get(f"/games/{game.pk}/recording/file").status_code == 200


def test_beginning_a_replacement_keeps_the_analysed_recording(
    analysed: tuple[User, Game, Recording],
) -> None:
    host, game, recording = analysed
    begun = begin(bearer(host), game, "again.ogg", 10_000)
    assert begun.status_code == 201
    assert_kept(game, recording)
    # Nothing deleted but the wav that the analysis stored as m4a (its audit row).
    assert list(RecordingDeletion.objects.values_list("reason", flat=True)) == ["compacted"]
    assert (begun.json()["status"], begun.json().get("replacement")) == ("uploading", True)


def test_a_replacement_begun_before_the_recording_was_deleted_keeps_nothing(
    analysed: tuple[User, Game, Recording],
) -> None:
    """The host's walk of #30: after deleting the recording while a new one was still being
    uploaded, the page said both «was deleted» and «the game keeps the one it has»."""
    host, game, recording = analysed
    assert begin(bearer(host), game, "again.ogg", 10_000).status_code == 201
    recordings.recording_delete(recording_id=recording.pk, user=host)
    site = Client()
    site.force_login(host)
    page = site.get(f"/games/{game.pk}/recording/").content.decode()
    assert "Запись удалена." in page
    assert "Загружается новая запись «again.ogg» (0\xa0байт из 9,8\xa0КБ)." in page
    assert "остаётся прежняя" not in page


def test_the_replacement_takes_the_place_once_analysed(
    analysed: tuple[User, Game, Recording],
    tmp_path: Path,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    host, game, recording = analysed
    old_file = Path(recording.file.path)
    data = write(tmp_path / "again.ogg", quiet(np.random.default_rng(1), 5), "ogg").read_bytes()
    api = bearer(host)
    new_id = begin(api, game, "again.ogg", len(data)).json()["id"]
    half = len(data) // 2
    assert put(api, new_id, 0, data[:half]).status_code == 200
    assert_kept(game, recording)  # half of it is not a recording yet
    with django_capture_on_commit_callbacks(execute=True) as queued:
        done = put(api, new_id, half, data[half:])
    assert done.status_code == 200
    # Complete and readable by its header, queued: still a replacement until analysed.
    assert (done.json()["status"], done.json()["replacement"]) == ("queued", True)
    assert queued
    assert_kept(game, recording)
    site = Client()
    site.force_login(host)
    page = site.get(f"/games/{game.pk}/recording/").content.decode()
    assert "Новая запись «again.ogg» загружена и разбирается" in page
    with django_capture_on_commit_callbacks(execute=True):
        assert recording_analysis.recording_analyse(recording_id=new_id) is not None
    current = Recording.objects.get(game=game)  # the only one left
    assert current.pk == new_id and not current.replacement
    assert current.status == RecordingStatus.ANALYSED
    assert Path(current.file.path).read_bytes() == data
    assert not Recording.objects.filter(pk=recording.pk).exists()
    assert not old_file.exists()
    reasons = RecordingDeletion.objects.filter(recording_id=recording.pk).values_list("reason")
    assert sorted(reason for (reason,) in reasons) == ["compacted", "replaced"]


def lying_mp3(tmp_path: Path, holds: float, claims: float) -> bytes:
    """An MP3 of `holds` seconds whose Xing header says `claims`: the frame count that
    players and the upload's check read the length from, without decoding."""
    data = bytearray(
        write(tmp_path / "lie.mp3", quiet(np.random.default_rng(3), holds), "mp3").read_bytes()
    )
    at = data.find(b"Info")  # LAME's Xing header of a constant bit rate
    assert at > 0 and int.from_bytes(data[at + 4 : at + 8]) & 1  # the frame count is there
    frames = int.from_bytes(data[at + 8 : at + 12])
    data[at + 8 : at + 12] = round(frames * claims / holds).to_bytes(4)
    return bytes(data)


def test_a_replacement_whose_header_lies_is_refused_by_the_worker_and_changes_nothing(
    analysed: tuple[User, Game, Recording],
    tmp_path: Path,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    """#37's walk, a minute for five hours: a header that claims 10 s of a file holding
    70 s passes the upload's check at a one-minute limit; the worker reads the sound and
    refuses it, and the game keeps its analysed recording; the host is told why."""
    host, game, recording = analysed
    Club.objects.filter(pk=1).update(max_recording_minutes=1)
    Club.forget_cached()
    data = lying_mp3(tmp_path, holds=70, claims=10)
    api = bearer(host)
    new_id = begin(api, game, "again.mp3", len(data)).json()["id"]
    with django_capture_on_commit_callbacks(execute=True):
        done = put(api, new_id, 0, data).json()
    assert (done["status"], done["replacement"]) == ("queued", True)  # the header passed
    assert done["duration"] == pytest.approx(10, abs=0.5)
    assert_kept(game, recording)
    # The worker's task, as the broker runs it.
    recording_tasks.recording_analyse(new_id)
    refused = api.get(f"/api/v1/recordings/{new_id}").json()
    assert (refused["status"], refused["replacement"]) == ("failed", True)
    assert refused["error"] == "Запись длиннее 0:01:00, а длиннее клуб записи не принимает."
    assert_kept(game, recording)
    assert Recording.objects.current().get(game=game).pk == recording.pk
    assert not RecordingDeletion.objects.filter(reason="replaced").exists()
    site = Client()
    site.force_login(host)
    page = site.get(f"/games/{game.pk}/recording/").content.decode()
    assert "Новая запись «again.mp3» не принята, у игры осталась прежняя:" in page
    assert refused["error"] in page
    # Refused, it is no longer in the way: the host can upload another.
    assert begin(api, game, "third.ogg", 10_000).status_code == 201
    assert_kept(game, recording)


def test_no_third_upload_while_a_replacement_is_in_the_worker(
    analysed: tuple[User, Game, Recording], tmp_path: Path
) -> None:
    host, game, recording = analysed
    data = write(tmp_path / "again.ogg", quiet(np.random.default_rng(1), 5), "ogg").read_bytes()
    api = bearer(host)
    new_id = begin(api, game, "again.ogg", len(data)).json()["id"]
    assert put(api, new_id, 0, data).json()["status"] == "queued"
    assert begin(api, game, "third.ogg", 10_000).status_code == 409
    assert Recording.objects.get(pk=new_id).status == RecordingStatus.QUEUED
    assert_kept(game, recording)


def test_an_unreadable_replacement_changes_nothing_and_says_why(
    analysed: tuple[User, Game, Recording],
) -> None:
    host, game, recording = analysed
    junk = b"not a recording at all " * 100
    api = bearer(host)
    new_id = begin(api, game, "again.mp3", len(junk)).json()["id"]
    done = put(api, new_id, 0, junk)
    assert done.status_code == 200
    assert done.json()["status"] == "failed" and done.json()["error"]
    assert_kept(game, recording)
    assert api.get(f"/api/v1/recordings/{new_id}").json()["error"] == done.json()["error"]
    site = Client()
    site.force_login(host)
    page = site.get(f"/games/{game.pk}/recording/").content.decode()
    assert "не принята" in page and done.json()["error"] in page


def test_a_replacement_longer_than_the_club_takes_changes_nothing(
    analysed: tuple[User, Game, Recording], tmp_path: Path
) -> None:
    host, game, recording = analysed
    Club.objects.filter(pk=1).update(max_recording_minutes=1)
    Club.forget_cached()
    data = write(tmp_path / "long.ogg", quiet(np.random.default_rng(2), 70), "ogg").read_bytes()
    api = bearer(host)
    new_id = begin(api, game, "long.ogg", len(data)).json()["id"]
    done = put(api, new_id, 0, data).json()
    assert done["status"] == "failed"
    assert "0:01:10" in done["error"] and "0:01:00" in done["error"]
    assert_kept(game, recording)


def test_an_abandoned_replacement_expires_and_changes_nothing(
    analysed: tuple[User, Game, Recording],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    host, game, recording = analysed
    api = bearer(host)
    new_id = begin(api, game, "again.wav", 10_000).json()["id"]
    assert put(api, new_id, 0, b"RIFF" + b"\0" * 996).status_code == 200
    partial = Path(recordings._partial_path(Recording.objects.get(pk=new_id)))
    assert partial.exists()
    with time_machine.travel(timezone.now() + timedelta(hours=23)):  # a day without a chunk
        assert recordings.recordings_sweep() == 0
    with (
        time_machine.travel(timezone.now() + timedelta(hours=25)),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert recordings.recordings_sweep() == 1
    assert not Recording.objects.filter(pk=new_id).exists()
    assert not partial.exists()
    assert RecordingDeletion.objects.get(recording_id=new_id).reason == "abandoned"
    assert_kept(game, recording)


def test_the_pages_form_keeps_the_recording_when_the_new_file_is_unreadable(
    analysed: tuple[User, Game, Recording],
) -> None:
    host, game, recording = analysed
    site = Client()
    site.force_login(host)
    junk = SimpleUploadedFile("again.m4a", b"not a recording " * 100, content_type="audio/mp4")
    answer = site.post(f"/games/{game.pk}/recording/", {"file": junk}, follow=True)
    assert answer.status_code == 200
    assert "Файл — не звукозапись или обрезан." in answer.content.decode()
    assert_kept(game, recording)
