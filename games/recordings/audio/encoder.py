"""A voice as 256 numbers: Resemblyzer's speaker encoder (a d-vector network: three LSTM
layers over 40 mel bands, a linear layer, ReLU, unit length), run in numpy.

The weights ship inside the resemblyzer wheel (`resemblyzer/pretrained.pt`, Apache-2.0),
which pyproject pins exactly; the package itself imports torch and librosa, which the club
never installs, so the file is found with `importlib.util.find_spec` (nothing imported) and
read here: it is a legacy (pre-zip) torch checkpoint — a few pickles followed by the raw
float32 storages — read by an unpickler that knows only the three names such a state dict
uses and refuses anything else. A file that differs from the one measured is refused
(WEIGHTS_SHA256). The network is small enough that numpy runs it as fast as onnxruntime's
LSTM would (docs/audio.md: rtf ~0.01 an hour on one core), so no model is built or cached:
reading the weights takes a tenth of a second.

The mel spectrogram is librosa's `melspectrogram` as Resemblyzer calls it (25 ms Hann
windows every 10 ms, centred, power, 40 Slaney mel bands, not a logarithm), checked against
librosa and the torch network in tests/games/recordings/test_encoder.py.
"""

from __future__ import annotations

import collections
import hashlib
import importlib.util
import pickle
import struct
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from games.recordings.audio.decode import RATE

WINDOW = 400  # samples: 25 ms
HOP = 160  # samples: 10 ms
HOP_SECONDS = HOP / RATE
BANDS = 40
HIDDEN = 256
LAYERS = 3
LOUDNESS = 10 ** (-30 / 10)  # Resemblyzer's -30 dBFS: every context is brought to it
BATCH = 256  # contexts run through the network at once (memory stays ~10 MB)

WEIGHTS_SHA256 = "39373b86598fa3da9fcddee6142382efe09777e8d37dc9c0561f41f0070f134e"


class EncoderMissing(RuntimeError):
    """The pinned resemblyzer wheel (its weights) is not installed, or is not the one
    measured."""


def weights_path() -> Path:
    spec = importlib.util.find_spec("resemblyzer")
    if spec is None or not spec.submodule_search_locations:
        raise EncoderMissing("The resemblyzer package (its bundled weights) is not installed.")
    path = Path(next(iter(spec.submodule_search_locations))) / "pretrained.pt"
    if not path.is_file() or _sha256(path) != WEIGHTS_SHA256:
        raise EncoderMissing(f"{path} is not the speaker encoder the club measured.")
    return path


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for piece in iter(lambda: file.read(1 << 20), b""):
            digest.update(piece)
    return digest.hexdigest()


class _TensorRef:
    """What torch._utils._rebuild_tensor_v2 is given: where a tensor lies in a storage."""

    def __init__(
        self, storage: str, offset: int, size: Sequence[int], stride: Sequence[int], *_: Any
    ):
        self.storage, self.offset, self.size, self.stride = (
            storage,
            offset,
            tuple(size),
            tuple(stride),
        )


class _CheckpointReader(pickle.Unpickler):
    """A legacy torch checkpoint's pickle, knowing only what a float32 state dict uses."""

    ALLOWED = {
        ("collections", "OrderedDict"): collections.OrderedDict,
        ("torch._utils", "_rebuild_tensor_v2"): _TensorRef,
        ("torch", "FloatStorage"): "float32",
    }

    def find_class(self, module: str, name: str) -> Any:
        try:
            return self.ALLOWED[(module, name)]
        except KeyError:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a state dict") from None

    def persistent_load(self, pid: Any) -> str:
        kind, dtype, key, _location, _size, view = pid
        if kind != "storage" or dtype != "float32" or view is not None:
            raise pickle.UnpicklingError(f"unexpected storage {pid!r}")
        return str(key)


def read_checkpoint(path: Path) -> dict[str, np.ndarray]:
    """The model's state dict as numpy arrays (torch's legacy format: magic number,
    protocol, system info, the object, the storages' keys, then each storage's length and
    bytes in that order)."""
    with path.open("rb") as file:
        for _header in range(3):
            _CheckpointReader(file).load()
        checkpoint = _CheckpointReader(file).load()
        keys = _CheckpointReader(file).load()
        storages = {}
        for key in keys:
            (count,) = struct.unpack("<q", file.read(8))
            storages[key] = np.frombuffer(file.read(4 * count), dtype="<f4")
    arrays = {}
    for name, ref in checkpoint["model_state"].items():
        storage = storages[ref.storage]
        view = np.lib.stride_tricks.as_strided(
            storage[ref.offset :], shape=ref.size, strides=tuple(4 * s for s in ref.stride)
        )
        arrays[name] = np.ascontiguousarray(view, dtype=np.float32)
    return arrays


class _Network:
    """The encoder's arithmetic: PyTorch's LSTM (gates i, f, g, o), all three layers
    stepped together so no layer's outputs are held for the whole sequence."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.layers = []
        for layer in range(LAYERS):
            stacked = np.concatenate(
                [weights[f"lstm.weight_ih_l{layer}"], weights[f"lstm.weight_hh_l{layer}"]], axis=1
            )
            bias = weights[f"lstm.bias_ih_l{layer}"] + weights[f"lstm.bias_hh_l{layer}"]
            # The sigmoid gates' rows halved: sigmoid(x) = (tanh(x / 2) + 1) / 2, one tanh.
            scale = np.ones(4 * HIDDEN, dtype=np.float32)
            scale[: 2 * HIDDEN] = 0.5
            scale[3 * HIDDEN :] = 0.5
            self.layers.append(
                (
                    np.ascontiguousarray((stacked * scale[:, None]).T),
                    (bias * scale).astype(np.float32),
                )
            )
        self.linear = np.ascontiguousarray(weights["linear.weight"].T)
        self.linear_bias = weights["linear.bias"]

    def __call__(self, mels: np.ndarray) -> np.ndarray:
        """(batch, frames, BANDS) mel power → (batch, 256) unit vectors."""
        batch, frames, _ = mels.shape
        states = [
            (np.zeros((batch, HIDDEN), np.float32), np.zeros((batch, HIDDEN), np.float32))
            for _ in range(LAYERS)
        ]
        for step in range(frames):
            given = mels[:, step]
            for layer, (matrix, bias) in enumerate(self.layers):
                hidden, cell = states[layer]
                gates = np.concatenate((given, hidden), axis=1) @ matrix
                gates += bias
                np.tanh(gates, out=gates)
                sig = gates[:, : 2 * HIDDEN]
                sig += 1.0
                sig *= 0.5
                out_gate = gates[:, 3 * HIDDEN :]
                out_gate += 1.0
                out_gate *= 0.5
                cell = (
                    gates[:, HIDDEN : 2 * HIDDEN] * cell
                    + gates[:, :HIDDEN] * gates[:, 2 * HIDDEN : 3 * HIDDEN]
                )
                hidden = out_gate * np.tanh(cell)
                states[layer] = (hidden, cell)
                given = hidden
        embedded = np.maximum(given @ self.linear + self.linear_bias, 0.0)
        norms = np.linalg.norm(embedded, axis=1, keepdims=True)
        result: np.ndarray = embedded / np.maximum(norms, 1e-12)
        return result


@cache
def network() -> _Network:
    return _Network(read_checkpoint(weights_path()))


# --- The mel spectrogram, as librosa computes it for Resemblyzer ----------------------------


def _slaney_mel(hz: np.ndarray) -> np.ndarray:
    """Slaney's mel scale (librosa's default): linear to 1 kHz, logarithmic above."""
    step = np.log(6.4) / 27.0
    return np.where(hz >= 1000.0, 15.0 + np.log(np.maximum(hz, 1e-10) / 1000.0) / step, hz * 0.015)


def _slaney_hz(mel: np.ndarray) -> np.ndarray:
    step = np.log(6.4) / 27.0
    return np.where(mel >= 15.0, 1000.0 * np.exp(step * (mel - 15.0)), mel / 0.015)


@cache
def _filterbank() -> np.ndarray:
    """(WINDOW // 2 + 1, BANDS): triangles between Slaney mel points 0…8 kHz, each
    normalised by its width (librosa's norm="slaney")."""
    bins = np.fft.rfftfreq(WINDOW, 1.0 / RATE)
    points = _slaney_hz(
        np.linspace(_slaney_mel(np.array(0.0)), _slaney_mel(np.array(RATE / 2)), BANDS + 2)
    )
    widths = np.diff(points)
    ramps = points[:, None] - bins[None, :]
    bank = np.zeros((BANDS, bins.size))
    for band in range(BANDS):
        rising = -ramps[band] / widths[band]
        falling = ramps[band + 2] / widths[band + 1]
        bank[band] = np.maximum(0.0, np.minimum(rising, falling))
    bank *= (2.0 / (points[2 : BANDS + 2] - points[:BANDS]))[:, None]
    return bank.T.astype(np.float32)


@cache
def _hann() -> np.ndarray:
    return (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(WINDOW) / WINDOW)).astype(np.float32)


def _frames(padded: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mel power and mean square of every full window of `padded` (hop HOP)."""
    count = 1 + (padded.size - WINDOW) // HOP
    if count <= 0:
        return np.zeros((0, BANDS), np.float32), np.zeros(0, np.float32)
    windows = np.lib.stride_tricks.as_strided(
        padded, shape=(count, WINDOW), strides=(HOP * padded.strides[0], padded.strides[0])
    )
    spectrum = np.abs(np.fft.rfft(windows * _hann(), axis=1)) ** 2
    power = np.einsum("ij,ij->i", windows, windows) / WINDOW
    return (spectrum.astype(np.float32) @ _filterbank()), power.astype(np.float32)


class MelFrames:
    """The recording's mel frames, fed block by block as the decoder hands them (a frame
    every 10 ms, centred on its moment, the sound padded with zeros at both ends as librosa
    pads it): an hour is 360,000 frames, 59 MB."""

    def __init__(self) -> None:
        self._pending = np.zeros(WINDOW // 2, np.float32)
        self._mels: list[np.ndarray] = []
        self._powers: list[np.ndarray] = []

    def feed(self, block: np.ndarray) -> None:
        joined = np.concatenate((self._pending, block.astype(np.float32, copy=False)))
        mels, powers = _frames(joined)
        self._mels.append(mels)
        self._powers.append(powers)
        self._pending = joined[len(powers) * HOP :]

    def finish(self) -> tuple[np.ndarray, np.ndarray]:
        """(frames, BANDS) mel power and (frames,) mean square."""
        self.feed(np.zeros(WINDOW // 2, np.float32))
        mels = np.concatenate(self._mels) if self._mels else np.zeros((0, BANDS), np.float32)
        powers = np.concatenate(self._powers) if self._powers else np.zeros(0, np.float32)
        self._mels, self._powers = [], []
        return mels, powers


def mel_frames(sound: Iterable[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    frames = MelFrames()
    for block in sound:
        frames.feed(block)
    return frames.finish()


def embed(mels: np.ndarray, powers: np.ndarray, spans: Sequence[tuple[float, float]]) -> np.ndarray:
    """One unit vector per span of seconds (its mel frames, brought to -30 dBFS as
    Resemblyzer's preprocessing does): (spans, 256). Spans of one length run together."""
    net = network()
    found = np.zeros((len(spans), HIDDEN), np.float32)
    ranges = [
        (max(0, round(a / HOP_SECONDS)), min(len(mels), round(b / HOP_SECONDS))) for a, b in spans
    ]
    by_length: dict[int, list[int]] = {}
    for index, (first, last) in enumerate(ranges):
        if last > first:
            by_length.setdefault(last - first, []).append(index)
    for length, indexes in by_length.items():
        for start in range(0, len(indexes), BATCH):
            chosen = indexes[start : start + BATCH]
            batch = np.stack([mels[ranges[i][0] : ranges[i][0] + length] for i in chosen])
            loudness = np.stack([powers[ranges[i][0] : ranges[i][0] + length] for i in chosen])
            batch *= (LOUDNESS / np.maximum(loudness.mean(axis=1), 1e-10))[:, None, None]
            found[chosen] = net(batch)
    return found
