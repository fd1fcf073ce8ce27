"""The doors of game recording: the API (statuses, permissions, the sequence check), the
host's screen posted as htmx and as plain forms, and the pages' fixed query counts."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.services import api_token_create
from games.models import Game, GameEvent
from tests.factories import make_member
from tests.games.recording import (
    LINEUP,
    OPENING,
    TOWN_WINS,
    record,
    start_game,
)

pytestmark = pytest.mark.django_db


def bearer(member) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(member=member).key}"}


def test_a_host_starts_a_game_through_the_api(table) -> None:
    host, evening, players = table
    roles = LINEUP
    body = {
        "evening_id": evening.pk,
        "seats": [
            {"seat": n, "nick": p.nickname.upper(), "role": r}
            for n, (p, r) in enumerate(zip(players, roles, strict=True), 1)
        ],
    }
    response = Client().post("/api/v1/games", body, content_type="application/json", **bearer(host))
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["status"] == "running" and data["seq"] == 0
    assert data["next"]["legal"] == ["day"]
    assert [s["role"] for s in data["seats"]] == roles  # the host sees the cards


def test_the_api_refuses_members_who_are_not_hosts_and_anonymous_callers(table) -> None:
    host, evening, players = table
    seat = {"seat": 1, "member_id": players[0].pk, "role": "boss"}
    body = {"evening_id": evening.pk, "seats": [seat]}
    response = Client().post(
        "/api/v1/games", body, content_type="application/json", **bearer(players[0])
    )
    assert response.status_code == 403
    assert Client().post("/api/v1/games", body, content_type="application/json").status_code == 401
    game = start_game(host, evening, players)
    assert Client().get(f"/api/v1/games/{game.pk}").status_code == 401


def test_events_through_the_api_statuses(table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    client, auth = Client(), bearer(host)
    url = f"/api/v1/games/{game.pk}/events"

    def post(body: dict, who: dict = auth):
        return client.post(url, body, content_type="application/json", **who)

    first = post({"type": "day", "n": 1, "seq": 1, "client_id": "a"})
    assert first.status_code == 201, first.content.decode()
    assert first.json()["next"]["speaker"] == 1
    assert post({"type": "day", "n": 1, "seq": 1, "client_id": "a"}).status_code == 200  # retry
    stale = post({"type": "foul", "seat": 2, "seq": 1, "client_id": "b"})
    assert stale.status_code == 409
    assert "1" in stale.json()["detail"]
    violation = post({"type": "night", "n": 5, "seq": 2, "client_id": "c"})
    assert violation.status_code == 422
    assert violation.json()["detail"]  # the engine's message
    assert post({"type": "foul", "seat": 2, "seq": 2}, bearer(players[0])).status_code == 403
    assert post({"type": "nope", "seq": 2}).status_code == 422
    assert GameEvent.objects.filter(game=game).count() == 1


def test_roles_and_the_protocol_are_the_hosts_until_the_end(table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    member = bearer(players[3])
    seen = Client().get(f"/api/v1/games/{game.pk}", **member).json()
    assert {s["role"] for s in seen["seats"]} == {None}
    assert Client().get(f"/api/v1/games/{game.pk}/protocol", **member).status_code == 403
    host_view = Client().get(f"/api/v1/games/{game.pk}/protocol", **bearer(host))
    assert host_view.status_code == 200
    assert host_view.json()["format"] == "mafia-protocol/1"


def test_the_game_page_hides_the_cards_from_everyone_but_the_host(table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    anonymous = Client().get(f"/games/{game.pk}/").content.decode()
    assert players[0].nickname in anonymous and "Босс" not in anonymous
    host_client = Client()
    host_client.force_login(host)
    assert "Босс" in host_client.get(f"/games/{game.pk}/").content.decode()


def test_the_host_records_taps_by_htmx_and_by_plain_posts(table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    client = Client()
    client.force_login(host)
    url = f"/games/{game.pk}/event/"
    htmx = {"HTTP_HX_REQUEST": "true"}
    answer = client.post(url, {"type": "day", "n": 1, "seq": 1, "client_id": "x1"}, **htmx)
    assert answer.status_code == 200
    assert 'id="board"' in answer.content.decode()
    foul = {"type": "seat", "mode": "foul"}
    plain = client.post(url, {**foul, "seat": 3, "seq": 2, "client_id": "x2"})
    assert plain.status_code == 302
    # A stale tap from a second phone: refused with a message, nothing written.
    stale = client.post(url, {**foul, "seat": 4, "seq": 2, "client_id": "x3"}, **htmx)
    assert stale.status_code == 409
    assert "другом устройстве" in stale.content.decode()
    nominate = client.post(
        url,
        {"type": "seat", "mode": "nominate", "by": 1, "seat": 5, "seq": 3, "client_id": "x4"},
        **htmx,
    )
    assert nominate.status_code == 200
    game.refresh_from_db()
    assert [e.type for e in game.events.order_by("seq")] == ["day", "foul", "nominate"]


def test_members_cannot_post_taps(table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    client = Client()
    client.force_login(players[0])
    response = client.post(f"/games/{game.pk}/event/", {"type": "day", "n": 1, "seq": 1})
    assert response.status_code == 403
    assert Client().post(f"/games/{game.pk}/event/", {"type": "day"}).status_code == 302


def test_the_new_game_screen_is_for_hosts_and_starts_a_game(table) -> None:
    host, evening, players = table
    member_client = Client()
    member_client.force_login(players[0])
    assert member_client.get(f"/evenings/{evening.pk}/games/new/").status_code == 403
    client = Client()
    client.force_login(host)
    assert client.get(f"/evenings/{evening.pk}/games/new/").status_code == 200
    step = client.post(
        f"/evenings/{evening.pk}/games/new/",
        {
            "players": [p.pk for p in players],
            "role_boss": 1,
            "role_mafia": 2,
            "role_commissar": 1,
            "role_doctor": 1,
            "role_civilian": 7,
            "seating": "random",
            "deal": "random",
        },
    )
    assert step.status_code == 200
    table_rows = step.context["table"]
    form = {"start": "1", **{f"role_{c}": n for c, n in step.context["lineup"].items()}}
    form["players"] = [p.pk for p in players]
    for row in table_rows:
        form[f"member_{row['number']}"] = row["member"].pk
        form[f"role_at_{row['number']}"] = row["role"]
    started = client.post(f"/evenings/{evening.pk}/games/new/", form)
    assert started.status_code == 302
    game = Game.objects.get(evening=evening)
    assert started["Location"] == f"/games/{game.pk}/"
    assert sorted(game.seats.values_list("role", flat=True)) == sorted(
        ["boss", "mafia", "mafia", "commissar", "doctor"] + ["civilian"] * 7
    )


def test_the_new_game_screen_tells_the_host_when_players_are_too_few(table) -> None:
    host, evening, players = table
    client = Client()
    client.force_login(host)
    form = {"start": "1"}
    for n, player in enumerate(players[:10], 1):
        form[f"member_{n}"] = player.pk
        form[f"role_at_{n}"] = "civilian"
    response = client.post(f"/evenings/{evening.pk}/games/new/", form)
    assert response.status_code == 422
    assert "12" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize("length", [10, 300])
def test_the_game_screen_runs_a_fixed_number_of_queries(table, length: int) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    events = [*OPENING] + [
        {
            "type": "speech",
            "seat": 2,
            "start": "2026-12-06T15:00:00+00:00",
            "end": "2026-12-06T15:00:30+00:00",
            "limit": 30,
        }
    ] * (length - len(OPENING))
    GameEvent.objects.bulk_create(
        GameEvent(game=game, seq=n, type=e["type"], payload=e) for n, e in enumerate(events, 1)
    )
    Game.objects.filter(pk=game.pk).update(last_seq=len(events))
    client = Client()
    client.force_login(host)
    client.get(f"/games/{game.pk}/")  # the session and the caches warmed
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/games/{game.pk}/").status_code == 200
    # session, member, permissions (2), the game, its seats, its log, the roles, and for
    # the host the game's recording
    assert len(queries) == 9, [q["sql"] for q in queries]


def test_an_admin_exports_and_imports_a_protocol(table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *OPENING)
    admin = make_member(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    exported = client.post(
        "/admin/games/game/", {"action": "export_protocols", "_selected_action": [game.pk]}
    )
    assert exported.status_code == 200
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("game.json", exported.content, content_type="application/json")
    imported = client.post(
        "/admin/games/game/import/", {"evening": evening.pk, "host": host.pk, "protocol": upload}
    )
    assert imported.status_code == 302
    assert Game.objects.count() == 2
    bad = SimpleUploadedFile("bad.json", b"{not json", content_type="application/json")
    refused = client.post(
        "/admin/games/game/import/", {"evening": evening.pk, "host": host.pk, "protocol": bad}
    )
    assert refused.status_code == 200 and Game.objects.count() == 2


def test_a_member_who_refused_publication_is_player_n_to_everyone_else(table) -> None:
    host, evening, players = table
    shy = players[5]
    type(shy).objects.filter(pk=shy.pk).update(nickname="Тень", publication_consent=False)
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "Тень" not in page and "Игрок 6" in page
    other = bearer(players[0])
    api = Client().get(f"/api/v1/games/{game.pk}", **other).json()
    assert [s["nick"] for s in api["seats"]][5] == "Игрок 6"
    document = Client().get(f"/api/v1/games/{game.pk}/protocol", **other).content.decode()
    assert "Тень" not in document
    # The member and the host still see the name.
    own = Client().get(f"/api/v1/games/{game.pk}", **bearer(shy)).json()
    assert own["seats"][5]["nick"] == "Тень"
    host_client = Client()
    host_client.force_login(host)
    assert "Тень" in host_client.get(f"/games/{game.pk}/").content.decode()
