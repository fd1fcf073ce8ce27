"""A scripted game's sound, made in the tests (and bench/speakers.py): twelve seats speak in
their turns on the host's timer; planted in it are interruptions (another seat talks while
the speaker pauses, or over the speaker), asides between the speeches (the «балаган») and
talk at night, over the room's noise; optionally the host's own voice announcing the phases,
«Дальше» between speeches and the roles' waking inside each night, and a stranger's voice (a
spectator) by night. What was
planted is returned with the sound, so a test can check what the analysis says of each
stretch.

The voices are synthetic (tests/sound.py) unless a bank of recorded ones is given
(bench/speakers.py's real-voice mode); the room is a gain per seat over quiet noise unless
a Room places each seat's sound (distance, echo, a phone's band)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

import numpy as np

from tests.sound import RATE, Voice, quiet, speech, table_voices

START = datetime(2026, 11, 29, 18, 5, tzinfo=UTC)
HOST, STRANGER = 0, -1  # the voices that have no seat, as the banks number them
# When the host speaks inside a night (seconds after its start): «Мафия просыпается»,
# «Мафия засыпает, дон просыпается», «Дон засыпает, шериф просыпается» — clear of the night's
# planted talk (at 10–15 s) and the stranger's (at 25–31 s), so each is checked on its own.
NIGHT_CALLS = (5.5, 17.0, 35.0)


@dataclass(frozen=True)
class Planted:
    start: float  # seconds from the start of the sound
    end: float
    seat: int | None  # who talks (None: the host or a stranger, who have no seat)
    kind: str  # "interruption", "aside", "night", "host" or "stranger"
    during: int | None = None  # whose speech it interrupts
    over: bool = False  # an interruption spoken over the speaker (not in a pause)


@dataclass
class ScriptedGame:
    samples: np.ndarray
    started_at: datetime
    events: list[dict[str, Any]] = field(default_factory=list)
    planted: list[Planted] = field(default_factory=list)


class Banks(Protocol):
    """Each voice's sound, cut into the pieces the script needs: the speeches from one
    part of a voice's material, everything planted from another, so what the analysis
    learns a voice from is never the very sound it is tested on. Voices are numbered by
    seat; HOST and STRANGER are the voices without one."""

    def cut(self, seat: int, seconds: float, *, planted: bool) -> np.ndarray: ...


class SyntheticBanks:
    def __init__(self, rng: np.random.Generator, voices: dict[int, Voice], seconds: float) -> None:
        self.rng = rng
        self.bank = {seat: speech(rng, seconds, voice) for seat, voice in voices.items()}

    def cut(self, seat: int, seconds: float, *, planted: bool) -> np.ndarray:
        bank = self.bank[seat]
        half = bank.size // 2
        lo, hi = (half, bank.size) if planted else (0, half)
        length = min(int(seconds * RATE), hi - lo - 1)
        start = int(self.rng.integers(lo, hi - length))
        return bank[start : start + length]


# A room: how a voice reaches the phone (seat, its dry sound → what is heard), and the
# noise of the room over `seconds`.
type Placing = Callable[[int, np.ndarray], np.ndarray]
type Noise = Callable[[float], np.ndarray]


def _spoken(piece: np.ndarray) -> tuple[float, float]:
    """Where speech begins and ends in a dry piece (seconds): the first and last 20 ms
    whose loudness is over a tenth of the piece's loudest."""
    frame = RATE // 50
    count = max(1, piece.size // frame)
    loudness = np.sqrt((piece[: count * frame].reshape(count, frame) ** 2).mean(axis=1))
    if loudness.max() <= 0:
        return 0.0, piece.size / RATE
    loud = np.flatnonzero(loudness > 0.1 * loudness.max())
    return loud[0] * frame / RATE, min(piece.size, (loud[-1] + 1) * frame) / RATE


def plain_room(rng: np.random.Generator, seats: int, noise: float) -> tuple[Placing, Noise]:
    """The plain room: each seat its own gain, over quiet noise."""
    gain = {seat: float(rng.uniform(0.6, 1.0)) for seat in range(1, seats + 1)}
    gain |= {HOST: 0.9, STRANGER: 0.5}

    def placed(seat: int, piece: np.ndarray) -> np.ndarray:
        return piece * gain[seat]

    def room_noise(seconds: float) -> np.ndarray:
        return quiet(rng, seconds, noise)

    return placed, room_noise


def scripted_game(
    rng: np.random.Generator,
    minutes: float,
    *,
    seats: int = 12,
    speech_seconds: tuple[float, float] = (25, 45),
    interruptions: float = 0.3,  # the share of speeches with one
    night_talk: float = 0.8,  # the share of nights with talk
    noise: float = 0.004,
    banks: Banks | None = None,  # recorded voices (default: synthetic ones)
    room: tuple[Placing, Noise] | None = None,  # default: a gain per seat over quiet noise
    host: bool = False,  # the host announces each phase and says «Дальше» between speeches
    strangers: float = 0.0,  # the share of nights a stranger's voice is heard in
    over_speaker: bool = False,  # interruptions are spoken over the speaker, not in a pause
) -> ScriptedGame:
    if banks is None:
        voices = dict(enumerate(table_voices(seats), 1))
        if host or strangers:
            extra = table_voices(15)
            voices |= {HOST: extra[12], STRANGER: extra[13]}
        banks = SyntheticBanks(rng, voices, seconds=120)
    total = int(minutes * 60 * RATE)
    if room is None:
        room = plain_room(rng, seats, noise)
    placed, room_noise = room
    sound = room_noise(minutes * 60)
    game = ScriptedGame(sound, START)
    clock = 2.0

    def at(seconds: float) -> str:
        return (START + timedelta(seconds=seconds)).isoformat()

    def put(seat: int, start: float, seconds: float, *, planted: bool) -> float:
        return add(placed(seat, banks.cut(seat, seconds, planted=planted)), start)

    def add(piece: np.ndarray, start: float) -> float:
        a = min(total, int(start * RATE))  # talk planted past the end is not heard
        b = min(total, a + piece.size)
        sound[a:b] += piece[: b - a]
        return start + (b - a) / RATE

    def plant(
        who: int,
        start: float,
        seconds: float,
        kind: str,
        during: int | None = None,
        *,
        over: bool = False,
    ) -> float:
        """Another voice planted: what was said runs from its first word to its last (a
        piece of recorded speech may begin or end in a pause), which is what is checked."""
        dry = banks.cut(who, seconds, planted=True)
        first, last = _spoken(dry)
        end = add(placed(who, dry), start)
        seat = who if who > 0 else None
        game.planted.append(
            Planted(start + first, min(end, start + last), seat, kind, during, over)
        )
        return end

    def announce(start: float, seconds: float) -> float:
        return plant(HOST, start, seconds, "host")

    n = 0
    while clock < minutes * 60 - 120:
        n += 1
        game.events.append({"type": "day", "n": n, "at": at(clock)})
        if host:  # «Город просыпается…»
            clock = announce(clock + 0.3, float(rng.uniform(2, 3.5))) + 0.8
        for seat in range(1, seats + 1):
            if clock > minutes * 60 - 60:
                break
            if rng.random() < 0.25:  # an aside between the speeches
                other = int(rng.integers(1, seats + 1))
                end = plant(other, clock + 0.5, float(rng.uniform(2.5, 4)), "aside")
                clock = end + 1.5
            length = float(rng.uniform(*speech_seconds))
            start, stop = clock, clock + length
            game.events.append(
                {"type": "speech", "seat": seat, "start": at(start), "end": at(stop), "limit": 60}
            )
            talk = start + 0.3
            if rng.random() < interruptions:
                first = float(rng.uniform(6, length / 2))
                other = int(rng.choice([s for s in range(1, seats + 1) if s != seat]))
                if over_speaker:  # the speaker goes on; the other talks over them
                    begin = talk + first
                    plant(other, begin, float(rng.uniform(3, 6)), "interruption", seat, over=True)
                else:
                    talk = put(seat, talk, first, planted=False) + 0.4
                    talk = plant(other, talk, float(rng.uniform(3, 6)), "interruption", seat) + 0.4
            put(seat, talk, max(1.0, stop - 0.3 - talk), planted=False)
            clock = stop + float(rng.uniform(1, 2.5))
            if host:  # «Спасибо. Дальше.»
                clock = announce(clock - 0.7, float(rng.uniform(0.6, 1.0))) + 0.7
        game.events.append({"type": "night", "n": n, "at": at(clock)})
        night_end = clock + 45
        if host:  # «Город засыпает…», then the roles woken and sent to sleep inside the night
            announce(clock + 0.3, float(rng.uniform(2, 3.5)))
            for call in NIGHT_CALLS:
                announce(clock + call + float(rng.uniform(0, 1)), float(rng.uniform(1.2, 2.5)))
        if rng.random() < night_talk:
            other = int(rng.integers(1, seats + 1))
            plant(other, clock + 10, float(rng.uniform(3, 5)), "night")
        if strangers and rng.random() < strangers:  # a spectator in the room
            plant(STRANGER, clock + 25, float(rng.uniform(3, 6)), "stranger")
        clock = night_end
    peak = np.abs(sound).max()
    game.samples = (0.8 * sound / peak).astype(np.float32) if peak > 0.8 else sound
    return game
