"""Voice activity with Silero VAD's ONNX model, run by onnxruntime (no torch).

The silero-vad package ships the models but imports torch, which the club never installs
(pyproject's override-dependencies): the bundled "sequence" model is loaded by path. It
takes a block of 32 ms frames (512 samples, each with the previous frame's last 64 as
context) in one call and carries its LSTM state between calls, so an hour of sound is a few
hundred calls. Nothing is downloaded at run time.

Silence costs nothing: digital silence (a muted phone, a recording padded with zeros) is
found with numpy and the model runs only on the rest, so its work follows the sound, not
the recording's length. Subnormal samples are flushed to zero first: on them the model's
arithmetic is some 60 times slower (measured: rtf 0.13 instead of 0.002, a quarter of an
hour for three hours of such near-silence).
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from games.recordings.audio.decode import RATE

FRAME = 512  # samples: 32 ms
CONTEXT = 64
FRAMES_PER_CALL = 512  # ~16 s of sound per call
BLOCK_SAMPLES = FRAME * FRAMES_PER_CALL
FRAME_SECONDS = FRAME / RATE


# The model the thresholds, the benchmarks and the tests were measured with: pyproject pins
# silero-vad exactly, and a model file that differs is refused rather than run.
MODEL_SHA256 = "9ccdacc4719d8aa7e45a77536bfabec45a03ba1f2fad5e241ab4060b24238a85"


def model_path() -> Path:
    spec = importlib.util.find_spec("silero_vad")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("The silero-vad package (its bundled model) is not installed.")
    path = (
        Path(next(iter(spec.submodule_search_locations))) / "data" / "silero_vad_16k_sequence.onnx"
    )
    if hashlib.sha256(path.read_bytes()).hexdigest() != MODEL_SHA256:
        raise RuntimeError(f"{path} is not the Silero model the club measured (MODEL_SHA256).")
    return path


@cache
def _session() -> Any:  # an onnxruntime.InferenceSession (the package has no types)
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.inter_op_num_threads = 1
    options.intra_op_num_threads = 1
    return onnxruntime.InferenceSession(
        str(model_path()), sess_options=options, providers=["CPUExecutionProvider"]
    )


# Digital silence: a frame whose RMS is under one step of 16-bit sound (-90 dBFS). Silero
# hears speech-like sound down to about -85 dBFS (it normalises what it gets), and none
# at -90 dBFS (measured: no frame over 0.02), so nothing the model could hear is skipped.
SILENCE_RMS = 2.0**-15
# The model still hears this much of a silence after sound (its memory fades in ~0.3 s),
# so probabilities fall as they would; only the silence beyond it is skipped.
SILENCE_TAIL = 32  # frames: ~1 s
# Before the sound comes back the model is given this much of the skipped silence again,
# from the state it had when the skipping began: it meets the sound as it would have.
SILENCE_WARM_UP = 16  # frames: ~0.5 s
SUBNORMAL = np.finfo(np.float32).tiny


@dataclass
class _Carried:
    """What one block hands the next: the model's state, the last samples (the next
    frame's context), the length of the silence so far and of its skipped part, and the
    last SILENCE_WARM_UP inputs (the warm-up when the silence spans blocks)."""

    hidden: np.ndarray
    cell: np.ndarray
    context: np.ndarray
    silent_run: int = 0
    skipped_run: int = 0
    recent: np.ndarray = field(default_factory=lambda: np.zeros((0, CONTEXT + FRAME), np.float32))


def probabilities(
    sound: Iterable[np.ndarray], on_block: Callable[[int], None] | None = None
) -> np.ndarray:
    """The speech probability of every 32 ms frame (0 for skipped digital silence).
    `sound` is 16 kHz mono float32 in blocks of BLOCK_SAMPLES (the last may be shorter);
    `on_block(frames_done)` reports."""
    session = _session()
    carried = _Carried(
        hidden=np.zeros((1, 1, 128), dtype=np.float32),
        cell=np.zeros((1, 1, 128), dtype=np.float32),
        context=np.zeros(CONTEXT, dtype=np.float32),
    )
    found: list[np.ndarray] = []
    done = 0
    for block in sound:
        count = -(-block.size // FRAME)
        if count == 0:
            continue
        frames = np.zeros((count, FRAME), dtype=np.float32)
        frames.reshape(-1)[: block.size] = block
        frames[np.abs(frames) < SUBNORMAL] = 0.0
        contexts = np.empty((count, CONTEXT), dtype=np.float32)
        contexts[0] = carried.context
        contexts[1:] = frames[:-1, -CONTEXT:]
        carried.context = frames[-1, -CONTEXT:].copy()
        inputs = np.concatenate((contexts, frames), axis=1)
        found.append(_block_probabilities(session, inputs, frames, carried))
        done += count
        if on_block is not None:
            on_block(done)
    return np.concatenate(found) if found else np.zeros(0, dtype=np.float32)


def _block_probabilities(
    session: Any, inputs: np.ndarray, frames: np.ndarray, carried: _Carried
) -> np.ndarray:
    """One block's probabilities: the model runs on each stretch that is not deep in
    digital silence (one call, on the whole block, when there is none), after a warm-up
    when a skipped silence ends; `carried` goes on to the next block."""
    power = np.einsum("ij,ij->i", frames, frames) / FRAME
    silent_run = _runs(power < SILENCE_RMS**2, carried.silent_run)
    skipped = silent_run > SILENCE_TAIL
    skipped_run = _runs(skipped, carried.skipped_run)
    skipped_before = np.concatenate(([carried.skipped_run], skipped_run[:-1]))
    probs = np.zeros(len(frames), dtype=np.float32)
    heard = np.flatnonzero(~skipped)
    stretches = np.split(heard, np.flatnonzero(np.diff(heard) > 1) + 1) if heard.size else []
    for stretch in stretches:
        first, last = int(stretch[0]), int(stretch[-1]) + 1
        warm = min(SILENCE_WARM_UP, int(skipped_before[first]))
        if warm <= first:
            batch = inputs[first - warm : last]
        else:  # the skipped silence began in an earlier block
            batch = np.concatenate((carried.recent[first - warm :], inputs[:last]))
        values, carried.hidden, carried.cell = session.run(
            ["speech_probs", "hn", "cn"], {"input": batch, "h": carried.hidden, "c": carried.cell}
        )
        probs[first:last] = np.asarray(values, dtype=np.float32).reshape(-1)[warm:]
    carried.silent_run, carried.skipped_run = int(silent_run[-1]), int(skipped_run[-1])
    if len(inputs) < SILENCE_WARM_UP:
        inputs = np.concatenate((carried.recent, inputs))
    carried.recent = inputs[-SILENCE_WARM_UP:].copy()
    return probs


def _runs(flags: np.ndarray, before: int) -> np.ndarray:
    """For each flag, how many flags in a row end there (0 where it is false), counting
    the `before` that ended the previous block."""
    index = np.arange(len(flags))
    last_false = np.maximum.accumulate(np.where(flags, -1, index))
    return np.where(last_false >= 0, index - last_false, before + index + 1)


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
