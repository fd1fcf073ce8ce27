"""Line charts drawn on the server as SVG: the page needs no script to show a history."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.recordings.audio.alignment import SpeechFigures

# A phone's width: the ticks stay readable on a 360 px screen (a wide one caps the size).
WIDTH, HEIGHT, PAD = 360, 200, 34


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
    first: str = ""  # the x axis's ends, in words (the first and the last game's dates)
    last: str = ""
    pad: int = PAD  # room for the axes' words

    @property
    def empty(self) -> bool:
        return not self.lines

    @property
    def middle(self) -> float:
        return round((self.low + self.high) / 2, 1)


def line_chart(series: Mapping[str, Sequence[float]], *, first: str = "", last: str = "") -> Chart:
    """One chart of several series sharing the y axis; each is spread over the full width.
    `first` and `last` label the ends of the x axis."""
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
    return Chart(WIDTH, HEIGHT, lines, round(low, 1), round(high, 1), count, first, last)


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    kind: str  # slot (the seconds allowed), timer (as the host ran it), voice, over


@dataclass(frozen=True)
class Timeline:
    width: int
    height: int
    rows: list[tuple[float, str]]  # (y, label) per seat
    bars: list[Bar]
    minutes: list[tuple[float, int]]  # (x, minute) ticks


ROW, LABEL, TIMELINE_WIDTH, TIMELINE_PAD = 14, 90, 800, 28


def speech_timeline(
    speeches: Sequence[SpeechFigures], voiced: Sequence[Sequence[float]], labels: Mapping[int, str]
) -> Timeline | None:
    """The game's speeches on one time axis, a row per seat: each speech's allowed slot and
    timed span, the voice inside it, and the voice past the seconds allowed."""
    if not speeches:
        return None
    first = min(s.start for s in speeches) - 5
    last = max(max(s.end, s.start + s.limit) for s in speeches) + 5
    seats = sorted({s.seat for s in speeches})
    row_of = {seat: i for i, seat in enumerate(seats)}
    scale = (TIMELINE_WIDTH - LABEL - TIMELINE_PAD) / (last - first)

    def x(t: float) -> float:
        return round(LABEL + (t - first) * scale, 1)

    bars: list[Bar] = []
    for s in speeches:
        y = TIMELINE_PAD / 2 + row_of[s.seat] * ROW
        bars.append(Bar(x(s.start), y, round(s.limit * scale, 1), "slot"))
        bars.append(Bar(x(s.start), y, round((s.end - s.start) * scale, 1), "timer"))
        for a, b in voiced:
            lo, hi = max(a, s.start), min(b, s.end)
            if hi > lo:
                allowed = s.start + s.limit
                if lo < allowed:
                    bars.append(
                        Bar(x(lo), y + 3, round((min(hi, allowed) - lo) * scale, 1), "voice")
                    )
                if hi > allowed:
                    start = max(lo, allowed)
                    bars.append(Bar(x(start), y + 3, round((hi - start) * scale, 1), "over"))
    height = int(TIMELINE_PAD + len(seats) * ROW + 14)
    minutes = [
        (x(minute * 60.0), minute)
        for minute in range(int(first // 60) + 1, int(last // 60) + 1)
        if (last - first) < 1800 or minute % 5 == 0
    ]
    rows = [
        (TIMELINE_PAD / 2 + row_of[seat] * ROW + 10, labels.get(seat, str(seat))) for seat in seats
    ]
    return Timeline(TIMELINE_WIDTH, height, rows, bars, minutes)
