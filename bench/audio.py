"""The analysis of an hour of a game's sound: a 60-minute m4a (AAC) recording made here from
speech-like sound and room noise, decoded by PyAV and run through Silero VAD in a fresh
process, as the worker does. Prints one JSON line: audio_seconds, wall_seconds, rtf (wall
time per second of sound, which follows the machine's load), cpu_seconds, cpu_rtf (CPU
seconds per second of sound, every thread counted, games/recordings/audio/cost.py: the
targets are on it), peak_mb (the analysing process's peak resident memory), and segments.
Run: uv run python bench/audio.py

`bench/audio.py silence [hours]`: three hours (or `hours`) of digital silence as ogg/opus,
made here with PyAV, analysed as the worker does (one decoding for the frames' features
and the VAD); the line adds decode_seconds (decoding alone, a separate pass), model_frames
(the frames the VAD model was given) and file_mb. `bench/audio.py subnormal [hours]`: the
same for 20 minutes (or `hours`) of near-silence made of subnormal float32 samples (a
float wav: 20 minutes are 73 MB).
"""

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project, for bench.*

from bench.common import ROOT, log

MINUTES = 60
ANALYSE = """
import json, re, sys
sys.path.insert(0, {root!r})
from games.recordings.audio import cost, decode, vad
clock = cost.Clock()
probs = vad.probabilities(decode.blocks(sys.argv[1], vad.BLOCK_SAMPLES))
segments = vad.segments(probs)
spent = clock.spent()
# VmHWM: this process's own peak (ru_maxrss would carry the parent's over fork and exec).
peak_kb = int(re.search(r"VmHWM:\\s+(\\d+)", open("/proc/self/status").read())[1])
print(json.dumps({{"audio_seconds": round(len(probs) * vad.FRAME_SECONDS, 1),
  "wall_seconds": round(spent.wall, 2), "cpu_seconds": round(spent.cpu, 2),
  "segments": len(segments),
  "peak_mb": round(peak_kb / 1024, 1)}}))
"""
SILENCE = """
import json, re, sys, time
sys.path.insert(0, {root!r})
from games.recordings.audio import cost, decode, features, vad
path = sys.argv[1]
began = time.perf_counter()
samples = sum(block.size for block in decode.blocks(path, vad.BLOCK_SAMPLES))
decoding = time.perf_counter() - began
model, frames = vad._session(), [0]
class Counting:
    def run(self, names, feeds):
        frames[0] += len(feeds["input"])
        return model.run(names, feeds)
vad._session = lambda: Counting()
clock = cost.Clock()
def described(blocks):
    for block in blocks:
        features.mfcc(block)
        yield block
probs = vad.probabilities(described(decode.blocks(path, vad.BLOCK_SAMPLES)))
segments = vad.segments(probs)
spent = clock.spent()
peak_kb = int(re.search(r"VmHWM:\\s+(\\d+)", open("/proc/self/status").read())[1])
print(json.dumps({{"audio_seconds": round(samples / decode.RATE, 1),
  "decode_seconds": round(decoding, 2), "wall_seconds": round(spent.wall, 2),
  "cpu_seconds": round(spent.cpu, 2),
  "model_frames": frames[0], "segments": len(segments), "peak_mb": round(peak_kb / 1024, 1)}}))
"""


def silence(kind: str, hours: float) -> None:
    """`hours` of silence analysed in a fresh process: "silence", digital silence as
    ogg/opus (48 kHz, as phones record it); "subnormal", near-silence of subnormal float32
    samples as a float wav (16 kHz), which some encoders leave where the sound fades out."""
    import av
    import numpy as np

    rng = np.random.default_rng(1)
    if kind == "subnormal":
        name, container_format, codec, rate, sample = "near.wav", "wav", "pcm_f32le", 16_000, "flt"
    else:
        name, container_format, codec, rate, sample = "silence.ogg", "ogg", "libopus", 48_000, "s16"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        began = time.perf_counter()
        with av.open(str(path), "w", format=container_format) as container:
            stream = container.add_stream(codec, rate=rate, layout="mono")
            assert isinstance(stream, av.AudioStream)  # for mypy: an audio codec's stream
            for _ in range(int(hours * 3600)):
                if kind == "subnormal":
                    second = (rng.normal(0, 1e-40, (1, rate))).astype(np.float32)
                else:
                    second = np.zeros((1, rate), dtype=np.int16)
                frame = av.AudioFrame.from_ndarray(second, format=sample, layout="mono")
                frame.sample_rate = rate
                for packet in stream.encode(frame):
                    container.mux(packet)
            for packet in stream.encode(None):
                container.mux(packet)
        log(f"encoded {hours:g} h of {kind} in {time.perf_counter() - began:.0f} s")
        figures = analysed(SILENCE, path)
        figures["file_mb"] = round(path.stat().st_size / 2**20, 1)
    print(json.dumps(figures))


def analysed(snippet: str, path: Path) -> dict[str, Any]:
    """The figures `snippet` prints for the file at `path`, in a fresh process, with rtf
    (wall) and cpu_rtf."""
    from games.recordings.audio.cost import Spent

    run = subprocess.run(
        [sys.executable, "-c", snippet.format(root=str(ROOT)), str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, Any] = json.loads(run.stdout)
    spent = Spent(wall=figures["wall_seconds"], cpu=figures["cpu_seconds"])
    figures["rtf"] = round(spent.rtf(figures["audio_seconds"]), 4)
    figures["cpu_rtf"] = round(spent.cpu_rtf(figures["audio_seconds"]), 4)
    return figures


def main() -> None:
    if sys.argv[1:2] in (["silence"], ["subnormal"]):
        kind = sys.argv[1]
        default = 3.0 if kind == "silence" else 1 / 3
        silence(kind, float(sys.argv[2]) if len(sys.argv) > 2 else default)
        return
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
        figures = analysed(ANALYSE, path)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
