"""A tap's work on the database, pinned (#39): the game's row read once (locked), its seats
and log once each, the log folded once; the door renders what the service judged. The
counts are the same on the first tap and the last, however long the log; and what the
service hands the door is what a fresh read of the game shows (games.queries.game_view).
The log is folded once per tap: the one read of it is the service's (the fold's cost is
bench/hot_paths.py's to measure)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.services import api_token_create
from games import host_screen
from games.rules.club import ClubGame
from tests.games.recording import TOWN_WINS, Table, start_game, view_of

pytestmark = pytest.mark.django_db

# The host screen's tap: the session and its member (2), the member's permissions (2),
# the game locked (1), its seats (1) and their members' memberships of the club (1: their
# consent names them on the screen), a retry's client id looked up (1), the log (1),
# the entry written in its savepoint (3) and the game's outcome (1), the tap's transaction
# in the test's (2 savepoints). Before #39: 20 (the game read three times, the log twice).
TAP_QUERIES = 15
# The API's event, sent without a client id: the token with its member (1) instead of the
# session and its member, no retry to look up; the rest the same.
API_EVENT_QUERIES = 12


def _reads_the_log(sql: str) -> bool:
    return sql.startswith('SELECT "games_gameevent"."payload"')


def _game_rows(captured: CaptureQueriesContext) -> int:
    return sum(1 for q in captured.captured_queries if 'FROM "games_game"' in q["sql"])


def test_every_tap_of_a_whole_game_does_the_same_work(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    client = Client()
    client.force_login(host)
    counts, game_reads, logs_read = [], [], []
    for seq, event in enumerate(TOWN_WINS, start=1):
        body = {"seq": seq, "client_id": f"t{seq}", "event": event, "confirmed": True}
        with CaptureQueriesContext(connection) as captured:
            answer = client.post(f"/games/{game.pk}/tap/", body, content_type="application/json")
        assert answer.status_code == 201, answer.content.decode()
        counts.append(len(captured))
        game_reads.append(_game_rows(captured))
        logs_read.append(sum(_reads_the_log(q["sql"]) for q in captured.captured_queries))
        # What the door answered is what the game reads as now.
        fresh = view_of(game.pk)
        assert answer.json()["seq"] == fresh.game.last_seq == seq
        assert answer.json()["table"] == host_screen.table_of(fresh)
    assert counts == [TAP_QUERIES] * len(TOWN_WINS)
    assert game_reads == [1] * len(TOWN_WINS)
    assert logs_read == [1] * len(TOWN_WINS)
    game.refresh_from_db()
    assert game.finished and game.winner == "red"


def test_the_apis_event_is_rendered_from_the_judged_game(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    auth = {"Authorization": f"Bearer {api_token_create(member=host).key}"}
    client = Client()
    for seq, event in enumerate(TOWN_WINS[:6], start=1):
        with CaptureQueriesContext(connection) as captured:
            answer = client.post(
                f"/api/v1/games/{game.pk}/events",
                {**event, "seq": seq},
                content_type="application/json",
                headers=auth,
            )
        assert answer.status_code == 201, answer.content.decode()
        # A token's use is noted at most once a minute (accounts/services.py): not the tap's.
        work = [
            q["sql"]
            for q in captured.captured_queries
            if 'UPDATE "accounts_apitoken"' not in q["sql"]
        ]
        assert len(work) == API_EVENT_QUERIES, work
        assert _game_rows(captured) == 1
        seen = client.get(f"/api/v1/games/{game.pk}", headers=auth).json()
        assert answer.json() == seen


def test_an_undo_and_a_retried_tap_answer_the_game_as_it_stands(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    client = Client()
    client.force_login(host)

    def tap(seq: int, event: dict[str, Any], client_id: str) -> dict[str, Any]:
        body = {"seq": seq, "client_id": client_id, "event": event, "confirmed": True}
        answer = client.post(f"/games/{game.pk}/tap/", body, content_type="application/json")
        assert answer.status_code in (200, 201), answer.content.decode()
        result: dict[str, Any] = answer.json()
        return result

    for seq, event in enumerate(TOWN_WINS[:4], start=1):
        tap(seq, event, f"t{seq}")
    undone = tap(5, {"type": "undo"}, "u")
    assert undone["table"] == host_screen.table_of(view_of(game.pk))
    again = tap(5, {"type": "undo"}, "u")  # the same client id: the first entry, recorded once
    assert again["created"] is False and again["seq"] == 5
    assert again["table"] == undone["table"]
    state = view_of(game.pk).state
    assert isinstance(state, ClubGame) and state.events_applied == 3
