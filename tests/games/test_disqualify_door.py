"""The judge's disqualification at the site's doors: the host's tap asks before it removes
the player and records it once confirmed, the API takes it from the host (or an admin) and
nobody else, its reason names players by seat, the game's log says it with the reason, and
the analysis scores the `disqualification` line."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from accounts.models import User
from accounts.services import api_token_create
from games.models import Game, GameEvent
from games.ratings import analysis
from games.ratings.models import PlayerScore
from games.timeline import describe
from tests.factories import make_member
from tests.games.recording import OPENING, TOWN_WINS, Table, record, start_game, view_of
from tests.responses import Response

pytestmark = pytest.mark.django_db


def disqualify(seat: int, reason: str = "оскорбление игрока") -> dict[str, Any]:
    return {"type": "disqualify", "seat": seat, "reason": reason}


def api_event(game: Game, who: User, body: dict[str, Any]) -> Response:
    token = api_token_create(member=who).key
    url = f"/api/v1/games/{game.pk}/events"
    headers = {"Authorization": f"Bearer {token}"}
    return Client().post(url, body, content_type="application/json", headers=headers)


def test_the_host_screen_asks_first_then_records_the_disqualification(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *OPENING)
    client = Client()
    client.force_login(host)
    body = {"seq": game.last_seq + 1, "client_id": "dq1", "event": disqualify(5)}
    asked = client.post(f"/games/{game.pk}/tap/", body, content_type="application/json")
    assert asked.status_code == 428 and asked.json()["code"] == "confirm"
    assert "Место 5 покидает стол: дисквалификация." in asked.json()["error"]
    assert asked.json()["reasons"] == {"5": "disqualified"}
    taken = client.post(
        f"/games/{game.pk}/tap/", {**body, "confirmed": True}, content_type="application/json"
    )
    assert taken.status_code == 201, taken.content
    state = view_of(game.pk).club_state
    assert state.eliminated[-1].reason == "disqualified" and 5 not in state.alive


def test_the_api_takes_it_from_the_host_only_and_screens_the_reason(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *OPENING)
    for who in (players[0], make_member(nickname="Зритель")):
        assert api_event(game, who, {**disqualify(5), "seq": 8}).status_code == 403
    named = api_event(game, host, {**disqualify(5, f"оскорбил {players[2].nickname}"), "seq": 8})
    assert named.status_code == 422 and "место" in named.json()["detail"]
    empty = api_event(game, host, {**disqualify(5, "  "), "seq": 8})
    assert (empty.status_code, empty.json()["code"]) == (422, "disqualify_reason")
    assert GameEvent.objects.filter(game=game).count() == len(OPENING)
    taken = api_event(game, host, {**disqualify(5, "оскорбил {seat:3}"), "seq": 8})
    assert taken.status_code == 201, taken.content
    assert GameEvent.objects.get(game=game, seq=8).payload["reason"] == "оскорбил {seat:3}"


def test_the_log_says_it_and_the_analysis_scores_it(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    opening = len(OPENING)
    record(game, host, *TOWN_WINS[:opening], disqualify(12, "телефон"), *TOWN_WINS[opening:])
    assert game.finished and game.winner == "red"
    analysis.game_analysis_build(game_id=game.pk)
    scored = PlayerScore.objects.get(game=game, seat=12)
    assert {"code": "disqualification", "points": -0.5} in scored.lines
    assert scored.points == 0.5  # the town's win, less the disqualification
    with translation.override("ru"):
        line = describe(disqualify(12, "телефон"), {12: "Молчун"}, {})
    assert line == "Дисквалификация: 12 (Молчун), «телефон»"
    host_client = Client()
    host_client.force_login(host)
    page = host_client.get(f"/games/{game.pk}/?public=1").content.decode()
    assert "Дисквалификация: 12" in page and "«телефон»" in page
