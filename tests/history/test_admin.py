"""The imports and claims in Django admin: read only, an import undone and a claim decided
by an action, through the pages' services."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from club.models import Guest
from games.models import Game
from history.formats.records import Read, Source
from history.imports import claims, services
from history.models import ClaimStatus, HistoryClaim, HistoryImport, ImportStatus
from tests.factories import make_member
from tests.history.records import game_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> User:
    return make_member(nickname="Организатор", role="organiser")


def imported(organiser: User) -> HistoryImport:
    found = services.import_upload(
        author=organiser,
        filename="past.csv",
        data=b"x",
        read=Read(games=[game_record("g1")]),
        source=Source.SPREADSHEET,
    )
    services.import_confirm(history_import_id=found.pk, actor=organiser, choices={})
    HistoryImport.objects.filter(pk=found.pk).update(status=ImportStatus.IMPORTED)
    return found


def test_an_organiser_undoes_an_import_by_the_admins_action(organiser: User) -> None:
    found = imported(organiser)
    client = Client()
    client.force_login(organiser)
    listing = client.get("/admin/history/historyimport/")
    assert listing.status_code == 200 and "past.csv" in listing.content.decode()
    assert client.get(f"/admin/history/historyimport/{found.pk}/change/").status_code == 200
    client.post(
        "/admin/history/historyimport/",
        {"action": "undo_imports", "_selected_action": [found.pk]},
    )
    found.refresh_from_db()
    assert found.status == ImportStatus.UNDOING and not Game.objects.exists()


def test_claims_are_approved_and_refused_by_the_admins_actions(organiser: User) -> None:
    imported(organiser)
    one, two = make_member(nickname="Первый"), make_member(nickname="Второй")
    approved = claims.claim_request(guest_id=Guest.objects.get(name="Старый 1").pk, member=one)
    refused = claims.claim_request(guest_id=Guest.objects.get(name="Старый 2").pk, member=two)
    client = Client()
    client.force_login(organiser)
    base = "/admin/history/historyclaim/"
    client.post(base, {"action": "approve_claims", "_selected_action": [approved.pk]})
    client.post(base, {"action": "refuse_claims", "_selected_action": [refused.pk]})
    statuses = dict(HistoryClaim.objects.values_list("pk", "status"))
    assert statuses == {approved.pk: ClaimStatus.APPROVED, refused.pk: ClaimStatus.REFUSED}
    assert Guest.objects.get(name="Старый 1").member == one


def test_a_member_has_no_admin_for_imports(organiser: User) -> None:
    imported(organiser)
    client = Client()
    client.force_login(make_member(nickname="Рядовой"))
    assert client.get("/admin/history/historyimport/").status_code in (302, 403)
