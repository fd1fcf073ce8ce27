"""The field's exchange JSON (hand-written after the fields mafiaratings documents): results
read per player, the rest left out, each bad game refused with its index and reason."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from django.utils import translation

from history.formats.exchange import read_exchange
from history.formats.records import Left, Read, Source
from tests.history.sheets import ROLES

# Ten players as the format numbers them: the index is the seat.
PLAYERS: list[dict[str, Any]] = [
    {"id": 11, "name": "Лиса", "role": "civ", "warnings": 1},
    {"id": 12, "name": "Ворон", "role": "maf", "death": {"type": "day", "round": 1}},
    {
        "name": "Сова",
        "role": "sheriff",
        "death": {"type": "night", "round": 1},
        "legacy": [2, 5, 8],
    },
    {
        "name": "Ёж",
        "role": "civ",
        "warnings": [{"round": 1, "time": "speaking"}] * 4,
        "death": {"type": "warnings", "time": {"round": 2, "time": "speaking"}},
    },
    {"name": "Кот", "role": "don", "bonus": [0.5, "bestPlayer"], "comment": "вёл стол"},
    {"name": "Пёс", "role": "civ"},
    {"name": "Бобр"},  # no role: civ, as the format says
    {"name": "Лось", "role": "maf"},
    {
        "name": "Заяц",
        "role": "civ",
        "death": {"type": "kickOut", "time": {"round": 2, "time": "night start"}},
    },
    {"name": "Волк", "role": "civ"},
]


def game(**changes: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "id": 1299,
        "startTime": "2026-12-07T19:30:00+03:00",
        "timezone": "Europe/Moscow",
        "winner": "civ",
        "players": [dict(p) for p in PLAYERS],
    }
    document.update(changes)
    return document


def read(document: object) -> Read:
    with translation.override("ru"):
        return read_exchange(json.dumps(document).encode(), roles=ROLES)


def test_a_game_is_read_with_its_results() -> None:
    result = read(game())
    assert result.problems == []
    (record,) = result.games
    assert record.source is Source.EXCHANGE and record.key == "1299" and record.protocol is None
    assert (record.played_on, record.table, record.number, record.winner) == (
        date(2026, 12, 7),
        1,
        1,
        "red",
    )
    seats = record.seats
    assert [s.role for s in seats[:5]] == ["civilian", "mafia", "commissar", "civilian", "boss"]
    assert seats[6].role == "civilian"
    assert (seats[1].left, seats[1].left_when) == (Left.VOTED, "D2")
    assert (seats[2].left, seats[2].left_when) == (Left.KILLED, "N1")
    assert (seats[3].fouls, seats[3].left, seats[3].left_when) == (4, Left.FOULS, "D3")
    assert (seats[8].left, seats[8].left_when) == (Left.DISQUALIFIED, "N2")
    assert (seats[4].extra, seats[4].extra_reason) == (0.5, "вёл стол")
    assert (record.best_move, record.best_move_by) == ((2, 5, 8), 3)


def test_a_list_and_the_games_envelope_are_read_and_numbered_by_start() -> None:
    later = game(id=2, startTime=1796665500)  # 20:45 in Moscow that evening, as a UNIX time
    for document in ([later, game()], {"games": [later, game()]}):
        result = read(document)
        assert [(g.key, g.number) for g in result.games] == [("2", 2), ("1299", 1)]


def test_without_an_id_the_key_is_a_digest_of_the_game() -> None:
    first = game()
    del first["id"]
    (a,) = read(first).games
    (b,) = read(json.loads(json.dumps(first))).games
    assert a.key == b.key and a.key.startswith("sha256:")


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"winner": "tie"}, "не победитель"),
        ({"startTime": "вчера"}, "времени начала"),
        ({"players": [dict(p) for p in PLAYERS[:9]]}, "9 игроков"),
        ({"players": [*PLAYERS, *PLAYERS[:6]]}, "16 игроков"),
    ],
)
def test_a_bad_game_is_refused_with_its_index_and_the_others_read(
    change: dict[str, Any], reason: str
) -> None:
    result = read([game(id=1), game(id=2, **change)])
    assert [g.key for g in result.games] == ["1"]
    (problem,) = result.problems
    assert (
        problem.line == 2 and problem.message.startswith("Игра 2: ") and reason in problem.message
    )


def test_a_role_the_club_lacks_refuses_the_game() -> None:
    roles = {code: name for code, name in ROLES.items() if code != "boss"}
    with translation.override("ru"):
        result = read_exchange(json.dumps(game()).encode(), roles=roles)
    assert result.games == []
    assert "Место 5: в клубе нет роли «don»." in result.problems[0].message


def test_fouls_past_four_and_a_best_move_off_the_table_are_refused() -> None:
    players = [dict(p) for p in PLAYERS]
    players[0]["warnings"] = 5
    assert "фолов 5" in read(game(players=players)).problems[0].message
    players = [dict(p) for p in PLAYERS]
    players[2]["legacy"] = [2, 11]
    assert "11" in read(game(players=players)).problems[0].message


def test_not_json_and_not_the_format_are_refused_clearly() -> None:
    with translation.override("ru"):
        assert read_exchange(b"{nope", roles=ROLES).problems[0].message.startswith("Это не JSON")
    assert read({"hello": 1}).problems[0].line == 0


def test_this_platforms_export_adds_table_number_and_club_role_codes() -> None:
    players = [dict(p) for p in PLAYERS] + [{"name": "Псих", "role": "maniac"}]
    players[9]["role"] = "doctor"  # a club code where the format has no word for the role
    document = game(table=2, number=5, winner="maniac", players=players)
    document["startTime"] = "2026-12-08T01:30:00+03:00"  # after midnight: the offset's date
    del document["timezone"]
    (record,) = read([document]).games
    assert (record.table, record.number, record.winner) == (2, 5, "maniac")
    assert (record.seats[9].role, record.seats[10].role) == ("doctor", "maniac")
    assert record.played_on == date(2026, 12, 8)
