"""Who spoke when, over an hour-long game: the scripted table of tests/table_sound.py (twelve
synthetic voices, speeches on the host's timer, planted interruptions, asides and night
talk, room noise) encoded as m4a (AAC), then analysed in a fresh process as the worker does:
decoding, voice activity, the frames' features and the attribution. Prints one JSON line:
seats, planted, attributed_right, accuracy, false_fouls (suggested fouls no planted talk
explains, at the default threshold), rtf (the analysing process's wall time per second of
sound, decoding and VAD included) and peak_mb (its peak resident memory).
Run: uv run python bench/speakers.py [minutes]
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

ANALYSE = """
import json, re, sys, time
from datetime import datetime
sys.path.insert(0, {root!r})
import numpy as np
from games.recordings.audio import decode, features, speakers, vad
from games.recordings.audio.alignment import places
started = time.perf_counter()
script = json.load(open(sys.argv[2]))
described = []
def blocks():
    for block in decode.blocks(sys.argv[1], vad.BLOCK_SAMPLES):
        described.append(features.mfcc(block))
        yield block
probs = vad.probabilities(blocks())
voiced = vad.segments(probs)
duration = len(probs) * vad.FRAME_SECONDS
windows, nights = places(script["events"], datetime.fromisoformat(script["started_at"]), duration)
found = speakers.attribute(
    np.concatenate(described), voiced, [speakers.Window(*w) for w in windows], nights
)
wall = time.perf_counter() - started
peak_kb = int(re.search(r"VmHWM:\\s+(\\d+)", open("/proc/self/status").read())[1])
print(json.dumps({{"audio_seconds": duration, "wall_seconds": wall, "peak_mb": peak_kb / 1024,
  "stretches": [s.as_dict() for s in found.stretches],
  "suggestions": [s.as_dict() for s in found.suggestions], "modelled": found.modelled}}))
"""


def heard_as(stretches: list[dict[str, Any]], start: float, end: float) -> int | None:
    share: dict[int | None, float] = {}
    for stretch in stretches:
        overlap = min(end, stretch["end"]) - max(start, stretch["start"])
        if overlap > 0:
            share[stretch["seat"]] = share.get(stretch["seat"], 0.0) + overlap
    return max(share, key=share.__getitem__) if share else None


def main() -> None:
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from tests.sound import write
    from tests.table_sound import scripted_game

    minutes = float(sys.argv[1]) if len(sys.argv) > 1 else 60
    began = time.perf_counter()
    game = scripted_game(np.random.default_rng(2026), minutes)
    took = time.perf_counter() - began
    log(f"scripted {minutes:.0f} min, {len(game.planted)} planted, {took:.0f} s")
    with tempfile.TemporaryDirectory() as folder:
        path = write(Path(folder) / "game.m4a", game.samples, "m4a")
        del game.samples
        script = Path(folder) / "script.json"
        script.write_text(
            json.dumps({"events": game.events, "started_at": game.started_at.isoformat()})
        )
        run = subprocess.run(
            [sys.executable, "-c", ANALYSE.format(root=str(ROOT)), str(path), str(script)],
            capture_output=True,
            text=True,
            check=True,
        )
    found = json.loads(run.stdout)
    right = sum(heard_as(found["stretches"], p.start, p.end) == p.seat for p in game.planted)
    false_fouls = [
        s
        for s in found["suggestions"]
        if not any(
            p.seat == s["seat"]
            and p.kind != "aside"
            and (p.during == s["during"] or p.kind == "night")
            and min(p.end, s["end"]) > max(p.start, s["start"])
            for p in game.planted
        )
    ]
    print(
        json.dumps(
            {
                "seats": len(found["modelled"]),
                "planted": len(game.planted),
                "attributed_right": right,
                "accuracy": round(right / len(game.planted), 3),
                "false_fouls": len(false_fouls),
                "rtf": round(found["wall_seconds"] / found["audio_seconds"], 4),
                "peak_mb": round(found["peak_mb"], 1),
            }
        )
    )


if __name__ == "__main__":
    main()
