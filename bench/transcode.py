"""An uncompressed recording made small, as the worker does before its analysis: an hour (or
`hours`) of 48 kHz stereo 16-bit WAV — a phone set to its best — made here from the tests'
speech-like sound (five minutes, each copy with its own room noise), then checked by its
header (decode.inspect) and transcoded to the stored form (audio/compact.py) in a fresh
process. Prints one JSON line: audio_seconds, wav_mb, stored_mb, inspect_seconds,
transcode_seconds, rtf (transcoding's wall time per second of sound) and peak_mb (the
transcoding process's peak resident memory). Run: uv run python bench/transcode.py [hours]
"""

import json
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project, for bench.*

from bench.common import ROOT, log

RATE = 48_000
TRANSCODE = """
import json, re, sys, time
sys.path.insert(0, {root!r})
from games.recordings.audio import compact, decode
source, target = sys.argv[1], sys.argv[2]
began = time.perf_counter()
header = decode.inspect(source)
inspected = time.perf_counter() - began
assert not compact.stored_as_uploaded(header, 1)
began = time.perf_counter()
seconds = compact.transcode(source, target)
wall = time.perf_counter() - began
peak_kb = int(re.search(r"VmHWM:\\s+(\\d+)", open("/proc/self/status").read())[1])
print(json.dumps({{"audio_seconds": round(seconds, 1), "inspect_seconds": round(inspected, 3),
  "transcode_seconds": round(wall, 1), "peak_mb": round(peak_kb / 1024, 1)}}))
"""


def wav48(path: Path, hours: float) -> None:
    """`hours` of the tests' table sound as 48 kHz stereo 16-bit WAV, written in pieces."""
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from tests.sound import script

    rng = np.random.default_rng(48)
    parts: list[tuple[str, float]] = []
    while sum(seconds for _kind, seconds in parts) < 300:
        parts += [("speech", float(rng.uniform(5, 40))), ("quiet", float(rng.uniform(2, 20)))]
    five = script(rng, parts)[: 300 * 16_000]
    five = np.interp(np.arange(five.size * 3) / 3, np.arange(five.size), five)  # to 48 kHz
    with wave.open(str(path), "wb") as out:
        out.setnchannels(2)
        out.setsampwidth(2)
        out.setframerate(RATE)
        for _ in range(round(hours * 12)):
            left = five + rng.normal(0, 0.002, five.size)
            right = 0.9 * five + rng.normal(0, 0.002, five.size)
            pcm = (np.stack([left, right], 1) * 32767).clip(-32768, 32767).astype("<i2")
            out.writeframes(pcm.tobytes())


def main() -> None:
    hours = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / "game.wav", Path(folder) / "game.m4a"
        began = time.perf_counter()
        wav48(source, hours)
        log(f"wrote {hours:g} h of 48 kHz stereo wav in {time.perf_counter() - began:.0f} s")
        run = subprocess.run(
            [sys.executable, "-c", TRANSCODE.format(root=str(ROOT)), str(source), str(target)],
            capture_output=True,
            text=True,
            check=True,
        )
        figures: dict[str, Any] = json.loads(run.stdout)
        figures["wav_mb"] = round(source.stat().st_size / 2**20, 1)
        figures["stored_mb"] = round(target.stat().st_size / 2**20, 1)
        figures["rtf"] = round(figures["transcode_seconds"] / figures["audio_seconds"], 4)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
