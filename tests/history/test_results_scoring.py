"""A results-only game is scored by the scheme's own lines where its results hold the fact
(games/rules/results.py), and by none that only a log could show."""

from __future__ import annotations

import pytest

from games.rules.errors import ProtocolError
from games.rules.results import Results, SeatResult, killed_first_night, score_results
from games.rules.roles import CLUB_ROLES
from games.rules.scoring import Line, Scheme

ROLES = {
    1: CLUB_ROLES["boss"],
    2: CLUB_ROLES["mafia"],
    3: CLUB_ROLES["commissar"],
    4: CLUB_ROLES["civilian"],
    5: CLUB_ROLES["civilian"],
    6: CLUB_ROLES["maniac"],
}


def codes(lines: list[Line]) -> list[tuple[str, float]]:
    return [(line.code, line.points) for line in lines]


def test_the_winners_win_and_those_who_stayed_survive() -> None:
    results = Results(seats={4: SeatResult(left="killed", when="N1")})
    lines = score_results(ROLES, results, "red", Scheme())
    assert codes(lines[3]) == [("win", 1.0), ("winner_survives", 0.1)]
    assert codes(lines[4]) == [("win", 1.0)]  # killed: won, did not survive
    assert lines[1] == lines[2] == lines[6] == []


def test_a_loner_wins_alone() -> None:
    lines = score_results(ROLES, Results(), "maniac", Scheme())
    assert codes(lines[6]) == [("loner_win", 1.5), ("winner_survives", 0.1)]
    assert all(lines[seat] == [] for seat in (1, 2, 3, 4, 5))


def test_black_alive_at_its_win_scores_when_the_scheme_says_so() -> None:
    scheme = Scheme(black_win_alive=0.2)
    lines = score_results(ROLES, Results(seats={2: SeatResult(left="voted")}), "black", scheme)
    assert codes(lines[1]) == [("win", 1.0), ("winner_survives", 0.1), ("black_win_alive", 0.2)]
    assert codes(lines[2]) == [("win", 1.0)]


def test_removal_disqualification_and_extra_points_within_the_bounds() -> None:
    results = Results(
        seats={
            4: SeatResult(fouls=4, left="fouls"),
            5: SeatResult(left="disqualified"),
            3: SeatResult(extra=1.5, reason="лучший"),
            2: SeatResult(extra=-0.3, reason="шум"),
        }
    )
    lines = score_results(ROLES, results, "black", Scheme())
    assert codes(lines[4]) == [("removal", -0.5)]
    assert codes(lines[5]) == [("disqualification", -0.5)]
    assert lines[3][0].code == "bonus" and lines[3][0].points == 1.0
    assert lines[3][0].detail == {"reason": "лучший", "given": 1.5}
    assert codes(lines[2])[0] == ("bonus", -0.3)


def test_the_best_move_counts_its_black_seats() -> None:
    results = Results(
        seats={4: SeatResult(left="killed", when="N1")}, best_move_by=4, best_move=(1, 2, 5)
    )
    lines = score_results(ROLES, results, "black", Scheme())
    assert codes(lines[4]) == [("best_move_2", 0.25)]
    three = Results(best_move_by=4, best_move=(1, 2, 6))
    assert codes(score_results(ROLES, three, "black", Scheme(best_move_loners_black=True))[4]) == [
        ("best_move_3", 0.4)
    ]
    # A black giver's best move scores nothing when only red ones count.
    black = Results(best_move_by=2, best_move=(1, 3, 6))
    assert score_results(ROLES, black, "red", Scheme(best_move_red_only=True))[2] == []


def test_killed_first_night_only_when_the_results_say_night_one() -> None:
    results = Results(
        seats={
            4: SeatResult(left="killed", when="N1"),
            5: SeatResult(left="killed", when="N2"),
            3: SeatResult(left="killed"),
        }
    )
    assert killed_first_night(results) == {4}


def test_results_round_trip_and_refuse_what_cannot_be_read() -> None:
    results = Results(
        seats={4: SeatResult(fouls=2, left="voted", when="D2", extra=0.5, reason="за игру")},
        best_move_by=4,
        best_move=(1, 2),
    )
    assert Results.from_dict(results.as_dict()) == results
    with pytest.raises(ProtocolError):
        Results.from_dict({"seats": {"1": {"left": "flew away"}}})
    with pytest.raises(ProtocolError):
        Results.from_dict({"seats": {"x": {}}})
