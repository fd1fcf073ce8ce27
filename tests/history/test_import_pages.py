"""The organiser's import pages (history/views.py): upload → preview → confirm → progress →
done → undo, each door asking the role in the club in scope."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.models import User
from club.kernel.clubs import Club
from club.kernel.tenancy import club_scope
from games.models import Game
from history.imports import confirming, reading, rebuild, services
from history.models import HistoryImport, HistoryUpload, ImportStatus
from history.tasks import history_confirm
from tests.factories import make_member
from tests.history.sheets import csv_bytes, game_rows

pytestmark = pytest.mark.django_db

DAY = "01.12.2026"


def sheet() -> bytes:
    rows = game_rows(day=DAY) + game_rows(day=DAY, number="2", prefix="Игрок")
    rows += [["01.12.2026", "1", "3", "1", "Кто-то", "пират", "0", "", "", "", "", "", ""]]
    return csv_bytes(rows)


def logged_in(member: User) -> Client:
    client = Client()
    client.force_login(member)
    return client


def post_file(client: Client, data: bytes, prefix: str = "") -> Any:
    upload = SimpleUploadedFile("games.csv", data, content_type="text/csv")
    answer = client.post(f"{prefix}/history/import/", {"file": upload})
    worker_reads()
    return answer


def worker_reads() -> None:
    """What the worker's queued history_read does with each upload waiting for it."""
    for found in HistoryImport.all_clubs.filter(status=ImportStatus.READING):
        with club_scope(found.club):
            reading.upload_read(history_import_id=found.pk)


def worker_confirms() -> None:
    """What the worker's queued history_confirm does with each confirm waiting for it."""
    for found in HistoryImport.all_clubs.filter(status=ImportStatus.CONFIRMING):
        with club_scope(found.club):
            confirming.confirm_run(history_import_id=found.pk)


def test_upload_preview_confirm_progress_done_and_undo() -> None:
    organiser = make_member(nickname="Организатор", role="organiser")
    make_member(nickname="Игрок 1")
    client = logged_in(organiser)
    assert client.get("/history/import/").status_code == 200
    answer = post_file(client, sheet())
    assert answer.status_code == 302
    found = HistoryImport.objects.get()
    assert answer["Location"] == f"/history/import/{found.pk}/"
    page = client.get(answer["Location"]).content.decode()
    assert "Будут созданы 2 игры" in page
    assert "У игры не указан победитель." in page  # the game it cannot read, with why
    assert "тот же ник" in page  # Игрок 1, matched exactly
    assert not Game.objects.exists()
    confirmed = client.post(f"/history/import/{found.pk}/confirm/", {"name:игрок 2": "new"})
    assert confirmed.status_code == 302
    assert not Game.objects.exists()  # the request only keeps the confirm
    creating = client.get(f"/history/import/{found.pk}/", headers={"HX-Request": "true"})
    assert "Игры создаются" in creating.content.decode()
    assert 'hx-trigger="every 2s"' in creating.content.decode()
    worker_confirms()
    assert Game.objects.count() == 2
    progress = client.get(f"/history/import/{found.pk}/", headers={"HX-Request": "true"})
    assert 'hx-trigger="every 2s"' in progress.content.decode()
    rebuild.history_rebuild(history_import_id=found.pk)
    done = client.get(f"/history/import/{found.pk}/", headers={"HX-Request": "true"})
    assert "hx-trigger" not in done.content.decode() and "Перенесено" in done.content.decode()
    client.post(f"/history/import/{found.pk}/undo/")
    rebuild.history_rebuild(history_import_id=found.pk)
    assert not Game.objects.exists()
    assert HistoryImport.objects.get().status == ImportStatus.UNDONE


def test_the_same_file_twice_is_refused_with_the_day_it_came() -> None:
    organiser = make_member(nickname="Организатор", role="organiser")
    client = logged_in(organiser)
    post_file(client, sheet())
    found = HistoryImport.objects.get()
    client.post(f"/history/import/{found.pk}/confirm/")
    worker_confirms()
    again = post_file(client, sheet())
    assert again.status_code == 422
    assert "этот файл уже перенесён" in again.content.decode().lower()
    assert Game.objects.count() == 2 and HistoryImport.objects.count() == 1


def test_an_empty_or_missing_file_is_refused_in_words() -> None:
    client = logged_in(make_member(nickname="Организатор", role="organiser"))
    missing = client.post("/history/import/", {})
    assert missing.status_code == 422 and "Выберите файл" in missing.content.decode()


def test_a_member_cannot_import_nor_see_an_import() -> None:
    organiser = make_member(nickname="Организатор", role="organiser")
    post_file(logged_in(organiser), sheet())
    found = HistoryImport.objects.get()
    member = logged_in(make_member(nickname="Рядовой"))
    assert member.get("/history/import/").status_code == 403
    assert post_file(member, sheet()).status_code == 403
    assert member.get(f"/history/import/{found.pk}/").status_code == 403
    assert member.post(f"/history/import/{found.pk}/confirm/").status_code in (302, 403)
    worker_confirms()
    assert not Game.objects.exists()
    assert Client().get("/history/import/").status_code == 302  # to log in


def test_another_clubs_organiser_sees_nothing() -> None:
    organiser = make_member(nickname="Организатор", role="organiser")
    post_file(logged_in(organiser), sheet())
    found = HistoryImport.objects.get()
    other = Club.objects.create(slug="north", name="Северный", venue="Маяк")
    with club_scope(other):
        theirs = make_member(nickname="Чужой", role="organiser")
    client = logged_in(theirs)
    assert client.get(f"/c/north/history/import/{found.pk}/").status_code == 404
    client.post(f"/c/north/history/import/{found.pk}/confirm/")
    worker_confirms()
    assert not Game.all_clubs.exists()
    # At the first club's address they are nobody.
    assert client.get(f"/history/import/{found.pk}/").status_code == 403


def test_a_file_over_50_mb_is_refused_before_it_is_read() -> None:
    client = logged_in(make_member(nickname="Организатор", role="organiser"))
    answer = client.generic(
        "POST",
        "/history/import/",
        b"--x--",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(51 * 1024 * 1024),
    )
    assert answer.status_code == 413 and "50 МБ" in answer.content.decode()
    assert not HistoryImport.objects.exists()


def test_the_upload_request_only_keeps_the_file_and_the_page_polls_the_workers_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 10,000-game XLSX reads for 26–44 s, past gunicorn's 30 s (docs/deploy.md): the
    request keeps the file and queues the read; the page polls until the preview is in."""
    queued: list[tuple[str, tuple[object, ...]]] = []
    monkeypatch.setattr(reading, "queue_on_commit", lambda task, *args: queued.append((task, args)))
    organiser = make_member(nickname="Организатор", role="organiser")
    client = logged_in(organiser)
    upload = SimpleUploadedFile("games.csv", sheet(), content_type="text/csv")
    answer = client.post("/history/import/", {"file": upload})
    found = HistoryImport.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/history/import/{found.pk}/"
    assert found.status == ImportStatus.READING and found.records == [] and found.language == "ru"
    assert queued == [("history.tasks.history_read", (found.pk,))]
    page = client.get(f"/history/import/{found.pk}/").content.decode()
    assert "Файл читается" in page and 'hx-trigger="every 2s"' in page
    # An organiser who left the page finds the upload in the list.
    listing = client.get("/history/import/").content.decode()
    assert f'href="/history/import/{found.pk}/"' in listing and "Читается" in listing
    poll = client.get(f"/history/import/{found.pk}/", headers={"HX-Request": "true"})
    assert 'hx-trigger="every 2s"' in poll.content.decode()
    worker_reads()
    worker_reads()  # a task delivered twice reads nothing more
    found.refresh_from_db()
    assert found.status == ImportStatus.PREVIEW and len(found.records) == 2
    assert not HistoryUpload.objects.exists()
    poll = client.get(f"/history/import/{found.pk}/", headers={"HX-Request": "true"})
    assert poll.status_code == 204 and poll["HX-Refresh"] == "true"
    assert "Будут созданы 2 игры" in client.get(f"/history/import/{found.pk}/").content.decode()


def test_a_file_the_reader_breaks_on_is_marked_unreadable_not_read_for_ever(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("a reader's bug")

    monkeypatch.setattr(reading, "read_history", broken)
    client = logged_in(make_member(nickname="Организатор", role="organiser"))
    post_file(client, sheet())
    found = HistoryImport.objects.get()
    assert found.status == ImportStatus.UNREADABLE and not HistoryUpload.objects.exists()
    page = client.get(f"/history/import/{found.pk}/").content.decode()
    assert "Файл не удалось прочитать" in page and "hx-trigger" not in page


def test_a_confirm_posted_while_the_file_is_read_says_so_and_creates_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A replayed or early confirm (two tabs) of an upload still being read."""
    monkeypatch.setattr(reading, "queue_on_commit", lambda task, *args: None)
    client = logged_in(make_member(nickname="Организатор", role="organiser"))
    client.post("/history/import/", {"file": SimpleUploadedFile("games.csv", sheet())})
    found = HistoryImport.objects.get()
    answer = client.post(f"/history/import/{found.pk}/confirm/", follow=True)
    assert "Файл ещё читается" in answer.content.decode()
    found.refresh_from_db()
    assert found.status == ImportStatus.READING and not Game.objects.exists()


def test_a_problem_of_the_whole_file_shows_no_line_zero() -> None:
    """The reader numbers a problem of the whole file 0; an organiser has no line 0."""
    client = logged_in(make_member(nickname="Организатор", role="organiser"))
    post_file(client, b"\x00\x01 not a table")
    found = HistoryImport.objects.get()
    page = client.get(f"/history/import/{found.pk}/").content.decode()
    assert "нулевые байты" in page
    assert '<td class="num">—</td>' in page and '<td class="num">0</td>' not in page


def test_a_confirm_returns_at_once_and_queues_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    queued: list[tuple[str, tuple[object, ...]]] = []
    organiser = make_member(nickname="Организатор", role="organiser")
    client = logged_in(organiser)
    post_file(client, sheet())
    found = HistoryImport.objects.get()
    monkeypatch.setattr(
        services, "queue_on_commit", lambda task, *args: queued.append((task, args))
    )
    answer = client.post(f"/history/import/{found.pk}/confirm/", {"name:игрок 2": "new"})
    assert answer.status_code == 302
    found.refresh_from_db()
    assert found.status == ImportStatus.CONFIRMING and found.confirmed_by == organiser
    assert found.choices == {"игрок 2": "new"}
    assert queued == [("history.tasks.history_confirm", (found.pk,))]
    assert not Game.objects.exists()
    again = client.post(f"/history/import/{found.pk}/confirm/", follow=True)
    assert "Этот перенос уже подтверждён" in again.content.decode()
    assert len(queued) == 1


def test_the_worker_creates_the_games_once() -> None:
    organiser = make_member(nickname="Организатор", role="organiser")
    client = logged_in(organiser)
    post_file(client, sheet())
    found = HistoryImport.objects.get()
    client.post(f"/history/import/{found.pk}/confirm/")
    history_confirm(found.pk)
    found.refresh_from_db()
    assert found.status == ImportStatus.IMPORTING and Game.objects.count() == 2
    assert found.counts["games"] == 2 and found.records == []
    history_confirm(found.pk)  # a second run (a re-queued task) does nothing
    found.refresh_from_db()
    assert found.status == ImportStatus.IMPORTING and Game.objects.count() == 2
    assert "refusal" not in found.counts


def test_a_refusal_in_the_worker_returns_to_the_preview_with_its_words() -> None:
    organiser = make_member(nickname="Организатор", role="organiser")
    player = make_member(nickname="Игрок 1")
    client = logged_in(organiser)
    post_file(client, sheet())
    found = HistoryImport.objects.get()
    # The same member chosen for two seats of one game: the worker's check refuses it.
    twice = {"name:игрок 1": f"member:{player.pk}", "name:игрок 2": f"member:{player.pk}"}
    client.post(f"/history/import/{found.pk}/confirm/", twice)
    polled = client.get(f"/history/import/{found.pk}/", headers={"HX-Request": "true"})
    assert "Игры создаются" in polled.content.decode()
    worker_confirms()
    found.refresh_from_db()
    assert found.status == ImportStatus.PREVIEW and not Game.objects.exists()
    assert "оказался бы на двух местах" in found.counts["refusal"]
    back = client.get(f"/history/import/{found.pk}/", headers={"HX-Request": "true"})
    assert back.status_code == 204 and back["HX-Refresh"] == "true"
    page = client.get(f"/history/import/{found.pk}/").content.decode()
    assert "Игры не созданы, ничего не записано" in page and "оказался бы на двух местах" in page
    # Confirmed again with good choices, the refusal is gone and the games are made.
    client.post(f"/history/import/{found.pk}/confirm/", {"name:игрок 2": "new"})
    worker_confirms()
    found.refresh_from_db()
    assert found.status == ImportStatus.IMPORTING and "refusal" not in found.counts
    assert Game.objects.count() == 2


def test_a_refusal_in_the_worker_is_worded_in_the_language_kept_with_the_confirm() -> None:
    organiser = make_member(nickname="Организатор", role="organiser")
    player = make_member(nickname="Игрок 1")
    client = logged_in(organiser)
    post_file(client, sheet())
    found = HistoryImport.objects.get()
    twice = {"name:игрок 1": f"member:{player.pk}", "name:игрок 2": f"member:{player.pk}"}
    client.post(f"/history/import/{found.pk}/confirm/", twice)
    assert HistoryImport.objects.get().language == "ru"  # the organiser's, at the confirm
    HistoryImport.objects.filter(pk=found.pk).update(language="en")
    worker_confirms()
    found.refresh_from_db()
    assert "would sit at two seats of one game" in found.counts["refusal"]
