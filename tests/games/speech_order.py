"""The round's order as cases, run on the server's engine (tests/games/rules/test_speech_order.py)
and on the phone's, under Pyodide in Chromium (tests/e2e/test_host_screen.py), through the
same `games.rules.table.offline_tap`: each case is a log, one more tap, and what the engine
must say of it (accepted, with who speaks next; or refused, with the refusal's code).

The table is SAMPLE_LINEUP's twelve: 1 boss, 2–3 mafia, 4 commissar, 5 doctor, 6–12
civilians.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.rules.simulate import SAMPLE_LINEUP

SEATS: dict[int | str, str] = {str(seat): role for seat, role in enumerate(SAMPLE_LINEUP, start=1)}


def _at(second: int) -> str:
    return f"2026-12-06T{18 + second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}+03:00"


class Clock:
    """Speeches of 20 s, each after the one before: speech(seat) is the next in time."""

    def __init__(self) -> None:
        self.second = 0

    def speech(self, seat: int) -> dict[str, Any]:
        start, self.second = self.second, self.second + 30
        return {
            "type": "speech",
            "seat": seat,
            "start": _at(start),
            "end": _at(start + 20),
            "limit": 30,
        }

    def round(self, *seats: int) -> list[dict[str, Any]]:
        return [self.speech(seat) for seat in seats]


def day(n: int) -> dict[str, Any]:
    return {"type": "day", "n": n}


def night(n: int) -> dict[str, Any]:
    return {"type": "night", "n": n}


def quiet_night(n: int, victim: int | None = None) -> list[dict[str, Any]]:
    """Night n: the boss and the commissar check nobody, the mafia shoot `victim`."""
    return [
        night(n),
        {"type": "check", "by": 1, "target": None},
        {"type": "kill", "by": "mafia", "target": victim},
        {"type": "check", "by": 4, "target": None},
        {"type": "heal", "target": None},
        day(n + 1),
    ]


@dataclass
class Case:
    name: str
    log: list[dict[str, Any]]
    tap: dict[str, Any]
    refused: str | None = None  # the refusal's code; None: accepted
    speaks_next: int | None = None  # after an accepted tap: whose speech of the day is due
    options: dict[str, Any] = field(default_factory=dict)


def _cases() -> list[Case]:
    cases: list[Case] = []
    c = Clock()
    cases += [
        Case("day 1 opens at seat 1", [day(1)], c.speech(2), refused="speech_order"),
        Case("seat 1 speaks first", [day(1)], Clock().speech(1), speaks_next=2),
    ]
    c = Clock()
    opened = [day(1), *c.round(1, 2)]
    cases.append(Case("a seat speaks once a round", opened, c.speech(2), refused="spoken"))
    c = Clock()
    opened = [day(1), *c.round(1, 2)]
    cases.append(Case("the third seat after the second", opened, c.speech(3), speaks_next=4))
    # A seat removed by fouls before its turn is skipped.
    c = Clock()
    fouled = [day(1), *c.round(1, 2, 3), *({"type": "foul", "seat": 5},) * 3]
    cases.append(
        Case("a departed seat does not speak", fouled, c.speech(5), refused="speech_order")
    )
    c = Clock()
    fouled = [day(1), *c.round(1, 2, 3), *({"type": "foul", "seat": 5},) * 3, c.speech(4)]
    cases.append(Case("the seat after a departed one", fouled, c.speech(6), speaks_next=7))
    # Day 2 opens one seat further: seat 2; day 3 at seat 3, or, seat 3 shot on night 2,
    # at seat 4.
    c = Clock()
    whole_day = [day(1), *c.round(*range(1, 13))]
    cases += [
        Case(
            "day 2 opens at seat 2",
            [*whole_day, *quiet_night(1)],
            c.speech(1),
            refused="speech_order",
        ),
    ]
    c = Clock()
    day_two = [*[day(1), *c.round(*range(1, 13))], *quiet_night(1)]
    day_two += c.round(*range(2, 13), 1)
    cases += [
        Case(
            "day 3 opens at seat 4 when seat 3 was shot",
            [*day_two, *quiet_night(2, 3)],
            c.speech(4),
            speaks_next=5,
        ),
    ]
    # By the option, day N opens at seat N: seat 2 shot on night 1, day 2 opens at 3, and
    # day 3 at 3 again (where "after the previous opener" gives 4).
    c = Clock()
    by_number = [day(1), *c.round(*range(1, 13)), *quiet_night(1, 2)]
    by_number += c.round(*range(3, 13), 1)
    by_number += quiet_night(2)
    cases += [
        Case(
            "day_number: day 3 opens at seat 3",
            by_number,
            c.speech(3),
            speaks_next=4,
            options={"day_opener": "day_number"},
        ),
    ]
    c = Clock()
    by_number = [day(1), *c.round(*range(1, 13)), *quiet_night(1, 2)]
    by_number += c.round(*range(3, 13), 1)
    by_number += quiet_night(2)
    cases.append(
        Case(
            "after_previous: day 3 opens at seat 4", by_number, c.speech(3), refused="speech_order"
        )
    )
    # The defence speeches: the candidates in seat order, each once, then the hands.
    c = Clock()
    voted = [
        day(1),
        {"type": "nominate", "by": 1, "target": 9},
        {"type": "nominate", "by": 1, "target": 7},
        *c.round(*range(1, 13)),
        {"type": "votes", "counts": {"7": 5, "9": 5}},
    ]
    cases += [
        Case(
            "the defence opens with the first candidate", voted, c.speech(9), refused="speech_order"
        ),
    ]
    c2 = Clock()
    voted2 = [
        day(1),
        {"type": "nominate", "by": 1, "target": 9},
        {"type": "nominate", "by": 1, "target": 7},
        *c2.round(*range(1, 13)),
        {"type": "votes", "counts": {"7": 5, "9": 5}},
        c2.speech(7),
    ]
    cases += [
        Case("a candidate defends once", voted2, c2.speech(7), refused="spoken"),
        Case("a non-candidate makes no defence", voted2, c2.speech(8), refused="speech_order"),
    ]
    c3 = Clock()
    defended = [
        day(1),
        {"type": "nominate", "by": 1, "target": 9},
        {"type": "nominate", "by": 1, "target": 7},
        *c3.round(*range(1, 13)),
        {"type": "votes", "counts": {"7": 5, "9": 5}},
        *c3.round(7, 9),
    ]
    cases += [
        Case("no speech after the defence", defended, c3.speech(1), refused="no_speech_due"),
    ]
    # The last word: only the departed whose word is due, after the speech before it.
    c = Clock()
    shot = [day(1), *c.round(*range(1, 13)), *quiet_night(1, 6)]
    last_word = {"type": "last_word", "seat": 6}
    cases += [
        Case("the shot seat has its last word", shot, last_word, speaks_next=2),
        Case("a departed seat makes no speech", shot, c.speech(6), refused="speech_order"),
        Case(
            "no last word for the living",
            shot,
            {"type": "last_word", "seat": 7},
            refused="no_last_word",
        ),
    ]
    # Speeches never overlap: one that starts before the last ended is refused.
    c = Clock()
    first = c.speech(1)  # 18:00:00–18:00:20
    overlapping = {**c.speech(2), "start": _at(10)}  # from 18:00:10
    cases.append(
        Case(
            "a speech starts after the last ended",
            [day(1), first],
            overlapping,
            refused="speech_overlap",
        )
    )
    # A game recorded before the checks keeps its speeches as they were.
    cases.append(
        Case(
            "unchecked speeches",
            [day(1)],
            Clock().speech(5),
            speaks_next=1,
            options={"speeches_checked": False},
        )
    )
    return cases


CASES = _cases()
