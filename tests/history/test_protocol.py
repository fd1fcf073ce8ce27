"""This platform's protocol export read back: each game replayed through the rules engine,
its results taken from the replay; a document the engine refuses is a problem with its index
and the engine's reason."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from django.utils import translation

from history.formats.protocol import read_protocol
from history.formats.records import Left, Read, Source
from tests.history.sheets import ROLES


def document(*, mafia: int = 1) -> dict[str, Any]:
    """Twelve at the table, one mafia, removed for three fouls on day 1: red wins."""
    return {
        "format": "mafia-protocol/1",
        "ruleset": "club",
        "options": {},
        "seats": [
            {"seat": s, "nick": f"Игрок {s}", "role": "mafia" if s == mafia else "civilian"}
            for s in range(1, 13)
        ],
        "immune": [],
        "events": [
            {"type": "day", "n": 1, "at": "2026-12-07T18:05:00+03:00"},
            {"type": "foul", "seat": mafia},
            {"type": "foul", "seat": mafia},
            {"type": "foul", "seat": mafia},
            {"type": "foul", "seat": 3},
            {"type": "bonus", "seat": 3, "points": 0.3, "reason": "лидер"},
        ],
    }


def export(*games: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": "mafia-club-history/1",
        "club": {"slug": "x", "name": "X"},
        "games": list(games),
    }


def entry(doc: dict[str, Any] | None, **extra: Any) -> dict[str, Any]:
    return {
        "date": "2026-12-07",
        "table": 2,
        "number": 3,
        "winner": "red",
        "protocol": doc,
        **extra,
    }


def read(data: object) -> Read:
    with translation.override("ru"):
        return read_protocol(json.dumps(data).encode(), roles=ROLES)


def test_a_game_replays_and_its_results_come_from_the_engine() -> None:
    result = read(export(entry(document())))
    assert result.problems == []
    (game,) = result.games
    assert game.source is Source.PROTOCOL
    assert (game.played_on, game.table, game.number, game.winner) == (
        date(2026, 12, 7),
        2,
        3,
        "red",
    )
    assert (game.seats[0].left, game.seats[0].left_when, game.seats[0].fouls) == (
        Left.FOULS,
        "D1",
        3,
    )
    assert (game.seats[2].fouls, game.seats[2].extra, game.seats[2].extra_reason) == (
        1,
        0.3,
        "лидер",
    )
    assert game.protocol == document()


def test_a_document_the_engine_refuses_is_a_problem_with_its_index_and_reason() -> None:
    bad = document()
    bad["events"].insert(1, {"type": "nominate", "by": 2, "target": 99})
    result = read(export(entry(document()), entry(bad, number=4)))
    assert [g.number for g in result.games] == [3]
    (problem,) = result.problems
    assert problem.line == 2 and problem.message.startswith("Игра 2: Событие 1: ")


def test_an_unfinished_protocol_is_refused() -> None:
    doc = document()
    doc["events"] = doc["events"][:2]
    (problem,) = read(export(entry(doc))).problems
    assert "до конца игры" in problem.message


def test_a_bare_document_and_a_list_of_them() -> None:
    (game,) = read(document()).games
    assert (game.played_on, game.table, game.number) == (date(2026, 12, 7), 1, 1)
    games = read([document(), document(mafia=2)]).games
    assert [g.number for g in games] == [1, 2]
    assert games[0].key != games[1].key


def test_a_results_only_game_is_read_from_its_results() -> None:
    seats = [
        {
            "seat": s,
            "nick": f"Игрок {s}",
            "role": "mafia" if s < 3 else "civilian",
            "fouls": 0,
            "left": "killed" if s == 5 else None,
            "when": "N1" if s == 5 else "",
            "extra": 0,
            "reason": "",
        }
        for s in range(1, 11)
    ]
    results = {"best_move": [1, 2], "best_move_by": 5, "seats": seats}
    (game,) = read(export(entry(None, results=results, winner="black"))).games
    assert game.protocol is None and game.winner == "black"
    assert (game.seats[4].left, game.seats[4].left_when) == (Left.KILLED, "N1")
    assert (game.best_move, game.best_move_by) == ((1, 2), 5)


def test_a_role_the_club_lacks_is_refused() -> None:
    roles = {k: v for k, v in ROLES.items() if k != "mafia"}
    with translation.override("ru"):
        result = read_protocol(json.dumps(export(entry(document()))).encode(), roles=roles)
    assert result.games == [] and "нет роли «mafia»" in result.problems[0].message
