"""The exports of a club's games (history/exports/): the spreadsheet, this platform's
protocol and the field's exchange JSON, for a season, a tournament, a player and the whole
club; names as the publication rules say; who may; formulas neutralised; chunks of a fixed
number of queries."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import Role, User
from accounts.services import member_join_club
from club.kernel.clubs import Club
from club.kernel.tenancy import club_scope
from games.models import Game
from games.models import Role as GameRole
from games.ratings import tasks
from games.ratings.models import PlayerScore, ScoringPreset
from games.ratings.seasons import QUARTER, season_of
from history.exports import reading
from history.exports.reading import exported_games
from history.exports.scopes import club_scope as club_export_scope
from history.formats.columns import COLUMNS
from history.formats.reading import read_history
from history.formats.records import Source
from history.formats.spreadsheet import read_csv
from history.imports import rebuild, services
from tests.factories import PASSWORD, make_member, set_consent
from tests.games.ratings.scored import BONUS, COMMISSAR, played
from tests.games.recording import TOWN_WINS, Table, record, start_game
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def client_of(member: User) -> Client:
    client = Client()
    assert client.login(username=member.nickname, password=PASSWORD)
    return client


def body(response: Any) -> str:
    return b"".join(response.streaming_content).decode()


def season_key(game: Any) -> str:
    return season_of(timezone.localdate(game.evening.starts_at, Club.current().zone), QUARTER).key


@pytest.fixture
def organiser() -> User:
    return make_member(role=Role.ORGANISER, nickname="Организатор")


@pytest.fixture
def game(table: Table) -> Any:
    game, _players = played(table, BONUS)
    tasks.game_analyse(game.pk)
    return game


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))


def test_the_seasons_spreadsheet_has_the_import_columns_a_row_per_seat_and_the_results(
    game: Any, organiser: User
) -> None:
    response = client_of(organiser).get(
        reverse("history_export_season", args=[season_key(game)]), HTTP_ACCEPT_LANGUAGE="ru"
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    text = body(response)
    header = next(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert header == [column.names[1] for column in COLUMNS]  # Russian headers
    lines = rows(text)
    assert len(lines) == 12
    by_seat = {int(line["место"]): line for line in lines}
    assert by_seat[1]["роль"] == "boss" and by_seat[1]["выбыл"] == "voted"
    assert by_seat[1]["когда"] == "D4"
    assert by_seat[6]["выбыл"] == "killed" and by_seat[6]["когда"] == "N1"
    assert by_seat[6]["лх"] == "1 2 9"  # the best move on the row of who named it
    assert all(line["победа"] == "red" for line in lines)
    assert by_seat[COMMISSAR]["доп"] == "0.3"
    assert by_seat[2]["ник"] == "Лиса"  # the organiser sees every name


def test_english_headers_for_an_english_reader(game: Any, organiser: User) -> None:
    client = client_of(organiser)
    client.cookies["django_language"] = "en"
    text = body(client.get(reverse("history_export_season", args=[season_key(game)])))
    header = next(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert header == [column.names[0] for column in COLUMNS]


def test_a_hidden_member_is_player_n_in_a_published_export_and_to_another_player(
    game: Any, organiser: User
) -> None:
    lisa = game.seats.get(number=2).member
    set_consent(lisa, consent=False)
    published = body(
        client_of(organiser).get(
            reverse("history_export_season", args=[season_key(game)]) + "?published=1&as=protocol",
            HTTP_ACCEPT_LANGUAGE="ru",
        )
    )
    assert "Лиса" not in published
    document = json.loads(published)
    (exported,) = document["games"]
    assert exported["protocol"]["seats"][1]["nick"] == "Игрок 2"
    assert exported["results"]["seats"][1]["nick"] == "Игрок 2"
    # The bonus's reason named her in words: screened too.
    assert "Лиса" not in json.dumps(exported["protocol"]["events"], ensure_ascii=False)
    # Another player's own export names her as the pages do: «Игрок 2».
    other = game.seats.get(number=5).member
    own = body(
        client_of(other).get(
            reverse("history_export_player", args=[other.pk]), HTTP_ACCEPT_LANGUAGE="ru"
        )
    )
    assert "Лиса" not in own and "Игрок 2" in own
    # Her own export names her.
    hers = body(client_of(lisa).get(reverse("history_export_player", args=[lisa.pk])))
    assert "Лиса" in hers


def test_a_guest_is_never_named_in_a_published_export(game: Any, organiser: User) -> None:
    from club.models import Guest

    seat = game.seats.get(number=11)
    guest = Guest.objects.create(name="ГостьИван")
    seat.member, seat.guest = None, guest
    seat.save()
    url = reverse("history_export_club")
    published = body(client_of(organiser).get(url + "?published=1"))
    assert "ГостьИван" not in published
    assert "ГостьИван" in body(client_of(organiser).get(url))  # the staff's own copy


def test_the_protocol_export_holds_the_game_protocol_and_the_results(
    game: Any, organiser: User
) -> None:
    response = client_of(organiser).get(reverse("history_export_club") + "?as=protocol")
    document = json.loads(body(response))
    assert document["format"] == "mafia-club-history/1"
    assert document["club"]["slug"] == Club.current().slug
    (exported,) = document["games"]
    assert exported["winner"] == "red" and exported["table"] == 1 and exported["number"] == 1
    assert exported["protocol"]["format"] == "mafia-protocol/1"
    assert [s["role"] for s in exported["protocol"]["seats"]][:4] == [
        "boss", "mafia", "mafia", "commissar",
    ]  # fmt: skip
    seat4 = exported["results"]["seats"][3]
    assert seat4["extra"] == 0.3 and seat4["score"] is not None and seat4["score"] > 0
    assert exported["results"]["best_move"] == [1, 2, 9]
    assert exported["results"]["best_move_by"] == 6


def test_the_exchange_json_has_roles_deaths_nominations_shots_checks_and_the_legacy(
    game: Any, organiser: User
) -> None:
    evening = game.evening
    response = client_of(organiser).get(
        reverse("history_export_season", args=[season_key(game)]) + "?as=exchange"
    )
    assert response.status_code == 200, evening
    (exported,) = json.loads(body(response))
    players = exported["players"]
    assert exported["winner"] == "civ"
    assert [p["role"] for p in players[:4]] == ["don", "maf", "maf", "sheriff"]
    assert players[5]["death"] == {"round": 1, "type": "night"}  # shot on night 1
    assert players[1]["death"] == {"round": 1, "type": "day"}  # voted out on day 2
    assert players[5]["legacy"] == [1, 2, 9]
    assert players[3]["nominating"] == [None, 2, 3, 1]  # the commissar nominated each day
    assert players[0]["shooting"][0] == 6  # the black shot seat 6 on night 1
    assert players[3]["don"] == 1  # the boss checked the commissar on night 1
    assert players[1]["sheriff"] == 1  # the commissar checked seat 2 on night 1


def test_a_game_begun_after_midnight_keeps_its_evenings_date_through_the_exchange_json(
    game: Any, organiser: User
) -> None:
    """The exchange format dates a game by its start; this platform's export adds the
    evening's date and writes the start in the club's zone, which the reader takes."""
    zone = Club.current().zone
    evening_day = timezone.localdate(game.evening.starts_at, zone)
    after_midnight = game.evening.starts_at.astimezone(zone).replace(hour=0, minute=40)
    after_midnight += timedelta(days=1)
    Game.objects.filter(pk=game.pk).update(
        started_at=after_midnight, ended_at=after_midnight + timedelta(minutes=50)
    )
    response = client_of(organiser).get(
        reverse("history_export_season", args=[season_key(game)]) + "?as=exchange"
    )
    text = body(response)
    (exported,) = json.loads(text)
    assert exported["date"] == evening_day.isoformat()
    assert exported["timezone"] == str(zone)
    assert exported["startTime"].startswith(after_midnight.date().isoformat() + "T00:40")
    roles = {role.code: role.name for role in GameRole.objects.all()}
    (read,) = read_history(text.encode(), filename="x.json", roles=roles).games
    assert read.played_on == evening_day


def test_a_tournaments_games_are_its_evenings(game: Any, organiser: User) -> None:
    tournament = Tournament.objects.create(
        name="Кубок",
        evening=game.evening,
        ends_on=game.evening.starts_at.date(),
        preset=ScoringPreset.objects.get(code="club"),
        tables=1,
        rounds=1,
    )
    url = reverse("history_export_tournament", args=[tournament.pk])
    assert len(rows(body(client_of(organiser).get(url)))) == 12
    assert (
        client_of(organiser).get(reverse("history_export_tournament", args=[999999])).status_code
        == 404
    )


def test_who_may_export(game: Any, organiser: User) -> None:
    member = game.seats.get(number=5).member
    client = client_of(member)
    assert client.get(reverse("history_export_club")).status_code == 403
    assert client.get(reverse("history_export_season", args=["2026"])).status_code == 403
    other = game.seats.get(number=7).member
    assert client.get(reverse("history_export_player", args=[other.pk])).status_code == 403
    assert client.get(reverse("history_export_player", args=[member.pk])).status_code == 200
    assert (
        client_of(organiser).get(reverse("history_export_player", args=[member.pk])).status_code
        == 200
    )
    bad = client_of(organiser).get(reverse("history_export_club") + "?as=xlsx")
    assert bad.status_code == 422
    assert Client().get(reverse("history_export_club")).status_code == 302  # to the login


def test_another_clubs_organiser_gets_nothing(game: Any) -> None:
    north = Club.objects.create(slug="north", name="Северный клуб", venue="Маяк")
    with club_scope(north):
        theirs = make_member(role=Role.ORGANISER, nickname="Чужой")
        client = client_of(theirs)
        response = client.get("/c/north/history/export/?as=protocol")
        assert response.status_code == 200
        assert json.loads(body(response))["games"] == []
        # This club's season, tournament and player, asked at the other club's address.
        assert "Лиса" not in body(
            client.get(f"/c/north/history/export/seasons/{season_key(game)}/")
        )
        player = game.seats.get(number=2).member_id
        assert client.get(f"/c/north/history/export/players/{player}/").status_code == 404
    # And at this club's address the other club's organiser has no power.
    assert client.get(reverse("history_export_club")).status_code == 403


def test_the_api_door_takes_a_token(game: Any, organiser: User) -> None:
    from accounts.services import api_token_create

    key = api_token_create(member=organiser, name="export").key
    response = Client().get(
        "/api/v1/history/export?as=exchange", HTTP_AUTHORIZATION=f"Bearer {key}"
    )
    assert response.status_code == 200
    assert json.loads(body(response))[0]["winner"] == "civ"
    member = game.seats.get(number=5).member
    theirs = api_token_create(member=member, name="mine").key
    refused = Client().get("/api/v1/history/export", HTTP_AUTHORIZATION=f"Bearer {theirs}")
    assert refused.status_code == 403
    assert refused.json()["code"] == "forbidden"
    bad = Client().get("/api/v1/history/export?as=xml", HTTP_AUTHORIZATION=f"Bearer {key}")
    assert bad.status_code == 422


def test_a_formula_in_a_nickname_is_text_in_the_spreadsheet(game: Any, organiser: User) -> None:
    member = game.seats.get(number=7).member
    member.nickname = "=HYPERLINK(1)"
    member.save()
    text = body(client_of(organiser).get(reverse("history_export_club")))
    assert '"\'=HYPERLINK(1)"' in text


def test_each_chunk_costs_a_fixed_number_of_queries_whatever_its_games(
    table: Table, organiser: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, evening, players = table
    for _ in range(6):
        game = start_game(host, evening, players)
        record(game, host, *TOWN_WINS)
    scope = club_export_scope(organiser)

    def queries(chunk: int) -> int:
        monkeypatch.setattr(reading, "CHUNK", chunk)
        viewer = User.objects.get(pk=organiser.pk)  # no memberships read yet
        with CaptureQueriesContext(connection) as captured:
            assert len(list(exported_games(scope.games, viewer))) == 6
        return len(captured)

    one, two, three = queries(6), queries(3), queries(2)  # 1, 2 and 3 chunks of 6 games
    per_chunk = two - one
    assert three - two == per_chunk  # the cost grows with the chunks, not the games
    assert per_chunk <= 6


def role_catalogue() -> dict[str, str]:
    return dict(GameRole.objects.values_list("code", "name_ru"))


def test_round_trip_the_seasons_spreadsheet_reads_back_as_the_same_games(
    game: Any, organiser: User
) -> None:
    url = reverse("history_export_season", args=[season_key(game)])
    data = body(client_of(organiser).get(url, HTTP_ACCEPT_LANGUAGE="ru")).encode()
    read = read_csv(data, roles=role_catalogue())
    assert read.problems == []
    (record,) = read.games
    assert record.played_on == timezone.localdate(game.evening.starts_at, Club.current().zone)
    assert (record.table, record.number, record.winner) == (1, 1, "red")
    seats = list(game.seats.select_related("member").order_by("number"))
    assert [(s.seat, s.nickname, s.role) for s in record.seats] == [
        (s.number, s.member.nickname, s.role) for s in seats
    ]
    assert record.best_move == (1, 2, 9) and record.best_move_by == 6
    by_seat = {s.seat: s for s in record.seats}
    assert by_seat[COMMISSAR].extra == 0.3
    assert by_seat[6].left == "killed" and by_seat[6].left_when == "N1"


def test_round_trip_through_the_import_keeps_the_scores(game: Any, organiser: User) -> None:
    """Exported from one club, imported into another: the same seats, roles, winner and
    the same points wherever the results hold the fact (a results-only game scores no
    line only a log shows: games/rules/results.py)."""
    data = body(client_of(organiser).get(reverse("history_export_club"))).encode()
    # Our points from the lines the results hold (the rest only a log shows).
    held = {"win", "loner_win", "winner_survives", "black_win_alive", "removal"}
    held |= {"disqualification", "bonus", "best_move_1", "best_move_2", "best_move_3"}
    ours = {
        score.seat: round(sum(ln["points"] for ln in score.lines if ln["code"] in held), 6)
        for score in PlayerScore.objects.filter(game=game)
    }
    north = Club.objects.create(slug="north", name="Северный клуб", venue="Маяк")
    # The game's evening starts within the hour: the import takes only played games.
    with club_scope(north), time_machine.travel(timezone.now() + timedelta(days=1)):
        theirs = make_member(role=Role.ORGANISER, nickname="Их организатор")
        for seat in game.seats.all():  # the players join the other club: matched by name
            member_join_club(member=seat.member, club=north)
        read = read_csv(data, roles=role_catalogue())
        found = services.import_upload(
            author=theirs, filename="ours.csv", data=data, read=read, source=Source.SPREADSHEET
        )
        services.import_confirm(history_import_id=found.pk, actor=theirs, choices={})
        rebuild.history_rebuild(history_import_id=found.pk)
        imported = Game.objects.get()
        assert imported.results_only and imported.winner == "red"
        assert list(imported.seats.order_by("number").values_list("role", flat=True)) == list(
            game.seats.order_by("number").values_list("role", flat=True)
        )
        scored = {s.seat: s.points for s in PlayerScore.objects.filter(game=imported)}
        # Then exported again from there: the same results.
        again = body(client_of(theirs).get("/c/north/history/export/?as=protocol"))
    assert scored, "the imported game is scored"
    assert {seat: round(points, 6) for seat, points in scored.items()} == ours
    (back,) = json.loads(again)["games"]
    assert back["protocol"] is None  # a results-only game has no event log to export
    assert back["results"]["best_move"] == [1, 2, 9]
    assert [s["left"] for s in back["results"]["seats"]][5] == "killed"


@pytest.mark.parametrize("form", ["csv", "protocol", "exchange"])
def test_each_format_reads_back_through_read_history(game: Any, organiser: User, form: str) -> None:
    """Every file the export writes is one the import reads (history.formats.reading):
    the same seats, nicknames, roles and winner."""
    url = reverse("history_export_club") + f"?as={form}"
    data = body(client_of(organiser).get(url, HTTP_ACCEPT_LANGUAGE="ru")).encode()
    read = read_history(data, filename=f"club.{'csv' if form == 'csv' else 'json'}",
                        roles=role_catalogue())  # fmt: skip
    assert read.problems == []
    (record,) = read.games
    seats = list(game.seats.select_related("member").order_by("number"))
    # The exchange format knows the classic four roles: a doctor travels as a civilian.
    classic = {"doctor": "civilian"} if form == "exchange" else {}
    assert [(s.seat, s.nickname, s.role) for s in record.seats] == [
        (s.number, s.member.nickname, classic.get(s.role, s.role)) for s in seats
    ]
    assert record.winner == "red"
    assert record.best_move == (1, 2, 9)
    if form == "protocol":
        assert record.protocol is not None  # the event log travels with it
