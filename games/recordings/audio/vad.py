"""Voice activity with Silero VAD's ONNX model, run by onnxruntime (no torch).

The silero-vad package ships the models but imports torch, which the club never installs
(pyproject's override-dependencies): the bundled "sequence" model is loaded by path. It
takes a block of 32 ms frames (512 samples, each with the previous frame's last 64 as
context) in one call and carries its LSTM state between calls, so an hour of sound is a few
hundred calls. Nothing is downloaded at run time.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from games.recordings.audio.decode import RATE

FRAME = 512  # samples: 32 ms
CONTEXT = 64
FRAMES_PER_CALL = 512  # ~16 s of sound per call
BLOCK_SAMPLES = FRAME * FRAMES_PER_CALL
FRAME_SECONDS = FRAME / RATE


def model_path() -> Path:
    spec = importlib.util.find_spec("silero_vad")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("The silero-vad package (its bundled model) is not installed.")
    return (
        Path(next(iter(spec.submodule_search_locations))) / "data" / "silero_vad_16k_sequence.onnx"
    )


@cache
def _session():
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.inter_op_num_threads = 1
    options.intra_op_num_threads = 1
    return onnxruntime.InferenceSession(
        str(model_path()), sess_options=options, providers=["CPUExecutionProvider"]
    )


def probabilities(
    sound: Iterable[np.ndarray], on_block: Callable[[int], None] | None = None
) -> np.ndarray:
    """The speech probability of every 32 ms frame. `sound` is 16 kHz mono float32 in
    blocks of BLOCK_SAMPLES (the last may be shorter); `on_block(frames_done)` reports."""
    session = _session()
    hidden = np.zeros((1, 1, 128), dtype=np.float32)
    cell = np.zeros((1, 1, 128), dtype=np.float32)
    context = np.zeros(CONTEXT, dtype=np.float32)
    found: list[np.ndarray] = []
    done = 0
    for block in sound:
        count = -(-block.size // FRAME)
        if count == 0:
            continue
        frames = np.zeros((count, FRAME), dtype=np.float32)
        frames.reshape(-1)[: block.size] = block
        contexts = np.empty((count, CONTEXT), dtype=np.float32)
        contexts[0] = context
        contexts[1:] = frames[:-1, -CONTEXT:]
        context = frames[-1, -CONTEXT:].copy()
        values, hidden, cell = session.run(
            ["speech_probs", "hn", "cn"],
            {"input": np.concatenate((contexts, frames), axis=1), "h": hidden, "c": cell},
        )
        found.append(np.asarray(values, dtype=np.float32).reshape(-1))
        done += count
        if on_block is not None:
            on_block(done)
    return np.concatenate(found) if found else np.zeros(0, dtype=np.float32)


@dataclass(frozen=True)
class Thresholds:
    """Silero's defaults for turning probabilities into speech, but for the end of a
    segment: the model's memory keeps the probability up for ~0.3 s after a voice stops,
    so a segment ends where it falls below the speech threshold (Silero waits for 0.35),
    and nothing is padded (Silero pads for cutting audio; the club measures durations).
    On the test recordings this puts the ends 0.2–0.35 s after the truth instead of 0.45."""

    speech: float = 0.5
    silence: float = 0.5  # a segment ends below this
    min_speech: float = 0.25  # seconds
    min_silence: float = 0.1
    pad: float = 0.0


def segments(probs: np.ndarray, thresholds: Thresholds = Thresholds()) -> list[tuple[float, float]]:
    """Speech as (start, end) seconds, as Silero's get_speech_timestamps reads them."""
    found: list[tuple[float, float]] = []
    start: int | None = None
    silent_since: int | None = None
    min_silence_frames = thresholds.min_silence / FRAME_SECONDS
    for index, p in enumerate(probs):
        if p >= thresholds.speech:
            silent_since = None
            if start is None:
                start = index
        elif start is not None and p < thresholds.silence:
            if silent_since is None:
                silent_since = index
            if index - silent_since >= min_silence_frames:
                found.append((start * FRAME_SECONDS, silent_since * FRAME_SECONDS))
                start, silent_since = None, None
    if start is not None:
        found.append((start * FRAME_SECONDS, len(probs) * FRAME_SECONDS))
    length = len(probs) * FRAME_SECONDS
    padded = [
        (max(0.0, a - thresholds.pad), min(length, b + thresholds.pad))
        for a, b in found
        if b - a >= thresholds.min_speech
    ]
    merged: list[tuple[float, float]] = []
    for a, b in padded:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return [(round(a, 3), round(b, 3)) for a, b in merged]
