"""The phones' formats, through the door the phone uses (the API's chunks): every format is
taken by what its bytes are, not by its name, analysed, and measured within half a second
of the truth; what is not a recording is refused with a message and nothing is kept.

Each format is written here by PyAV (tests/sound.py) but AMR, which PyAV's ffmpeg cannot
encode: tests/data/game.amr was made once by the opencore encoder (tests/data/make_amr.py),
and the 3gp holding AMR is its packets copied by PyAV. Uncompressed, lossless and
browser-unplayable recordings are stored transcoded (audio/compact.py), so their figures
are those of the stored form."""

from pathlib import Path

import av
import numpy as np
import pytest
from django.conf import settings
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from games.models import Game
from games.recordings import analysis as recording_analysis
from games.recordings import services as recordings
from games.recordings.audio import compact, decode
from games.recordings.models import Recording, RecordingDeletion, RecordingStatus
from tests.games.recordings import test_recordings
from tests.games.recordings.test_recordings import SOUND, TRUTH, Played
from tests.games.recordings.test_recordings_api import bearer, begin, put
from tests.sound import FORMATS, amr_in_3gp, script, write

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recording_storage")]
played = test_recordings.played  # a finished game with timed speeches

AMR = Path(__file__).parents[2] / "data/game.amr"
# The stored file's extension when the upload is kept as it came, by the kind written.
# Not "oga": ffmpeg's experimental Vorbis encoder ends its Ogg stream with a time stamp of
# 0.19 s, so by its header the file runs at 5 Mbit/s, and that is compacted (no phone's
# bit rate: a header that lies costs a transcoding, nothing more).
KEPT = {"m4a": ".m4a", "mp4": ".m4a", "aac": ".aac", "mp3": ".mp3", "ogg": ".ogg",
        "opus": ".ogg", "webm": ".webm"}  # fmt: skip


def made(tmp_path: Path, kind: str) -> Path:
    """The figures test's sound as a file of `kind`, named as a phone names it."""
    if kind == "amr":
        return AMR
    if kind == "3gp-amr":
        return amr_in_3gp(AMR, tmp_path / "game.3gp")
    name = "game.wav" if kind == "wav48" else f"game.{kind}"
    return write(tmp_path / name, script(np.random.default_rng(3), SOUND), kind)


def phone_upload(host: User, game: Game, data: bytes, name: str, began: object) -> Recording:
    """Through the API, in the uploader's chunks."""
    api = bearer(host)
    answer = api.post(
        f"/api/v1/games/{game.pk}/recording",
        {"name": name, "size": len(data), "started_at": began},
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.json()
    recording_id = answer.json()["id"]
    for offset in range(0, len(data), recordings.CHUNK_BYTES):
        chunk = put(api, recording_id, offset, data[offset : offset + recordings.CHUNK_BYTES])
        assert chunk.status_code == 200, chunk.json()
    return Recording.objects.get(pk=recording_id)


def assert_figures(recording: Recording) -> None:
    analysed = recording_analysis.recording_analyse(recording_id=recording.pk)
    assert analysed is not None and analysed.status == RecordingStatus.ANALYSED
    alignment = recording_analysis.recording_alignment(analysed)
    assert alignment is not None
    assert [s.seat for s in alignment.speeches] == [1, 2, 3]
    for speech in alignment.speeches:
        measured = (speech.talk, speech.silence, speech.over, speech.after)
        assert measured == pytest.approx(TRUTH[speech.seat], abs=0.5), speech
    assert alignment.outside == pytest.approx(3, abs=0.5)


def stored_files(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in (tmp_path / "media").rglob("*") if p.is_file())


@pytest.mark.parametrize("kind", sorted([*FORMATS, "amr", "3gp-amr"]))
def test_each_phone_format_is_taken_analysed_and_measured(
    played: Played,
    tmp_path: Path,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    kind: str,
) -> None:
    host, game, began = played
    path = made(tmp_path, kind)
    data = path.read_bytes()
    recording = phone_upload(host, game, data, path.name, began.isoformat())
    assert recording.status == RecordingStatus.QUEUED, recording.error
    with django_capture_on_commit_callbacks(execute=True):  # the upload goes once replaced
        assert_figures(recording)
    stored = Recording.objects.get(pk=recording.pk)
    assert stored.file.name is not None
    if kind in KEPT:  # a browser plays it, and it is small: kept as it came
        assert stored.file.name.endswith(KEPT[kind])
        assert Path(stored.file.path).read_bytes() == data
        assert stored.stored_size == len(data)
        assert not RecordingDeletion.objects.exists()
    else:  # transcoded in the worker; the upload is deleted, with an audit row
        assert stored.file.name.endswith(compact.EXTENSION)
        header = decode.inspect(stored.file.path)
        assert (header.codec, header.extension) == ("aac", ".m4a")
        assert stored.file.size < len(data) or kind in ("amr", "3gp-amr")
        assert stored.stored_size == stored.file.size  # what the page and the API show
        audit = RecordingDeletion.objects.get()
        assert (audit.recording_id, audit.reason) == (recording.pk, "compacted")
    assert stored_files(tmp_path) == [Path(stored.file.name).name]  # nothing else kept


@pytest.mark.parametrize("name", ["recording.bin", "recording", "game.m4a"])
def test_a_recording_is_known_by_its_bytes_whatever_its_name(
    played: Played, tmp_path: Path, name: str
) -> None:
    """An AMR file named as anything (a messenger's "file", an extension lost on the way)
    is taken; the stored file is named by its header."""
    host, game, began = played
    recording = phone_upload(host, game, AMR.read_bytes(), name, began.isoformat())
    assert recording.status == RecordingStatus.QUEUED, recording.error
    assert recording.file.name == f"recordings/game-{game.pk}.amr"
    assert recording.original_name == name
    assert_figures(recording)


def test_an_opus_file_called_m4a_is_stored_as_ogg(played: Played, tmp_path: Path) -> None:
    host, game, began = played
    data = made(tmp_path, "opus").read_bytes()
    recording = phone_upload(host, game, data, "Запись.m4a", began.isoformat())
    assert recording.file.name == f"recordings/game-{game.pk}.ogg"
    download = recordings.recording_open(recording_id=recording.pk, user=host)
    assert download.name == "Запись.ogg" and download.size == len(data)
    download.file.close()


NOT_SOUND = (
    "Файл — не звукозапись или обрезан. Клуб принимает m4a, mp3, ogg, opus, webm, wav, flac, "
    "aiff, caf, amr, 3gp и wma: загрузите файл, который сохранил телефон."
)
NO_SOUND = "В файле нет звука (видео без звуковой дорожки?): загрузите запись игры."


def video_only(path: Path) -> Path:
    """A second of video, no sound track: what a phone's camera app makes muted."""
    with av.open(str(path), "w", format="mp4") as container:
        stream = container.add_stream("mpeg4", rate=10)
        assert isinstance(stream, av.VideoStream)  # for mypy: a video codec's stream
        stream.width, stream.height, stream.pix_fmt = 64, 64, "yuv420p"
        for index in range(10):
            picture = np.full((64, 64, 3), index * 20, np.uint8)
            frame = av.VideoFrame.from_ndarray(picture, format="rgb24")
            container.mux(stream.encode(frame))
        container.mux(stream.encode(None))
    return path


@pytest.mark.parametrize(
    ("what", "message"),
    [
        ("text named .m4a", NOT_SOUND),
        ("an m4a's first 2 KB", NOT_SOUND),
        ("a wav's first 30 bytes", NOT_SOUND),
        ("a video without sound", NO_SOUND),
    ],
)
def test_what_is_not_a_recording_is_refused_with_a_message_and_nothing_is_kept(
    played: Played,
    tmp_path: Path,
    queued: list[tuple[str, tuple[object, ...]]],
    what: str,
    message: str,
) -> None:
    host, game, began = played
    data = {
        "text named .m4a": lambda: "Протокол игры: 1 — красный\n".encode() * 200,
        "an m4a's first 2 KB": lambda: made(tmp_path, "m4a").read_bytes()[:2048],
        "a wav's first 30 bytes": lambda: made(tmp_path, "wav").read_bytes()[:30],
        "a video without sound": lambda: video_only(tmp_path / "v.mp4").read_bytes(),
    }[what]()
    recording = phone_upload(host, game, data, "game.m4a", began.isoformat())
    answer = bearer(host).get(f"/api/v1/recordings/{recording.pk}").json()
    assert (answer["status"], answer["error"]) == ("failed", message)
    assert not recording.file and stored_files(tmp_path) == []
    assert not list((tmp_path / "uploads").iterdir())  # the upload's bytes are gone too
    assert not [name for name, _args in queued if name.endswith("recording_analyse")]


def test_an_english_reader_is_told_in_english(played: Played) -> None:
    host, game, _began = played
    api = bearer(host)
    api.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the language switch's choice
    junk = b"just some text, not sound\n" * 100
    begun = begin(api, game, "game.m4a", len(junk))
    done = put(api, begun.json()["id"], 0, junk).json()
    assert done["status"] == "failed"
    assert done["error"].startswith("The file is not a sound recording, or it is cut short.")


def test_an_empty_file_is_refused_before_a_byte_is_sent(played: Played, tmp_path: Path) -> None:
    host, game, _began = played
    answer = begin(bearer(host), game, "game.m4a", 0)
    assert answer.status_code == 422
    assert answer.json()["detail"] == "Файл пуст: выберите саму запись."
    assert not Recording.objects.exists()


def test_three_hours_of_uncompressed_stereo_may_be_uploaded_and_more_is_refused(
    played: Played,
) -> None:
    host, game, _began = played
    three_hours = 3 * 3600 * 48_000 * 2 * 2 + 44  # 48 kHz, stereo, 16-bit WAV: 2.07 GB
    api = bearer(host)
    begun = begin(api, game, "game.wav", three_hours)
    assert begun.status_code == 201 and begun.json()["size"] == three_hours
    api.delete(f"/api/v1/recordings/{begun.json()['id']}")
    too_big = begin(api, game, "game.wav", recordings.MAX_BYTES + 1)
    assert too_big.status_code == 422
    assert too_big.json()["detail"] == "Запись — не больше 4 ГБ."
