"""The three presets on hand-worked games, line by line, and first-night compensation (Ci)
at its boundaries (docs/scoring.md)."""

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from games.rules.club import ClubGame
from games.rules.errors import ProtocolError
from games.rules.online import OnlineGame
from games.rules.presets import AUTO, CLUB, FIIM, PRESETS
from games.rules.scoring import (
    Extras,
    Line,
    Scheme,
    first_night_compensation,
    killed_first_night,
    score,
    score_online,
    total,
)
from games.rules.simulate import SAMPLE_LINEUP, SAMPLE_OPENING, SAMPLE_TOWN_WINS

# 1 boss, 2 and 3 mafia, 4 commissar, 5 doctor, 6–12 civilians.
TABLE = dict(enumerate(SAMPLE_LINEUP, start=1))
SCHEMES = {code: Scheme.from_dict(preset.points) for code, preset in PRESETS.items()}


def fouled_out(*seats: int) -> list[dict[str, Any]]:
    return [{"type": "foul", "seat": seat} for seat in seats for _ in range(3)]


def voters(pairs: Mapping[int, int]) -> dict[str, int]:
    return {str(voter): target for voter, target in pairs.items()}


# Black wins at parity on day 3. Day 1 is calm: nominations of a black (6) and of a red (7),
# the hands tapped, the table keeps both candidates; four red players foul out. Night 1 the
# mafia wake and shoot nobody. Day 2 is critical (5 red, 3 black: one wrong expulsion and a
# night's kill give black parity): the hands expel black 3. Night 2 the commissar is shot;
# day 3 two more red players foul out.
BLACK_WINS: list[dict[str, Any]] = [
    {"type": "day", "n": 1},
    {"type": "nominate", "by": 6, "target": 2},
    {"type": "nominate", "by": 7, "target": 8},
    {"type": "nominate", "by": 1, "target": 9},
    {
        "type": "votes",
        "voters": voters({6: 2, 7: 2, 9: 8, 10: 2, 11: 2, 12: 2, 1: 8, 2: 8, 3: 8}),
    },
    {"type": "first_day_expel", "for": 3},
    *fouled_out(8, 9, 10, 11),
    {"type": "night", "n": 1},
    {"type": "kill", "by": "mafia", "target": None},
    {"type": "day", "n": 2},
    {"type": "nominate", "by": 4, "target": 3},
    {"type": "nominate", "by": 6, "target": 12},
    {"type": "votes", "voters": voters({4: 3, 5: 3, 6: 3, 7: 12, 12: 3, 1: 12, 2: 12, 3: 12})},
    {"type": "hands", "voters": voters({4: 3, 5: 3, 6: 3, 7: 3, 12: 3, 1: 12, 2: 12, 3: 12})},
    {"type": "night", "n": 2},
    {"type": "kill", "by": "mafia", "target": 4},
    {"type": "day", "n": 3},
    *fouled_out(5, 6),
]


def lines_of(
    events: Sequence[Mapping[str, Any]], preset: str, table: Mapping[int, str] = TABLE
) -> dict[int, list[Line]]:
    game = ClubGame(table)
    lines = score(game, events, SCHEMES[preset])
    return lines


def points(lines: Mapping[int, list[Line]]) -> dict[int, float]:
    return {seat: total(own) for seat, own in lines.items()}


def test_the_hand_worked_game_ends_as_described() -> None:
    game = ClubGame(TABLE)
    game.apply_all(BLACK_WINS)
    assert game.winner == "black"
    assert sorted(game.alive) == [1, 2, 7, 12]


def test_automatic_every_line() -> None:
    lines = lines_of(BLACK_WINS, AUTO)
    by_seat = {seat: [(line.code, line.points) for line in own] for seat, own in lines.items()}
    assert by_seat[1] == [("black_missed_shot", -0.3), ("win", 1.0), ("black_win_alive", 0.3)]
    assert by_seat[3] == [("black_missed_shot", -0.3), ("win", 1.0)]  # expelled: not alive
    # Day 2 is critical: its nomination and hands count twice.
    assert by_seat[4] == [("red_nominates_black", 0.2), ("red_hands_black", 0.4)]
    assert by_seat[6] == [
        ("red_nominates_black", 0.1),
        ("red_hands_black", 0.2),
        ("red_nominates_red", -0.2),
        ("red_hands_black", 0.4),
        ("removal", -0.5),
    ]
    assert by_seat[7] == [
        ("red_nominates_red", -0.1),
        ("red_hands_black", 0.2),
        ("red_hands_black", 0.4),
    ]
    assert by_seat[9] == [("red_hands_red", -0.2), ("removal", -0.5)]
    assert by_seat[8] == [("removal", -0.5)]  # nominated, voted for nobody
    critical = [line for line in lines[4] if line.code == "red_hands_black"]
    assert critical[0].detail == {"target": 3, "critical": True}
    assert points(lines) == {
        1: 1.0,
        2: 1.0,
        3: 0.7,
        4: 0.6,
        5: -0.1,
        6: 0.0,
        7: 0.5,
        8: -0.5,
        9: -0.7,
        10: -0.3,
        11: -0.3,
        12: 0.6,
    }


def test_the_clubs_preset_scores_the_same_game_as_it_always_did() -> None:
    lines = lines_of(BLACK_WINS, CLUB)
    codes = {line.code for own in lines.values() for line in own}
    assert codes == {
        "red_nominates_black",
        "removal",
        "black_kills_key_red",
        "win",
        "winner_survives",
    }
    assert [line.detail for line in lines[4]] == [{"target": 3}]  # no critical weight
    assert points(lines)[1] == 1.4 and points(lines)[3] == 1.0  # 3 was out by night 2
    assert SCHEMES[CLUB] == Scheme()
    assert lines_of(SAMPLE_TOWN_WINS, CLUB) == score(ClubGame(TABLE), SAMPLE_TOWN_WINS, Scheme())


def test_fiim_keeps_the_win_and_the_removal_and_none_of_the_clubs_lines() -> None:
    lines = lines_of(BLACK_WINS, FIIM)
    assert points(lines) == {
        1: 1.0,
        2: 1.0,
        3: 1.0,
        4: 0.0,
        5: -0.5,
        6: -0.5,
        7: 0.0,
        8: -0.5,
        9: -0.5,
        10: -0.5,
        11: -0.5,
        12: 0.0,
    }
    town = lines_of(SAMPLE_TOWN_WINS, FIIM)
    assert {line.code for own in town.values() for line in own} == {"win"}
    assert SCHEMES[FIIM].first_night_compensation == 0.4


def test_a_loner_wins_one_point_under_both_federation_presets() -> None:
    table = {1: "boss", 2: "maniac", 3: "commissar", 4: "doctor"} | {
        seat: "civilian" for seat in range(5, 13)
    }
    events = [{"type": "day", "n": 1}, *fouled_out(1, *range(3, 12))]
    for preset, expected in ((CLUB, 1.6), (FIIM, 1.0), (AUTO, 1.0)):
        assert total(lines_of(events, preset, table)[2]) == expected


def test_the_swindlers_shot_counts_in_the_critical_day() -> None:
    # 2 black with both shots (the mafia's and the swindler's) against 5 red: critical, as
    # one wrong expulsion and the night's two kills would leave 2 against 2 (with the
    # mafia's shot alone, 3 against 2: not yet).
    table = {1: "boss", 2: "swindler", 3: "commissar", 4: "doctor"} | {
        seat: "civilian" for seat in range(5, 13)
    }
    events = [
        {"type": "day", "n": 1},
        *fouled_out(5, 6, 7, 8, 9),
        {"type": "night", "n": 1},
        {"type": "day", "n": 2},
        {"type": "nominate", "by": 10, "target": 1},
    ]
    (line,) = lines_of(events, AUTO, table)[10]
    assert (line.code, line.points, line.detail) == (
        "red_nominates_black",
        0.2,
        {"target": 1, "critical": True},
    )


def test_counts_without_voters_give_no_hand_lines() -> None:
    events: list[dict[str, Any]] = [
        {"type": "day", "n": 1},
        {"type": "nominate", "by": 6, "target": 2},
        {"type": "votes", "counts": {"2": 9}},
        {"type": "first_day_expel", "for": 8},
    ]
    lines = lines_of(events, AUTO)
    assert [line.code for line in lines[6]] == ["red_nominates_black"]
    assert all(not lines[seat] for seat in range(7, 13))


ONLINE = {1: "don", 2: "mafia", 3: "mafia", 4: "commissar"} | {s: "civilian" for s in range(5, 11)}


def test_automatic_online_votes_a_missed_shot_and_a_disqualification() -> None:
    events: list[dict[str, Any]] = [
        {"type": "day", "n": 1},
        *(
            {"type": "vote", "voter": voter, "target": target}
            for voter, target in ((5, 2), (6, 7), (7, 2), (8, "pass"), (1, 5))
        ),
        {"type": "day_end"},
        {"type": "night", "n": 1},
        {"type": "shot", "by": 1, "target": 8},
        {"type": "shot", "by": 3, "target": 9},
        {"type": "night_end"},
        {"type": "day", "n": 2},
        {"type": "modkill", "seat": 6},
    ]
    game = OnlineGame(ONLINE)
    lines = score_online(game, events, SCHEMES[AUTO])
    assert [e.seat for e in game.eliminated] == [2, 6]
    codes = {seat: [(line.code, line.points) for line in own] for seat, own in lines.items()}
    assert codes[5] == [("red_votes_black", 0.2)]
    assert codes[6] == [("red_votes_red", -0.2), ("disqualification", -0.5)]
    assert codes[7] == [("red_votes_black", 0.2)]
    assert codes[8] == []  # PASS is neither
    assert codes[1] == codes[3] == [("black_missed_shot", -0.3)]
    club = score_online(OnlineGame(ONLINE), events, SCHEMES[CLUB])
    assert [(line.code, line.points) for line in club[6]] == [("disqualification", -0.5)]


def test_killed_on_night_one_means_shot_dead_that_night() -> None:
    table = {1: "boss", 2: "swindler", 3: "maniac", 4: "doctor", 5: "kamikaze"} | {
        seat: "civilian" for seat in range(6, 13)
    }
    game = ClubGame(table)
    game.apply_all(
        [
            {"type": "day", "n": 1},
            {"type": "nominate", "by": 6, "target": 7},
            {"type": "votes", "counts": {"7": 7}},
            {"type": "first_day_expel", "for": 7},  # voted out on day 1: not a night kill
            {"type": "night", "n": 1},
            {"type": "kill", "by": "mafia", "target": 8},
            {"type": "kill", "by": "swindler", "target": 9},
            {"type": "kill", "by": "maniac", "target": 5},  # the kamikaze takes the maniac
            {"type": "heal", "target": 10},
            {"type": "day", "n": 2},
            {"type": "night", "n": 2},
            {"type": "kill", "by": "mafia", "target": 11},
            {"type": "day", "n": 3},
        ]
    )
    assert killed_first_night(game.eliminated) == {5, 8, 9}


@pytest.mark.parametrize(
    ("kills", "games", "ci"),
    [
        (0, 0, 0.0),
        (0, 1, 0.0),
        (1, 1, 0.4),  # round(0.4) = 0: mafiaratings' division by zero gives the cap
        (0, 2, 0.0),
        (1, 2, 0.4),  # round(0.8) = 1
        (2, 2, 0.4),
        (0, 3, 0.0),
        (1, 3, 0.4),  # round(1.2) = 1
        (3, 3, 0.4),
        (1, 4, 0.2),  # round(1.6) = 2
        (1, 5, 0.2),  # round(2.0) = 2
        (1, 7, 0.4 / 3),  # round(2.8) = 3
        (1, 10, 0.1),
        (3, 10, 0.3),
        (4, 10, 0.4),
        (5, 10, 0.4),
    ],
)
def test_first_night_compensation_at_its_boundaries(kills: int, games: int, ci: float) -> None:
    assert first_night_compensation(kills, games, 0.4) == pytest.approx(ci)


def test_no_compensation_without_a_cap() -> None:
    assert first_night_compensation(3, 3, 0.0) == 0.0


@pytest.mark.parametrize(
    "bad",
    [
        {"tie_breakers": ["luck"]},
        {"tie_breakers": "wins"},
        {"tie_breakers": ["wins", "wins"]},
        {"critical_day_factor": -1},
        {"first_night_compensation": -0.4},
    ],
)
def test_a_bad_preset_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ProtocolError):
        Scheme.from_dict(bad)


def test_each_preset_reads_back_as_it_is_stored() -> None:
    for scheme in SCHEMES.values():
        assert Scheme.from_dict(scheme.to_dict()) == scheme
    assert SCHEMES[FIIM].tie_breakers == ("extra", "wins", "key_role_wins", "first_night_kills")


def test_every_preset_scores_the_best_move_and_the_hosts_extra_points_as_fiim_does() -> None:
    events = [
        *SAMPLE_OPENING,  # seat 6 is shot on night 1
        {"type": "best_move", "by": 6, "targets": [1, 2, 7]},  # two of three black
        {"type": "bonus", "seat": 4, "points": 0.3, "reason": "нашёл дона"},
        {"type": "bonus", "seat": 9, "points": -0.5, "reason": "подсказка жестом"},
        *fouled_out(10),
    ]
    for preset in (CLUB, FIIM, AUTO):
        lines = lines_of(events, preset)
        assert [(line.code, line.points) for line in lines[6]] == [("best_move_2", 0.25)]
        assert Extras.of(lines[6]) == Extras(best_move=0.25)
        assert Extras.of(lines[4]).bonus == 0.3
        assert Extras.of(lines[9]) == Extras(bonus=-0.5)
        assert Extras.of(lines[10]) == Extras(penalty=-0.5)
    assert SCHEMES[FIIM].best_move_2 == 0.25 and SCHEMES[FIIM].best_move_3 == 0.4
    assert not SCHEMES[FIIM].best_move_loners_black


# The maniac shoots a mafioso (2) on night 1; the mafia shoot nobody. The mafioso's last
# word names his partners: two of three black, and he is black himself.
BLACK_VICTIM = {1: "boss", 2: "mafia", 3: "mafia", 4: "maniac", 5: "commissar"} | {
    seat: "civilian" for seat in range(6, 13)
}
BLACK_VICTIMS_BEST_MOVE: list[dict[str, Any]] = [
    {"type": "day", "n": 1},
    {"type": "night", "n": 1},
    {"type": "kill", "by": "mafia", "target": None},
    {"type": "kill", "by": "maniac", "target": 2},
    {"type": "day", "n": 2},
    {"type": "best_move", "by": 2, "targets": [1, 3, 7]},
]


@pytest.mark.parametrize(
    ("preset", "points"),
    [
        # FIIM's rating (mafiaratings' scoring 19): the «legacy» group is for roles 3, the
        # civilians and the sheriff; a black victim's best move scores nothing.
        (FIIM, 0.0),
        (AUTO, 0.0),  # its best move is FIIM's
        (CLUB, 0.25),  # the club's own lines: every victim's best move, as it always was
    ],
)
def test_a_black_first_night_victims_best_move_scores_as_its_preset_says(
    preset: str, points: float
) -> None:
    game = ClubGame(BLACK_VICTIM)
    lines = score(game, BLACK_VICTIMS_BEST_MOVE, SCHEMES[preset])
    assert [out.seat for out in game.eliminated] == [2]
    assert game.best_move is not None and game.best_move.by == 2
    assert Extras.of(lines[2]).best_move == points
    assert SCHEMES[preset].best_move_red_only is (points == 0.0)


@pytest.mark.parametrize("preset", [FIIM, AUTO, CLUB])
def test_a_red_first_night_victims_best_move_scores_under_every_preset(preset: str) -> None:
    events = [*BLACK_VICTIMS_BEST_MOVE[:3], {"type": "kill", "by": "maniac", "target": 6}]
    events += [{"type": "day", "n": 2}, {"type": "best_move", "by": 6, "targets": [1, 3, 7]}]
    assert Extras.of(lines_of(events, preset, BLACK_VICTIM)[6]).best_move == 0.25
