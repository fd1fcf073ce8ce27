"""Make tests/data/game.amr: the figures test's sound (test_recordings.SOUND) as an AMR-NB
recording at 12.2 kbit/s, the mode phones record in. PyAV's ffmpeg has no AMR encoder, so
this calls the opencore-amr library's encoder (Debian's libopencore-amrnb0) through ctypes
and writes the AMR file format (RFC 4867 §5: "#!AMR\\n", then each frame with its header
byte). Run once, from the repository's root:

    apt-get install libopencore-amrnb0
    uv run python tests/data/make_amr.py
"""

from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path

import av
import django
import numpy as np

MODE_12_2 = 7  # enum Mode's MR122
FRAME = 160  # 20 ms at 8 kHz
TARGET = Path(__file__).with_name("game.amr")


def narrowband(samples: np.ndarray, rate: int) -> np.ndarray:
    """16-bit samples at 8 kHz, what AMR-NB encodes (PyAV's resampler low-passes them)."""
    resampler = av.AudioResampler(format="s16", layout="mono", rate=8_000)
    pcm = (samples * 32767).clip(-32768, 32767).astype(np.int16)
    frame = av.AudioFrame.from_ndarray(pcm[None, :], format="s16", layout="mono")
    frame.sample_rate = rate
    parts = [out.to_ndarray().reshape(-1) for out in resampler.resample(frame)]
    parts += [out.to_ndarray().reshape(-1) for out in resampler.resample(None)]
    return np.concatenate(parts)


def encode(pcm: np.ndarray) -> bytes:
    library = ctypes.CDLL("libopencore-amrnb.so.0")
    library.Encoder_Interface_init.restype = ctypes.c_void_p
    library.Encoder_Interface_Encode.argtypes = [
        ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_short),
        ctypes.POINTER(ctypes.c_ubyte), ctypes.c_int,
    ]  # fmt: skip
    library.Encoder_Interface_exit.argtypes = [ctypes.c_void_p]
    state = library.Encoder_Interface_init(0)  # no DTX: every frame is sound, as phones do
    out = bytearray(b"#!AMR\n")
    frame_out = (ctypes.c_ubyte * 64)()
    padded = np.concatenate([pcm, np.zeros(-pcm.size % FRAME, np.int16)])
    for start in range(0, padded.size, FRAME):
        frame_in = np.ascontiguousarray(padded[start : start + FRAME])
        pointer = frame_in.ctypes.data_as(ctypes.POINTER(ctypes.c_short))
        size = library.Encoder_Interface_Encode(state, MODE_12_2, pointer, frame_out, 0)
        out += bytes(frame_out[:size])
    library.Encoder_Interface_exit(state)
    return bytes(out)


def main() -> None:
    sys.path.insert(0, str(Path(__file__).parents[2]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    django.setup()
    from tests.games.recordings.test_recordings import SOUND
    from tests.sound import RATE, script

    sound = script(np.random.default_rng(3), SOUND)  # as test_recordings.sound_file makes it
    TARGET.write_bytes(encode(narrowband(sound, RATE)))
    print(f"{TARGET}: {TARGET.stat().st_size} bytes")


if __name__ == "__main__":
    main()
