"""Data that used to be lost or kept wrongly (#14): a refused request destroyed a stored
recording; undo and redo of the last tap moved the recording's deletion for ever; admin
imports of online protocols crashed, and imported events skipped the shape checks."""

import json
from datetime import timedelta
from pathlib import Path
from typing import NoReturn

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.services import api_token_create
from club.models import Evening
from games.models import Game, Ruleset, Seat
from games.online import services as online_play
from games.online.sweep import online_sweep
from games.protocols import game_protocol
from games.recordings import services as recordings
from games.recordings.models import Recording, RecordingStatus
from tests.checks import present
from tests.factories import make_member
from tests.games.recording import TOWN_WINS, Table, make_host, record, start_game
from tests.games.recordings import test_recordings
from tests.games.recordings.test_recordings import Played, sound_file, upload

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recording_storage")]
played = test_recordings.played  # a finished game with timed speeches


def stored(game: Game) -> Path:
    return Path(Recording.objects.get(game=game).file.path)


def test_a_refused_recording_request_keeps_the_stored_recording(
    played: Played, tmp_path: Path
) -> None:
    host, game, began = played
    upload(host, game, sound_file(tmp_path, "wav"), began)
    Recording.objects.filter(game=game).update(status=RecordingStatus.ANALYSED)
    kept = stored(game)
    api = Client(headers={"Authorization": f"Bearer {api_token_create(member=host).key}"})
    answer = api.post(
        f"/api/v1/games/{game.pk}/recording",
        {"name": "again.wav", "size": 100, "started_at": "2026-12-06T18:00:00+16:00"},
        content_type="application/json",
    )
    assert answer.status_code == 422
    assert kept.exists()
    web = Client()
    web.force_login(host)
    assert web.get(f"/games/{game.pk}/recording/file").status_code == 200


def test_a_replacement_that_fails_after_the_old_row_went_keeps_its_file(
    played: Played,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    host, game, began = played
    upload(host, game, sound_file(tmp_path, "wav"), began)
    Recording.objects.filter(game=game).update(status=RecordingStatus.ANALYSED)
    kept = stored(game)

    def broken(**fields: object) -> NoReturn:
        raise IntegrityError("the database refused the new row")

    monkeypatch.setattr(Recording.objects, "create", broken)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(IntegrityError):
        recordings.recording_start(game_id=game.pk, user=host, name="again.wav", size=100)
    assert kept.exists()
    assert Recording.objects.get(game=game).status == RecordingStatus.ANALYSED


def test_undo_and_redo_of_the_last_tap_do_not_move_the_deletion(
    played: Played, tmp_path: Path
) -> None:
    host, game, began = played
    game.refresh_from_db()
    first_end = present(game.ended_at)
    upload(host, game, sound_file(tmp_path, "wav"), began)
    last = dict(present(game.events.order_by("-seq").first()).payload)
    last.pop("at", None)
    with time_machine.travel(first_end + timedelta(days=2)):
        record(game, host, {"type": "undo"}, last)
    game.refresh_from_db()
    assert present(game.ended_at) > first_end + timedelta(days=1)  # the end as last recorded
    assert game.first_ended_at == first_end
    assert recordings.due_at(game) == first_end + timedelta(days=3)
    with time_machine.travel(first_end + timedelta(days=3, minutes=1)):
        assert recordings.recordings_sweep() == 1


def test_an_online_protocol_is_imported_in_admin() -> None:
    host = make_host()
    members = [make_member() for _ in range(10)]
    starts = timezone.now() + timedelta(minutes=1)
    source = online_play.online_game_create(
        host=host, member_ids=[m.pk for m in members], starts_at=starts
    )
    with time_machine.travel(starts + timedelta(seconds=5)):
        online_sweep()
        for seat in Seat.objects.filter(game=source, role__in=["don", "mafia"]):
            online_play.online_act(
                game_id=source.pk, user=host, event={"type": "modkill", "seat": seat.number}
            )
    admin = make_member(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    exported = client.post(
        "/admin/games/game/", {"action": "export_protocols", "_selected_action": [source.pk]}
    )
    document = SimpleUploadedFile("online.json", exported.content)
    answer = client.post(
        "/admin/games/game/import/", {"evening": "", "host": host.pk, "protocol": document}
    )
    assert answer.status_code == 302, answer.content.decode()[-2000:]
    imported = Game.objects.exclude(pk=source.pk).get(ruleset=Ruleset.ONLINE)
    assert (imported.evening, imported.winner, imported.finished) == (None, "red", True)
    assert client.get(f"/games/{imported.pk}/").status_code == 200


def test_an_imported_event_is_checked_as_a_live_one(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    document = game_protocol(game, list(game.seats.all()), list(
        game.events.order_by("seq").values_list("payload", flat=True)
    ))  # fmt: skip
    document["events"].insert(
        1, {"type": "speech", "seat": 1, "start": "not-a-time", "end": "x", "limit": 30}
    )
    admin = make_member(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    answer = client.post(
        "/admin/games/game/import/",
        {
            "evening": evening.pk,
            "host": host.pk,
            "protocol": SimpleUploadedFile("bad.json", json.dumps(document).encode()),
        },
    )
    assert answer.status_code == 200
    assert "Событие 1" in answer.content.decode() and "ISO 8601" in answer.content.decode()
    assert Game.objects.filter(evening=evening).count() == 1
    assert Evening.objects.count() == 1
