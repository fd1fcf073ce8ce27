"""Long recordings: a recording longer than the club's setting is refused from its
container's header when its upload completes, before any analysis (or, when the header
does not say, from its packets, and in the analysis from the sound itself)."""

from pathlib import Path

import av
import numpy as np
import pytest
from django.test import Client

from club.kernel.clubs import Club
from games.recordings import analysis as recording_analysis
from games.recordings.models import RecordingStatus
from tests.games.recordings import test_recordings
from tests.games.recordings.test_recordings import Played, upload
from tests.sound import quiet, write

played = test_recordings.played  # a finished game with timed speeches


def longest_minutes(minutes: int) -> None:
    Club.objects.filter(pk=1).update(max_recording_minutes=minutes)
    Club.forget_cached()


def seventy_seconds(tmp_path: Path, kind: str, *, streamed: bool = False) -> Path:
    sound = quiet(np.random.default_rng(4), 70)
    return write(tmp_path / f"long.{kind}", sound, kind, streamed=streamed)


@pytest.mark.django_db
@pytest.mark.usefixtures("recording_storage")
@pytest.mark.parametrize("kind", ["m4a", "ogg"])
def test_a_recording_longer_than_the_club_takes_is_refused_before_its_analysis(
    played: Played, tmp_path: Path, queued: list[tuple[str, tuple[object, ...]]], kind: str
) -> None:
    host, game, began = played
    longest_minutes(1)
    refused = upload(host, game, seventy_seconds(tmp_path, kind), began)
    assert refused.status == RecordingStatus.FAILED and not refused.file
    assert refused.error == ("Запись длится 0:01:10, а клуб принимает записи не длиннее 0:01:00.")
    assert not [name for name, _args in queued if name.endswith("recording_analyse")]


@pytest.mark.django_db
@pytest.mark.usefixtures("recording_storage")
def test_a_recording_within_the_limit_is_taken(
    played: Played, tmp_path: Path, queued: list[tuple[str, tuple[object, ...]]]
) -> None:
    host, game, began = played
    longest_minutes(2)
    taken = upload(host, game, seventy_seconds(tmp_path, "ogg"), began)
    assert taken.status == RecordingStatus.QUEUED
    assert taken.duration == pytest.approx(70, abs=0.1)


@pytest.mark.django_db
@pytest.mark.usefixtures("recording_storage")
def test_a_header_without_a_length_is_answered_by_the_packets(
    played: Played, tmp_path: Path
) -> None:
    host, game, began = played
    path = seventy_seconds(tmp_path, "webm", streamed=True)
    with av.open(str(path)) as container:  # as a browser's recorder writes it
        assert container.duration is None and container.streams.audio[0].duration is None
    longest_minutes(1)
    refused = upload(host, game, path, began)
    assert refused.status == RecordingStatus.FAILED
    assert refused.error == "Запись длиннее 0:01:00, а длиннее клуб записи не принимает."


@pytest.mark.django_db
@pytest.mark.usefixtures("recording_storage")
def test_the_analysis_stops_at_the_limit_whatever_the_header_said(
    played: Played, tmp_path: Path
) -> None:
    host, game, began = played
    taken = upload(host, game, seventy_seconds(tmp_path, "wav"), began)
    assert taken.status == RecordingStatus.QUEUED
    longest_minutes(1)  # as if the header had said less than the sound holds
    assert recording_analysis.recording_analyse(recording_id=taken.pk) is None
    taken.refresh_from_db()
    assert taken.status == RecordingStatus.FAILED
    assert taken.error == "Запись длиннее 0:01:00, а длиннее клуб записи не принимает."
    assert taken.voiced is None


@pytest.mark.django_db
def test_the_limit_is_a_setting_in_the_admin(admin_client_: Client) -> None:
    page = admin_client_.get("/admin/club/club/1/change/").content.decode()
    assert 'name="max_recording_minutes"' in page and 'value="300"' in page
    assert "самая длинная запись (минут)" in page.lower()
