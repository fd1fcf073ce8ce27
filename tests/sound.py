"""Recordings made in the tests: speech-like sound (voiced syllables with gliding formants
and consonant bursts, which Silero VAD takes for speech), quiet room noise, and files in the
formats the phones make, encoded by PyAV.

PyAV's ffmpeg encodes every format the club takes but AMR: it carries AMR's decoders and
no encoder (ffmpeg's AMR encoders are the opencore and VisualOn libraries, not built into
the wheels). The tests' AMR recording is therefore a file in tests/data/, made once from
this module's sound by the opencore AMR encoder (tests/data/make_amr.py says how); a 3gp
holding AMR is made from it here by PyAV, which copies its packets into the other
container (`amr_in_3gp`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import av
import numpy as np

RATE = 16_000
VOWELS = [
    (730, 1090, 2440),
    (270, 2290, 3010),
    (300, 870, 2240),
    (530, 1840, 2480),
    (570, 840, 2410),
    (440, 1020, 2240),
    (660, 1720, 2410),
]


@dataclass(frozen=True)
class Encoding:
    """How a file of one kind is written: ffmpeg's container (muxer) and codec, the sample
    rate (opus takes 48 kHz), and what some encoders need besides."""

    container: str
    codec: str
    rate: int
    layout: str = "mono"  # ffmpeg's own vorbis encoder writes only stereo
    bit_rate: int | None = None  # wmav2 has no default
    options: tuple[tuple[str, str], ...] = ()


# By the file name's extension, as the phones name them.
FORMATS = {
    "wav": Encoding("wav", "pcm_s16le", 16_000),
    "m4a": Encoding("mp4", "aac", 44_100),
    "mp4": Encoding("mp4", "aac", 48_000),
    "aac": Encoding("adts", "aac", 44_100),  # a bare AAC stream (ADTS)
    "mp3": Encoding("mp3", "libmp3lame", 44_100),
    "ogg": Encoding("ogg", "libopus", 48_000),
    "opus": Encoding("opus", "libopus", 48_000),  # WhatsApp's and Telegram's voice notes
    # Android's recorders' Ogg Vorbis; ffmpeg's own vorbis encoder is marked experimental.
    "oga": Encoding("ogg", "vorbis", 44_100, "stereo", options=(("strict", "experimental"),)),
    "webm": Encoding("webm", "libopus", 48_000),
    "3gp": Encoding("3gp", "aac", 16_000),
    "3ga": Encoding("3gp", "aac", 44_100),  # Samsung's name for an audio-only 3gp
    "flac": Encoding("flac", "flac", 44_100, "stereo"),
    "aiff": Encoding("aiff", "pcm_s16be", 44_100, "stereo"),
    "aif": Encoding("aiff", "pcm_s16be", 16_000),
    "caf": Encoding("caf", "pcm_s16le", 44_100),  # iOS's recorder's default: PCM in CAF
    "wma": Encoding("asf", "wmav2", 44_100, bit_rate=64_000),
    # An hour of this is 691 MB: the uncompressed recording of a phone set to its best.
    "wav48": Encoding("wav", "pcm_s16le", 48_000, "stereo"),
}


@dataclass(frozen=True)
class Voice:
    """A speaker of the synthetic table: the pitch, the vocal tract's length (a scale of the
    formants), the spectral tilt of the source and its breathiness."""

    pitch: float
    tract: float = 1.0
    tilt: float = 0.0  # dB per octave above 1 kHz, added to the formants' shape
    breath: float = 0.02


def table_voices(count: int = 12) -> list[Voice]:
    """Up to fifteen distinct voices: a grid of pitches, from a deep man's to a high
    woman's, and vocal tract lengths, each with its own tilt and breath."""
    pitches = (100, 135, 180, 240, 300)
    tracts = (0.86, 1.0, 1.16)
    return [
        Voice(
            pitch=pitches[index % len(pitches)],
            tract=tracts[index // len(pitches)],
            tilt=(-3.0, 0.0, 3.0)[index % 3],
            breath=(0.02, 0.06)[index % 2],
        )
        for index in range(count)
    ]


def _syllable(
    rng: np.random.Generator, seconds: float, pitch: float, voice: Voice | None = None
) -> np.ndarray:
    n = int(seconds * RATE)
    t = np.arange(n) / RATE
    f0 = np.linspace(pitch * rng.uniform(0.9, 1.15), pitch * rng.uniform(0.85, 1.1), n)
    phase = np.cumsum(f0 * (1 + 0.02 * np.sin(2 * np.pi * 5.5 * t)) / RATE) % 1.0
    breath = voice.breath if voice else 0.02
    source = phase - 0.5 + rng.normal(0, breath, n)  # a sawtooth: the voice's harmonics
    first: tuple[float, ...] = VOWELS[rng.integers(len(VOWELS))]
    last: tuple[float, ...] = VOWELS[rng.integers(len(VOWELS))]
    if voice is not None:
        first = tuple(f / voice.tract for f in first)
        last = tuple(f / voice.tract for f in last)
    window, hop = 512, 256
    shape = np.hanning(window)
    freqs = np.fft.rfftfreq(window, 1 / RATE)
    out = np.zeros(n)
    tilt: float | np.ndarray = 1.0
    if voice is not None and voice.tilt:
        tilt = 10 ** (voice.tilt * np.log2(np.maximum(freqs, 1000) / 1000) / 20)
    for i in range(0, n - window, hop):
        along = i / n
        formants = [a * (1 - along) + b * along for a, b in zip(first, last, strict=True)]
        gain = tilt * sum(
            0.9**k / (1 + ((freqs - f) / (60 + 30 * k)) ** 2) for k, f in enumerate(formants)
        )
        out[i : i + window] += np.fft.irfft(np.fft.rfft(source[i : i + window] * shape) * gain)
    out *= np.minimum(1, np.minimum(t / 0.03, (seconds - t) / 0.05).clip(0))
    burst = rng.normal(0, 1, int(0.04 * RATE)) * np.hanning(int(0.04 * RATE))
    spectrum = np.fft.rfft(burst) * (np.fft.rfftfreq(burst.size, 1 / RATE) > 2500)
    burst = np.fft.irfft(spectrum, burst.size)
    burst *= 0.3 * np.abs(out).max() / (np.abs(burst).max() + 1e-9)
    return np.concatenate([burst, out])


def speech(rng: np.random.Generator, seconds: float, voice: Voice | None = None) -> np.ndarray:
    """`seconds` of speech-like sound: syllables with an occasional short breath, in
    `voice` (a random pitch when none)."""
    parts: list[np.ndarray] = []
    total = 0.0
    pitch = voice.pitch if voice else rng.uniform(100, 200)
    while total < seconds:
        part = _syllable(rng, rng.uniform(0.12, 0.3), pitch, voice)
        parts.append(part)
        total += part.size / RATE
        if rng.random() < 0.15:
            gap = rng.uniform(0.05, 0.12)
            parts.append(np.zeros(int(gap * RATE)))
            total += gap
    out = np.concatenate(parts)[: int(seconds * RATE)]
    peak = float(np.abs(out).max())
    return (0.4 * out / peak).astype(np.float32)


def quiet(rng: np.random.Generator, seconds: float, level: float = 0.003) -> np.ndarray:
    """Room noise: what a phone hears between speeches."""
    return rng.normal(0, level, int(seconds * RATE)).astype(np.float32)


def script(rng: np.random.Generator, parts: Sequence[tuple[str, float]]) -> np.ndarray:
    """Sound from ("speech" | "quiet", seconds) parts, in order."""
    return np.concatenate(
        [speech(rng, s) if kind == "speech" else quiet(rng, s) for kind, s in parts]
    )


class _Stream:
    """A file written as a stream, never sought back: as a browser's recorder writes, so
    the container's header cannot say the length."""

    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> int:
        self.data += bytes(data)
        return len(data)


def write(path: Path, samples: np.ndarray, kind: str, *, streamed: bool = False) -> Path:
    """Encode 16 kHz mono float32 samples as a file of `kind` (FORMATS); `streamed`, with
    no length in its header."""
    stream = _Stream() if streamed else None
    _encode(str(path) if stream is None else stream, samples, kind)
    if stream is not None:
        path.write_bytes(stream.data)
    return path


def _encode(target: str | _Stream, samples: np.ndarray, kind: str) -> None:
    encoding = FORMATS[kind]
    with av.open(target, "w", format=encoding.container) as container:
        stream = container.add_stream(
            encoding.codec,
            rate=encoding.rate,
            layout=encoding.layout,
            options=dict(encoding.options),
        )
        assert isinstance(stream, av.AudioStream)  # for mypy: an audio codec's stream
        if encoding.bit_rate is not None:
            stream.bit_rate = encoding.bit_rate
        resampler = av.AudioResampler(
            format=stream.format.name, layout=encoding.layout, rate=encoding.rate
        )
        pcm = (samples * 32767).clip(-32768, 32767).astype(np.int16)
        step = RATE  # a second at a time
        for start in range(0, pcm.size, step):
            frame = av.AudioFrame.from_ndarray(
                pcm[None, start : start + step], format="s16", layout="mono"
            )
            frame.sample_rate = RATE
            for out in resampler.resample(frame):
                container.mux(stream.encode(out))
        for out in resampler.resample(None):
            container.mux(stream.encode(out))
        container.mux(stream.encode(None))


def amr_in_3gp(source: Path, path: Path) -> Path:
    """The AMR recording's packets in a 3gp container, as Android's recorders write it
    (PyAV copies them: it cannot encode AMR)."""
    with av.open(str(source)) as amr, av.open(str(path), "w", format="3gp") as out:
        sound = amr.streams.audio[0]
        copy = out.add_stream_from_template(sound)
        for packet in amr.demux(sound):
            if packet.dts is None:  # the demuxer's last, empty packet
                continue
            packet.stream = copy
            out.mux(packet)
    return path
