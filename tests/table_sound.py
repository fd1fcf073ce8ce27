"""A scripted game's sound, made in the tests (and bench/speakers.py): twelve seats with
distinct synthetic voices speak in their turns on the host's timer; planted in it are
interruptions (another seat talks while the speaker pauses), asides between the speeches
(the «балаган») and talk at night, over the room's noise. What was planted is returned
with the sound, so a test can check what the analysis says of each stretch."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from tests.sound import RATE, Voice, quiet, speech, table_voices

START = datetime(2026, 11, 29, 18, 5, tzinfo=UTC)


@dataclass(frozen=True)
class Planted:
    start: float  # seconds from the start of the sound
    end: float
    seat: int  # who talks
    kind: str  # "interruption", "aside" or "night"
    during: int | None = None  # whose speech it interrupts


@dataclass
class ScriptedGame:
    samples: np.ndarray
    started_at: datetime
    events: list[dict[str, Any]] = field(default_factory=list)
    planted: list[Planted] = field(default_factory=list)


class _Banks:
    """Each seat's voice, synthesized once, cut into the pieces the script needs: the
    speeches from one half of the bank, everything planted from the other, so what the
    analysis learns a voice from is never the very sound it is tested on."""

    def __init__(self, rng: np.random.Generator, voices: list[Voice], seconds: float) -> None:
        self.rng = rng
        self.bank = {seat: speech(rng, seconds, voice) for seat, voice in enumerate(voices, 1)}

    def cut(self, seat: int, seconds: float, *, planted: bool) -> np.ndarray:
        bank = self.bank[seat]
        half = bank.size // 2
        lo, hi = (half, bank.size) if planted else (0, half)
        length = min(int(seconds * RATE), hi - lo - 1)
        start = int(self.rng.integers(lo, hi - length))
        return bank[start : start + length]


def scripted_game(
    rng: np.random.Generator,
    minutes: float,
    *,
    seats: int = 12,
    speech_seconds: tuple[float, float] = (25, 45),
    interruptions: float = 0.3,  # the share of speeches with one
    night_talk: float = 0.8,  # the share of nights with talk
    noise: float = 0.004,
) -> ScriptedGame:
    voices = table_voices(seats)
    banks = _Banks(rng, voices, seconds=120)
    gain = {seat: float(rng.uniform(0.6, 1.0)) for seat in range(1, seats + 1)}
    total = int(minutes * 60 * RATE)
    sound = quiet(rng, minutes * 60, noise)
    game = ScriptedGame(sound, START)
    clock = 2.0

    def at(seconds: float) -> str:
        return (START + timedelta(seconds=seconds)).isoformat()

    def put(seat: int, start: float, seconds: float, *, planted: bool) -> float:
        piece = banks.cut(seat, seconds, planted=planted) * gain[seat]
        a = int(start * RATE)
        b = min(total, a + piece.size)
        sound[a:b] += piece[: b - a]
        return start + (b - a) / RATE

    n = 0
    while clock < minutes * 60 - 120:
        n += 1
        game.events.append({"type": "day", "n": n, "at": at(clock)})
        for seat in range(1, seats + 1):
            if clock > minutes * 60 - 60:
                break
            if rng.random() < 0.25:  # an aside between the speeches
                other = int(rng.integers(1, seats + 1))
                end = put(other, clock + 0.5, float(rng.uniform(2.5, 4)), planted=True)
                game.planted.append(Planted(clock + 0.5, end, other, "aside"))
                clock = end + 1.5
            length = float(rng.uniform(*speech_seconds))
            start, stop = clock, clock + length
            game.events.append(
                {"type": "speech", "seat": seat, "start": at(start), "end": at(stop), "limit": 60}
            )
            talk = start + 0.3
            if rng.random() < interruptions:
                first = float(rng.uniform(6, length / 2))
                talk = put(seat, talk, first, planted=False) + 0.4
                other = int(rng.choice([s for s in range(1, seats + 1) if s != seat]))
                end = put(other, talk, float(rng.uniform(3, 6)), planted=True)
                game.planted.append(Planted(talk, end, other, "interruption", seat))
                talk = end + 0.4
            put(seat, talk, max(1.0, stop - 0.3 - talk), planted=False)
            clock = stop + float(rng.uniform(1, 2.5))
        game.events.append({"type": "night", "n": n, "at": at(clock)})
        night_end = clock + 45
        if rng.random() < night_talk:
            other = int(rng.integers(1, seats + 1))
            end = put(other, clock + 10, float(rng.uniform(3, 5)), planted=True)
            game.planted.append(Planted(clock + 10, end, other, "night"))
        clock = night_end
    peak = np.abs(sound).max()
    game.samples = (0.8 * sound / peak).astype(np.float32) if peak > 0.8 else sound
    return game
