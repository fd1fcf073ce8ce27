"""Each scoring line on hand-worked games (docs/scoring.md)."""

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from games.rules.club import ClubGame
from games.rules.errors import ProtocolError
from games.rules.scoring import Line, Scheme, score, total
from games.rules.simulate import SAMPLE_LINEUP, SAMPLE_TOWN_WINS

TABLE = dict(enumerate(SAMPLE_LINEUP, start=1))
RED_WINS = SAMPLE_TOWN_WINS


DEFAULTS = Scheme()


def lines_of(
    events: Sequence[Mapping[str, Any]], scheme: Scheme = DEFAULTS
) -> dict[int, list[Line]]:
    return score(ClubGame(TABLE), events, scheme)


def codes(lines: list[Line]) -> list[str]:
    return sorted(line.code for line in lines)


def test_a_town_win_worked_by_hand() -> None:
    lines = lines_of(RED_WINS)
    # The commissar: a black check (+0.3), three nominations of black (+0.6), the win (+1)
    # and alive at the end (+0.1).
    assert codes(lines[4]) == [
        "check_found_black",
        "red_nominates_black",
        "red_nominates_black",
        "red_nominates_black",
        "win",
        "winner_survives",
    ]
    assert total(lines[4]) == 2.0
    assert total(lines[6]) == 1.0  # killed on night 1, still on the winning side
    assert total(lines[7]) == 1.1
    assert all(not lines[seat] for seat in (1, 2, 3))  # black lost


def test_a_doctor_save_and_blacks_kill_of_the_commissar() -> None:
    events = [
        {"type": "day", "n": 1},
        {"type": "night", "n": 1},
        {"type": "kill", "by": "mafia", "target": 7},
        {"type": "heal", "target": 7},
        {"type": "day", "n": 2},
        {"type": "night", "n": 2},
        {"type": "kill", "by": "mafia", "target": 4},
        {"type": "day", "n": 3},
    ]
    lines = lines_of(events)
    assert [line.code for line in lines[5]] == ["doctor_save"]
    for black in (1, 2, 3):
        assert [(line.code, line.detail) for line in lines[black]] == [
            ("black_kills_key_red", {"target": 4})
        ]


def test_three_fouls_cost_the_removal() -> None:
    events = [{"type": "day", "n": 1}] + [{"type": "foul", "seat": 9}] * 3
    assert [(line.code, line.points) for line in lines_of(events)[9]] == [("removal", -0.5)]


def test_a_scheme_changes_the_points_not_the_lines() -> None:
    scheme = Scheme.from_dict({"win": 2, "red_nominates_black": 0})
    lines = lines_of(RED_WINS, scheme)
    assert total(lines[6]) == 2.0
    assert total(lines[4]) == 2.4  # 0.3 + 0 + 2 + 0.1
    assert Scheme.from_dict(scheme.to_dict()) == scheme


@pytest.mark.parametrize("bad", [{"bonus": 1}, {"win": "1"}, {"win": True}, {"win": 50}])
def test_a_bad_scheme_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ProtocolError):
        Scheme.from_dict(bad)


def test_a_loner_who_wins_alone_scores_its_own_win() -> None:
    table = {1: "boss", 2: "maniac", 3: "commissar", 4: "doctor"} | {
        seat: "civilian" for seat in range(5, 13)
    }
    removed = [1, *range(3, 12)]  # fouled out, one after another, until two are left
    events = [{"type": "day", "n": 1}] + [
        {"type": "foul", "seat": seat} for seat in removed for _ in range(3)
    ]
    game = ClubGame(table)
    lines = score(game, events, DEFAULTS)
    assert game.winner == "maniac"
    assert [(line.code, line.points) for line in lines[2]] == [
        ("loner_win", 1.5),
        ("winner_survives", 0.1),
    ]
    assert lines[12] == []
    assert all([line.code for line in lines[seat]] == ["removal"] for seat in removed)
