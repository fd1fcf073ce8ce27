"""One fact, one code, whichever door says it: a suspended player is `suspended` (403) at
sign-up and when the host seats them; a cancelled evening is `closed` (409) at sign-up, in
the line-up and when a game would start in it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import MembershipStatus, User
from accounts.services import api_token_create
from club import lineup, services
from club.kernel.errors import RefusalCode, Refused
from club.models import EveningStatus, RegistrationSource
from games.starting import game_create
from tests.factories import make_evening, make_member, set_standing
from tests.games.recording import LINEUP, evening_with_players, make_host

pytestmark = pytest.mark.django_db


def _game_over_the_api(host: User, evening_id: int, players: list[User]) -> tuple[int, str]:
    seats = [
        {"seat": n, "member_id": player.pk, "role": role}
        for n, (player, role) in enumerate(zip(players, LINEUP, strict=True), 1)
    ]
    answer = Client().post(
        "/api/v1/games",
        {"evening_id": evening_id, "seats": seats},
        content_type="application/json",
        headers={"Authorization": f"Bearer {api_token_create(member=host).key}"},
    )
    return answer.status_code, answer.json()["code"]


def _seats(players: list[User]) -> dict[int, tuple[int, str]]:
    return {n: (p.pk, role) for n, (p, role) in enumerate(zip(players, LINEUP, strict=True), 1)}


def test_a_suspended_player_is_suspended_at_sign_up_and_at_the_hosts_table() -> None:
    host = make_host()
    evening, players = evening_with_players()
    set_standing(players[3], MembershipStatus.SUSPENDED)
    other = make_evening(opens_at=timezone.now() - timedelta(days=1))
    with pytest.raises(Refused) as at_sign_up:
        services.registration_create(
            member=players[3], evening_id=other.pk, source=RegistrationSource.WEB
        )
    with pytest.raises(Refused) as at_the_table:
        game_create(host=host, evening_id=evening.pk, seats=_seats(players))
    assert at_sign_up.value.code == at_the_table.value.code == RefusalCode.SUSPENDED
    assert _game_over_the_api(host, evening.pk, players) == (403, "suspended")


def test_a_cancelled_evening_is_closed_at_sign_up_in_the_line_up_and_for_a_game() -> None:
    host = make_host()
    admin = make_member(is_staff=True, is_superuser=True)
    evening, players = evening_with_players()
    evening.status = EveningStatus.CANCELLED
    evening.save(update_fields=["status"])
    newcomer = make_member()
    with pytest.raises(Refused) as at_sign_up:
        services.registration_create(
            member=newcomer, evening_id=evening.pk, source=RegistrationSource.WEB
        )
    with pytest.raises(Refused) as in_the_line_up:
        lineup.lineup_add_member(evening_id=evening.pk, member_id=newcomer.pk, actor=admin)
    with pytest.raises(Refused) as for_a_game:
        game_create(host=host, evening_id=evening.pk, seats=_seats(players))
    codes = {at_sign_up.value.code, in_the_line_up.value.code, for_a_game.value.code}
    assert codes == {RefusalCode.CLOSED}
    assert _game_over_the_api(host, evening.pk, players) == (409, "closed")
