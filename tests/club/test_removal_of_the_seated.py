"""The walk: «Неявка» for a member seated in the evening's running game was taken, and the
evening page went on listing them under «Играли». Nobody sitting in a running game is
taken off the list (whatever the reason); nobody seated in one of the evening's games is a
no-show, on the line-up or in the admin. The rule (club/services.py) asks club/queries.py,
which reads the games' seats through their relations to the club's rows: club imports
nothing of games."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from club import lineup, services
from club.kernel.errors import RefusalCode, Refused
from club.models import Evening, Registration, RegistrationStatus
from games.starting import game_create, present_players
from tests.factories import make_evening, sign_up_many
from tests.games.recording import LINEUP, TOWN_WINS, make_host, record

pytestmark = pytest.mark.django_db


def test_nobody_in_a_running_game_is_removed_and_a_player_is_no_no_show() -> None:
    host = make_host()
    evening = make_evening(
        capacity=15,
        starts_at=timezone.now() + timedelta(hours=1),
        opens_at=timezone.now() - timedelta(days=1),
    )
    regs = [s.registration for s in sign_up_many(evening, 12)]
    guest = lineup.lineup_add_guest(evening_id=evening.pk, name="Олег", of_age=True, actor=host)
    regs.append(guest.registration)
    present = present_players(evening)
    # The guest and eleven members play; the twelfth member did not come.
    chosen = [present[-1], *present[:11]]
    seats = {n: (p.player, role) for n, (p, role) in enumerate(zip(chosen, LINEUP, strict=True), 1)}
    game = game_create(host=host, evening_id=evening.pk, seats=seats)
    for seated in (regs[0], regs[-1]):
        for reason in ("no_show", "left", "by_phone"):
            with pytest.raises(Refused) as refused:
                lineup.lineup_remove(registration_id=seated.pk, reason=reason, actor=host)
            assert refused.value.code == RefusalCode.CONFLICT
            assert "игре 1" in refused.value.message
    assert Registration.objects.get(pk=regs[0].pk).status == RegistrationStatus.CONFIRMED
    lineup.lineup_remove(registration_id=regs[11].pk, reason="no_show", actor=host)
    assert Registration.objects.get(pk=regs[11].pk).status == RegistrationStatus.NO_SHOW
    # Once the game is over, a player may leave, but never was a no-show.
    record(game, host, *TOWN_WINS)
    with pytest.raises(Refused) as refused:
        lineup.lineup_remove(registration_id=regs[1].pk, reason="no_show", actor=host)
    assert refused.value.code == RefusalCode.CONFLICT
    lineup.lineup_remove(registration_id=regs[1].pk, reason="left", actor=host)
    assert Registration.objects.get(pk=regs[1].pk).status == RegistrationStatus.ATTENDED
    # The admin's «no-show» mark after the evening says the same.
    later = evening.starts_at + timedelta(hours=4)
    with pytest.raises(Refused):
        services.registration_mark_attendance(registration_id=regs[2].pk, attended=False, now=later)
    services.registration_mark_attendance(registration_id=regs[2].pk, attended=True, now=later)


def test_the_line_up_says_why_in_the_row() -> None:
    host = make_host()
    evening = make_evening(
        capacity=12,
        starts_at=timezone.now() + timedelta(hours=1),
        opens_at=timezone.now() - timedelta(days=1),
    )
    regs = [s.registration for s in sign_up_many(evening, 12)]
    seats = {
        n: (p.player, role)
        for n, (p, role) in enumerate(zip(present_players(evening), LINEUP, strict=True), 1)
    }
    game_create(host=host, evening_id=evening.pk, seats=seats)
    client = Client()
    client.force_login(host)
    answer = client.post(
        f"/evenings/{evening.pk}/lineup/{regs[0].pk}/remove/",
        {"reason": "no_show", "list": "seated"},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 409
    assert "Сейчас в игре 1" in answer.content.decode()
    assert (
        Evening.objects.get(pk=evening.pk)
        .registrations.filter(status=RegistrationStatus.CONFIRMED)
        .count()
        == 12
    )
