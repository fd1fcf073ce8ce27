"""The protocol document and `manage.py replay_protocol`: output, forbidden events, bad input."""

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from games.rules import protocol

ROOT = Path(__file__).resolve().parents[3]
ROLES = [
    "boss",
    "mafia",
    "swindler",
    "commissar",
    "doctor",
    "civilian",
    "civilian",
    "civilian",
    "civilian",
    "civilian",
    "maniac",
    "kamikaze",
]


def document(*events: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {
        "format": "mafia-protocol/1",
        "ruleset": "club",
        "options": {},
        "seats": [
            {"seat": n, "nick": f"Игрок {n}", "role": role} for n, role in enumerate(ROLES, 1)
        ],
        "immune": [],
        "events": list(events),
        **fields,
    }


A_GAME: list[dict[str, Any]] = [
    {"type": "day", "n": 1, "at": "2026-12-06T18:05:00+03:00"},
    {"type": "nominate", "by": 6, "target": 4},
    {"type": "nominate", "by": 7, "target": 2},
    {
        "type": "votes",
        "voters": {"1": 4, "2": 4, "3": 4, "5": 4, "6": 4, "7": 2, "8": 2, "9": 2, "10": 2},
    },
    {"type": "first_day_expel", "for": 8},
    {"type": "hands", "counts": {"4": 4, "2": 6}},
    {"type": "last_word", "seat": 2},
    {"type": "night", "n": 1},
    {"type": "check", "by": 1, "target": 4},
    {"type": "kill", "by": "mafia", "target": 4},
    {"type": "kill", "by": "swindler", "target": 9},
    {"type": "check", "by": 4, "target": 3},
    {"type": "heal", "target": 5},
    {"type": "day", "n": 2},
    {"type": "foul", "seat": 3, "reason": "interrupting"},
    {"type": "foul", "seat": 3},
]


def replay(doc: Any, *, raw: str | None = None, lang: str = "ru") -> tuple[int, dict[str, Any]]:
    """Run the command on a document given on standard input; return its exit code and output."""
    data = (raw if raw is not None else json.dumps(doc)).encode()
    out = io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data))
    try:
        call_command("replay_protocol", "-", lang=lang, stdout=out)
        code = 0
    except SystemExit as exit_:
        assert isinstance(exit_.code, int), exit_.code
        code = exit_.code
    finally:
        sys.stdin = stdin
    return code, json.loads(out.getvalue())


def test_the_command_runs_as_a_process_without_a_traceback() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "replay_protocol", "-"],
        input="{broken",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert json.loads(result.stdout)["error"].startswith("Это не JSON")
    result = subprocess.run(
        [sys.executable, "manage.py", "replay_protocol", "-"],
        input=json.dumps(document(*A_GAME)),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0 and json.loads(result.stdout)["fouls"] == {"3": 2}


def test_replay_prints_the_outcome_exactly() -> None:
    code, output = replay(document(*A_GAME))
    assert code == 0
    assert output == {
        "finished": False,
        "winner": None,
        "eliminated": [
            {
                "seat": 2,
                "phase": "day",
                "n": 1,
                "reason": "voted",
                "revealed": True,
                "last_word": True,
            },
            {
                "seat": 4,
                "phase": "night",
                "n": 1,
                "reason": "killed",
                "revealed": True,
                "last_word": True,
            },
            {
                "seat": 9,
                "phase": "night",
                "n": 1,
                "reason": "swindler",
                "revealed": False,
                "last_word": False,
            },
        ],
        "alive": [1, 3, 5, 6, 7, 8, 10, 11, 12],
        "first_eliminated": [2],
        "fouls": {"3": 2},
        "checks": [
            {"by": 1, "target": 4, "result": "commissar"},
            {"by": 4, "target": 3, "result": "black"},
        ],
        "best_move": None,
        "bonuses": [],
    }


def test_a_forbidden_event_stops_the_replay_with_its_index() -> None:
    events = [*A_GAME, {"type": "nominate", "by": 4, "target": 6}]  # seat 4 was killed
    code, output = replay(document(*events))
    assert code == 2
    assert output == {"error": "Место 4 (выставляющий) уже выбыло.", "event": len(A_GAME)}
    code, output = replay(document(*events), lang="en")
    assert output["error"] == "Seat 4 (nominator) has already left the table."


@pytest.mark.parametrize(
    ("events", "index"),
    [
        ([{"type": "night", "n": 1}], 0),  # the game opens with day 1
        ([{"type": "day", "n": 1}, {"type": "nominate", "by": 1, "target": 99}], 1),
        (
            [
                {"type": "day", "n": 1},
                {"type": "nominate", "by": 1, "target": 2},
                {"type": "votes", "counts": {"2": 13}},
            ],
            2,
        ),  # more votes than the living
        (
            [
                {"type": "day", "n": 1},
                {"type": "night", "n": 1},
                {"type": "check", "by": 4, "target": 1},
                {"type": "check", "by": 4, "target": 2},
            ],
            3,
        ),
    ],
)
def test_forbidden_events_exit_2(events: list[dict[str, Any]], index: int) -> None:
    code, output = replay(document(*events))
    assert code == 2 and output["event"] == index and output["error"]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("{not json", "Это не JSON"),
        ("[]", "Протокол должен быть JSON-объектом."),
        (json.dumps(document(format="mafia-protocol/2")), "Неизвестный формат"),
        (json.dumps(document(ruleset="poker")), "Неизвестные правила"),
        (json.dumps(document(options={"speed": 2})), "Неизвестный параметр правил: speed."),
        (json.dumps(document(options={"candidate_places": "loud"})), "одно из значений"),
        (
            json.dumps(document(seats=[{"seat": 1, "role": "mafia"}])),
            "Игроков за столом: 1, а нужно от 12 до 15.",
        ),
        (
            json.dumps(document(seats=[*document()["seats"][:11], {"seat": 12, "role": "wizard"}])),
            "Неизвестная роль «wizard»",
        ),
        (json.dumps(document(immune=[42])), "«immune» называет место не за столом."),
        (json.dumps(document(events={"a": 1})), "«events» — список событий."),
    ],
)
def test_malformed_documents_get_a_clear_error(raw: str, message: str) -> None:
    code, output = replay(None, raw=raw)
    assert code == 2 and message in output["error"] and "event" not in output


def test_a_malformed_event_names_its_index() -> None:
    code, output = replay(
        document({"type": "day", "n": 1}, {"type": "nominate", "by": "six", "target": 2})
    )
    assert (code, output["event"]) == (2, 1)


def test_a_club_defines_its_own_role_in_the_options() -> None:
    seats = document()["seats"]
    seats[5] = {"seat": 6, "nick": "Шериф", "role": "sheriff"}
    options = {"roles": {"sheriff": {"team": "red", "night_order": 55, "action": "check"}}}
    events = [
        {"type": "day", "n": 1},
        {"type": "night", "n": 1},
        {"type": "check", "by": 6, "target": 1},
    ]
    code, output = replay(document(*events, seats=seats, options=options))
    assert code == 0 and output["checks"] == [{"by": 6, "target": 1, "result": "black"}]


def test_the_command_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document(*A_GAME)), encoding="utf-8")
    out = io.StringIO()
    call_command("replay_protocol", str(path), stdout=out)
    assert json.loads(out.getvalue())["fouls"] == {"3": 2}
    with pytest.raises(SystemExit) as exit_:
        call_command("replay_protocol", str(tmp_path / "missing.json"), stdout=io.StringIO())
    assert exit_.value.code == 2


def test_export_writes_options_and_roles_and_replays_the_same() -> None:
    parsed = protocol.parse(document(*A_GAME))
    exported = protocol.export(seats=parsed.seats, events=parsed.events, options=parsed.options)
    assert exported["options"]["roles"]["boss"] == {
        "team": "black",
        "night_order": 10,
        "action": "check",
        "check": "commissar",
        "shoots_as": "mafia",
    }
    again = protocol.loads(json.dumps(exported, ensure_ascii=False))
    assert protocol.replay(again)[0].summary() == protocol.replay(parsed)[0].summary()


A_GAME_WITH_EXTRAS: list[dict[str, Any]] = [
    *A_GAME,
    # Seat 4, shot on night 1, names three seats in the last word; the host gives points.
    {"type": "best_move", "by": 4, "targets": [1, 2, 11], "note": "в последнем слове"},
    {"type": "bonus", "seat": 4, "points": 0.3, "reason": "  точный лучший ход  "},
    {"type": "bonus", "seat": 3, "points": -0.5, "reason": "спор с ведущим"},
]


def test_replay_prints_the_best_move_and_the_extra_points() -> None:
    code, output = replay(document(*A_GAME_WITH_EXTRAS))
    assert code == 0
    assert output["best_move"] == {"by": 4, "targets": [1, 2, 11]}
    assert output["bonuses"] == [
        {"seat": 4, "points": 0.3, "reason": "точный лучший ход"},
        {"seat": 3, "points": -0.5, "reason": "спор с ведущим"},
    ]
    assert output["alive"] == [1, 3, 5, 6, 7, 8, 10, 11, 12]  # nothing else changed


def test_a_refused_best_move_or_bonus_stops_the_replay_with_its_index() -> None:
    for extra, message in (
        ({"type": "best_move", "by": 6, "targets": [1]}, "не называет лучший ход"),
        ({"type": "best_move", "by": 4, "targets": [1, 2, 3, 5]}, "не больше трёх"),
        ({"type": "bonus", "seat": 4, "points": 0.3, "reason": " "}, "нужна причина"),
    ):
        code, output = replay(document(*A_GAME, extra))
        assert (code, output["event"]) == (2, len(A_GAME)) and message in output["error"]


def test_best_move_and_bonus_survive_export_and_import() -> None:
    parsed = protocol.parse(document(*A_GAME_WITH_EXTRAS))
    state, failure = protocol.replay(parsed)
    assert failure is None
    exported = protocol.export(
        seats=parsed.seats, events=protocol.normalized_events(parsed), options=parsed.options
    )
    assert exported["options"]["best_move_victims"] == "night_one"
    assert exported["events"][-2] == {
        "type": "bonus",
        "seat": 4,
        "points": 0.3,
        "reason": "точный лучший ход",
    }
    again = protocol.loads(json.dumps(exported, ensure_ascii=False))
    replayed, failure = protocol.replay(again)
    assert failure is None and replayed.summary() == state.summary()
    assert replayed.summary()["best_move"] == {"by": 4, "targets": [1, 2, 11]}
