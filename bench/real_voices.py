"""Real people's voices for the who-spoke-when benchmark (bench/speakers.py --real): the 14
read-speech speakers of ../shared/voices/ (LibriSpeech test-other, VCC 2016; their sources
and licences are in that folder's README) seated at the tests' scripted table, and two
rooms for them. The recordings are read from there, never copied into the repository.

- Each speaker's utterances, their edges' silence trimmed to 0.15 s and brought to one
  loudness (the corpora were recorded at different levels; a table is not), are split in
  two: speeches are cut from one part, everything planted (interruptions, asides, night
  talk, the host's announcements) from the other, so the analysis is never tested on the
  sound it learnt a voice from. A piece is utterances of its part in a random order, joined
  with 0.2–0.6 s pauses, from a random place.
- Which speaker sits where, who hosts and who is the stranger is drawn from the seed.
- Rooms: `plain` — each seat its own gain (0.6–1.0) over quiet white noise, as the synthetic
  table; `phone` — a phone lying on the table: each seat at its own distance (0.7–2.5 m)
  with the room's echo (an exponentially decaying tail, RT60 0.3–0.6 s, the same
  reverberant level for all, so the far seats are the more echoic), pink room noise 22 dB
  below the speech, and a phone microphone's band (≈150 Hz–7 kHz).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import av
import numpy as np

from bench.common import ROOT
from tests.sound import RATE
from tests.table_sound import HOST, STRANGER, Noise, Placing, plain_room

__all__ = ["RealBanks", "phone_room", "plain_room"]

VOICES = ROOT.parent / "shared" / "voices"
LOUDNESS = 0.06  # RMS of every utterance's voiced sound
EDGE = 0.15  # seconds of silence kept at an utterance's edges


def _decoded(path: Path) -> np.ndarray:
    resampler = av.AudioResampler(format="flt", layout="mono", rate=RATE)
    parts: list[np.ndarray] = []
    with av.open(str(path)) as container:
        for frame in container.decode(container.streams.audio[0]):
            parts.extend(out.to_ndarray().reshape(-1) for out in resampler.resample(frame))
        parts.extend(out.to_ndarray().reshape(-1) for out in resampler.resample(None))
    return np.concatenate(parts).astype(np.float32)


def _trimmed(sound: np.ndarray) -> np.ndarray:
    """The utterance without the silence at its edges beyond EDGE, at LOUDNESS."""
    frame = 320
    rms = np.sqrt(np.convolve(sound**2, np.ones(frame) / frame, mode="same"))
    loud = np.flatnonzero(rms > 0.1 * rms.max())
    edge = int(EDGE * RATE)
    sound = sound[max(0, loud[0] - edge) : loud[-1] + edge]
    voiced = rms[loud[0] : loud[-1]]
    return (sound * LOUDNESS / max(float(np.sqrt(np.mean(voiced**2))), 1e-6)).astype(np.float32)


@cache
def speakers() -> dict[str, list[np.ndarray]]:
    """Each speaker's utterances, trimmed and levelled."""
    if not VOICES.is_dir():
        raise SystemExit(f"{VOICES} is not here: the real-voice mode reads the recordings from it")
    found = {}
    for corpus in ("librispeech-test-other", "vcc2016"):
        for folder in sorted((VOICES / corpus).iterdir()):
            if folder.is_dir():
                files = sorted(folder.glob("*.flac"))
                found[f"{corpus}/{folder.name}"] = [_trimmed(_decoded(f)) for f in files]
    return found


class RealBanks:
    """The banks of tests/table_sound.py from recorded voices: seats 1…12, HOST and
    STRANGER are drawn from the 14 speakers."""

    def __init__(self, rng: np.random.Generator, seats: int = 12) -> None:
        names = list(speakers())
        order = rng.permutation(len(names))
        chosen = [names[i] for i in order[: seats + 2]]
        self.names = dict(zip([*range(1, seats + 1), HOST, STRANGER], chosen, strict=True))
        self.rng = rng
        self.parts: dict[int, tuple[list[np.ndarray], list[np.ndarray]]] = {}
        for seat, name in self.names.items():
            utterances = speakers()[name]
            speeches: list[np.ndarray] = []
            planted: list[np.ndarray] = []
            # Longest first, each to the part with less sound so far: two parts of a size.
            for utterance in sorted(utterances, key=len, reverse=True):
                part = speeches if sum(map(len, speeches)) <= sum(map(len, planted)) else planted
                part.append(utterance)
            self.parts[seat] = (speeches, planted)

    def cut(self, seat: int, seconds: float, *, planted: bool) -> np.ndarray:
        part = self.parts[seat][1 if planted else 0]
        need = int(seconds * RATE)
        pieces: list[np.ndarray] = []
        held = 0
        while held < need + 20 * RATE or not pieces:
            for index in self.rng.permutation(len(part)):
                pieces.append(part[index])
                pieces.append(np.zeros(int(self.rng.uniform(0.2, 0.6) * RATE), np.float32))
                held += pieces[-2].size + pieces[-1].size
        joined = np.concatenate(pieces)
        start = int(self.rng.integers(0, max(1, joined.size - need)))
        return joined[start : start + need]


def _convolve(sound: np.ndarray, response: np.ndarray) -> np.ndarray:
    size = sound.size + response.size - 1
    n = 1 << (size - 1).bit_length()
    out = np.fft.irfft(np.fft.rfft(sound, n) * np.fft.rfft(response, n), n)[: sound.size]
    return out.astype(np.float32)


def _phone_band(n: int) -> np.ndarray:
    """A phone microphone's response over rfft bins of size n: ≈150 Hz–7 kHz."""
    freqs = np.fft.rfftfreq(n, 1 / RATE)
    high_pass = (freqs / 150.0) ** 2 / (1 + (freqs / 150.0) ** 2)
    low_pass = 1 / (1 + (freqs / 7000.0) ** 8)
    result: np.ndarray = high_pass * low_pass
    return result


def phone_room(rng: np.random.Generator) -> tuple[Placing, Noise]:
    """A phone on the table: distance, echo, room noise and the microphone's band."""
    responses = {}
    for seat in [*range(1, 13), HOST, STRANGER]:
        distance = 0.6 if seat == HOST else float(rng.uniform(0.7, 2.5))
        rt60 = float(rng.uniform(0.3, 0.6))
        length = int(rt60 * RATE)
        t = np.arange(length) / RATE
        tail = rng.normal(0, 1, length) * np.exp(-6.9 * t / rt60)  # -60 dB at rt60
        tail[: int(0.003 * RATE)] = 0.0  # the first reflections come a few ms after
        tail *= 0.35 / np.sqrt(np.sum(tail**2))  # one reverberant level for the whole room
        response = tail
        delay = int(distance / 343.0 * RATE)
        response = np.concatenate((np.zeros(delay), response))
        response[delay] += 1.0 / distance
        n = 1 << (response.size - 1).bit_length()
        band = np.fft.irfft(np.fft.rfft(response, n) * _phone_band(n), n)[: response.size]
        responses[seat] = band.astype(np.float32)

    def placed(seat: int, piece: np.ndarray) -> np.ndarray:
        return _convolve(piece, responses[seat])

    def room_noise(seconds: float) -> np.ndarray:
        """Pink noise 22 dB below a seat's speech at 1.5 m, through the phone's band."""
        level = LOUDNESS / 1.5 * 10 ** (-22 / 20)
        total = int(seconds * RATE)
        out = np.empty(total, np.float32)
        block = 60 * RATE
        shape = None
        for start in range(0, total, block):
            size = min(block, total - start)
            spectrum = np.fft.rfft(rng.normal(0, 1, size))
            if shape is None or shape.size != spectrum.size:
                freqs = np.fft.rfftfreq(size, 1 / RATE)
                shape = _phone_band(size) / np.sqrt(np.maximum(freqs, 20.0))
            noise = np.fft.irfft(spectrum * shape, size)
            out[start : start + size] = noise * level / np.sqrt(np.mean(noise**2))
        return out

    return placed, room_noise
