"""The recording's start from its sound (games/recordings/audio/offset.py) over the scripted
hour: for each seed, the scripted game of tests/table_sound.py at 60 minutes (as
bench/speakers.py makes it) encoded as m4a and decoded as the worker does, then begun
OFFSETS seconds after the protocol's start (the room's noise padded before it, or its start
cut), the voice detector run on each, and find_offset asked where it began. Also: a minute
cut out at 30:00 (a pause), and each seed's sound against another seed's protocol (no
start may be claimed). Prints one JSON line: the largest error, the confidences, the
claims on the wrong protocol, the pauses found, and find_offset's time beside the VAD's.
Run: uv run python bench/offset.py [minutes] [seeds...]
"""

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project, for bench.*

from bench.common import ROOT, log

OFFSETS = (-240.0, -180.0, -120.0, -61.5, -5.0, 0.0, 12.3, 60.0, 120.0, 180.0, 240.0, 300.0)
PAUSE_AT, PAUSE_SECONDS = 1800, 60


def main() -> None:
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from games.recordings.audio import decode, vad
    from games.recordings.audio.offset import find_offset
    from tests.sound import RATE, quiet, write
    from tests.table_sound import scripted_game

    minutes = float(sys.argv[1]) if len(sys.argv) > 1 else 60
    seeds = [int(seed) for seed in sys.argv[2:]] or [2026, 2027, 2028, 2029]
    vad_seconds: list[float] = []

    def voiced(samples: np.ndarray) -> tuple[list[tuple[float, float]], float]:
        began = time.perf_counter()
        blocks = (
            samples[i : i + vad.BLOCK_SAMPLES] for i in range(0, samples.size, vad.BLOCK_SAMPLES)
        )
        probs = vad.probabilities(blocks)
        vad_seconds.append(time.perf_counter() - began)
        return vad.segments(probs), len(probs) * vad.FRAME_SECONDS

    rows: list[dict[str, Any]] = []
    found_seconds: list[float] = []
    protocols: dict[int, Any] = {}
    heard_whole: dict[int, tuple[list[tuple[float, float]], float]] = {}
    for seed in seeds:
        game = scripted_game(np.random.default_rng(seed), minutes)
        protocols[seed] = game
        with tempfile.TemporaryDirectory() as folder:
            path = write(Path(folder) / "game.m4a", game.samples, "m4a")
            sound = np.concatenate(list(decode.blocks(str(path), vad.BLOCK_SAMPLES)))
        room = quiet(np.random.default_rng(seed), max(-min(OFFSETS), 0), 0.004)
        for late in OFFSETS:
            if late >= 0:
                samples = sound[int(late * RATE) :]
            else:
                samples = np.concatenate([room[: int(-late * RATE)], sound])
            heard, duration = voiced(samples)
            if late == 0:
                heard_whole[seed] = (heard, duration)
            began = time.perf_counter()
            found = find_offset(heard, duration, game.events, game.started_at)
            found_seconds.append(time.perf_counter() - began)
            rows.append(
                {
                    "seed": seed,
                    "late": late,
                    "error": round(found.offset_seconds - late, 2),
                    "confidence": round(found.confidence, 3),
                    "sure": found.sure,
                    "pause": found.pause is not None,
                }
            )
            log(f"seed {seed} late {late:+.1f}: {rows[-1]}")
        cut = np.concatenate([sound[: PAUSE_AT * RATE], sound[(PAUSE_AT + PAUSE_SECONDS) * RATE :]])
        heard, duration = voiced(cut)
        paused = find_offset(heard, duration, game.events, game.started_at)
        rows.append(
            {
                "seed": seed,
                "paused_at": PAUSE_AT,
                "pause": paused.pause.as_dict() if paused.pause else None,
                "error": round(paused.offset_seconds, 2),
                "confidence": round(paused.confidence, 3),
            }
        )
        log(f"seed {seed} paused: {rows[-1]}")
    wrong = [
        find_offset(*heard_whole[seed], protocols[other].events, protocols[other].started_at)
        for seed in seeds
        for other in seeds
        if other != seed
    ]
    shifted = [row for row in rows if "late" in row]
    pauses = [row for row in rows if "paused_at" in row]
    print(
        json.dumps(
            {
                "minutes": minutes,
                "seeds": seeds,
                "offsets": len(shifted),
                "largest_error_s": max(abs(row["error"]) for row in shifted),
                "all_sure": all(row["sure"] for row in shifted),
                "false_pauses": sum(row["pause"] for row in shifted),
                "confidence_min": min(row["confidence"] for row in shifted),
                "confidence_median": round(
                    statistics.median(row["confidence"] for row in shifted), 3
                ),
                "pauses_found": sum(
                    row["pause"] is not None
                    and abs(row["pause"]["seconds"] - PAUSE_SECONDS) <= 1
                    and row["pause"]["earliest"] - 1 <= PAUSE_AT <= row["pause"]["latest"] + 1
                    for row in pauses
                ),
                "pause_at_error_s": [
                    round(row["pause"]["at"] - PAUSE_AT, 1) for row in pauses if row["pause"]
                ],
                "wrong_protocol_claims": sum(found.sure for found in wrong),
                "wrong_protocol_confidence_max": round(max(f.confidence for f in wrong), 3),
                "find_offset_s_mean": round(statistics.mean(found_seconds), 3),
                "find_offset_s_max": round(max(found_seconds), 3),
                "vad_s_mean": round(statistics.mean(vad_seconds), 2),
            }
        )
    )


if __name__ == "__main__":
    main()
