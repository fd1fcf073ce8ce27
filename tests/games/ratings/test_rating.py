"""Elo with red and black tracks (games/rules/rating.py), against numbers worked by hand."""

import pytest

from games.rules import rating
from games.rules.rating import Played


def test_a_red_win_against_a_stronger_black_team_worked_by_hand() -> None:
    # Red's mean 1500, black's 1600: red's expected score is 1 / (1 + 10^(100/400)) = 0.3599,
    # so a red win moves every red player by 20 × (1 − 0.3599) = +12.80 and black by −12.80.
    changes = rating.match({"a": 1600, "b": 1500, "c": 1400}, {"x": 1550, "y": 1650}, "red")
    assert rating.expected(1500, 1600) == pytest.approx(0.35993, abs=1e-5)
    assert {p: round(c.after, 2) for p, c in changes.items()} == {
        "a": 1612.80,
        "b": 1512.80,
        "c": 1412.80,
        "x": 1537.20,
        "y": 1637.20,
    }


def test_a_loners_win_is_a_draw_between_red_and_black() -> None:
    changes = rating.match({"a": 1500}, {"x": 1600}, "maniac")
    # 20 × (0.5 − 0.3599) = +2.80 to red: the weaker side gains from a draw.
    assert round(changes["a"].after - 1500, 2) == 2.80
    assert round(changes["x"].after - 1600, 2) == -2.80


def test_the_replay_keeps_a_players_tracks_apart_and_skips_loners() -> None:
    rows = [
        # Game 1: p plays red and wins; q black; m is the maniac.
        Played(1, "g1", "p", "red", "red"),
        Played(2, "g1", "q", "black", "red"),
        Played(3, "g1", "m", "", "red"),
        # Game 2: p plays black now, starting from 1500 on that track, and wins.
        Played(4, "g2", "p", "black", "black"),
        Played(5, "g2", "q", "red", "black"),
    ]
    changes = rating.replay(rows)
    assert changes[1] == rating.Change(1500, 1510)
    assert changes[2] == rating.Change(1500, 1490)
    assert 3 not in changes
    assert changes[4] == rating.Change(1500, 1510)  # black track, untouched by game 1
    assert changes[5] == rating.Change(1500, 1490)  # q's red track, untouched by game 1
