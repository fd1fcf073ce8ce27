"""«Это я»: a member claims an unclaimed player of the club's records, the organiser
approves (the player's seats and scores become the member's) or refuses; another club's
organiser can do neither."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from club.kernel.clubs import Club
from club.kernel.errors import Refused
from club.kernel.tenancy import club_scope
from club.models import Guest
from games.models import Seat
from games.ratings.models import PlayerScore
from history.formats.records import Read, Source
from history.imports import claims, rebuild, services
from history.models import ClaimStatus, HistoryClaim
from tests.factories import make_member
from tests.history.records import game_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> User:
    return make_member(nickname="Организатор", role="organiser")


@pytest.fixture
def imported(organiser: User) -> Guest:
    """Two games of the records; «Старый 3» is an unclaimed player of both."""
    found = services.import_upload(
        author=organiser,
        filename="past.csv",
        data=b"x",
        read=Read(games=[game_record("g1"), game_record("g2", number=2, winner="black")]),
        source=Source.SPREADSHEET,
    )
    services.import_confirm(history_import_id=found.pk, actor=organiser, choices={})
    rebuild.history_rebuild(history_import_id=found.pk)
    return Guest.objects.get(name="Старый 3")


def logged_in(member: User) -> Client:
    client = Client()
    client.force_login(member)
    return client


def test_a_member_claims_and_the_organiser_approves_the_history_joins_their_page(
    organiser: User, imported: Guest
) -> None:
    member = make_member(nickname="Новое имя")
    client = logged_in(member)
    listing = client.get("/history/players/").content.decode()
    assert "Старый 3" in listing and "Это я" in listing
    client.post(f"/history/players/{imported.pk}/claim/")
    claim = HistoryClaim.objects.get()
    assert claim.status == ClaimStatus.PENDING and claim.member == member
    assert "ваша заявка ждёт решения" in client.get("/history/players/").content.decode()
    assert not PlayerScore.objects.filter(member=member).exists()
    page = logged_in(organiser).get("/history/claims/").content.decode()
    assert "Новое имя" in page and "Старый 3" in page
    logged_in(organiser).post(f"/history/claims/{claim.pk}/approve/")
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.APPROVED and claim.decided_by == organiser
    assert Seat.objects.filter(member=member).count() == 2
    assert not Seat.objects.filter(guest=imported).exists()
    imported.refresh_from_db()
    assert imported.member == member
    # The worker rebuilds those games' analyses: the scores are the member's now.
    game_ids = list(Seat.objects.filter(member=member).values_list("game_id", flat=True))
    rebuild.games_rebuild(game_ids=game_ids)
    scores = PlayerScore.objects.filter(member=member).order_by("game_id")
    assert [(s.role, s.won) for s in scores] == [("mafia", False), ("mafia", True)]
    assert all(s.rating_after is not None for s in scores)
    # A later import of the same name finds the member.
    later = services.import_upload(
        author=organiser,
        filename="more.csv",
        data=b"y",
        read=Read(games=[game_record("g3", number=3)]),
        source=Source.SPREADSHEET,
    )
    how = {m.nickname: m for m, _seats in services.import_preview(later).matches}
    assert how["Старый 3"].member == member


def test_the_organiser_refuses_and_nothing_moves(organiser: User, imported: Guest) -> None:
    member = make_member(nickname="Самозванец")
    claim = claims.claim_request(guest_id=imported.pk, member=member)
    logged_in(organiser).post(f"/history/claims/{claim.pk}/refuse/")
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.REFUSED
    assert Seat.objects.filter(guest=imported).count() == 2
    assert not Seat.objects.filter(member=member).exists()
    with pytest.raises(Refused):
        claims.claim_decide(claim_id=claim.pk, actor=organiser, approve=True)


def test_a_member_cannot_decide_nor_claim_twice(organiser: User, imported: Guest) -> None:
    member = make_member(nickname="Нетерпеливый")
    claim = claims.claim_request(guest_id=imported.pk, member=member)
    with pytest.raises(Refused):
        claims.claim_request(guest_id=imported.pk, member=member)
    assert logged_in(member).post(f"/history/claims/{claim.pk}/approve/").status_code in (
        302,
        403,
    )
    assert logged_in(member).get("/history/claims/").status_code == 403
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.PENDING


def test_a_member_who_sat_beside_the_player_cannot_be_them(organiser: User) -> None:
    neighbour = make_member(nickname="Старый 4")  # matched to seat 4 of both games
    found = services.import_upload(
        author=organiser,
        filename="past.csv",
        data=b"x",
        read=Read(games=[game_record("g1")]),
        source=Source.SPREADSHEET,
    )
    services.import_confirm(history_import_id=found.pk, actor=organiser, choices={})
    guest = Guest.objects.get(name="Старый 3")
    # The member is told at the claim, not left waiting for an approval that must fail.
    answer = logged_in(neighbour).post(f"/history/players/{guest.pk}/claim/", follow=True)
    assert "Вы и этот игрок сидели за одним столом" in answer.content.decode()
    assert not HistoryClaim.objects.exists()
    # A claim made before a later import seated them together is refused at the approval.
    claim = HistoryClaim.objects.create(guest=guest, member=neighbour)
    with pytest.raises(Refused) as refused:
        claims.claim_decide(claim_id=claim.pk, actor=organiser, approve=True)
    assert refused.value.code == "conflict"
    assert Seat.objects.filter(guest=guest).count() == 1


def test_another_clubs_organiser_can_neither_see_nor_decide(
    organiser: User, imported: Guest
) -> None:
    member = make_member(nickname="Свой")
    claim = claims.claim_request(guest_id=imported.pk, member=member)
    other = Club.objects.create(slug="north", name="Северный", venue="Маяк")
    with club_scope(other):
        theirs = make_member(nickname="Чужой организатор", role="organiser")
    client = logged_in(theirs)
    page = client.get("/c/north/history/claims/").content.decode()
    assert "Старый 3" not in page and "Свой" not in page
    assert client.post(f"/c/north/history/claims/{claim.pk}/approve/").status_code in (302, 404)
    assert client.post(f"/history/claims/{claim.pk}/approve/").status_code in (302, 403)
    with club_scope(other), pytest.raises(Refused):
        claims.claim_decide(claim_id=claim.pk, actor=theirs, approve=True)
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.PENDING
    assert Seat.objects.filter(guest=imported).count() == 2
    # Nor does the other club's member see this club's records' players.
    with club_scope(other):
        stranger = make_member(nickname="Чужой")
    assert "Старый 3" not in logged_in(stranger).get("/c/north/history/players/").content.decode()
