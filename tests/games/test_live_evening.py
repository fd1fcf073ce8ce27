"""The venue's screen (games/live_evening.py, docs/live.md «The venue's screen»): an
evening's tables at once with each game's public snapshot as its spectators' page shows it,
who plays next once seated, and the evening's standings by the published points; each
game's spectators setting decides what of it is shown; served from the cache with its
ETag, without PostgreSQL on a poll."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from accounts.models import User
from club.models import Evening
from games.models import Game, Spectators
from games.ratings.publication import published_points_of
from games.ratings.tasks import game_analyse
from games.starting import game_create
from tests.factories import make_evening, make_member, set_consent, sign_up_many
from tests.games.recording import LINEUP, TOWN_WINS, make_host, record

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


def _two_tables() -> tuple[User, Evening, list[User]]:
    """An evening at two tables with 24 members signed up, and its host."""
    evening = make_evening(
        starts_at=timezone.now() + timedelta(hours=1),
        opens_at=timezone.now() - timedelta(days=1),
        capacity=24,
    )
    evening.tables = 2
    evening.save(update_fields=["tables"])
    players = [result.member for result in sign_up_many(evening, 24)]
    return make_host(), evening, players


def _start(host: User, evening: Evening, players: list[User], table: int, spectators: str) -> Game:
    pairs = zip(players, LINEUP, strict=True)
    seats = {n: (member.pk, role) for n, (member, role) in enumerate(pairs, 1)}
    game = game_create(host=host, evening_id=evening.pk, seats=seats, table=table)
    game.spectators = spectators
    game.save(update_fields=["spectators"])
    return game


def _screen(client: Client, evening: Evening, **headers: str) -> Any:
    return client.get(f"/evenings/{evening.pk}/screen.json", headers=headers)


def test_both_tables_show_their_games_as_their_spectators_pages_do() -> None:
    host, evening, players = _two_tables()
    first = _start(host, evening, players[:12], 1, Spectators.PUBLIC)
    second = _start(host, evening, players[12:], 2, Spectators.PUBLIC)
    record(first, host, *TOWN_WINS[:7])  # the morning of day 2
    record(second, host, {"type": "day", "n": 1}, {"type": "foul", "seat": 3})
    client = Client()
    answer = _screen(client, evening)
    assert answer.status_code == 200
    screen = answer.json()
    tables = screen["frame"]["tables"]
    assert [(t["table"], t["game"], t["live"]) for t in tables] == [
        (1, first.pk, True),
        (2, second.pk, True),
    ]
    # Each table is the very snapshot its spectators' page serves.
    for game in (first, second):
        alone = client.get(f"/games/{game.pk}/live.json").json()
        assert screen["live"][str(game.pk)] == alone
    assert screen["live"][str(second.pk)]["seats"][2]["fouls"] == 1
    assert screen["live"][str(first.pk)]["left"][0]["seat"] == 6


def test_a_poll_is_answered_from_the_cache_even_after_a_tap(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    host, evening, players = _two_tables()
    game = _start(host, evening, players[:12], 1, Spectators.PUBLIC)
    record(game, host, {"type": "day", "n": 1})
    client = Client()
    first = _screen(client, evening)
    etag = first["ETag"]
    with django_assert_num_queries(0):
        again = _screen(client, evening, if_none_match=etag)
    assert again.status_code == 304 and again["ETag"] == etag
    assert again["Cache-Control"] == "no-cache"
    # A foul changes the game's snapshot, not the screen's frame: still no database.
    record(game, host, {"type": "foul", "seat": 4})
    with django_assert_num_queries(0):
        changed = _screen(client, evening, if_none_match=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["live"][str(game.pk)]["seats"][3]["fouls"] == 1


def test_who_plays_next_once_the_host_seats_the_next_game() -> None:
    host, evening, players = _two_tables()
    shy = players[14]
    shy.nickname = "Скрытный"
    shy.save(update_fields=["nickname"])
    set_consent(shy, consent=False)
    first = _start(host, evening, players[:12], 1, Spectators.PUBLIC)
    record(first, host, *TOWN_WINS)
    client = Client()
    before = _screen(client, evening).json()["frame"]["tables"][0]
    assert before["next"] is None and before["state"] == "over"
    seated = _start(host, evening, [*players[2:13], shy], 1, Spectators.PUBLIC)
    table = _screen(client, evening).json()["frame"]["tables"][0]
    # The finished game stays on the table; the seated one is who plays next.
    assert table["game"] == first.pk and table["state"] == "over"
    assert table["next"]["game"] == seated.pk
    names = [seat["nick"] for seat in table["next"]["seats"]]
    assert names[:11] == [player.nickname for player in players[2:13]]
    assert names[11] is None  # the shy member is «Игрок 12»
    assert "Скрытный" not in _screen(client, evening).content.decode()
    # Once its day begins, it is the table's game and nobody is next.
    record(seated, host, {"type": "day", "n": 1})
    table = _screen(client, evening).json()["frame"]["tables"][0]
    assert (table["game"], table["next"]) == (seated.pk, None)


def test_the_evenings_standings_sum_the_published_points_and_hide_the_shy() -> None:
    host, evening, players = _two_tables()
    shy = players[1]
    shy.nickname = "Скрытный"
    shy.save(update_fields=["nickname"])
    set_consent(shy, consent=False)
    first = _start(host, evening, players[:12], 1, Spectators.PUBLIC)
    record(first, host, *TOWN_WINS)
    client = Client()
    assert _screen(client, evening).json()["frame"]["standings"] == []  # not scored yet
    game_analyse(first.pk)
    second = _start(host, evening, players[:12], 1, Spectators.OFF)
    record(second, host, *TOWN_WINS)
    game_analyse(second.pk)
    answer = _screen(client, evening)
    frame = answer.json()["frame"]
    points = published_points_of([first.pk, second.pk])
    expected: dict[int, float] = {}
    for game in (first, second):
        for seat, one in points[game.pk].items():
            member = players[seat - 1]
            expected[member.pk] = round(expected.get(member.pk, 0.0) + one.points, 2)
    rows = frame["standings"]
    assert (frame["scored"], frame["finished"]) == (2, 2)
    assert len(rows) == 12 and all(row["games"] == 2 for row in rows)
    assert [row["points"] for row in rows] == sorted(expected.values(), reverse=True)
    assert rows[0]["place"] == 1
    by_nick = {row["nick"]: row for row in rows}
    for member in players[:12]:
        if member == shy:
            continue
        assert by_nick[member.nickname]["points"] == expected[member.pk]
    hidden = [row for row in rows if row["nick"] is None]
    assert len(hidden) == 1 and hidden[0]["player"] == 2  # second on the sign-up list
    assert hidden[0]["points"] == expected[shy.pk]
    assert "Скрытный" not in answer.content.decode()


def test_a_members_only_game_is_shown_to_members_and_a_game_not_shown_to_nobody(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    host, evening, players = _two_tables()
    members = _start(host, evening, players[:12], 1, Spectators.MEMBERS)
    hidden = _start(host, evening, players[12:], 2, Spectators.OFF)
    record(members, host, {"type": "day", "n": 1})
    record(hidden, host, {"type": "day", "n": 1})
    visitor = _screen(Client(), evening)
    assert visitor["Cache-Control"] == "private, no-cache"
    screen = visitor.json()
    assert screen["live"] == {}
    one, two = screen["frame"]["tables"]
    assert (one["shown"], one["live"], two["shown"], two["live"]) == (
        "members",
        False,
        "off",
        False,
    )
    text = visitor.content.decode()
    for player in players:
        assert player.nickname not in text
    member = Client()
    member.force_login(make_member())
    seen = _screen(member, evening)
    assert list(seen.json()["live"]) == [str(members.pk)]
    assert players[12].nickname not in seen.content.decode()
    # A member's poll looks the session up, and the member's standing in the club (a ban
    # there logs them out of its pages: accounts/roles.may_log_in), and no more.
    with django_assert_num_queries(3):
        again = _screen(member, evening, if_none_match=seen["ETag"])
    assert again.status_code == 304


def test_a_game_seated_not_shown_live_keeps_its_line_up_to_itself() -> None:
    host, evening, players = _two_tables()
    _start(host, evening, players[:12], 1, Spectators.OFF)
    table = _screen(Client(), evening).json()["frame"]["tables"][0]
    assert table["game"] is None and table["next"]["seats"] is None


def test_no_such_evening_is_404_and_the_page_draws_the_screen() -> None:
    client = Client()
    missing = client.get("/evenings/999999/screen.json")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert client.get("/evenings/999999/screen/").status_code == 404
    host, evening, players = _two_tables()
    _start(host, evening, players[:12], 1, Spectators.PUBLIC)
    page = client.get(f"/evenings/{evening.pk}/screen/")
    assert page.status_code == 200
    assert b'id="screen-data"' in page.content and b"screen.js" in page.content
