"""Visiting (#41, item 6): a member of club A signs up for club B's evening by club B's rule
(Club.visitors): open, members only, or by approval (the visitor waits in the reserve, takes
no free seat and holds no claim on one, until an organiser lets them in); their games count
in club B's season and show in their own history."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Membership, User
from club.kernel.clubs import Club, Visitors
from club.kernel.errors import RefusalCode, Refused
from club.kernel.tenancy import club_scope
from club.models import Registration, RegistrationSource, RegistrationStatus
from club.services import evening_fill_seats, registration_create, registration_promote
from games.ratings import analysis
from tests.factories import make_evening, make_member
from tests.games.recording import TOWN_WINS, make_host, record, start_game

pytestmark = pytest.mark.django_db


def club_b(visitors: str) -> Club:
    return Club.objects.create(slug="b", name="Клуб Б", visitors=visitors)


def visitor() -> User:
    """A member of the first club only."""
    with club_scope(Club.objects.order_by("pk").first()):  # type: ignore[arg-type]
        return make_member()


def sign_up(member: User, evening_id: int) -> Registration:
    return registration_create(
        member=member, evening_id=evening_id, source=RegistrationSource.WEB
    ).registration


def test_an_open_club_seats_a_visitor_as_its_own_member() -> None:
    b = club_b(Visitors.OPEN)
    guest = visitor()
    with club_scope(b):
        evening = make_evening()
        assert sign_up(guest, evening.pk).status == RegistrationStatus.CONFIRMED
    # A visitor is not made a member of the club they visit.
    assert not Membership.objects.filter(user=guest, club=b).exists()


def test_a_members_only_club_refuses_a_visitor_and_takes_its_members() -> None:
    b = club_b(Visitors.MEMBERS_ONLY)
    guest = visitor()
    with club_scope(b):
        own = make_member()
        evening = make_evening()
        with pytest.raises(Refused) as refused:
            sign_up(guest, evening.pk)
        assert refused.value.code == RefusalCode.FORBIDDEN
        assert not Registration.objects.filter(member=guest).exists()
        assert sign_up(own, evening.pk).status == RegistrationStatus.CONFIRMED
    # The club's page says so before the press; the post is refused with the same words.
    client = Client()
    client.force_login(guest)
    page = client.get(f"/c/b/evenings/{evening.pk}/").text
    assert "Вечера этого клуба — только для его членов." in page
    assert f"/c/b/evenings/{evening.pk}/signup/" not in page  # no button that cannot work
    client.post(f"/c/b/evenings/{evening.pk}/signup/")
    with club_scope(b):
        assert not Registration.objects.filter(member=guest).exists()


def test_a_visitor_by_approval_waits_until_an_organiser_lets_them_in() -> None:
    b = club_b(Visitors.BY_APPROVAL)
    guest = visitor()
    with club_scope(b):
        evening = make_evening(capacity=2)
        waiting = sign_up(guest, evening.pk)
        assert waiting.status == RegistrationStatus.RESERVE
        assert Registration.objects.get(pk=waiting.pk).awaiting_approval
        last_call = evening.starts_at - timedelta(minutes=1)
        # Free seats are not theirs, even at the last call, and they hold no claim on one:
        # the club's own members sign up into seats.
        assert evening_fill_seats(evening_id=evening.pk, now=last_call) == []
        own = make_member()
        assert sign_up(own, evening.pk).status == RegistrationStatus.CONFIRMED
        # The organiser lets the visitor in: the free seat is theirs.
        seated = registration_promote(registration_id=waiting.pk)
        assert seated.seat is not None  # a seat number: arrival orders the seats
        row = Registration.objects.get(pk=waiting.pk)
        assert (row.status, row.awaiting_approval) == (RegistrationStatus.CONFIRMED, False)


def test_a_visitor_by_approval_is_told_they_wait_for_the_organiser_not_for_a_seat() -> None:
    b = club_b(Visitors.BY_APPROVAL)
    guest = visitor()
    with club_scope(b):
        evening = make_evening(capacity=15)
    client = Client()
    client.force_login(guest)
    answer = client.post(f"/c/b/evenings/{evening.pk}/signup/", follow=True).text
    assert "Заявка отправлена: организатор клуба впустит вас." in answer
    assert "Вы попросились играть гостем из другого клуба" in answer
    assert "Мест нет" not in answer and "оно сразу станет вашим" not in answer


def test_a_visitors_game_counts_in_the_visited_clubs_season_and_their_history() -> None:
    b = club_b(Visitors.OPEN)
    guests = [visitor() for _ in range(12)]
    with club_scope(b):
        host = make_host()
        evening = make_evening(
            starts_at=timezone.now() + timedelta(hours=1),
            opens_at=timezone.now() - timedelta(days=1),
        )
        for guest in guests:
            sign_up(guest, evening.pk)
        game = start_game(host, evening, guests)
        record(game, host, *TOWN_WINS)
        analysis.game_analysis_build(game_id=game.pk)
    board = Client().get("/c/b/leaderboard/").text
    assert guests[0].nickname in board
    # Their own page, in their own club, lists the game played in club B.
    history = Client().get(f"/players/{guests[0].pk}/").text
    assert f"/c/b/games/{game.pk}/" in history
