"""Line charts drawn on the server as SVG: the page needs no script to show a history."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

WIDTH, HEIGHT, PAD = 640, 200, 28


@dataclass(frozen=True)
class Line:
    name: str
    points: str  # the polyline's "x,y x,y …"
    last: float
    end: tuple[float, float]  # where the last value is drawn (a dot marks it)


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: list[Line]
    low: float
    high: float
    count: int  # the longest series' length: the x axis

    @property
    def empty(self) -> bool:
        return not self.lines


def line_chart(series: Mapping[str, Sequence[float]]) -> Chart:
    """One chart of several series sharing the y axis; each is spread over the full width."""
    drawn = {name: list(values) for name, values in series.items() if values}
    if not drawn:
        return Chart(WIDTH, HEIGHT, [], 0.0, 0.0, 0)
    low = min(min(values) for values in drawn.values())
    high = max(max(values) for values in drawn.values())
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    count = max(len(values) for values in drawn.values())

    def x(index: int, length: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * (index / (length - 1) if length > 1 else 0.5)

    def y(value: float) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * (value - low) / (high - low)

    lines = [
        Line(
            name,
            " ".join(f"{x(i, len(values)):.1f},{y(v):.1f}" for i, v in enumerate(values)),
            values[-1],
            (round(x(len(values) - 1, len(values)), 1), round(y(values[-1]), 1)),
        )
        for name, values in drawn.items()
    ]
    return Chart(WIDTH, HEIGHT, lines, round(low, 1), round(high, 1), count)
