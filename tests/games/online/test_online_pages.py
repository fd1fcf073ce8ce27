"""The online game's pages: the host creates a game, players act by plain posts and htmx,
outsiders see nothing, the mafia's chat is the mafia's."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat
from games.online import services as online_play
from games.online.sweep import online_sweep
from tests.factories import make_member
from tests.games.online.tables import table_of
from tests.games.recording import make_host

pytestmark = pytest.mark.django_db


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_host_creates_a_game_on_the_site_and_players_vote_there() -> None:
    host = make_host()
    members = [make_member() for _ in range(10)]
    site = logged_in(host)
    assert site.get("/online/new/").status_code == 200
    starts = timezone.localtime(timezone.now() + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M")
    short = site.post("/online/new/", {"members": [m.pk for m in members[:9]], "starts_at": starts})
    assert short.status_code == 422 and "десяти" in short.content.decode()
    made = site.post("/online/new/", {"members": [m.pk for m in members], "starts_at": starts})
    assert made.status_code == 302
    game = Game.objects.get(ruleset="online")
    with time_machine.travel(timezone.now() + timedelta(minutes=6)):
        online_sweep()
        seat = Seat.objects.filter(game=game).select_related("member").first()
        assert seat is not None
        player = logged_in(seat.player)
        page = player.get(f"/online/{game.pk}/").content.decode()
        assert "День 1" in page and 'value="fast"' in page
        player.post(f"/online/{game.pk}/act/", {"type": "vote", "target": "pass"})
        assert table_of(game.pk).state.votes == {seat.number: "pass"}
        partial = player.post(
            f"/online/{game.pk}/act/",
            {"type": "com_check", "target": "1"},
            headers={"HX-Request": "true"},
        )
        assert partial.status_code in (403, 422)
        assert logged_in(make_member()).get(f"/online/{game.pk}/").status_code == 403
        assert player.get("/online/").status_code == 200
        assert logged_in(make_member()).get("/online/new/").status_code == 403


def test_an_eliminated_player_has_a_last_word_on_the_page() -> None:
    host = make_host()
    members = [make_member() for _ in range(10)]
    starts = timezone.now() + timedelta(minutes=1)
    game = online_play.online_game_create(
        host=host, member_ids=[m.pk for m in members], starts_at=starts
    )
    with time_machine.travel(starts + timedelta(seconds=5)):
        online_sweep()
        seat = Seat.objects.filter(game=game, role="civilian").select_related("member").first()
        assert seat is not None
        online_play.online_act(
            game_id=game.pk, user=host, event={"type": "warning", "seat": seat.number}
        )
        online_play.online_act(
            game_id=game.pk, user=host, event={"type": "warning", "seat": seat.number}
        )
        online_play.online_act(
            game_id=game.pk, user=host, event={"type": "warning", "seat": seat.number}
        )
        player = logged_in(seat.player)
        assert "Ваше последнее слово" in player.get(f"/online/{game.pk}/").content.decode()
        player.post(f"/online/{game.pk}/act/", {"type": "post", "text": "Прощайте"})
        assert "Ваше последнее слово" not in player.get(f"/online/{game.pk}/").content.decode()


def test_the_online_page_says_its_don_is_the_live_games_boss() -> None:
    from django.core.management import call_command

    from games.models import Game

    call_command("demo_data", stdout=open("/dev/null", "w"))  # noqa: SIM115
    online = Game.objects.get(ruleset="online")
    client = Client()
    seat = online.seats.first()
    assert seat is not None
    client.force_login(seat.player)
    page = client.get(f"/online/{online.pk}/").content.decode()
    assert "главарь мафии здесь — Дон, в живой игре эта карта зовётся Босс" in page
