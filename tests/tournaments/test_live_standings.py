"""A tournament followed live (tournaments/live.py, docs/live.md «A tournament's live
standings»): the standings follow each finished game, the final's table is the headline
while the final is played, names as a visitor reads them, served from the cache with an
ETag (304 without PostgreSQL)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from accounts.models import User
from games.models import Game, Spectators
from games.recording import engine_for, game_record_event
from games.rules.club import ClubGame
from games.rules.simulate import play
from tests.factories import set_consent
from tests.tournaments.test_tournaments import EFFORT, admin, record_game, small
from tournaments import services
from tournaments.models import Stage, Table, Tournament
from tournaments.standings import tournament_standings

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


def _live(client: Client, tournament: Tournament, **headers: str) -> Any:
    return client.get(f"/tournaments/{tournament.pk}/live.json", headers=headers)


def _start(table: Table, host: User, spectators: str = Spectators.PUBLIC) -> Game:
    game = services.table_game_start(table_id=table.pk, host=host)
    game.spectators = spectators
    game.save(update_fields=["spectators"])
    return game


def _played(game: Game, host: User, seed: int) -> Iterator[None]:
    """A random legal game of the table as dealt (record_game's), recorded event by event:
    the caller looks after the first event and once the game is over."""
    seats = list(game.seats.all())
    engine = engine_for(game, seats)
    assert isinstance(engine, ClubGame)
    roles = {seat.number: seat.role for seat in seats}
    events = play(random.Random(seed), roles, options=engine.options, immune=list(game.immune))
    for seq, event in enumerate(events.events, 1):
        game_record_event(game_id=game.pk, author=host, event=event, seq=seq, client_id=None)
        if seq == 1:
            yield
    yield


def _points(tournament: Tournament) -> list[float]:
    return [row.points for row in tournament_standings(tournament, show_final=False).rows]


def test_the_standings_follow_each_finished_game_and_the_final_is_the_headline(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    organiser = admin()
    tournament, members = small(organiser, players=10, final_players=10, final_rounds=1)
    shy = members[3]
    shy.nickname = "Скрытный"
    shy.save(update_fields=["nickname"])
    set_consent(shy, consent=False)
    services.tournament_seat(tournament_id=tournament.pk, actor=organiser, effort=EFFORT)
    client = Client()
    first = _live(client, tournament).json()["frame"]
    assert (first["standings"], first["headline"], first["tables"]) == ([], None, [])
    tables = Table.objects.filter(round__tournament=tournament).order_by("round__number")
    for n, table in enumerate(tables, 1):
        game = _start(table, organiser)
        steps = _played(game, organiser, seed=n)
        next(steps)  # its first event: the game has begun
        playing = _live(client, tournament).json()["frame"]
        assert [t["game"] for t in playing["tables"]] == [game.pk]
        next(steps)  # to its end
        answer = _live(client, tournament)
        frame = answer.json()["frame"]
        # The game's end reaches the standings at the next poll.
        assert frame["games"] == n and frame["tables"] == []
        assert [row["points"] for row in frame["standings"]] == _points(tournament)
        assert "Скрытный" not in answer.content.decode()
        # The club's row and the clubs' list are kept 5 s per process: a game played under
        # load may outlast them, and their reading again is no part of the poll's work.
        _live(client, tournament, if_none_match=answer["ETag"])
        with django_assert_num_queries(0):
            again = _live(client, tournament, if_none_match=answer["ETag"])
        assert again.status_code == 304
    hidden = [row for row in frame["standings"] if row["nick"] is None]
    assert [row["player"] for row in hidden] == [4]  # fourth on the sign-up list
    # The final: seated from the standings, its table on top once its game begins.
    services.tournament_final(tournament_id=tournament.pk, actor=organiser, effort=EFFORT)
    final_table = Table.objects.get(round__tournament=tournament, round__stage=Stage.FINAL)
    final = _start(final_table, organiser)
    steps = _played(final, organiser, seed=9)
    next(steps)  # day 1 of the final
    screen = _live(client, tournament).json()
    headline = screen["frame"]["headline"]
    assert (headline["game"], headline["final"], headline["live"]) == (final.pk, True, True)
    assert screen["live"][str(final.pk)] == client.get(f"/games/{final.pk}/live.json").json()
    assert screen["live"][str(final.pk)]["phase"] == "day"
    assert screen["frame"]["tables"] == []
    next(steps)  # to its end
    ended = _live(client, tournament).json()["frame"]
    assert ended["games"] == 4 and ended["headline"]["state"] == "over"
    services.tournament_finish(tournament_id=tournament.pk, actor=organiser)
    done = _live(client, tournament).json()["frame"]
    assert done["finished"] and done["headline"] is None


def test_the_finals_results_stay_hidden_and_a_members_only_final_is_its_members() -> None:
    organiser = admin()
    tournament, _members = small(
        organiser, players=10, final_players=10, final_rounds=1, hide_final=True
    )
    services.tournament_seat(tournament_id=tournament.pk, actor=organiser, effort=EFFORT)
    for n, table in enumerate(Table.objects.filter(round__tournament=tournament), 1):
        record_game(_start(table, organiser), organiser, seed=n, by_api=False)
    services.tournament_final(tournament_id=tournament.pk, actor=organiser, effort=EFFORT)
    final_table = Table.objects.get(round__tournament=tournament, round__stage=Stage.FINAL)
    final = _start(final_table, organiser, Spectators.MEMBERS)
    record_game(final, organiser, seed=7, by_api=False)
    visitor = _live(Client(), tournament)
    frame = visitor.json()["frame"]
    assert frame["hidden_final"] and frame["games"] == 3
    assert frame["headline"]["live"] is False and visitor.json()["live"] == {}
    assert visitor["Cache-Control"] == "private, no-cache"
    member = Client()
    member.force_login(organiser)
    seen = _live(member, tournament).json()
    assert list(seen["live"]) == [str(final.pk)]


def test_no_such_tournament_is_404_and_the_page_draws_it() -> None:
    client = Client()
    missing = client.get("/tournaments/999999/live.json")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert client.get("/tournaments/999999/live/").status_code == 404
    tournament, _members = small(admin(), players=10)
    page = client.get(f"/tournaments/{tournament.pk}/live/")
    assert page.status_code == 200 and b'id="screen-data"' in page.content
    detail = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f"/tournaments/{tournament.pk}/live/" in detail
