"""The analysis of an hour of a game's sound: a 60-minute m4a (AAC) recording made here from
speech-like sound and room noise, decoded by PyAV and run through Silero VAD in a fresh
process, as the worker does. Prints one JSON line: audio_seconds, wall_seconds, rtf (wall
time per second of sound), peak_mb (the analysing process's peak resident memory), and
segments. Run: uv run python bench/audio.py
"""

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, log

MINUTES = 60
ANALYSE = """
import json, re, sys, time
sys.path.insert(0, {root!r})
from games.recordings.audio import decode, vad
started = time.perf_counter()
probs = vad.probabilities(decode.blocks(sys.argv[1], vad.BLOCK_SAMPLES))
segments = vad.segments(probs)
wall = time.perf_counter() - started
# VmHWM: this process's own peak (ru_maxrss would carry the parent's over fork and exec).
peak_kb = int(re.search(r"VmHWM:\\s+(\\d+)", open("/proc/self/status").read())[1])
print(json.dumps({{"audio_seconds": round(len(probs) * vad.FRAME_SECONDS, 1),
  "wall_seconds": round(wall, 2), "segments": len(segments),
  "peak_mb": round(peak_kb / 1024, 1)}}))
"""


def main() -> None:
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from tests.sound import script, write

    rng = np.random.default_rng(60)
    # Five minutes of a table: speeches of 20–60 s with pauses, then repeated for the hour.
    parts = []
    for _ in range(6):
        parts += [("speech", float(rng.uniform(20, 45))), ("quiet", float(rng.uniform(2, 8)))]
    five_minutes = script(rng, parts)
    hour = np.tile(five_minutes, int(np.ceil(MINUTES * 60 * 16_000 / five_minutes.size)))
    hour = hour[: MINUTES * 60 * 16_000]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hour.m4a"
        began = time.perf_counter()
        write(path, hour, "m4a")
        log(f"encoded {MINUTES} min of m4a in {time.perf_counter() - began:.0f} s")
        del hour
        run = subprocess.run(
            [sys.executable, "-c", ANALYSE.format(root=str(ROOT)), str(path)],
            capture_output=True,
            text=True,
            check=True,
        )
    figures = json.loads(run.stdout)
    figures["rtf"] = round(figures["wall_seconds"] / figures["audio_seconds"], 4)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
