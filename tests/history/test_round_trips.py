"""Round trips through the readers: a game played here, exported by history/exports/ as this
platform's protocol and as the field's exchange JSON, reads back as the same game (the
spreadsheet's round trip is in test_exports.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Role
from club.kernel.clubs import Club
from games.models import Role as GameRole
from games.ratings import tasks
from history.formats.reading import read_history
from history.formats.records import Left, Source
from tests.factories import PASSWORD, make_member
from tests.games.ratings.scored import BONUS, COMMISSAR, played
from tests.games.recording import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def exported(table: Table) -> tuple[Any, Client]:
    game, _players = played(table, BONUS)
    tasks.game_analyse(game.pk)
    organiser = make_member(role=Role.ORGANISER, nickname="Организатор")
    client = Client()
    assert client.login(username=organiser.nickname, password=PASSWORD)
    return game, client


def download(client: Client, kind: str) -> bytes:
    response: Any = client.get(reverse("history_export_club") + f"?as={kind}")
    assert response.status_code == 200
    return b"".join(response.streaming_content)


def catalogue() -> dict[str, str]:
    return dict(GameRole.objects.values_list("code", "name_ru"))


def seats_of(game: Any) -> list[tuple[int, str, str]]:
    seats = game.seats.select_related("member").order_by("number")
    return [(s.number, s.member.nickname, s.role) for s in seats]


def test_the_protocol_export_reads_back_as_the_same_game(exported: tuple[Any, Client]) -> None:
    game, client = exported
    read = read_history(download(client, "protocol"), filename="club.json", roles=catalogue())
    assert read.problems == [] and read.source is Source.PROTOCOL
    (record,) = read.games
    assert record.played_on == timezone.localdate(game.evening.starts_at, Club.current().zone)
    assert (record.table, record.number, record.winner) == (1, 1, game.winner)
    assert [(s.seat, s.nickname, s.role) for s in record.seats] == seats_of(game)
    assert (record.best_move, record.best_move_by) == ((1, 2, 9), 6)
    by_seat = {s.seat: s for s in record.seats}
    assert by_seat[COMMISSAR].extra == pytest.approx(0.3)
    assert (by_seat[6].left, by_seat[6].left_when) == (Left.KILLED, "N1")
    assert record.protocol is not None and record.protocol["format"] == "mafia-protocol/1"


def test_the_exchange_export_reads_back_as_the_same_results(exported: tuple[Any, Client]) -> None:
    game, client = exported
    read = read_history(download(client, "exchange"), filename="club.json", roles=catalogue())
    assert read.problems == [] and read.source is Source.EXCHANGE
    (record,) = read.games
    assert record.played_on == timezone.localdate(game.evening.starts_at, Club.current().zone)
    assert (record.table, record.number, record.winner) == (1, 1, game.winner)
    # The format has four roles: a doctor or a kamikaze is «civ» there, read back civilian.
    lossy = {"doctor": "civilian", "kamikaze": "civilian"}
    assert [(s.seat, s.nickname, lossy.get(s.role, s.role)) for s in record.seats] == [
        (seat, nick, lossy.get(role, role)) for seat, nick, role in seats_of(game)
    ]
    assert (record.best_move, record.best_move_by) == ((1, 2, 9), 6)
    by_seat = {s.seat: s for s in record.seats}
    assert (by_seat[6].left, by_seat[6].left_when) == (Left.KILLED, "N1")
    assert (by_seat[1].left, by_seat[1].left_when) == (Left.VOTED, "D4")
    assert record.protocol is None
