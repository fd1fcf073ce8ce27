"""The recording's start from its sound, through the worker, the recording's page and the
API (#30): the sound's start is used when nobody gave one, a given start that does not fit
is said and can be replaced by the sound's (a door for the host only), a paused recording
is refused its who-spoke-when, and a recording with no game in it claims nothing."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from accounts.services import api_token_create
from club.kernel.clubs import Club
from games.models import Game
from games.recordings import analysis as recording_analysis
from games.recordings import services as recordings
from games.recordings.audio import offset
from games.recordings.models import FoulSuggestion, Recording, RecordingStatus
from tests.factories import make_member
from tests.games.recording import TOWN_WINS, Table, record, start_game
from tests.sound import RATE, quiet, write
from tests.table_sound import ScriptedGame, scripted_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recording_storage")]

LATE = 40.0  # the phone began recording this long after the game's start
CHUNK = 2 * 1024 * 1024
PAUSED_AT = 180  # the recording's second where a minute of the game is missing


@pytest.fixture(scope="module")
def table_sound() -> ScriptedGame:
    """Twelve minutes of a table: twelve speeches (made once for the module)."""
    return scripted_game(np.random.default_rng(5), 12, interruptions=0.5)


@pytest.fixture(scope="module")
def sounds(table_sound: ScriptedGame, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The table as the phone heard it: begun LATE seconds into the game; the same with a
    minute paused at 3:00 of the recording (mid-day: five speeches either side); and a
    recording of the room alone."""
    folder = tmp_path_factory.mktemp("sounds")
    late = table_sound.samples[int(LATE * RATE) :]
    paused = np.concatenate([late[: PAUSED_AT * RATE], late[(PAUSED_AT + 60) * RATE :]])
    room = quiet(np.random.default_rng(3), 11 * 60, 0.004)
    return {
        "late": write(folder / "late.wav", late, "wav"),
        "paused": write(folder / "paused.wav", paused, "wav"),
        "room": write(folder / "room.wav", room, "wav"),
    }


@pytest.fixture
def played(table: Table, table_sound: ScriptedGame) -> tuple[User, Game]:
    """A game begun an hour ago whose day 1 is the scripted table's first day of speeches, at
    the same seconds from the game's start (the rest of the protocol is the sample game's,
    recorded now: outside the sound)."""
    host, evening, players = table
    game = start_game(host, evening, players)
    began = timezone.now() - timedelta(hours=1)
    Game.objects.filter(pk=game.pk).update(started_at=began)
    shift = began - table_sound.started_at
    speeches = [
        {
            **event,
            "start": (datetime.fromisoformat(event["start"]) + shift).isoformat(),
            "end": (datetime.fromisoformat(event["end"]) + shift).isoformat(),
        }
        for event in table_sound.events[: 1 + 12 + 1]
        if event["type"] == "speech"
    ]
    record(game, host, TOWN_WINS[0], *speeches, *TOWN_WINS[1:])
    game.refresh_from_db()
    return host, game


def analysed(host: User, game: Game, path: Path, started_at: datetime | None) -> Recording:
    """Uploaded with `started_at` (None: the API's default, the game's start) and analysed."""
    data = path.read_bytes()
    recording = recordings.recording_start(
        game_id=game.pk, user=host, name=path.name, size=len(data), started_at=started_at
    )
    for at in range(0, len(data), CHUNK):
        recordings.recording_append(
            recording_id=recording.pk, user=host, offset=at, data=data[at : at + CHUNK]
        )
    done = recording_analysis.recording_analyse(recording_id=recording.pk)
    assert done is not None and done.status == RecordingStatus.ANALYSED
    return done


def page(user: User, game: Game, language: str = "ru") -> str:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client.get(f"/games/{game.pk}/recording/").content.decode()


def local_clock(moment: datetime) -> str:
    return timezone.localtime(moment, Club.current().zone).strftime("%H:%M:%S")


def test_without_a_given_start_the_sounds_start_is_used(
    played: tuple[User, Game], sounds: dict[str, Path]
) -> None:
    host, game = played
    recording = analysed(host, game, sounds["late"], None)
    assert recording.start_offset == pytest.approx(LATE, abs=1.0)
    assert recording.start_confidence is not None and recording.start_confidence >= offset.SURE
    assert recording.given_started_at == game.started_at
    used = recording.started_at - game.started_at
    assert used.total_seconds() == pytest.approx(LATE, abs=1.0)
    assert recording.pause is None and recording.speakers is not None
    # The speeches' figures are aligned with it: every speech's voice heard in its slot.
    alignment = recording_analysis.recording_alignment(recording)
    assert alignment is not None and alignment.unheard <= 1  # the first began before it
    assert all(s.talk >= 0.8 * (s.end - s.start - 0.5) for s in alignment.speeches[1:])
    shown = page(host, game)
    clock = local_clock(recording.started_at)
    sure = f"{recording.start_confidence:.2f}".replace(".", ",")  # the page's own number
    assert (
        f"Начало записи по звуку: {clock}, на 40 с позже начала игры "
        f"(уверенность {sure}, нужно 0,5)."
    ) in shown
    english = page(host, game, "en")
    assert f"The recording's start by the sound: {clock}, 40 s after the game's start" in english
    token = api_token_create(member=host).key
    read = Client().get(
        f"/api/v1/recordings/{recording.pk}", headers={"Authorization": f"Bearer {token}"}
    )
    body = read.json()
    assert body["start"]["offset_seconds"] == pytest.approx(LATE, abs=1.0)
    assert body["start"]["sure"] is True and body["start"]["from_sound"] is True
    assert body["start"]["given_by_host"] is False and body["pause"] is None
    read_start = datetime.fromisoformat(body["started_at"])
    assert abs((read_start - recording.started_at).total_seconds()) < 0.001


def test_a_given_start_that_does_not_fit_is_said_and_can_be_replaced(
    played: tuple[User, Game],
    sounds: dict[str, Path],
    queued: list[tuple[str, tuple[object, ...]]],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    host, game = played
    given = game.started_at + timedelta(seconds=LATE + 130)  # 2 min 10 s too late
    recording = analysed(host, game, sounds["late"], given)
    assert recording.started_at == given  # the host's start is kept as given
    assert recording.start_offset == pytest.approx(-130, abs=1.0)
    # Nothing is worked out on a time line the sound contradicts: no voices, no suggested
    # fouls (each would be another remark's), no speech figures.
    assert recording.speakers is None
    assert not FoulSuggestion.objects.filter(recording=recording).exists()
    assert recording_analysis.recording_alignment(recording) is None
    shown = page(host, game)
    assert "не считаются от начала, с которым не сходится звук" in shown
    # The page's clock is the found start (within a second of 130 s earlier), to the second.
    assert recording.start_offset is not None
    sound_clock = local_clock(given + timedelta(seconds=recording.start_offset))
    assert (
        "Указанное начало не сходится со звуком: по звуку запись началась "
        f"на 2 мин 10 с раньше, в {sound_clock}."
    ) in shown
    assert "Взять начало по звуку и пересчитать" in shown
    door = f"/games/{game.pk}/recording/start/"
    tenths = str(round((recording.start_offset or 0) * 10))

    # A member who is not the host, bad input and a stale page change nothing.
    stranger = Client()
    stranger.force_login(make_member())
    refused = stranger.post(door, {"offset": tenths}, follow=True)
    assert refused.status_code == 403
    assert "Запись игры доступна только её ведущему и администраторам." in refused.content.decode()
    client = Client()
    client.force_login(host)
    for bad in ("", "abc", "1e9", "99999999999999999999", "-1300\x00", str(int(tenths) + 50)):
        answer = client.post(door, {"offset": bad}, follow=True)
        assert answer.status_code == 200, bad
        assert "Страница не передала" in answer.content.decode() or "изменился" in (
            answer.content.decode()
        ), bad
    assert client.get(door).status_code == 405
    recording.refresh_from_db()
    assert recording.status == RecordingStatus.ANALYSED and recording.started_at == given
    assert not [name for name, _args in queued if name.endswith("recording_analyse")]

    # The host takes the sound's start: it becomes the given one, analysed again.
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(door, {"offset": tenths}, follow=True)
    assert "Начало по звуку принято" in answer.content.decode()
    recording.refresh_from_db()
    assert recording.status == RecordingStatus.QUEUED
    assert [args for name, args in queued if name.endswith("recording_analyse")] == [
        (recording.pk,)
    ]
    again = recording_analysis.recording_analyse(recording_id=recording.pk)
    assert again is not None and again.start_offset == pytest.approx(0, abs=1.0)
    assert again.speakers is not None and recording_analysis.recording_alignment(again)
    moved = (again.started_at - game.started_at).total_seconds()
    assert moved == pytest.approx(LATE, abs=1.0)
    clock = local_clock(again.started_at)
    assert f"Указанное начало записи, {clock}, сходится со звуком (уверенность " in page(host, game)
    refused = client.post(door, {"offset": str(round((again.start_offset or 0) * 10))}, follow=True)
    assert "Указанное начало и так сходится со звуком." in refused.content.decode()


def test_a_paused_recording_is_said_and_nobodys_voice_attributed(
    played: tuple[User, Game], sounds: dict[str, Path]
) -> None:
    host, game = played
    recording = analysed(host, game, sounds["paused"], None)
    assert recording.pause is not None
    assert recording.pause["seconds"] == pytest.approx(60, abs=1.0)
    assert recording.pause["earliest"] - 1 <= PAUSED_AT <= recording.pause["latest"] + 1
    assert recording.start_offset == pytest.approx(LATE, abs=1.0)  # the part before it
    assert recording.speakers is None
    assert not FoulSuggestion.objects.filter(recording=recording).exists()
    assert recording_analysis.recording_alignment(recording) is None
    shown = page(host, game)
    assert "Запись ставили на паузу: примерно на " in shown
    assert "пропало около 1 мин." in shown
    assert "Взять начало по звуку" not in shown


def test_a_recording_of_the_room_alone_claims_no_start(
    played: tuple[User, Game], sounds: dict[str, Path]
) -> None:
    host, game = played
    recording = analysed(host, game, sounds["room"], None)
    assert recording.start_confidence is not None and recording.start_confidence < offset.SURE
    assert recording.started_at == game.started_at  # the game's start, as given by default
    shown = page(host, game)
    assert "По звуку не понять, когда началась запись (уверенность 0,00, нужно 0,5)" in shown
    assert f"цифры считаются от начала игры, {local_clock(game.started_at)}." in shown
    assert "Взять начало по звуку" not in shown
