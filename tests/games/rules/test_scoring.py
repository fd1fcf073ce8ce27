"""Each scoring line on hand-worked games (docs/scoring.md)."""

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from games.rules.club import ClubGame
from games.rules.errors import ProtocolError
from games.rules.scoring import Line, Scheme, score, total
from games.rules.simulate import SAMPLE_LINEUP, SAMPLE_OPENING, SAMPLE_TOWN_WINS

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


def test_a_black_seat_checked_again_scores_once() -> None:
    """The commissar checking the same black seat on a second night learns nothing new: a
    line for the first find only (the walk of #28 saw it scored twice, a line to farm)."""
    events = [
        {"type": "day", "n": 1},
        {"type": "night", "n": 1},
        {"type": "kill", "by": "mafia", "target": 7},
        {"type": "check", "by": 4, "target": 2},
        {"type": "day", "n": 2},
        {"type": "night", "n": 2},
        {"type": "kill", "by": "mafia", "target": 8},
        {"type": "check", "by": 4, "target": 2},
        {"type": "day", "n": 3},
        {"type": "night", "n": 3},
        {"type": "kill", "by": "mafia", "target": 9},
        {"type": "check", "by": 4, "target": 3},
        {"type": "day", "n": 4},
    ]
    found = [line.detail for line in lines_of(events)[4] if line.code == "check_found_black"]
    assert found == [{"target": 2}, {"target": 3}]


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


# --- the best move (ЛХ) and the host's extra points ---------------------------------------

# Seats 1–3 black (boss, mafia, mafia), 11 the maniac, 12 the нагнетатель; seat 6 is shot
# on night 1 (SAMPLE_OPENING) and names the best move in the morning.
LONERS_TABLE = {**TABLE, 11: "maniac", 12: "instigator"}
LONERS_BLACK = Scheme.from_dict({"best_move_loners_black": True})


def best_move_lines(targets: Sequence[int], scheme: Scheme = DEFAULTS) -> list[tuple[str, float]]:
    events = [*SAMPLE_OPENING, {"type": "best_move", "by": 6, "targets": list(targets)}]
    lines = score(ClubGame(LONERS_TABLE), events, scheme)
    assert all(not line.code.startswith("best_move") for s in lines if s != 6 for line in lines[s])
    return [(line.code, line.points) for line in lines[6] if line.code.startswith("best_move")]


@pytest.mark.parametrize(
    ("targets", "without_loners", "with_loners"),
    [
        ((7, 8, 9), [], []),  # 0 of 3
        ((1, 8, 9), [], []),  # 1 of 3: best_move_1 is 0 by default, so no line
        ((1, 2, 8), [("best_move_2", 0.25)], [("best_move_2", 0.25)]),  # 2 of 3
        ((1, 2, 3), [("best_move_3", 0.4)], [("best_move_3", 0.4)]),  # 3 of 3
        ((1, 11, 12), [], [("best_move_3", 0.4)]),  # 1 black and both loners
        ((1, 2, 11), [("best_move_2", 0.25)], [("best_move_3", 0.4)]),
        ((11, 8, 9), [], []),  # a loner alone: 0 or 1 of 3
        ((1, 2), [("best_move_2", 0.25)], [("best_move_2", 0.25)]),  # two named, both black
        ((), [], []),  # «без ЛХ»
    ],
)
def test_the_best_move_scores_by_how_many_named_are_black(
    targets: tuple[int, ...],
    without_loners: list[tuple[str, float]],
    with_loners: list[tuple[str, float]],
) -> None:
    assert best_move_lines(targets) == without_loners
    assert best_move_lines(targets, LONERS_BLACK) == with_loners


def test_one_of_three_scores_when_the_scheme_gives_it_points() -> None:
    scheme = Scheme.from_dict({"best_move_1": 0.1, "best_move_3": 0.5})
    assert best_move_lines((1, 8, 9), scheme) == [("best_move_1", 0.1)]
    assert best_move_lines((1, 2, 3), scheme) == [("best_move_3", 0.5)]
    events = [*SAMPLE_OPENING, {"type": "best_move", "by": 6, "targets": [1, 2, 3]}]
    (line,) = [line for line in score(ClubGame(TABLE), events, DEFAULTS)[6]]
    assert line.detail == {"targets": [1, 2, 3], "black": 3}


def test_extra_points_are_a_line_each_with_the_hosts_reason() -> None:
    events = [
        *RED_WINS,
        {"type": "bonus", "seat": 4, "points": 0.3, "reason": "вёл город"},
        {"type": "bonus", "seat": 4, "points": -0.2, "reason": "перебивал"},
        {"type": "bonus", "seat": 2, "points": 0.5, "reason": "сильная защита"},
    ]
    lines = lines_of(events)
    assert [(line.points, line.detail) for line in lines[4] if line.code == "bonus"] == [
        (0.3, {"reason": "вёл город"}),
        (-0.2, {"reason": "перебивал"}),
    ]
    assert total(lines[4]) == 2.1  # 2.0 by the game's own lines, +0.3 −0.2
    assert [(line.code, line.points) for line in lines[2]] == [("bonus", 0.5)]


def test_a_narrower_scheme_holds_old_extra_points_to_its_bounds() -> None:
    events = [*RED_WINS, {"type": "bonus", "seat": 2, "points": 0.9, "reason": "лидер"}]
    scheme = Scheme.from_dict({"bonus_max": 0.5})
    (line,) = lines_of(events, scheme)[2]
    assert (line.points, line.detail) == (0.5, {"reason": "лидер", "given": 0.9})
    assert scheme.bonus_allowed(0.5) and not scheme.bonus_allowed(0.51)
    assert DEFAULTS.bonus_allowed(-1) and not DEFAULTS.bonus_allowed(-1.01)


@pytest.mark.parametrize(
    "bad",
    [
        {"best_move_loners_black": 1},
        {"best_move_loners_black": "yes"},
        {"best_move_2": True},
        {"bonus_min": 0.5},
        {"bonus_max": -0.1},
        {"bonus_max": 11},
    ],
)
def test_the_best_move_flag_and_the_bounds_are_checked(bad: dict[str, object]) -> None:
    with pytest.raises(ProtocolError):
        Scheme.from_dict(bad)


def test_the_scheme_keeps_its_flag_and_bounds_through_its_dict() -> None:
    scheme = Scheme.from_dict({"best_move_loners_black": True, "bonus_min": 0, "bonus_max": 0.7})
    assert Scheme.from_dict(scheme.to_dict()) == scheme
    assert scheme.to_dict()["best_move_loners_black"] is True
