"""The beat's sweep of a club's history: an import whose rebuild task was lost is queued
again in its own club, a preview a day old is dropped."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from club.kernel import tenancy
from club.kernel.clubs import Club
from club.kernel.tenancy import club_scope
from history.models import HistoryImport, ImportStatus
from history.tasks import history_catch_up
from tests.factories import make_member

pytestmark = pytest.mark.django_db


def test_a_stalled_import_is_queued_again_in_its_club_and_old_previews_dropped(
    queued: list[tuple[str, tuple[object, ...]]],
) -> None:
    long_ago = timezone.now() - timedelta(hours=2)
    other = Club.objects.create(slug="north", name="Северный", venue="Маяк")
    with club_scope(other):
        author = make_member(nickname="Организатор")
        stalled = HistoryImport.objects.create(
            author=author, filename="a.csv", sha256="a" * 64, status=ImportStatus.IMPORTING,
            imported_at=long_ago,
        )  # fmt: skip
        HistoryImport.objects.create(
            author=author, filename="b.csv", sha256="b" * 64, status=ImportStatus.IMPORTING,
            imported_at=timezone.now(),
        )  # fmt: skip
        old = HistoryImport.objects.create(author=author, filename="c.csv", sha256="c" * 64)
        HistoryImport.objects.filter(pk=old.pk).update(
            created_at=timezone.now() - timedelta(days=2)
        )
    with club_scope(tenancy.first_club_id()):
        fresh = HistoryImport.objects.create(author=author, filename="d.csv", sha256="d" * 64)
    history_catch_up()
    assert queued == [("history.tasks.history_rebuild", (stalled.pk,))]
    assert not HistoryImport.all_clubs.filter(pk=old.pk).exists()
    assert HistoryImport.all_clubs.filter(pk=fresh.pk).exists()


def test_an_upload_whose_read_was_lost_is_read_again_and_a_day_old_one_dropped(
    queued: list[tuple[str, tuple[object, ...]]],
) -> None:
    author = make_member(nickname="Организатор")
    lost = HistoryImport.objects.create(
        author=author, filename="a.csv", sha256="a" * 64, status=ImportStatus.READING
    )
    HistoryImport.objects.create(
        author=author, filename="b.csv", sha256="b" * 64, status=ImportStatus.READING
    )  # uploaded just now: its read is under way
    forgotten = HistoryImport.objects.create(
        author=author, filename="c.csv", sha256="c" * 64, status=ImportStatus.UNREADABLE
    )
    HistoryImport.objects.filter(pk=lost.pk).update(created_at=timezone.now() - timedelta(hours=2))
    HistoryImport.objects.filter(pk=forgotten.pk).update(
        created_at=timezone.now() - timedelta(days=2)
    )
    history_catch_up()
    assert queued == [("history.tasks.history_read", (lost.pk,))]
    assert not HistoryImport.objects.filter(pk=forgotten.pk).exists()


def test_a_confirm_whose_task_was_lost_is_queued_again(
    queued: list[tuple[str, tuple[object, ...]]],
) -> None:
    author = make_member(nickname="Организатор")
    lost = HistoryImport.objects.create(
        author=author, filename="a.csv", sha256="a" * 64, status=ImportStatus.CONFIRMING,
        imported_at=timezone.now() - timedelta(hours=2),
    )  # fmt: skip
    # Confirmed just now: its worker is creating the games.
    HistoryImport.objects.create(
        author=author, filename="b.csv", sha256="b" * 64, status=ImportStatus.CONFIRMING,
        imported_at=timezone.now(),
    )  # fmt: skip
    history_catch_up()
    assert queued == [("history.tasks.history_confirm", (lost.pk,))]
