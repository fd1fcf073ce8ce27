"""The voice in a recording against the host's speech timer (RULES.md's speech slots).

Pure arithmetic on intervals: the voiced intervals (seconds from the start of the sound)
and the `speech` events of the protocol (wall-clock start and end, the seconds allowed:
30, 45 for the last speaker, +30 per «под фол»). The figures are computed when they are
read, so a corrected protocol is reflected at once and the sound is never needed again.

Per speech:
- talk: voice between the timer's start and stop;
- silence: the rest of that time;
- over: voice after the seconds allowed ran out, while the timer still ran;
- after: voice in the 10 s after the timer stopped, before the next speech began (the
  speaker finishing past their slot, or the table talking: the sound has no speaker).
For the whole recording, `outside`: voice during the days' speeches that fell in no slot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

AFTER_WINDOW = 10.0  # seconds after a speech in which voice counts as "after"

Interval = tuple[float, float]


def voiced_within(voiced: Sequence[Sequence[float]], start: float, end: float) -> float:
    """Seconds of voice inside [start, end]."""
    return sum(max(0.0, min(end, b) - max(start, a)) for a, b in voiced if b > start and a < end)


@dataclass(frozen=True)
class SpeechFigures:
    seat: int
    day: int
    start: float  # seconds from the start of the sound
    end: float
    limit: int
    talk: float
    silence: float
    over: float
    after: float

    @property
    def timed(self) -> float:
        return self.end - self.start

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "day": self.day,
            "start": round(self.start, 2),
            "end": round(self.end, 2),
            "limit": self.limit,
            "talk": round(self.talk, 2),
            "silence": round(self.silence, 2),
            "over": round(self.over, 2),
            "after": round(self.after, 2),
        }


@dataclass(frozen=True)
class Alignment:
    speeches: list[SpeechFigures]
    outside: float  # voice during the speeches' span that was in no slot
    unheard: int  # speeches the recording does not cover

    def by_seat(self) -> dict[int, dict[str, float]]:
        totals: dict[int, dict[str, float]] = {}
        for speech in self.speeches:
            row = totals.setdefault(
                speech.seat, {"speeches": 0, "talk": 0.0, "silence": 0.0, "over": 0.0, "after": 0.0}
            )
            row["speeches"] += 1
            for key in ("talk", "silence", "over", "after"):
                row[key] = round(row[key] + getattr(speech, key), 2)
        return dict(sorted(totals.items()))


def _speeches(events: Sequence[Mapping[str, Any]]) -> list[tuple[int, Mapping[str, Any]]]:
    """The speech events, each with the day it was given on (0 before day 1)."""
    day, found = 0, []
    for event in events:
        if event.get("type") == "day":
            day = int(event.get("n") or day)
        elif event.get("type") == "speech":
            found.append((day, event))
    return found


def align(
    voiced: Sequence[Sequence[float]],
    events: Sequence[Mapping[str, Any]],
    started_at: datetime,
    duration: float,
) -> Alignment:
    """The figures of every speech the recording covers."""
    timed = []
    unheard = 0
    for day, event in _speeches(events):
        start = (datetime.fromisoformat(event["start"]) - started_at).total_seconds()
        end = (datetime.fromisoformat(event["end"]) - started_at).total_seconds()
        if end <= 0 or start >= duration:
            unheard += 1
            continue
        timed.append((day, event, start, end))
    timed.sort(key=lambda item: item[2])
    speeches = []
    for index, (day, event, start, end) in enumerate(timed):
        limit = int(event["limit"])
        talk = voiced_within(voiced, start, end)
        following = timed[index + 1][2] if index + 1 < len(timed) else end + AFTER_WINDOW
        speeches.append(
            SpeechFigures(
                seat=int(event["seat"]),
                day=day,
                start=start,
                end=end,
                limit=limit,
                talk=talk,
                silence=max(0.0, end - start - talk),
                over=voiced_within(voiced, start + limit, end),
                after=voiced_within(voiced, end, max(end, min(end + AFTER_WINDOW, following))),
            )
        )
    outside = 0.0
    if speeches:
        span = voiced_within(voiced, speeches[0].start, max(s.end for s in speeches))
        outside = max(0.0, span - sum(s.talk for s in speeches))
    return Alignment(speeches, round(outside, 2), unheard)


def places(
    events: Sequence[Mapping[str, Any]], started_at: datetime, duration: float
) -> tuple[list[tuple[int, float, float]], list[tuple[float, float]]]:
    """Where the protocol puts the voices on the recording's time line: every speech's
    window (seat, start, end in seconds) and every night (start, end), a night lasting from
    its `night` event to the next `day` (events without their moment `at` are skipped)."""
    windows, nights = protocol_times(events, started_at)
    covered = [(seat, a, b) for seat, a, b in windows if b > 0 and a < duration]
    until = [(a, duration if b is None else b) for a, b in nights]
    return covered, [(a, b) for a, b in until if b > 0 and a < duration]


def protocol_times(
    events: Sequence[Mapping[str, Any]], started_at: datetime
) -> tuple[list[tuple[int, float, float]], list[tuple[float, float | None]]]:
    """The protocol's speech windows (seat, start, end) and nights (start, end; None for a
    night no `day` followed) in seconds from `started_at`, wherever they fall."""

    def second(moment: object) -> float | None:
        try:
            return (datetime.fromisoformat(str(moment)) - started_at).total_seconds()
        except ValueError:
            return None

    windows = []
    for event in events:  # a speech, or a last word: one known seat has the floor
        if event.get("type") not in ("speech", "last_word") or "start" not in event:
            continue
        start, end = second(event["start"]), second(event.get("end"))
        if start is not None and end is not None:
            windows.append((int(event["seat"]), start, end))
    nights: list[tuple[float, float | None]] = []
    night_from: float | None = None
    for event in events:
        moment = second(event["at"]) if "at" in event else None
        if moment is None:
            continue
        if event.get("type") == "night":
            night_from = moment
        elif event.get("type") == "day" and night_from is not None:
            nights.append((night_from, moment))
            night_from = None
    if night_from is not None:
        nights.append((night_from, None))
    return windows, nights


# When the host is heard, by the protocol: announcing a phase just after it starts, and
# calling the votes just before their count is recorded (seconds around the event's `at`).
ANNOUNCED = {"day": (0.0, 4.0), "night": (0.0, 4.0), "votes": (-4.0, 0.0), "hands": (-4.0, 0.0)}


def announcements(
    events: Sequence[Mapping[str, Any]], started_at: datetime, duration: float
) -> list[tuple[float, float]]:
    """Where the host's own voice is expected on the recording's time line: what teaches
    the analysis the host's voice, so that it is never given to a seat."""
    found = []
    for event in events:
        around = ANNOUNCED.get(str(event.get("type")))
        if around is None or "at" not in event:
            continue
        try:
            moment = (datetime.fromisoformat(str(event["at"])) - started_at).total_seconds()
        except ValueError:
            continue
        start, end = moment + around[0], moment + around[1]
        if end > 0 and start < duration:
            found.append((max(0.0, start), min(duration, end)))
    return found
