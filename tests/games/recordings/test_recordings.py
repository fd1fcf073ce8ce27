"""A game's recording: resumable upload, the analysis of its sound against the host's
timer, permissions, and deletion on time."""

from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
import time_machine
from django.template.defaultfilters import filesizeformat
from django.test import Client
from django.utils import timezone, translation
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from accounts.services import api_token_create
from club.kernel.errors import RefusalCode, Refused
from games.models import Game
from games.ratings import analysis as ratings_analysis
from games.recordings import analysis as recording_analysis
from games.recordings import services as recordings
from games.recordings.models import Recording, RecordingDeletion, RecordingStatus
from tests.factories import make_member
from tests.games.recording import TOWN_WINS, Table, record, start_game
from tests.sound import script, write

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recording_storage")]

# The sound, second by second: voice 6–26, 41–73, 76–79, 86–90.
SOUND = [
    ("quiet", 6), ("speech", 20), ("quiet", 15), ("speech", 32), ("quiet", 3),
    ("speech", 3), ("quiet", 7), ("speech", 4), ("quiet", 12),
]  # fmt: skip
# The host's timer (seconds into the sound): seat, start, end, seconds allowed.
SPEECHES = [(1, 5, 35, 30), (2, 40, 75, 30), (3, 85, 100, 30)]
TRUTH = {  # talk, silence, over, after
    1: (20, 10, 0, 0),
    2: (32, 3, 3, 3),  # talks 3 s past the slot, and 3 s more after the timer stopped
    3: (4, 11, 0, 0),
}


# A finished game whose day 1 opened with timed speeches: its host, it, and when it began.
type Played = tuple[User, Game, datetime]


@pytest.fixture
def played(table: Table) -> Played:
    """A finished game whose day 1 opened with three timed speeches."""
    host, evening, players = table
    game = start_game(host, evening, players)
    began = timezone.now() - timedelta(hours=1)
    speeches = [
        {
            "type": "speech",
            "seat": seat,
            "start": (began + timedelta(seconds=start)).isoformat(),
            "end": (began + timedelta(seconds=end)).isoformat(),
            "limit": limit,
        }
        for seat, start, end, limit in SPEECHES
    ]
    record(game, host, TOWN_WINS[0], *speeches, *TOWN_WINS[1:])
    return host, game, began


def ended_at(game: Game) -> datetime:
    assert game.ended_at is not None, "the game is still running"
    return game.ended_at


def sound_file(tmp_path: Path, kind: str) -> Path:
    return write(tmp_path / f"game.{kind}", script(np.random.default_rng(3), SOUND), kind)


def upload(
    host: User, game: Game, path: Path, began: datetime, chunk: int = 64 * 1024
) -> Recording:
    data = path.read_bytes()
    recording = recordings.recording_start(
        game_id=game.pk, user=host, name=path.name, size=len(data), started_at=began
    )
    for offset in range(0, len(data), chunk):
        recording = recordings.recording_append(
            recording_id=recording.pk, user=host, offset=offset, data=data[offset : offset + chunk]
        )
    return recording


def test_the_figures_of_each_speech_are_within_half_a_second(
    played: Played, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Every phone format's figures: test_recording_formats.py. The worker logs what the
    analysis cost, wall and CPU seconds per second of sound."""
    host, game, began = played
    recording = upload(host, game, sound_file(tmp_path, "m4a"), began)
    assert recording.status == RecordingStatus.QUEUED
    with caplog.at_level("INFO", logger="games.recordings.analysis"):
        analysed = recording_analysis.recording_analyse(recording_id=recording.pk)
    assert analysed is not None
    assert analysed.status == RecordingStatus.ANALYSED and analysed.progress == 100
    assert analysed.duration is not None
    cost = f"Recording {recording.pk} analysed: {analysed.duration:.0f} s of sound, wall "
    assert [r.getMessage() for r in caplog.records if r.getMessage().startswith(cost)], caplog.text
    assert "cpu_rtf" in caplog.text
    alignment = recording_analysis.recording_alignment(analysed)
    assert alignment is not None
    assert [s.seat for s in alignment.speeches] == [1, 2, 3]
    for speech in alignment.speeches:
        measured = (speech.talk, speech.silence, speech.over, speech.after)
        assert measured == pytest.approx(TRUTH[speech.seat], abs=0.5), speech
    assert alignment.outside == pytest.approx(3, abs=0.5)  # the 3 s after seat 2's slot


def test_the_page_and_the_api_show_what_is_kept_of_a_transcoded_upload(
    played: Played, tmp_path: Path
) -> None:
    """The host's walk of #30: a WAV transcoded on arrival showed its upload's size, not the
    few megabytes the club keeps."""
    host, game, began = played
    recording = upload(host, game, sound_file(tmp_path, "wav"), began)
    analysed = recording_analysis.recording_analyse(recording_id=recording.pk)
    assert analysed is not None and analysed.stored_size is not None
    assert analysed.stored_size == analysed.file.size < analysed.size
    client = Client()
    client.force_login(host)
    page = client.get(f"/games/{game.pk}/recording/").content.decode()
    with translation.override("ru"):
        uploaded, kept = filesizeformat(analysed.size), filesizeformat(analysed.stored_size)
    assert f"загружено {uploaded}, хранится {kept}" in page
    token = api_token_create(member=host).key
    read = client.get(
        f"/api/v1/recordings/{analysed.pk}", headers={"Authorization": f"Bearer {token}"}
    ).json()
    assert (read["size"], read["stored_size"]) == (analysed.size, analysed.stored_size)


def test_a_game_logged_without_speeches_shows_no_empty_figures(
    table: Table, tmp_path: Path
) -> None:
    """The helper's walk of #30: a game with no speech in its log, its recording analysed,
    showed an empty speeches table, an empty who-spoke-when picture and table, and the
    recording page's link to them."""
    host, evening, players = table
    game = start_game(host, evening, players)
    began = timezone.now() - timedelta(hours=1)
    record(game, host, *TOWN_WINS)
    recording = upload(host, game, sound_file(tmp_path, "m4a"), began)
    analysed = recording_analysis.recording_analyse(recording_id=recording.pk)
    assert analysed is not None and analysed.status == RecordingStatus.ANALYSED
    assert not analysed.voices_told
    ratings_analysis.game_analysis_build(game_id=game.pk)
    client = Client()
    client.force_login(host)
    page = client.get(f"/games/{game.pk}/?public=1").content.decode()
    assert 'id="analysis"' in page
    for empty in ("Речи по записи", "Кто когда говорил", 'class="speeches"', 'class="speakers"'):
        assert empty not in page, empty
    recording_page = client.get(f"/games/{game.pk}/recording/").content.decode()
    assert "Кто когда говорил — в разборе игры" not in recording_page
    assert client.get(f"/api/v1/games/{game.pk}/analysis").json()["audio"] is None


def test_an_interrupted_upload_resumes_where_the_server_stopped(
    played: Played, tmp_path: Path
) -> None:
    host, game, began = played
    data = sound_file(tmp_path, "wav").read_bytes()
    started = recordings.recording_start(
        game_id=game.pk, user=host, name="game.wav", size=len(data), started_at=began
    )
    half = recordings.CHUNK_BYTES // 2
    recordings.recording_append(recording_id=started.pk, user=host, offset=0, data=data[:half])
    # The connection dropped: the phone sends the same chunk again, then one from too far on.
    for offset in (0, half + 100):
        with pytest.raises(Refused) as refused:
            recordings.recording_append(
                recording_id=started.pk, user=host, offset=offset, data=data[offset : offset + 10]
            )
        assert (refused.value.code, refused.value.details["offset"]) == (RefusalCode.CONFLICT, half)
    # Starting again with the same file finds the upload begun, and it goes on from `half`.
    again = recordings.recording_start(
        game_id=game.pk, user=host, name="game.wav", size=len(data), started_at=began
    )
    assert (again.pk, again.received) == (started.pk, half)
    for offset in range(half, len(data), recordings.CHUNK_BYTES):
        done = recordings.recording_append(
            recording_id=started.pk,
            user=host,
            offset=offset,
            data=data[offset : offset + recordings.CHUNK_BYTES],
        )
    assert done.status == RecordingStatus.QUEUED
    assert Path(done.file.path).read_bytes() == data


def test_only_the_host_and_admins_touch_the_recording(
    played: Played, tmp_path: Path, admin_member: User
) -> None:
    host, game, began = played
    recording = upload(host, game, sound_file(tmp_path, "wav"), began)
    stranger = make_member()
    for attempt in (
        lambda: recordings.recording_start(game_id=game.pk, user=stranger, name="a.wav", size=10),
        lambda: recordings.recording_open(recording_id=recording.pk, user=stranger),
        lambda: recordings.recording_delete(recording_id=recording.pk, user=stranger),
    ):
        with pytest.raises(Refused) as refused:
            attempt()
        assert refused.value.code == RefusalCode.FORBIDDEN
    assert (
        recordings.recording_open(recording_id=recording.pk, user=admin_member).file.read(4)
        == b"RIFF"
    )


@pytest.mark.parametrize(
    ("name", "size", "message"),
    [
        ("game.m4a", 0, "Файл пуст: выберите саму запись."),
        ("game.m4a", recordings.MAX_BYTES + 1, "Запись — не больше 4 ГБ."),
        ("game\x00.m4a", 100, "В имени файла есть символ, который нельзя сохранить."),
    ],
)
def test_wrong_files_are_refused_before_a_byte_is_sent(
    played: Played, name: str, size: int, message: str
) -> None:
    """A name says nothing of what a file is (its bytes do, once they are in); only an
    empty or too large file, or a name the database cannot store, is refused at once."""
    host, game, _began = played
    with pytest.raises(Refused) as refused:
        recordings.recording_start(game_id=game.pk, user=host, name=name, size=size)
    assert refused.value.message == message
    assert not Recording.objects.exists()


def test_a_file_that_is_not_sound_fails_with_a_message_and_is_not_kept(played: Played) -> None:
    host, game, _began = played
    junk = b"not a recording at all " * 100
    started = recordings.recording_start(game_id=game.pk, user=host, name="x.mp3", size=len(junk))
    failed = recordings.recording_append(recording_id=started.pk, user=host, offset=0, data=junk)
    assert failed.status == RecordingStatus.FAILED and failed.error
    assert not failed.file


def test_the_sweep_deletes_what_is_due_and_keeps_what_is_not(
    played: Played,
    tmp_path: Path,
    table: Table,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    host, game, began = played
    recording = upload(host, game, sound_file(tmp_path, "wav"), began)
    recording_analysis.recording_analyse(recording_id=recording.pk)
    stored = Path(Recording.objects.get(pk=recording.pk).file.path)
    assert recordings.recordings_sweep() == 0
    with time_machine.travel(ended_at(game) + timedelta(days=3) - timedelta(minutes=1)):
        assert recordings.recordings_sweep() == 0
    with (
        time_machine.travel(ended_at(game) + timedelta(days=3, minutes=1)),
        django_capture_on_commit_callbacks(execute=True),  # the files go after the commit
    ):
        assert recordings.recordings_sweep() == 1
        assert recordings.recordings_sweep() == 0  # once
    gone = Recording.objects.get(pk=recording.pk)
    assert (gone.status, gone.file.name, gone.transcript) == (RecordingStatus.DELETED, "", None)
    assert gone.voiced  # the numbers stay
    assert not stored.exists()
    assert not [p for p in stored.parent.iterdir() if p.is_file()]  # nor the wav it came as
    audit = RecordingDeletion.objects.get(recording_id=recording.pk, reason="retention")
    assert (audit.size, audit.game_id) == (recording.size, game.pk)
    # The wav upload went when its analysis stored it as m4a, with its own audit row.
    compacted = RecordingDeletion.objects.get(recording_id=recording.pk, reason="compacted")
    assert compacted.file_name == f"recordings/game-{game.pk}.wav"
    with pytest.raises(Refused):
        recordings.recording_open(recording_id=recording.pk, user=host)


def test_after_a_week_of_downtime_every_overdue_recording_goes_at_the_next_run(
    table: Table, tmp_path: Path
) -> None:
    host, evening, players = table
    ages = [10, 6, 4, 2, 1]  # days since each game ended, when the sweep runs again
    now = timezone.now()
    due = []
    for days in ages:
        game = start_game(host, evening, players)
        record(game, host, *TOWN_WINS)
        game.ended_at = game.first_ended_at = now - timedelta(days=days)
        game.save(update_fields=["ended_at", "first_ended_at"])
        path = write(
            tmp_path / f"g{game.pk}.wav", script(np.random.default_rng(1), [("speech", 1)]), "wav"
        )
        data = path.read_bytes()
        with time_machine.travel(ended_at(game) + timedelta(minutes=5)):
            started = recordings.recording_start(
                game_id=game.pk, user=host, name=path.name, size=len(data)
            )
            recordings.recording_append(recording_id=started.pk, user=host, offset=0, data=data)
        due.append((days, started.pk))
    assert recordings.recordings_sweep(now) == 3
    left = set(Recording.objects.filter(deleted_at__isnull=True).values_list("pk", flat=True))
    assert left == {pk for days, pk in due if days < 3}
    assert RecordingDeletion.objects.count() == 3


def test_a_game_past_its_retention_takes_no_recording(played: Played) -> None:
    host, game, _began = played
    with time_machine.travel(ended_at(game) + timedelta(days=4)), pytest.raises(Refused):
        recordings.recording_start(game_id=game.pk, user=host, name="a.m4a", size=100)


def test_the_figures_join_the_published_analysis_with_its_timeline(
    played: Played, tmp_path: Path
) -> None:
    from django.test import Client

    from games.ratings import analysis

    host, game, began = played
    recording = upload(host, game, sound_file(tmp_path, "wav"), began)
    recording_analysis.recording_analyse(recording_id=recording.pk)
    analysis.game_analysis_build(game_id=game.pk)
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert 'class="speech-timeline wide-picture"' in page and 'class="over"' in page
    assert "recording/file" not in page  # the numbers are published, never the sound
    audio = Client().get(f"/api/v1/games/{game.pk}/analysis").json()["audio"]
    assert [s["seat"] for s in audio["speeches"]] == [1, 2, 3]
    assert audio["speeches"][1]["over"] == pytest.approx(3, abs=0.5)
    assert audio["transcription"] == ""  # why there is none is the operator's business


def test_an_admin_deletes_a_recording_from_admin_with_an_audit_row(
    played: Played, tmp_path: Path, admin_client_: Client
) -> None:
    host, game, began = played
    recording = upload(host, game, sound_file(tmp_path, "wav"), began)
    listing = admin_client_.get("/admin/recordings/recording/")
    assert listing.status_code == 200 and "game.wav" in listing.content.decode()
    admin_client_.post(
        "/admin/recordings/recording/",
        {"action": "delete_now", "_selected_action": [recording.pk]},
    )
    assert Recording.objects.get(pk=recording.pk).status == RecordingStatus.DELETED
    assert RecordingDeletion.objects.get(recording_id=recording.pk).reason == "by_hand"
    assert admin_client_.get("/admin/recordings/recordingdeletion/").status_code == 200


def test_the_stored_file_keeps_the_recordings_format_whatever_its_name(
    played: Played, tmp_path: Path
) -> None:
    host, game, began = played
    path = sound_file(tmp_path, "ogg")
    renamed = path.rename(tmp_path / "..%2F..%2Fзапись игры.OGG")
    recording = upload(host, game, renamed, began)
    assert recording.file.name is not None
    assert recording.file.name.startswith("recordings/game-") and recording.file.name.endswith(
        ".ogg"
    )
    assert recording.original_name == renamed.name
