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


# LABEL holds a seat number and a name shortened to 14 characters at 12 px (the speakers).
ROW, LABEL, TIMELINE_WIDTH, TIMELINE_PAD = 14, 116, 800, 28


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


@dataclass(frozen=True)
class SpeakerBar:
    x: float
    y: float
    width: float
    seat: int  # whose voice: its colour
    # "own" (in the seat's own speech), "other" (in another's; "other over": over the
    # speaker's voice), "night", "aside"
    kind: str


@dataclass(frozen=True)
class SpeakerPicture:
    width: int
    height: int
    rows: list[tuple[float, int, str]]  # (y, seat, label)
    slots: list[tuple[float, float, float]]  # a speech window: (x, y, width) in its row
    nights: list[tuple[float, float]]  # (x, width), across every row
    bars: list[SpeakerBar]
    minutes: list[tuple[float, int]]


# A row holds a 12 px label: the picture is drawn 1:1 on a phone (club.css's .wide-picture),
# where 10 px rows read 9 px seat names.
SPEAKER_ROW = 15


def speaker_timeline(
    stretches: Sequence[Mapping[str, object]],
    windows: Sequence[tuple[int, float, float]],
    nights: Sequence[tuple[float, float]],
    labels: Mapping[int, str],
    duration: float,
) -> SpeakerPicture | None:
    """Who spoke when as one picture: a row per seat, its speech windows as pale slots,
    every stretch of its voice a bar in the seat's colour (outlined where it fell in
    another's speech), the nights shaded across all rows."""
    seats = sorted(labels)
    if not seats or duration <= 0:
        return None
    row_of = {seat: index for index, seat in enumerate(seats)}
    scale = (TIMELINE_WIDTH - LABEL - TIMELINE_PAD) / duration

    def x(t: float) -> float:
        return round(LABEL + max(0.0, min(duration, t)) * scale, 1)

    def y(seat: int) -> float:
        return TIMELINE_PAD / 2 + row_of[seat] * SPEAKER_ROW

    bars = []
    for stretch in stretches:
        seat = stretch["seat"]
        if not isinstance(seat, int) or seat not in row_of:
            continue
        start, end = float(stretch["start"]), float(stretch["end"])  # type: ignore[arg-type]
        owner = stretch.get("owner")
        kind = (
            "night" if stretch.get("night")
            else "aside" if owner is None
            else "own" if owner == seat
            else "other over" if stretch.get("over")
            else "other"
        )  # fmt: skip
        bars.append(
            SpeakerBar(x(start), y(seat), max(0.6, round((end - start) * scale, 1)), seat, kind)
        )
    slots = [
        (x(start), y(seat), round((end - start) * scale, 1))
        for seat, start, end in windows
        if seat in row_of
    ]
    height = int(TIMELINE_PAD + len(seats) * SPEAKER_ROW + 14)
    step = 5 if duration < 1800 else 10
    minutes = [(x(m * 60.0), m) for m in range(step, int(duration // 60) + 1, step)]
    return SpeakerPicture(
        TIMELINE_WIDTH,
        height,
        [(y(seat) + 11, seat, labels[seat]) for seat in seats],
        slots,
        [(x(a), round((min(b, duration) - max(a, 0.0)) * scale, 1)) for a, b in nights],
        bars,
        minutes,
    )


@dataclass(frozen=True)
class RateRow:
    """One bar of wins over games: its label, where it is drawn, and its words."""

    label: str
    y: float
    fill: float  # the width of the wins' part of the track
    wins: int
    games: int
    percent: int
    shown: bool  # false: fewer games than `minimum`, the row says so instead of a bar
    minimum: int


@dataclass(frozen=True)
class RateChart:
    width: int
    height: int
    rows: list[RateRow]
    track_x: int
    track_width: int
    value_x: int

    @property
    def empty(self) -> bool:
        return not self.rows


# A label of about 12 characters at 14 px, the track, and «12 из 20 · 60%» after it.
RATE_ROW, RATE_LABEL, RATE_TRACK = 28, 104, 112


def rate_chart(rows: Sequence[tuple[str, int, int, int]]) -> RateChart:
    """Horizontal bars of wins over games, one per (label, wins, games, minimum): what the
    player's page draws for wins by role and by table size."""
    drawn = [
        RateRow(
            label=label,
            y=index * RATE_ROW,
            fill=round(RATE_TRACK * wins / games, 1) if games else 0.0,
            wins=wins,
            games=games,
            percent=round(100 * wins / games) if games else 0,
            shown=games >= minimum,
            minimum=minimum,
        )
        for index, (label, wins, games, minimum) in enumerate(rows)
    ]
    return RateChart(
        WIDTH, RATE_ROW * len(drawn), drawn, RATE_LABEL, RATE_TRACK, RATE_LABEL + RATE_TRACK + 8
    )


@dataclass(frozen=True)
class CountRow:
    label: str
    y: float
    fill: float  # the bar's width, the largest value filling the track
    value: float


@dataclass(frozen=True)
class CountChart:
    width: int
    height: int
    rows: list[CountRow]
    track_x: int
    value_x: int

    @property
    def empty(self) -> bool:
        return not self.rows


def count_chart(rows: Sequence[tuple[str, float]]) -> CountChart:
    """Horizontal bars of a count per row (people per evening, week by week), the largest
    filling the track: what the club's figures draw."""
    top = max((value for _label, value in rows), default=0) or 1
    drawn = [
        CountRow(label, index * RATE_ROW, round(RATE_TRACK * value / top, 1), value)
        for index, (label, value) in enumerate(rows)
    ]
    return CountChart(WIDTH, RATE_ROW * len(drawn), drawn, RATE_LABEL, RATE_LABEL + RATE_TRACK + 8)
