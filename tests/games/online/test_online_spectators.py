"""An online game's live table (games/online/spectators.py, docs/live.md «An online game»):
served as a club game's is, from the cache with its ETag, under the game's spectators
setting, which its host chooses on the players' page; whoever is not at the table is sent
from the game's page to it."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from games import live
from games.models import Game, Spectators
from games.online import services as online_play
from games.online.spectators import online_snapshot_write
from games.online.sweep import online_sweep
from games.ratings.tasks import game_analyse
from tests.factories import make_member
from tests.games.online.tables import table_of
from tests.games.recording import make_host

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


def _game() -> Game:
    return online_play.online_game_create(
        host=make_host(),
        member_ids=[make_member().pk for _ in range(10)],
        starts_at=timezone.now() + timedelta(minutes=40),
    )


def test_a_public_online_game_is_polled_with_its_etag_without_postgresql(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    game = _game()
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    starts = table_of(game.pk).table.starts_at
    with time_machine.travel(starts + timedelta(seconds=1), tick=False):
        assert online_sweep() == 1  # day 1: the commit writes the snapshot
    client = Client()
    url = f"/games/{game.pk}/live.json"
    with django_assert_num_queries(0):
        first = client.get(url)
        again = client.get(url, headers={"if-none-match": first["ETag"]})
    snapshot = json.loads(first.content)
    assert (snapshot["ruleset"], snapshot["phase"], snapshot["n"]) == ("online", "day", 1)
    assert snapshot["open"] and snapshot["deadline"] is not None
    assert again.status_code == 304
    player = table_of(game.pk).seats[0].player
    online_play.online_act(game_id=game.pk, user=player, event={"type": "post", "text": "Привет"})
    with django_assert_num_queries(0):
        changed = client.get(url, headers={"if-none-match": first["ETag"]})
    assert changed.status_code == 200
    assert json.loads(changed.content)["thread"][-1]["text"] == "Привет"
    page = client.get(f"/games/{game.pk}/live/")
    assert page.status_code == 200 and b'id="live-snapshot"' in page.content


def test_members_only_by_default_and_the_host_chooses_on_the_players_page() -> None:
    game = _game()
    assert Client().get(f"/games/{game.pk}/live.json").status_code == 403
    member = Client()
    member.force_login(make_member())
    assert member.get(f"/games/{game.pk}/live.json").status_code == 200
    # Not at the table: the game's page sends a member to its live table, not its table.
    assert member.get(f"/games/{game.pk}/")["Location"] == f"/games/{game.pk}/live/"
    hosting = Client()
    hosting.force_login(game.host)
    page = hosting.get(f"/online/{game.pk}/").content.decode()
    assert f'action="/games/{game.pk}/spectators/"' in page
    player = Client()
    player.force_login(table_of(game.pk).seats[0].player)
    assert 'name="spectators"' not in player.get(f"/online/{game.pk}/").content.decode()
    player.post(f"/games/{game.pk}/spectators/", {"spectators": "public"})
    game.refresh_from_db()
    assert game.spectators == Spectators.MEMBERS  # a player does not choose
    hosting.post(f"/games/{game.pk}/spectators/", {"spectators": "public"})
    game.refresh_from_db()
    assert game.spectators == Spectators.PUBLIC
    assert Client().get(f"/games/{game.pk}/live.json").status_code == 200
    hosting.post(f"/games/{game.pk}/spectators/", {"spectators": "off"})
    assert member.get(f"/games/{game.pk}/live.json").status_code == 403


def test_the_finished_games_snapshot_opens_the_cards_and_shows_the_points() -> None:
    game = _game()
    starts = table_of(game.pk).table.starts_at
    with time_machine.travel(starts + timedelta(seconds=1), tick=False):
        assert online_sweep() == 1
        for seat in table_of(game.pk).seats:
            if seat.role in ("don", "mafia"):
                online_play.online_act(
                    game_id=game.pk, user=game.host, event={"type": "modkill", "seat": seat.number}
                )
    ended = json.loads(live.snapshot_read(game.pk, writers=[online_snapshot_write])["body"])
    assert ended["over"] and ended["winner"] == "red" and ended["deadline"] is None
    assert all(seat["role"] for seat in ended["seats"]) and ended["scores"] is None
    game_analyse(game.pk)  # the worker's task, as it runs once the end commits
    scored = json.loads(live.snapshot_read(game.pk, writers=[online_snapshot_write])["body"])
    assert len(scored["scores"]) == 10
