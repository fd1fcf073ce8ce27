"""The best move (ЛХ) and the host's extra points (допы): recorded once judged, never
changing a rule's state; each refusal (docs/protocol.md). Like the rules' own tests, each
runs through the engine's API and as a replayed protocol document."""

from typing import Any

import pytest

from games.rules import events as event_shapes
from games.rules.club import Bonus, ClubGame
from games.rules.errors import ProtocolError, RuleViolation
from tests.games.rules.test_club_rules import (
    TABLE,
    day,
    game,
    hands,
    night,
    nominate,
    small,
    violation,
    votes,
)
from tests.games.rules.test_club_rules import via as via  # the autouse fixture


def best_move(by: int, *targets: int) -> dict[str, Any]:
    return {"type": "best_move", "by": by, "targets": list(targets)}


def bonus(seat: int, points: Any, reason: Any = "лучший игрок стола") -> dict[str, Any]:
    return {"type": "bonus", "seat": seat, "points": points, "reason": reason}


def shot_on_night_one(*events: dict[str, Any], target: int = 8, **options: Any) -> ClubGame:
    """Day 1 quiet; the mafia shoot `target` on night 1; the morning of day 2."""
    return game(
        day(1), night(1), {"type": "kill", "by": "mafia", "target": target}, day(2), *events,
        **options,
    )  # fmt: skip


def untouched(g: ClubGame) -> tuple[Any, ...]:
    """What the rules decide: the best move and extra points leave all of it as it was."""
    summary = {k: v for k, v in g.summary().items() if k not in ("best_move", "bonuses")}
    return summary, g.phase, g.step, g.n, g.prompt(), sorted(g.last_words_due)


# --- the best move ---------------------------------------------------------------------


def test_the_first_nights_victim_names_three_seats_and_nothing_else_changes() -> None:
    before = untouched(shot_on_night_one())
    g = shot_on_night_one(best_move(8, 1, 2, 6))
    assert g.best_move is not None and (g.best_move.by, g.best_move.targets) == (8, (1, 2, 6))
    assert untouched(g) == before
    assert g.summary()["best_move"] == {"by": 8, "targets": [1, 2, 6]}


def test_no_seats_is_the_hosts_skip_and_counts_as_the_one_best_move() -> None:
    g = shot_on_night_one(best_move(8))
    assert g.best_move is not None and g.best_move.targets == ()
    assert violation(g, best_move(8, 1)).code == "best_move_given"


def test_the_best_move_is_recorded_once() -> None:
    g = shot_on_night_one(best_move(8, 1, 2))
    assert violation(g, best_move(8, 3)).code == "best_move_given"


def test_only_a_victim_of_the_first_night_names_one() -> None:
    g = shot_on_night_one()
    assert violation(g, best_move(6, 1, 2, 3)).code == "best_move_not_due"  # alive
    # Before the morning the death is not known yet.
    g = game(day(1), night(1), {"type": "kill", "by": "mafia", "target": 8})
    assert violation(g, best_move(8, 1)).code == "best_move_not_due"


def test_the_swindlers_victim_and_a_seat_voted_out_name_none() -> None:
    g = game(
        day(1),
        nominate(6, 7),
        votes(s7=9),
        {"type": "first_day_expel", "for": 9},
        night(1),
        {"type": "kill", "by": "swindler", "target": 9},
        day(2),
    )
    assert [(e.seat, e.reason) for e in g.eliminated] == [(7, "voted"), (9, "swindler")]
    assert violation(g, best_move(7, 1)).code == "best_move_not_due"
    assert violation(g, best_move(9, 1)).code == "best_move_not_due"


def test_a_later_nights_victim_names_one_only_under_first_killed() -> None:
    quiet_first_night = [
        day(1),
        night(1),
        {"type": "kill", "by": "mafia", "target": 8},
        {"type": "heal", "target": 8},
        day(2),
        night(2),
        {"type": "kill", "by": "mafia", "target": 6},
        day(3),
    ]
    g = game(*quiet_first_night)
    assert violation(g, best_move(6, 1)).code == "best_move_not_due"
    g = game(*quiet_first_night, best_move_victims="first_killed")
    assert g.best_move_due() == [6]
    g.apply(best_move(6, 1, 2, 3))
    assert g.best_move_due() == []


def test_a_club_without_the_best_move() -> None:
    g = shot_on_night_one(best_move_victims="none")
    assert g.best_move_due() == []
    assert violation(g, best_move(8, 1)).code == "no_best_move"


def test_two_shot_on_night_one_either_names_it_once() -> None:
    g = game(
        day(1),
        night(1),
        {"type": "kill", "by": "mafia", "target": 8},
        {"type": "kill", "by": "maniac", "target": 9},
        day(2),
    )
    assert g.best_move_due() == [8, 9]
    g.apply(best_move(9, 1, 2, 3))
    assert violation(g, best_move(8, 1)).code == "best_move_given"


@pytest.mark.parametrize(
    "targets",
    [(1, 2, 3, 6), (1, 1, 2), (8, 1), (1, 99)],
    ids=["four", "twice", "self", "no-such-seat"],
)
def test_the_named_seats_are_three_at_most_each_once_never_ones_own(
    targets: tuple[int, ...],
) -> None:
    g = shot_on_night_one()
    code = violation(g, best_move(8, *targets)).code
    assert code == ("no_such_seat" if 99 in targets else "best_move_targets")


def test_the_best_move_is_taken_after_the_end() -> None:
    g = small(day(1), night(1), {"type": "kill", "by": "mafia", "target": 2}, day(2))
    g.apply(nominate(1, 3))
    g.apply(votes(s3=2))
    assert g.finished
    g.apply(best_move(2, 1, 4))
    assert g.best_move is not None and g.winner == "black"


def test_a_malformed_best_move_is_a_protocol_error() -> None:
    g = shot_on_night_one()
    for event in (
        {"type": "best_move", "by": 8, "targets": "1,2"},
        {"type": "best_move", "by": 8, "targets": [1, "2"]},
        {"type": "best_move", "by": 8},
    ):
        with pytest.raises(ProtocolError):
            g.apply(event)


# --- extra points ------------------------------------------------------------------------


def test_extra_points_and_a_penalty_by_day_by_night_and_after_the_end() -> None:
    before = untouched(shot_on_night_one())
    g = shot_on_night_one(bonus(8, 0.3, "  сильная последняя речь  "), bonus(2, -0.5, "грубость"))
    assert g.bonuses == [Bonus(8, 0.3, "сильная последняя речь"), Bonus(2, -0.5, "грубость")]
    assert untouched(g) == before
    g = game(day(1), night(1), bonus(5, 1, "ночью"))
    assert g.bonuses == [Bonus(5, 1.0, "ночью")]
    over = small(day(1), night(1), {"type": "kill", "by": "mafia", "target": 2}, day(2))
    over.apply(nominate(1, 3))
    over.apply(votes(s3=2))
    over.apply(bonus(3, 0.25, "после игры"))
    assert over.finished and over.bonuses == [Bonus(3, 0.25, "после игры")]


@pytest.mark.parametrize(
    ("points", "reason", "code"),
    [
        (0, "ничего", "bonus_points"),
        (0.125, "тысячные", "bonus_points"),
        (10.5, "много", "bonus_points"),
        (-11, "много", "bonus_points"),
        (0.3, "   ", "bonus_reason"),
        (0.3, "", "bonus_reason"),
    ],
)
def test_extra_points_are_refused_out_of_range_or_without_a_reason(
    points: float, reason: str, code: str
) -> None:
    assert violation(shot_on_night_one(), bonus(5, points, reason)).code == code


def test_extra_points_go_to_a_seat_at_the_table_once_the_game_has_started() -> None:
    assert violation(shot_on_night_one(), bonus(99, 0.3)).code == "no_such_seat"
    assert violation(game(), bonus(5, 0.3)).code == "not_started"


@pytest.mark.parametrize(
    "event",
    [
        {"type": "bonus", "seat": 5, "points": True, "reason": "да"},
        {"type": "bonus", "seat": 5, "points": "0.3", "reason": "текстом"},
        {"type": "bonus", "seat": 5, "points": 0.3},
        {"type": "bonus", "seat": 5, "points": 0.3, "reason": 7},
    ],
)
def test_a_malformed_bonus_is_a_protocol_error(event: dict[str, Any]) -> None:
    with pytest.raises(ProtocolError):
        shot_on_night_one().apply(event)


def test_the_shape_of_a_bonus_as_it_is_stored() -> None:
    shaped = event_shapes.normalize(bonus(5, 1, "  за лидерство  "))
    assert shaped == {"type": "bonus", "seat": 5, "points": 1.0, "reason": "за лидерство"}
    with pytest.raises(ProtocolError):
        event_shapes.normalize(bonus(5, 0.3, "x" * 201))
    with pytest.raises(ProtocolError):
        event_shapes.normalize({**bonus(5, 0.3), "why": "unknown field"})
    with pytest.raises(RuleViolation):  # 200 characters of the engine's own check
        g = ClubGame(TABLE)
        g.apply(day(1))
        g.apply(bonus(5, 0.3, "x" * 201))


def test_a_runoff_is_untouched_by_extra_points_given_in_it() -> None:
    g = game(
        day(1),
        nominate(6, 7),
        nominate(7, 8),
        votes(s7=5, s8=5),
        {"type": "first_day_expel", "for": 9},
        bonus(6, 0.1, "во время голосования"),
        hands(s7=6, s8=4),
    )
    assert [e.seat for e in g.eliminated] == [7]
