"""What a voice sounds like, frame by frame: mel-frequency cepstral coefficients (MFCC) of
the same 32 ms frames the voice activity detector reads (vad.FRAME), so the two line up
one to one. Plain numpy: a window, an FFT, a mel filterbank, a log and a DCT; an hour of
sound is a few seconds of work and 9 MB of features.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

import numpy as np

from games.recordings.audio.decode import RATE
from games.recordings.audio.vad import FRAME

MEL_BANDS = 40
CEPSTRA = 20  # c1…c20: c0 (the loudness) says more about the distance to the phone
FEATURES = CEPSTRA + 2  # and the pitch (its log) and the periodicity
LOW_HZ, HIGH_HZ = 60.0, 7600.0


def _mel(hz: np.ndarray) -> np.ndarray:
    return 2595.0 * np.log10(1.0 + hz / 700.0)


def _hz(mel: np.ndarray) -> np.ndarray:
    return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)


@cache
def _filterbank() -> np.ndarray:
    """Triangular mel filters over the rfft's bins: (FRAME // 2 + 1, MEL_BANDS)."""
    bins = np.fft.rfftfreq(FRAME, 1.0 / RATE)
    edges = _hz(np.linspace(_mel(np.array(LOW_HZ)), _mel(np.array(HIGH_HZ)), MEL_BANDS + 2))
    bank = np.zeros((bins.size, MEL_BANDS), dtype=np.float32)
    for band in range(MEL_BANDS):
        low, centre, high = edges[band : band + 3]
        rising = (bins - low) / (centre - low)
        falling = (high - bins) / (high - centre)
        bank[:, band] = np.clip(np.minimum(rising, falling), 0.0, None)
    return bank


@cache
def _dct() -> np.ndarray:
    """The orthonormal DCT-II rows c1…c20 over the mel bands: (MEL_BANDS, CEPSTRA)."""
    k = np.arange(1, CEPSTRA + 1)[None, :]
    n = np.arange(MEL_BANDS)[:, None]
    rows: np.ndarray = np.sqrt(2.0 / MEL_BANDS) * np.cos(np.pi * k * (2 * n + 1) / (2 * MEL_BANDS))
    return rows.astype(np.float32)


@cache
def _window() -> np.ndarray:
    return np.hamming(FRAME).astype(np.float32)


MIN_PITCH, MAX_PITCH = 60.0, 400.0  # Hz: the range of speaking voices
PITCH_LAGS = (int(RATE / MAX_PITCH), int(RATE / MIN_PITCH))


def mfcc(block: np.ndarray) -> np.ndarray:
    """The features of each FRAME of a 16 kHz mono block (the last frame zero-padded):
    (frames, FEATURES) float32: the MFCC c1…c20, then the pitch's log (Hz) and how
    periodic the frame is (0…1), from the frame's autocorrelation."""
    count = -(-block.size // FRAME)
    frames = np.zeros((count, FRAME), dtype=np.float32)
    frames.reshape(-1)[: block.size] = block
    windowed = frames * _window()
    # The autocorrelation (through a zero-padded FFT): the pitch is its highest peak among
    # the speaking voices' lags; the peak's height over the frame's energy, periodicity.
    spectrum = np.fft.rfft(windowed, n=2 * FRAME, axis=1)
    correlation = np.fft.irfft(np.abs(spectrum) ** 2, axis=1)[:, :FRAME]
    low, high = PITCH_LAGS
    lag = low + correlation[:, low:high].argmax(axis=1)
    peak = correlation[np.arange(count), lag]
    periodic = np.clip(peak / (correlation[:, 0] + 1e-9), 0.0, 1.0)
    pitch = np.log(RATE / lag)
    # Pre-emphasis lifts the high formants, as speaker recognition usually does.
    emphasised = frames.copy()
    emphasised[:, 1:] -= 0.97 * frames[:, :-1]
    power = np.abs(np.fft.rfft(emphasised * _window(), axis=1)) ** 2
    logmel = np.log(power.astype(np.float32) @ _filterbank() + 1e-6)
    return np.column_stack([logmel @ _dct(), pitch, periodic]).astype(np.float32)


def frames_mfcc(sound: Iterable[np.ndarray]) -> np.ndarray:
    """The MFCC of a whole recording given as blocks (each a multiple of FRAME but the
    last, as decode.blocks hands them): (frames, CEPSTRA)."""
    found = [mfcc(block) for block in sound if block.size]
    return np.concatenate(found) if found else np.zeros((0, FEATURES), dtype=np.float32)
