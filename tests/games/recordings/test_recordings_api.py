"""The recording's doors: the API the phone's uploader uses, and the game page's section."""

from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
from django.http import HttpResponseBase, StreamingHttpResponse
from django.test import Client

from accounts.models import User
from accounts.services import api_token_create
from club.kernel.bodies import door_of
from games.models import Game
from games.recordings.models import Recording, RecordingStatus
from games.recordings.services import CHUNK_BYTES
from tests.factories import make_member
from tests.games.recording import TOWN_WINS, Table, record, start_game
from tests.responses import Response
from tests.sound import script, write

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recording_storage")]


@pytest.fixture
def game(table: Table) -> Game:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    return game


def streamed(response: HttpResponseBase) -> bytes:
    """The body of a file the site streams (the test client's response is typed without
    it: it is there on a FileResponse)."""
    assert isinstance(response, StreamingHttpResponse)
    return b"".join(response)


def bearer(user: User) -> Client:
    return Client(headers={"Authorization": f"Bearer {api_token_create(member=user).key}"})


def sound(tmp_path: Path) -> bytes:
    samples = script(np.random.default_rng(2), [("quiet", 1), ("speech", 3), ("quiet", 1)])
    return write(tmp_path / "g.ogg", samples, "ogg").read_bytes()


def begin(client: Client, game: Game, name: str, size: int) -> Response:
    return client.post(
        f"/api/v1/games/{game.pk}/recording",
        {"name": name, "size": size},
        content_type="application/json",
    )


def put(client: Client, recording_id: int, offset: int, data: bytes) -> Response:
    return client.put(
        f"/api/v1/recordings/{recording_id}/chunk",
        data,
        content_type="application/octet-stream",
        headers={"Upload-Offset": str(offset)},
    )


def test_the_phone_uploads_in_chunks_and_resumes_after_a_conflict(
    game: Game, tmp_path: Path
) -> None:
    data = sound(tmp_path)
    host = bearer(game.host)
    begun = begin(host, game, "g.ogg", len(data))
    assert begun.status_code == 201
    recording = begun.json()
    assert (recording["received"], recording["status"]) == (0, "uploading")
    half = len(data) // 2
    assert put(host, recording["id"], 0, data[:half]).json()["received"] == half
    stale = put(host, recording["id"], 0, data[:half])  # the same chunk, retried
    assert stale.status_code == 409 and str(half) in stale.json()["detail"]
    assert (stale.json()["code"], stale.json()["offset"]) == ("conflict", half)
    offset = host.get(f"/api/v1/recordings/{recording['id']}").json()["received"]
    done = put(host, recording["id"], offset, data[offset:])
    assert done.status_code == 200 and done.json()["status"] == RecordingStatus.QUEUED
    download = host.get(f"/api/v1/recordings/{recording['id']}/file")
    assert streamed(download) == data


def test_strangers_and_visitors_get_no_recording(game: Game, tmp_path: Path) -> None:
    data = sound(tmp_path)
    host = bearer(game.host)
    recording_id = begin(host, game, "g.ogg", len(data)).json()["id"]
    put(host, recording_id, 0, data)
    stranger = bearer(make_member())
    assert stranger.get(f"/api/v1/recordings/{recording_id}/file").status_code == 403
    assert put(stranger, recording_id, 0, b"x").status_code == 403
    assert Client().get(f"/api/v1/recordings/{recording_id}/file").status_code == 401
    assert Client().get(f"/games/{game.pk}/recording/file").status_code in (302, 403)
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "recording/file" not in page


def test_a_chunk_over_the_limit_is_refused_with_a_message(game: Game) -> None:
    host = bearer(game.host)
    recording_id = begin(host, game, "g.m4a", 10_000_000).json()["id"]
    answer = put(host, recording_id, 0, b"\0" * (3 * 1024 * 1024))
    # The door's own limit keeps room around the chunk: it names the chunk's size, as the
    # service does for a chunk between the two (it said «не больше 2560 КБ»).
    assert answer.status_code == 413
    assert answer.json()["detail"] == "Запрос слишком велик: не больше 2 МБ."
    between = put(host, recording_id, 0, b"\0" * (2 * 1024 * 1024 + 1))
    # The same fact, the same code, whichever of the two says it.
    assert (between.status_code, between.json()["code"]) == (413, "too_large")
    assert between.json()["detail"] == "Часть файла — не больше 2 МБ."
    door = door_of(f"/api/v1/recordings/{recording_id}/chunk")
    assert door is not None and door.told == CHUNK_BYTES  # the two name one size
    assert answer.json()["code"] == "too_large"
    assert Recording.objects.get(pk=recording_id).received == 0


def test_the_host_uploads_by_the_plain_form_too_and_sees_the_progress(
    game: Game, tmp_path: Path
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = Client()
    client.force_login(game.host)
    upload = SimpleUploadedFile("g.ogg", sound(tmp_path), content_type="audio/ogg")
    answer = client.post(f"/games/{game.pk}/recording/", {"file": upload})
    assert answer.status_code == 302
    recording = Recording.objects.get(game=game)
    assert recording.status == RecordingStatus.QUEUED
    assert answer["Location"] == f"/games/{game.pk}/recording/"
    page = client.get(f"/games/{game.pk}/recording/").content.decode()
    assert f"/games/{game.pk}/recording/file" in page
    part = client.get(f"/games/{game.pk}/recording/", headers={"HX-Request": "true"})
    assert 'hx-trigger="every 2s"' in part.content.decode()  # polls while it waits


def test_the_hosts_player_can_seek_with_byte_ranges(game: Game, tmp_path: Path) -> None:
    data = sound(tmp_path)
    host = bearer(game.host)
    recording_id = begin(host, game, "g.ogg", len(data)).json()["id"]
    put(host, recording_id, 0, data)
    site = Client()
    site.force_login(game.host)
    url = f"/games/{game.pk}/recording/file"
    part = site.get(url, headers={"Range": "bytes=100-199"})
    assert part.status_code == 206 and part["Content-Range"] == f"bytes 100-199/{len(data)}"
    assert streamed(part) == data[100:200]
    tail = site.get(url, headers={"Range": "bytes=-50"})
    assert streamed(tail) == data[-50:]
    assert site.get(url, headers={"Range": f"bytes={len(data)}-"}).status_code == 416
    whole = site.get(url)
    assert whole.status_code == 200 and whole["Accept-Ranges"] == "bytes"
    assert streamed(whole) == data


def test_a_start_far_from_the_games_is_refused(game: Game) -> None:
    """A start decades (or a day) from the game is a typing slip no analysis could mend
    (the sound's start is searched 30 minutes either side): refused, nothing stored."""
    host = bearer(game.host)
    for moment in ("1900-01-01T00:00:00Z", (game.started_at + timedelta(hours=13)).isoformat()):
        answer = host.post(
            f"/api/v1/games/{game.pk}/recording",
            {"name": "g.m4a", "size": 1000, "started_at": moment},
            content_type="application/json",
        )
        assert answer.status_code == 422, moment
        assert "больше чем на 12 часов" in answer.json()["detail"]
    assert not Recording.objects.filter(game=game).exists()
    near = (game.started_at - timedelta(hours=1)).isoformat()
    answer = host.post(
        f"/api/v1/games/{game.pk}/recording",
        {"name": "g.m4a", "size": 1000, "started_at": near},
        content_type="application/json",
    )
    assert answer.status_code == 201
