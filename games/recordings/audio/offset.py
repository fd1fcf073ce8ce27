"""When the recording started, found from its sound: the protocol's pattern (speeches
voiced, nights and the short gaps between speeches quiet) slid over the voice detector's
output until they match.

The upload says when the phone began recording (the game's start by default), and every
speech window is placed on the recording's time line from that; a start 5 s wrong already
gives false foul suggestions. The protocol's own clock says where the voice must be: the
host's timer runs while someone speaks, the night is quiet. So:

- the sound: the voiced intervals on a 0.1 s grid (the share of each step that is voice),
  less their mean, so that a step the recording does not cover counts for nothing;
- the pattern: +1 inside every speech window, -NIGHT_WEIGHT inside nights, -GAP_WEIGHT in
  the short gaps between one speech and the next, 0 elsewhere (votes, the host's words);
- the score of an offset: the pattern times the sound shifted by it, summed. The pattern is
  a few hundred runs of one weight, and a run's sum over the shifted sound is two reads of
  the sound's prefix sum, so every offset within SEARCH_SECONDS of the given start is
  scored exactly, on the grid, in well under a second for an hour;
- the confidence: how sharply the best offset stands out. A wrong offset that puts most
  speeches on voice scores nearly as much as the right one (a day is talk from end to end);
  only the right one puts every edge in its place. So each offset's tip (its score above
  the mean within NEIGHBOURHOOD_SECONDS) is set against the best rival tip at least
  APART_SECONDS away: 1 when nothing else comes near, 0 for a tie. On the scripted games
  (docs/audio.md) the right offset scores 0.5-0.85 in 10-12 minutes and 0.83-0.88 in an
  hour; another game's sound, talk unrelated to the protocol and noise 0.36 at most (over
  1,140 mismatched pairs); SURE is the line between.

A recording paused and resumed shifts the pattern part-way: the protocol's speeches before
the pause fit one offset and those after it a later one. Every split between two speeches
(PAUSE_SPEECHES or more on each side) is tried, each side fitted on its own; the split
that gains most is a pause when the later side fits more than PAUSE_SECONDS later, both
sides were heard where the single offset put them (a part the recording does not cover
fits anywhere), each side's confidence reaches PAUSE_SURE and one of them SURE. It is
placed on the recording's time line where the first fit gives way to the second. A pause
with fewer speeches than that before or after it is not seen.

Pure numpy, no Django: voiced intervals, the recording's length and the protocol's events in,
an OffsetFound out (bench/speakers.py calls find_offset as the worker does).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from games.recordings.audio.alignment import protocol_times

STEP = 0.1  # seconds: the grid of the sound and the pattern
SEARCH_SECONDS = 30 * 60.0  # offsets tried either side of the given start
NIGHT_WEIGHT = 1.0  # a night is quiet
GAP_WEIGHT = 0.5  # the seconds between two speeches are quiet-ish: the host may speak
GAP_LONGEST = 8.0  # a longer pause between speeches is not a gap (a vote, a discussion)
OPEN_NIGHT = 45.0  # a night the protocol never ends (the game ended in it) counts this long
APART_SECONDS = 5.0  # a rival offset is at least this far from the best
NEIGHBOURHOOD_SECONDS = 10.0  # a shift's tip: its score above the mean within this
SURE = 0.5  # the confidence from which the found start is claimed (docs/audio.md)
FITS_SECONDS = 1.0  # a given start within this of the sound's fits it
PAUSE_SECONDS = 2.0  # a smaller jump of the pattern is not a pause
PAUSE_SPEECHES = 3  # speeches each side of a pause needs to be fitted on its own
PAUSE_SURE = 0.3  # the confidence each side of a pause needs (one of them SURE)


@dataclass(frozen=True)
class Pause:
    """The recording was paused and resumed: from `at_seconds` of the sound on, the
    protocol fits `seconds` later than before (the game's time the recording missed)."""

    at_seconds: float  # the recording's second where the later fit begins
    earliest: float  # the jump is somewhere between these seconds of the recording
    latest: float
    seconds: float  # the later part's offset minus the earlier's
    offset_after: float  # the later part's offset from the given start
    confidence_after: float

    def as_dict(self) -> dict[str, float]:
        return {
            "at": round(self.at_seconds, 1),
            "earliest": round(self.earliest, 1),
            "latest": round(self.latest, 1),
            "seconds": round(self.seconds, 1),
            "offset_after": round(self.offset_after, 1),
            "confidence_after": round(self.confidence_after, 2),
        }


@dataclass(frozen=True)
class OffsetFound:
    """Where the protocol fits the sound. `offset_seconds`: the sound's start minus the
    given start (positive: the recording began later than given); with a pause, the part
    before it. `sure`: the confidence reaches SURE, so the offset is claimed; `fits_given`:
    the given start is within FITS_SECONDS of it (None when not sure)."""

    offset_seconds: float
    confidence: float
    sure: bool
    fits_given: bool | None
    pause: Pause | None
    speeches: int  # the speech windows the pattern held


NOT_FOUND = OffsetFound(0.0, 0.0, False, None, None, 0)


@dataclass(frozen=True)
class _Pattern:
    """The protocol as runs of one weight on the grid, in steps from the given start;
    `units` groups the runs by speech (a speech's run and the quiet runs after it)."""

    starts: np.ndarray  # int: first step of each run
    ends: np.ndarray  # int: one past its last step
    weights: np.ndarray
    units: list[tuple[int, int]]  # [first run, one past the last run) of each speech
    origin: int  # the step of dense[0]
    dense: np.ndarray  # the weight of every step from origin
    speeches: int


def find_offset(
    voiced: Sequence[Sequence[float]],
    duration: float,
    events: Sequence[Mapping[str, Any]],
    started_at: datetime,
    *,
    search_seconds: float = SEARCH_SECONDS,
) -> OffsetFound:
    """The offset between the recording (its voiced intervals, seconds from its start, and
    its length) and the protocol's `events`, from the `started_at` the upload gave."""
    reach = round(search_seconds / STEP)
    pattern = _pattern(events, started_at, (-search_seconds, duration + search_seconds))
    sound = _sound(voiced, duration)
    if pattern is None or sound is None:
        return NOT_FOUND
    shifts = np.arange(-reach, reach + 1)
    total = np.zeros(shifts.size)
    for first, last in pattern.units:
        total += _curve(pattern, sound, shifts, first, last)
    best = int(np.argmax(total))
    confidence = _confidence(total, best)
    pause = None
    split = _pause(pattern, sound, shifts, total)
    if split is not None:  # the recording's start is the first part's
        (best, confidence), pause = split
    offset = float(shifts[best] * STEP)
    sure = confidence >= SURE
    fits = abs(offset) <= FITS_SECONDS if sure else None
    return OffsetFound(offset, confidence, sure, fits, pause, pattern.speeches)


def _sound(voiced: Sequence[Sequence[float]], duration: float) -> np.ndarray | None:
    """The prefix sum of the voiced share of every step, less its mean (None: no sound)."""
    steps = int(np.ceil(duration / STEP))
    if steps < 2:
        return None
    bounds = np.asarray(voiced, dtype=float).reshape(-1, 2).clip(0, duration)
    if bounds.size == 0:
        return np.zeros(steps + 1)
    bounds = bounds[np.argsort(bounds[:, 0], kind="stable")]
    # Voiced seconds up to t are piecewise linear in t: exact at the grid's edges by interp.
    knots = bounds.reshape(-1)
    upto = np.concatenate(([0.0], np.cumsum(bounds[:, 1] - bounds[:, 0])))
    heard = np.repeat(upto, 2)[1:-1]  # voiced seconds at each knot
    edges = np.arange(steps + 1) * STEP
    share = np.diff(np.interp(edges, knots, heard, left=0.0, right=float(upto[-1]))) / STEP
    return np.concatenate(([0.0], np.cumsum(share - share.mean())))


def _pattern(
    events: Sequence[Mapping[str, Any]], started_at: datetime, within: tuple[float, float]
) -> _Pattern | None:
    """The protocol's pattern, the part of it some shift puts on the recording (`within`,
    seconds from the given start; the rest could never be heard, and a protocol's wild
    moment must not cost a wild array)."""
    lo, hi = within
    windows, nights = protocol_times(events, started_at)
    speeches = sorted(
        (max(a, lo), min(b, hi)) for _seat, a, b in windows if min(b, hi) > max(a, lo)
    )
    if not speeches:
        return None
    closed = [(a, a + OPEN_NIGHT if b is None else b) for a, b in nights]
    closed = [(max(a, lo), min(b, hi)) for a, b in closed if min(b, hi) > max(a, lo)]
    origin = round(min(a for a, _b in [*speeches, *closed]) / STEP)
    dense = np.zeros(round(max(b for _a, b in [*speeches, *closed]) / STEP) - origin + 1)

    def span(a: float, b: float) -> slice:
        return slice(round(a / STEP) - origin, round(b / STEP) - origin)

    for a, b in closed:
        dense[span(a, b)] = -NIGHT_WEIGHT
    for (_a, b), (a, _b) in itertools.pairwise(speeches):
        if 0 < a - b <= GAP_LONGEST and not dense[span(b, a)].any():
            dense[span(b, a)] = -GAP_WEIGHT
    for a, b in speeches:  # a speech wins: a last word said before the night's end is voice
        dense[span(a, b)] = 1.0
    starts, ends, weights = _runs(dense)
    # A speech's unit: the run it begins and the quiet after it, up to the next speech's.
    opening = np.searchsorted(starts, [round(a / STEP) - origin for a, _b in speeches])
    marks = sorted({0, *(int(run) for run in opening if run < starts.size)})
    units = list(zip(marks, [*marks[1:], starts.size], strict=True))
    return _Pattern(starts + origin, ends + origin, weights, units, origin, dense, len(speeches))


def _runs(dense: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The runs of one nonzero weight: first step, one past the last, the weight."""
    change = np.flatnonzero(np.diff(dense)) + 1
    starts = np.concatenate(([0], change))
    ends = np.concatenate((change, [dense.size]))
    weights = dense[starts]
    keep = weights != 0
    return starts[keep], ends[keep], weights[keep]


def _curve(
    pattern: _Pattern, sound: np.ndarray, shifts: np.ndarray, first: int, last: int
) -> np.ndarray:
    """The score of runs [first, last) at every shift: a run over steps [a, b) of the
    pattern reads steps [a - shift, b - shift) of the sound, two reads of its prefix sum."""
    steps = sound.size - 1
    score = np.zeros(shifts.size)
    for run in range(first, last):
        a = np.clip(pattern.starts[run] - shifts, 0, steps)
        b = np.clip(pattern.ends[run] - shifts, 0, steps)
        score += pattern.weights[run] * (sound[b] - sound[a])
    return score


def _confidence(curve: np.ndarray, best: int) -> float:
    """How sharply the best shift stands out: its score above the mean of the scores
    within NEIGHBOURHOOD_SECONDS (its tip), against the best rival tip at least
    APART_SECONDS away, over the tip's height above the median: 0 a tie, 1 nothing near.
    The tip, not the score itself: a wrong shift that puts most speeches on voice scores
    nearly as much, but only the right one puts every edge of them in its place."""
    half = round(NEIGHBOURHOOD_SECONDS / STEP)
    prefix = np.concatenate(([0.0], np.cumsum(curve)))
    index = np.arange(curve.size)
    lo, hi = np.clip(index - half, 0, curve.size), np.clip(index + half + 1, 0, curve.size)
    tip = curve - (prefix[hi] - prefix[lo]) / (hi - lo)
    rivals = tip[np.abs(index - best) >= round(APART_SECONDS / STEP)]
    height = float(tip[best] - np.median(tip))
    if rivals.size == 0 or height <= 1e-9:
        return 0.0
    return float(np.clip((tip[best] - rivals.max()) / height, 0.0, 1.0))


def _splits(
    pattern: _Pattern, sound: np.ndarray, shifts: np.ndarray
) -> Iterator[tuple[int, np.ndarray]]:
    """Each split between two speeches with PAUSE_SPEECHES on either side: the index of the
    first unit after it, and the score of the units before it at every shift."""
    before = np.zeros(shifts.size)
    for index, (first, last) in enumerate(pattern.units[:-PAUSE_SPEECHES]):
        before += _curve(pattern, sound, shifts, first, last)
        if index + 1 >= PAUSE_SPEECHES:
            yield index + 1, before


def _pause(
    pattern: _Pattern, sound: np.ndarray, shifts: np.ndarray, total: np.ndarray
) -> tuple[tuple[int, float], Pause] | None:
    """The best split of the protocol into two parts that fit the sound at offsets more than
    PAUSE_SECONDS apart, both sure: ((the first part's best shift, its confidence), the
    pause), or None."""
    whole = float(total.max())
    found: tuple[float, int, np.ndarray] | None = None
    for unit, before in _splits(pattern, sound, shifts):
        gain = float(before.max()) + float((total - before).max()) - whole
        if found is None or gain > found[0]:
            found = (gain, unit, before.copy())
    if found is None:
        return None
    _gain, unit, before = found
    after = total - before
    first, second = int(np.argmax(before)), int(np.argmax(after))
    sure_first, sure_second = _confidence(before, first), _confidence(after, second)
    jump = float(shifts[second] - shifts[first]) * STEP
    # A pause skips the game's time: the later part fits later. Each part must have been
    # heard where the one offset put it, and not fitted there: a part the recording does
    # not cover (it began late, or ended early) fits anywhere and proves nothing.
    single = int(shifts[int(np.argmax(total))])
    if (
        jump <= PAUSE_SECONDS
        or min(sure_first, sure_second) < PAUSE_SURE
        or max(sure_first, sure_second) < SURE
        or not _heard(pattern, sound, single, 0, unit)
        or not _heard(pattern, sound, single, unit, len(pattern.units))
    ):
        return None
    at, earliest, latest = _where(pattern, sound, int(shifts[first]), int(shifts[second]))
    offset_after = float(shifts[second] * STEP)
    return (first, sure_first), Pause(at, earliest, latest, jump, offset_after, sure_second)


def _heard(pattern: _Pattern, sound: np.ndarray, shift: int, first: int, last: int) -> bool:
    """Whether most of the speech time of units [first, last) falls inside the recording
    at `shift`."""
    runs = range(pattern.units[first][0], pattern.units[last - 1][1])
    speech = [run for run in runs if pattern.weights[run] > 0]
    steps = sound.size - 1
    inside = sum(
        max(0, min(steps, pattern.ends[run] - shift) - max(0, pattern.starts[run] - shift))
        for run in speech
    )
    return bool(2 * inside >= sum(pattern.ends[run] - pattern.starts[run] for run in speech))


def _where(
    pattern: _Pattern, sound: np.ndarray, first: int, second: int
) -> tuple[float, float, float]:
    """Where on the recording's time line the first fit gives way to the second: the step
    that makes the sound before it agree best with the first shift and after it with the
    second, with the stretch of steps that do equally well (within a second of voice)."""
    voice = np.diff(sound)
    steps = np.arange(voice.size)

    def agreement(shift: int) -> np.ndarray:
        at = steps + shift - pattern.origin
        inside = (at >= 0) & (at < pattern.dense.size)
        weight = np.where(inside, pattern.dense[np.clip(at, 0, pattern.dense.size - 1)], 0.0)
        return weight * voice

    lead = np.concatenate(([0.0], np.cumsum(agreement(first) - agreement(second))))
    best = int(np.argmax(lead))
    near = np.flatnonzero(lead >= lead[best] - 1.0 / STEP)
    earliest, latest = int(near.min()), int(near.max())
    return best * STEP, earliest * STEP, latest * STEP
