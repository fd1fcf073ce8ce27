"""The doors of game recording: the API (statuses, permissions, the sequence check), the
host's screen's JSON taps, and the pages' fixed query counts."""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from accounts.models import User
from accounts.services import api_token_create
from club import lineup
from club.kernel.errors import RefusalCode, Refused
from club.models import Evening, Guest
from games.models import Game, GameEvent
from games.starting import game_create
from tests.factories import make_evening, make_member, set_consent, sign_up_many
from tests.games.recording import (
    LINEUP,
    OPENING,
    TOWN_WINS,
    Table,
    evening_with_players,
    make_host,
    record,
    start_game,
)
from tests.responses import Response

pytestmark = pytest.mark.django_db


def bearer(member: User) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_token_create(member=member).key}"}


def test_a_host_starts_a_game_through_the_api(table: Table) -> None:
    host, evening, players = table
    roles = LINEUP
    body = {
        "evening_id": evening.pk,
        "seats": [
            {"seat": n, "nick": p.nickname.upper(), "role": r}
            for n, (p, r) in enumerate(zip(players, roles, strict=True), 1)
        ],
    }
    response = Client().post(
        "/api/v1/games", body, content_type="application/json", headers=bearer(host)
    )
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["status"] == "running" and data["seq"] == 0
    assert data["next"]["legal"] == ["day"]
    assert [s["role"] for s in data["seats"]] == roles  # the host sees the cards


def test_the_api_refuses_members_who_are_not_hosts_and_anonymous_callers(table: Table) -> None:
    host, evening, players = table
    seat = {"seat": 1, "member_id": players[0].pk, "role": "boss"}
    body = {"evening_id": evening.pk, "seats": [seat]}
    response = Client().post(
        "/api/v1/games", body, content_type="application/json", headers=bearer(players[0])
    )
    assert response.status_code == 403
    assert Client().post("/api/v1/games", body, content_type="application/json").status_code == 401
    game = start_game(host, evening, players)
    assert Client().get(f"/api/v1/games/{game.pk}").status_code == 401


def test_events_through_the_api_statuses(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    client, auth = Client(), bearer(host)
    url = f"/api/v1/games/{game.pk}/events"

    def post(body: dict[str, object], who: dict[str, str] = auth) -> Response:
        return client.post(url, body, content_type="application/json", headers=who)

    first = post({"type": "day", "n": 1, "seq": 1, "client_id": "a"})
    assert first.status_code == 201, first.content.decode()
    assert first.json()["next"]["speaker"] == 1
    assert post({"type": "day", "n": 1, "seq": 1, "client_id": "a"}).status_code == 200  # retry
    stale = post({"type": "foul", "seat": 2, "seq": 1, "client_id": "b"})
    assert stale.status_code == 409
    assert "1" in stale.json()["detail"] and stale.json()["code"] == "stale"
    violation = post({"type": "night", "n": 5, "seq": 2, "client_id": "c"})
    assert violation.status_code == 422
    assert violation.json()["detail"]  # the engine's message
    assert violation.json()["code"] == "phase_order"  # the rule's own code
    assert post({"type": "foul", "seat": 2, "seq": 2}, bearer(players[0])).status_code == 403
    assert post({"type": "nope", "seq": 2}).status_code == 422
    assert GameEvent.objects.filter(game=game).count() == 1


def test_roles_and_the_protocol_are_the_hosts_until_the_end(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    member = bearer(players[3])
    seen = Client().get(f"/api/v1/games/{game.pk}", headers=member).json()
    assert {s["role"] for s in seen["seats"]} == {None}
    assert Client().get(f"/api/v1/games/{game.pk}/protocol", headers=member).status_code == 403
    host_view = Client().get(f"/api/v1/games/{game.pk}/protocol", headers=bearer(host))
    assert host_view.status_code == 200
    assert host_view.json()["format"] == "mafia-protocol/1"


def test_the_game_page_hides_the_cards_from_everyone_but_the_host(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    anonymous = Client().get(f"/games/{game.pk}/").content.decode()
    assert players[0].nickname in anonymous and "Босс" not in anonymous
    assert '"boss"' not in anonymous and "host-data" not in anonymous
    host_client = Client()
    host_client.force_login(host)
    screen = host_client.get(f"/games/{game.pk}/")
    assert screen.templates[0].name == "games/host.html"
    data = json.loads(
        screen.content.decode()
        .split('id="host-data" type="application/json">')[1]
        .split("</script>")[0]
    )
    assert data["seats"]["1"] == "boss" and data["table"]["phase"] == "setup"
    assert "Босс" in host_client.get(f"/games/{game.pk}/?public=1").content.decode()


def tap(
    client: Client,
    game: Game,
    event: dict[str, object],
    seq: int,
    client_id: str | None = None,
    **extra: object,
) -> Response:
    body = {"seq": seq, "client_id": client_id, "event": event, **extra}
    return client.post(f"/games/{game.pk}/tap/", body, content_type="application/json")


def test_the_host_screen_records_taps_as_json(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    client = Client()
    client.force_login(host)
    day = tap(client, game, {"type": "day", "n": 1}, 1, "x1")
    assert day.status_code == 201
    assert day.json()["seq"] == 1 and day.json()["table"]["phase"] == "day"
    assert day.json()["entry"]["type"] == "day"
    # The same tap again (a retry after a lost answer): the first entry, nothing new.
    again = tap(client, game, {"type": "day", "n": 1}, 1, "x1")
    assert again.status_code == 200 and again.json()["created"] is False
    # A stale tap from a second phone: refused with a message and the log as it stands.
    assert tap(client, game, {"type": "foul", "seat": 3}, 2, "x2").status_code == 201
    stale = tap(client, game, {"type": "foul", "seat": 4}, 2, "x3")
    assert (stale.status_code, stale.json()["code"]) == (409, "stale")
    assert "другом устройстве" in stale.json()["detail"] == stale.json()["error"]
    assert [entry["type"] for entry in stale.json()["log"]] == ["day", "foul"]
    # A refusal of the rules: the message, nothing written.
    refused = tap(client, game, {"type": "nominate", "by": 1, "target": 99}, 3, "x4")
    assert refused.status_code == 422 and "99" in refused.json()["detail"]
    assert refused.json()["code"] == "no_such_seat"
    game.refresh_from_db()
    assert [e.type for e in game.events.order_by("seq")] == ["day", "foul"]


def test_a_tap_that_removes_a_player_is_confirmed_first(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(
        game,
        host,
        {"type": "day", "n": 1},
        {"type": "foul", "seat": 3},
        {"type": "foul", "seat": 3},
    )
    client = Client()
    client.force_login(host)
    third = tap(client, game, {"type": "foul", "seat": 3}, 4, "f3")
    assert (third.status_code, third.json()["code"]) == (428, "confirm")
    assert third.json()["removes"] == [3] and "Записать?" in third.json()["error"]
    assert game.events.count() == 3
    done = tap(client, game, {"type": "foul", "seat": 3}, 4, "f3", confirmed=True)
    assert done.status_code == 201
    assert done.json()["table"]["seats"][2]["out"] == "fouls"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [(b"", 400, "unreadable"), (b"\xff", 400, "unreadable"), (b"[" * 5000, 400, "unreadable"),
     (b"[]", 422, "invalid"), (b'{"seq": 1}', 422, "invalid"),
     (b'{"seq": "1", "event": {}}', 422, "invalid"),
     (b'{"seq": 1, "event": {"type": 7}}', 422, "malformed"),
     (b'{"seq": 1, "client_id": 5, "event": {"type": "day", "n": 1}}', 422, "invalid"),
     (b'{"seq": 1, "event": {"type": "day", "n": 1}, "confirmed": "yes"}', 422, "invalid")],
)  # fmt: skip
def test_a_malformed_tap_is_a_clear_refusal(
    table: Table, body: bytes, status: int, code: str
) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    client = Client()
    client.force_login(host)
    answer = client.post(f"/games/{game.pk}/tap/", body, content_type="application/json")
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert answer.json()["detail"] and answer.json()["error"] == answer.json()["detail"]
    assert game.events.count() == 0


def test_the_tap_and_the_api_refuse_alike(table: Table) -> None:
    """The two doors that record an event read it and refuse it with one implementation
    (games/taps.py): the same status and the same body, the tap's `error` aside."""
    host, evening, players = table
    game = start_game(host, evening, players)
    record(
        game,
        host,
        {"type": "day", "n": 1},
        {"type": "foul", "seat": 3},
        {"type": "foul", "seat": 3},
    )
    screen = Client()
    screen.force_login(host)

    type Answer = tuple[int, dict[str, Any]]

    def both(
        event: dict[str, object], seq: int, client_id: str, **extra: object
    ) -> tuple[Answer, Answer]:
        tapped = tap(screen, game, event, seq, client_id, **extra)
        envelope = {"seq": seq, "client_id": client_id, **extra}
        api = Client().post(
            f"/api/v1/games/{game.pk}/events", {**event, **envelope},
            content_type="application/json", headers=bearer(host),
        )  # fmt: skip
        tap_body = tapped.json()
        assert tap_body.pop("error") == tap_body["detail"]
        return (tapped.status_code, tap_body), (api.status_code, api.json())

    stale_tap, stale_api = both({"type": "foul", "seat": 4}, seq=2, client_id="s1")
    assert stale_tap == stale_api and stale_tap[0] == 409
    assert stale_tap[1]["code"] == "stale" and stale_tap[1]["seq"] == 3
    assert [entry["type"] for entry in stale_tap[1]["log"]] == ["day", "foul", "foul"]
    rule_tap, rule_api = both({"type": "nominate", "by": 1, "target": 99}, seq=4, client_id="r1")
    assert rule_tap == rule_api and rule_tap[:1] == (422,) and rule_tap[1]["code"] == "no_such_seat"
    third = {"type": "foul", "seat": 3}
    confirm_tap, confirm_api = both(third, seq=4, client_id="c1", confirmed=False)
    assert confirm_tap == confirm_api and confirm_tap[0] == 428
    assert (confirm_tap[1]["code"], confirm_tap[1]["removes"]) == ("confirm", [3])
    assert game.events.count() == 3


def test_members_cannot_post_taps(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    client = Client()
    client.force_login(players[0])
    assert tap(client, game, {"type": "day", "n": 1}, 1).status_code == 403
    assert tap(Client(), game, {"type": "day", "n": 1}, 1).status_code == 302
    assert game.events.count() == 0


def test_the_engine_the_worker_and_the_manifest_are_served(table: Table) -> None:
    client = Client()
    engine = client.get("/games/engine.zip")
    assert engine.status_code == 200 and engine["Content-Type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(engine.content)).namelist()
    assert "games/rules/table.py" in names and "games/__init__.py" in names
    worker = client.get("/games/engine-worker.js")
    assert "'wasm-unsafe-eval'" in worker["Content-Security-Policy"]
    assert "wasm-unsafe-eval" not in client.get("/").headers["Content-Security-Policy"]
    assert client.get("/sw.js")["Content-Type"] == "text/javascript"
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and len(manifest["icons"]) == 2


def test_the_new_game_screen_is_for_hosts_and_starts_a_game(table: Table) -> None:
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
        form[f"member_{row['number']}"] = row["player"].key
        form[f"role_at_{row['number']}"] = row["role"]
    started = client.post(f"/evenings/{evening.pk}/games/new/", form)
    assert started.status_code == 302
    game = Game.objects.get(evening=evening)
    assert started["Location"] == f"/games/{game.pk}/"
    assert sorted(game.seats.values_list("role", flat=True)) == sorted(
        ["boss", "mafia", "mafia", "commissar", "doctor"] + ["civilian"] * 7
    )


def test_the_new_game_screen_tells_the_host_when_players_are_too_few(table: Table) -> None:
    host, evening, players = table
    client = Client()
    client.force_login(host)
    form = {"start": "1"}
    for n, player in enumerate(players[:10], 1):
        form[f"member_{n}"] = str(player.pk)
        form[f"role_at_{n}"] = "civilian"
    response = client.post(f"/evenings/{evening.pk}/games/new/", form)
    assert response.status_code == 422
    assert "12" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize("length", [10, 300])
def test_the_game_screen_runs_a_fixed_number_of_queries(table: Table, length: int) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    # A long log: fouls each taken back by an undo.
    events = [*OPENING] + [{"type": "foul", "seat": 2}, {"type": "undo"}] * (
        (length - len(OPENING)) // 2
    )
    GameEvent.objects.bulk_create(
        GameEvent(game=game, seq=n, type=e["type"], payload=e) for n, e in enumerate(events, 1)
    )
    Game.objects.filter(pk=game.pk).update(last_seq=len(events))
    client = Client()
    client.force_login(host)
    client.get(f"/games/{game.pk}/")  # the session and the caches warmed
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/games/{game.pk}/").status_code == 200
    # session, member, permissions (2), the game, its seats and their members' memberships
    # of the club (their consent), its log, the roles (the recording has its own page now),
    # the scoring scheme (the bounds of extra points)
    assert len(queries) == 10, [q["sql"] for q in queries]


def test_an_admin_exports_and_imports_a_protocol(table: Table) -> None:
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


def test_a_member_who_refused_publication_is_player_n_to_everyone_else(table: Table) -> None:
    host, evening, players = table
    shy = players[5]
    type(shy).objects.filter(pk=shy.pk).update(nickname="Тень")
    set_consent(shy.pk, consent=False)
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "Тень" not in page and "Игрок 6" in page
    other = bearer(players[0])
    api = Client().get(f"/api/v1/games/{game.pk}", headers=other).json()
    assert [s["nick"] for s in api["seats"]][5] == "Игрок 6"
    document = Client().get(f"/api/v1/games/{game.pk}/protocol", headers=other).content.decode()
    assert "Тень" not in document
    # The member and the host still see the name.
    own = Client().get(f"/api/v1/games/{game.pk}", headers=bearer(shy)).json()
    assert own["seats"][5]["nick"] == "Тень"
    host_client = Client()
    host_client.force_login(host)
    assert "Тень" in host_client.get(f"/games/{game.pk}/?public=1").content.decode()


def test_a_second_phone_follows_the_log_by_its_head(
    table: Table, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    client = Client()
    client.force_login(host)
    assert client.get(f"/games/{game.pk}/head/?seq=0").status_code == 204
    record(game, host, {"type": "day", "n": 1})
    # Every open screen asks every few seconds: «nothing new» reads the game's row, not its log.
    with django_assert_max_num_queries(6):
        assert client.get(f"/games/{game.pk}/head/?seq=1").status_code == 204
    moved = client.get(f"/games/{game.pk}/head/?seq=0")
    assert moved.status_code == 200 and moved.json()["seq"] == 1
    assert [entry["type"] for entry in moved.json()["log"]] == ["day"]
    assert moved.json()["table"]["phase"] == "day"
    member = Client()
    member.force_login(players[0])
    assert member.get(f"/games/{game.pk}/head/?seq=0").status_code == 403


def test_the_questions_before_a_tap_say_why(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, {"type": "day", "n": 1}, {"type": "night", "n": 1},
           {"type": "check", "by": 1, "target": 4})  # fmt: skip
    client = Client()
    client.force_login(host)
    early = tap(client, game, {"type": "day", "n": 2}, 4, "m1")
    assert early.status_code == 428
    assert "Не действовали этой ночью: Мафия, Комиссар, Доктор." in early.json()["error"]
    assert [w["role"] for w in early.json()["waiting"]] == ["mafia", "commissar", "doctor"]
    record(game, host, {"type": "kill", "by": "mafia", "target": None},
           {"type": "check", "by": 4, "target": None}, {"type": "heal", "target": None},
           {"type": "day", "n": 2}, *({"type": "foul", "seat": 9},) * 2)  # fmt: skip
    third = tap(client, game, {"type": "foul", "seat": 9}, 10, "f3")
    assert third.status_code == 428 and "Место 9 покидает стол: три фола." in third.json()["error"]


def test_undoing_a_finished_game_asks_first(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    client = Client()
    client.force_login(host)
    asked = tap(client, game, {"type": "undo"}, game.last_seq + 1, "u1")
    assert asked.status_code == 428 and asked.json()["reopens"] is True
    game.refresh_from_db()
    assert game.finished
    done = tap(client, game, {"type": "undo"}, game.last_seq + 1, "u1", confirmed=True)
    assert done.status_code == 201
    game.refresh_from_db()
    assert not game.finished


def test_a_refused_page_answers_with_the_refusals_own_status_and_message(table: Table) -> None:
    """club.doors.responses.answers_refusals: a GET says the refusal with its status (403, 404,
    428 are not forced to one status); a refused plain post returns with the message."""
    host, evening, players = table
    game = start_game(host, evening, players)
    member = Client()
    member.force_login(players[0])
    new_game = member.get(f"/evenings/{evening.pk}/games/new/")
    assert new_game.status_code == 403
    assert "Игры начинают только ведущие и администраторы клуба." in new_game.content.decode()
    screen = Client()
    screen.force_login(host)
    missing = screen.get(f"/games/{game.pk}/recording/file")
    assert missing.status_code == 404 and "Такой записи нет." in missing.content.decode()
    not_theirs = member.get(f"/games/{game.pk}/recording/")
    assert not_theirs.status_code == 403
    deleted = screen.post(f"/games/{game.pk}/recording/delete/", follow=True)
    assert deleted.redirect_chain == [(f"/games/{game.pk}/recording/", 302)]
    assert "Такой записи нет." in deleted.content.decode()


def test_a_game_cannot_start_days_before_its_evening() -> None:
    host = make_host()
    evening = make_evening(starts_at=timezone.now() + timedelta(days=3))
    players = [r.member for r in sign_up_many(evening, 12)]
    with pytest.raises(Refused) as refused:
        start_game(host, evening, players)
    assert refused.value.code == RefusalCode.INVALID
    assert refused.value.message.startswith("Игры этого вечера начинаются в его день")
    client = Client()
    client.force_login(host)
    assert "Новая игра" not in client.get(f"/evenings/{evening.pk}/").content.decode()
    evening.starts_at = timezone.now() + timedelta(hours=2)
    evening.save()
    assert start_game(host, evening, players).number == 1


def two_tables_with_a_guest() -> tuple[User, Evening, list[User], Guest]:
    """A host and an evening an hour away with its second table open: 24 members and a
    guest on the list."""
    host = make_host()
    evening, players = evening_with_players(0)
    Evening.objects.filter(pk=evening.pk).update(capacity=15)
    players = [result.member for result in sign_up_many(evening, 24)]
    added = lineup.lineup_add_guest(
        evening_id=evening.pk, name="Гость Петя", of_age=True, actor=host
    )
    lineup.evening_open_second_table(evening_id=evening.pk, actor=host)
    evening.refresh_from_db()
    guest = added.registration.guest
    assert guest is not None
    return host, evening, players, guest


def seats_of(*who: Mapping[str, object]) -> list[dict[str, object]]:
    return [
        {"seat": n, **person, "role": role}
        for n, (person, role) in enumerate(zip(who, LINEUP, strict=True), 1)
    ]


def test_the_api_seats_a_guest_at_the_second_table_as_the_hosts_screen_does() -> None:
    host, evening, players, guest = two_tables_with_a_guest()
    client, auth = Client(), bearer(host)
    listed = client.get(f"/api/v1/evenings/{evening.pk}/players", headers=auth)
    assert listed.status_code == 200, listed.content
    assert len(listed.json()) == 25
    assert {"guest_id": guest.pk, "name": "Гость Петя"}.items() <= listed.json()[-1].items()
    first = seats_of(*({"member_id": p.pk} for p in players[:12]))
    body = {"evening_id": evening.pk, "table": 1, "seats": first}
    started = client.post("/api/v1/games", body, content_type="application/json", headers=auth)
    assert started.status_code == 201, started.content
    assert started.json()["table"] == 1
    # Table 1's players are not offered for table 2 while their game runs.
    second = client.get(f"/api/v1/evenings/{evening.pk}/players?table=2", headers=auth).json()
    assert [p["member_id"] for p in second[:12]] == [p.pk for p in players[12:]]
    assert second[12]["guest_id"] == guest.pk
    seats = seats_of({"guest_id": guest.pk}, *({"nick": p.nickname} for p in players[12:23]))
    body = {"evening_id": evening.pk, "table": 2, "seats": seats}
    at_two = client.post("/api/v1/games", body, content_type="application/json", headers=auth)
    assert at_two.status_code == 201, at_two.content
    game = at_two.json()
    assert game["table"] == 2 and game["number"] == 2
    assert Game.objects.get(pk=game["id"]).table == 2
    assert game["seats"][0]["nick"] == "Гость Петя" and game["seats"][0]["guest_id"] == guest.pk
    # To a member the guest is «Игрок 1», and not told apart from a member who hides.
    other = client.get(f"/api/v1/games/{game['id']}", headers=bearer(players[0])).json()
    assert other["table"] == 2
    assert other["seats"][0]["nick"] == "Игрок 1" and other["seats"][0]["guest_id"] is None
    assert "Гость Петя" not in client.get(f"/games/{game['id']}/").content.decode()


def test_the_api_refuses_a_table_or_a_seat_the_hosts_screen_refuses() -> None:
    host, evening, players, guest = two_tables_with_a_guest()
    client, auth = Client(), bearer(host)

    def start(table: int, *who: Mapping[str, object]) -> Response:
        body = {"evening_id": evening.pk, "table": table, "seats": seats_of(*who)}
        return client.post("/api/v1/games", body, content_type="application/json", headers=auth)

    members = [{"member_id": p.pk} for p in players]
    no_table = start(3, *members[:12])
    assert no_table.status_code == 422
    assert no_table.json()["code"] == "invalid" and no_table.json()["tables"] == 2
    assert "3" in no_table.json()["detail"]
    other_evening, _ = evening_with_players(0)
    stranger = lineup.lineup_add_guest(
        evening_id=other_evening.pk, name="Чужой", of_age=True, actor=host
    ).registration.guest
    assert stranger is not None
    not_listed = start(1, *members[:4], {"guest_id": stranger.pk}, *members[4:11])
    assert not_listed.status_code == 422
    assert not_listed.json()["code"] == "invalid" and not_listed.json()["seat"] == 5
    twice = start(1, {"guest_id": guest.pk}, *members[:10], {"guest_id": guest.pk})
    assert twice.status_code == 422 and twice.json()["seats"] == [1, 12]
    both = start(1, {"guest_id": guest.pk, "member_id": players[0].pk}, *members[1:12])
    assert both.status_code == 422 and both.json()["seat"] == 1
    assert start(1, *members[:12]).status_code == 201
    # Seat 3 plays at table 1 now: not at table 2 too.
    busy = start(2, *members[12:14], members[2], *members[14:23])
    assert busy.status_code == 409
    assert busy.json()["code"] == "conflict" and busy.json()["seats"] == [3]
    # The same for a player of table 2's game offered to table 1.
    assert start(2, {"guest_id": guest.pk}, *members[12:23]).status_code == 201
    guest_busy = start(1, *members[23:24], {"guest_id": guest.pk}, *members[:10])
    assert guest_busy.status_code == 409 and guest_busy.json()["seats"] == [2]
    assert Game.objects.filter(evening=evening).count() == 2
    # Whom a table may seat is the hosts': a member is refused, a missing table too.
    url = f"/api/v1/evenings/{evening.pk}/players"
    assert client.get(url, headers=bearer(players[0])).json()["code"] == "forbidden"
    assert client.get(f"{url}?table=3", headers=auth).status_code == 422
    assert client.get("/api/v1/evenings/999999/players", headers=auth).status_code == 404


def test_the_seating_ticks_those_checked_in_at_the_door_first() -> None:
    """The walk (94-new-game-table2.png): table 1 ticked the list's first 15 whatever the
    door said, table 2 two who never came. Once the door is kept, the screen ticks who was
    checked in, in the list's order, and nobody else; without a door, the list's first."""
    from club.models import Registration

    host, evening, players, guest = two_tables_with_a_guest()
    client = Client()
    client.force_login(host)

    def ticked(table: int) -> list[str]:
        page = client.get(f"/evenings/{evening.pk}/games/new/?table={table}")
        assert page.status_code == 200
        chosen = page.context["chosen"]
        return [p.key for p in page.context["present"] if p.key in chosen]

    keys = [str(p.pk) for p in players] + [f"g{guest.pk}"]
    # Nobody checked in (the door is not kept): the list, 25 split 13 + 12 over the tables.
    assert ticked(1) == keys[:13]
    came = [players[2], players[5], *players[16:24]]
    for player in came:
        Registration.objects.filter(evening=evening, member=player).update(
            checked_in_at=timezone.now()
        )
    Registration.objects.filter(evening=evening, guest=guest).update(checked_in_at=timezone.now())
    came_keys = [str(p.pk) for p in players if p in came] + [f"g{guest.pk}"]
    assert ticked(1) == came_keys
    page = client.get(f"/evenings/{evening.pk}/games/new/")
    assert sum(page.context["lineup"].values()) == len(came_keys)  # the line-up fits the ticks
    # Table 1 plays the first twelve: table 2 ticks the rest who came, not who did not.
    start_game(host, evening, players[:12])
    assert ticked(2) == [str(p.pk) for p in players[16:24]] + [f"g{guest.pk}"]


def test_with_two_tables_the_seating_splits_so_every_table_reaches_its_minimum() -> None:
    """Issue 37 (13): with 24 present and two tables, «Новая игра» for table 1 ticked 15,
    leaving 9 for table 2, under its 12. It ticks 12 (the list's first) and table 2 the next
    12, and says the split; too few for two tables, it says that instead."""
    host = make_host()
    evening, _ = evening_with_players(0)
    Evening.objects.filter(pk=evening.pk).update(capacity=15)
    players = [result.member for result in sign_up_many(evening, 24)]
    lineup.evening_open_second_table(evening_id=evening.pk, actor=host)
    client = Client()
    client.force_login(host)

    def form(table: int) -> tuple[list[str], str]:
        page = client.get(f"/evenings/{evening.pk}/games/new/?table={table}")
        assert page.status_code == 200
        chosen = page.context["chosen"]
        ticked = [p.key for p in page.context["present"] if p.key in chosen]
        note = re.search(r'<p class="notice" id="seating-split">([^<]*)</p>', page.text)
        return ticked, note.group(1) if note else ""

    keys = [str(p.pk) for p in players]
    ticked, note = form(1)
    assert ticked == keys[:12]
    assert note == (
        "Игроков к рассадке: 24, столов: 2 — 12 + 12, за каждым столом не меньше 12. "
        "Для стола 1 отмечено: 12."
    )
    assert form(2)[0] == keys[12:]  # the other share, not the first 15 again
    # Table 2 plays first: table 1 is the one table free, with the 12 left.
    start_game(host, evening, players[12:], roles=LINEUP)
    Game.objects.filter(evening=evening).update(table=2)
    ticked, note = form(1)
    assert ticked == keys[:12] and note == ""
    # One of the 24 leaves: 23 cannot make two tables of 12, and the screen says so.
    Game.objects.filter(evening=evening).delete()
    lineup.lineup_remove(
        registration_id=players[0].registrations.get(evening=evening).pk,
        reason="by_phone",
        actor=host,
    )
    ticked, note = form(1)
    assert ticked == keys[1:16]
    assert note == (
        "Игроков к рассадке: 23 — мало для 2 столов, за каждым не меньше 12 (нужно 24). "
        "Для этого стола отмечено: 15."
    )


def test_with_two_tables_the_host_s_screens_name_the_table() -> None:
    """The walk (95-confirm-table2.png, 96-host-table2.png): with two tables the check said
    «Стол» and the host's header «Игра 2», neither which table. Both name it; an evening of
    one table is as before."""
    host, evening, players, _guest = two_tables_with_a_guest()
    client = Client()
    client.force_login(host)
    start_game(host, evening, players[:12])
    form: dict[str, Any] = {"table": "2", "players": [p.pk for p in players[12:24]]}
    form |= {f"role_{code}": count for code, count in {"boss": 1, "mafia": 2}.items()}
    form |= {"role_commissar": 1, "role_doctor": 1, "role_civilian": 7}
    check = client.post(f"/evenings/{evening.pk}/games/new/", form).content.decode()
    assert "<h1>Стол 2</h1>" in check
    seats = {
        n: (p.pk, role) for n, (p, role) in enumerate(zip(players[12:24], LINEUP, strict=True), 1)
    }
    second = game_create(host=host, evening_id=evening.pk, seats=seats, table=2)
    page = client.get(f"/games/{second.pk}/")
    assert page.context["data"]["tableNo"] == 2
    assert "Игра 2, стол 2" in page.content.decode()
    one_table, members = evening_with_players()
    first = start_game(host, one_table, members)
    alone = client.get(f"/games/{first.pk}/")
    assert alone.context["data"]["tableNo"] is None and ", стол" not in alone.content.decode()
    # The walk: the game page's eyebrow read «2026 ·GRANDDADDY», its link a flex box whose
    # children lose the space between them: the date and the venue are one child.
    public = client.get(f"/games/{first.pk}/?public=1").content.decode()
    assert re.search(r'class="eyebrow"><a [^>]*><span>[^<]+ · <span translate="no">', public)
