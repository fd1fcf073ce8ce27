"""The speaker encoder (games/recordings/audio/encoder.py) against the reference it stands in
for: librosa's mel spectrogram and Resemblyzer's torch network, computed once on a chirp
(data/encoder_reference.json, made with torch 2.13 and librosa 0.11 outside the project,
which installs neither)."""

from __future__ import annotations

import io
import json
import pickle
from pathlib import Path

import numpy as np
import pytest

from games.recordings.audio import encoder

REFERENCE = json.loads((Path(__file__).parent / "data" / "encoder_reference.json").read_text())


def chirp() -> np.ndarray:
    t = np.arange(32000) / 16000
    rng = np.random.default_rng(7)
    tone = 0.1 * np.sin(2 * np.pi * (150 + 50 * t) * t) + 0.01 * rng.standard_normal(t.size)
    return tone.astype(np.float32)


def test_the_mel_frames_are_librosas_fed_in_any_blocks() -> None:
    frames = encoder.MelFrames()
    sound = chirp()
    for piece in np.array_split(sound, [1, 5000, 5100, 20000]):  # odd block edges
        frames.feed(piece)
    mels, powers = frames.finish()
    assert len(mels) == REFERENCE["mel_frames"] == len(powers)
    for row, expected in REFERENCE["mel_rows"].items():
        np.testing.assert_allclose(mels[int(row)], expected, rtol=1e-4, atol=1e-7)


def test_the_network_gives_the_torch_networks_embeddings() -> None:
    mels, _ = encoder.mel_frames([chirp()])
    net = encoder.network()
    for (first, last), expected in zip(REFERENCE["spans"], REFERENCE["embeddings"], strict=True):
        found = net(mels[None, first:last].copy())[0]
        np.testing.assert_allclose(found, expected, atol=2e-5)
        assert float(np.linalg.norm(found)) == pytest.approx(1.0, abs=1e-5)


def test_embed_ignores_loudness_and_groups_spans_of_any_length() -> None:
    mels, powers = encoder.mel_frames([chirp()])
    quieter_mels, quieter_powers = encoder.mel_frames([chirp() * 0.05])
    spans = [(0.0, 1.0), (0.5, 1.5), (1.2, 1.9), (0.3, 1.3)]
    loud = encoder.embed(mels, powers, spans)
    quiet = encoder.embed(quieter_mels, quieter_powers, spans)
    np.testing.assert_allclose(loud, quiet, atol=1e-4)
    alone = encoder.embed(mels, powers, [spans[2]])
    np.testing.assert_allclose(loud[2], alone[0], atol=1e-6)


def test_a_checkpoint_naming_anything_else_is_refused(tmp_path: Path) -> None:
    """The unpickler knows three names; a pickle calling any other is never run."""
    hostile = io.BytesIO()
    header: object
    for header in (1, 1001, {}):
        pickle.dump(header, hostile)
    pickle.dump({"model_state": print}, hostile)  # builtins.print: not a state dict's
    path = tmp_path / "pretrained.pt"
    path.write_bytes(hostile.getvalue())
    with pytest.raises(pickle.UnpicklingError):
        encoder.read_checkpoint(path)


def test_weights_other_than_the_measured_ones_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "resemblyzer"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "pretrained.pt").write_bytes(b"not the weights")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(encoder.EncoderMissing):
        encoder.weights_path()
    monkeypatch.undo()  # the installed wheel's weights are found again
    assert encoder.weights_path().name == "pretrained.pt"
