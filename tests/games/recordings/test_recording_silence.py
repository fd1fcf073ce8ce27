"""Silence costs the voice detector nothing: digital silence is skipped (the model hears a
second of it, and half a second again before the sound comes back), subnormal samples never
reach the model, and sound with a room's noise is all heard, so the figures of real
recordings do not move."""

import hashlib
from typing import Any

import numpy as np
import pytest

from games.recordings.audio import vad
from tests.sound import RATE, quiet, speech


class CountingModel:
    """Silero's session, counting the frames it is given and the smallest non-zero
    sample among them."""

    def __init__(self, session: Any) -> None:  # an onnxruntime.InferenceSession (untyped)
        self.session = session
        self.frames = 0
        self.smallest = np.inf

    def run(self, names: list[str], feeds: dict[str, np.ndarray]) -> Any:
        given = feeds["input"]
        self.frames += len(given)
        nonzero = np.abs(given[given != 0])
        if nonzero.size:
            self.smallest = min(self.smallest, float(nonzero.min()))
        return self.session.run(names, feeds)


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch) -> CountingModel:
    counting = CountingModel(vad._session())
    monkeypatch.setattr(vad, "_session", lambda: counting)
    return counting


def in_blocks(sound: np.ndarray) -> list[np.ndarray]:
    return [sound[i : i + vad.BLOCK_SAMPLES] for i in range(0, sound.size, vad.BLOCK_SAMPLES)]


def test_digital_silence_costs_the_model_nothing(model: CountingModel) -> None:
    rng = np.random.default_rng(6)
    silence = np.zeros(10 * 60 * RATE, dtype=np.float32)
    voice = speech(rng, 20) + quiet(rng, 20)  # speech over room noise
    probs = vad.probabilities(in_blocks(np.concatenate([silence, voice, silence])))
    heard = voice.size / vad.FRAME
    around = 2 * round(2 / vad.FRAME_SECONDS)  # the model hears 2 s of silence at most
    assert model.frames <= heard + around < len(probs) / 20
    ((start, end),) = vad.segments(probs)
    assert (start, end) == pytest.approx((600, 620), abs=0.5)


def test_speech_between_digital_silences_is_found_as_it_is(model: CountingModel) -> None:
    """Silences short and long, some across the model's blocks (~16 s): every speech is
    found within half a second, each after its silence's warm-up."""
    rng = np.random.default_rng(9)
    parts, truth, at = [], [], 0.0
    for gap in (0.4, 3, 40, 0.8, 25, 12, 70):
        voice = speech(rng, float(rng.uniform(2, 12)))
        parts += [np.zeros(int(gap * RATE), dtype=np.float32), voice]
        truth.append((at + gap, at + gap + voice.size / RATE))
        at += gap + voice.size / RATE
    probs = vad.probabilities(in_blocks(np.concatenate(parts)))
    found = vad.segments(probs)
    assert len(found) == len(truth)
    assert np.array(found) == pytest.approx(np.array(truth), abs=0.5)
    assert model.frames < 0.4 * len(probs)


def test_sound_with_room_noise_is_all_heard(model: CountingModel) -> None:
    rng = np.random.default_rng(7)
    sound = np.concatenate([quiet(rng, 30), speech(rng, 10), np.zeros(RATE // 2), quiet(rng, 30)])
    probs = vad.probabilities(in_blocks(sound.astype(np.float32)))
    assert model.frames == len(probs)  # nothing skipped: the benches' figures cannot move


def test_subnormal_samples_never_reach_the_model(model: CountingModel) -> None:
    rng = np.random.default_rng(8)
    sound = quiet(rng, 20)
    sound[::2] = np.float32(1e-40)  # the near-silence that slows the model sixtyfold
    vad.probabilities(in_blocks(sound))
    assert model.frames and model.smallest >= np.finfo(np.float32).tiny


def test_the_voice_model_is_the_one_the_club_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    """pyproject pins silero-vad exactly; the model's hash holds it to the file measured, and
    a different file is refused rather than run with thresholds tuned for another."""
    assert hashlib.sha256(vad.model_path().read_bytes()).hexdigest() == vad.MODEL_SHA256
    monkeypatch.setattr(vad, "MODEL_SHA256", "0" * 64)
    with pytest.raises(RuntimeError, match="not the Silero model"):
        vad.model_path()
