"""Who spoke when, over an hour-long game: the scripted table of tests/table_sound.py encoded
as m4a (AAC) and analysed in a fresh process as the worker does: decoding, voice activity,
the frames' features, the speaker encoder and the attribution. Prints one JSON line per
table and method: voices, room, seed, planted, accuracy (planted stretches attributed to
their seat, or to nobody for the host's and a stranger's; an interruption spoken over the
speaker is right when it is named: its seat heard for at least half its span, alone or as a
second voice beside the speaker's), false_fouls (suggested fouls no planted talk
explains), fouls_suggested of foulable (planted interruptions and night talk of at least
FOUL_SECONDS), the share right of each planted kind, over_caught (interruptions over the
speaker whose interrupter is heard for at least CAUGHT_SECONDS); for the first method also
rtf (the analysing process's wall time per second of sound, decoding and VAD included,
which follows the machine's load), cpu_rtf (its CPU seconds per second of sound, every
thread counted, games/recordings/audio/cost.py: the targets are on it), peak_mb (its peak
resident memory), and start_error_max and start_sure: the same sound begun from 4 minutes
before to 5 minutes after the protocol's start (LATES), the largest error of the start
found from the sound (audio/offset.py) and how many it was sure of.

The voices are synthetic (twelve, tests/sound.py) or, with --real, the 14 read-speech
speakers of ../shared/voices/ (bench/real_voices.py: never copied into the repository).
Run: uv run python bench/speakers.py [--real] [--room plain|phone] [--host] [--over]
     [--strangers] [--minutes 60] [--seeds 1] [--first-seed 0]
     [--method fusion|embedding|mfcc ...]
(--first-seed 100: seeds 2126… that the documented tables never used.)
"""

import argparse
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
import json, os, re, sys
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
from datetime import datetime
sys.path.insert(0, {root!r})
import numpy as np
from games.recordings.audio import cost, decode, encoder, features, speakers, vad
from games.recordings.audio.alignment import announcements, places
from games.recordings.audio.offset import find_offset
clock = cost.Clock()
script = json.load(open(sys.argv[2]))
methods = sys.argv[3].split(",")
described, mels = [], encoder.MelFrames()
def blocks():
    for block in decode.blocks(sys.argv[1], vad.BLOCK_SAMPLES):
        described.append(features.mfcc(block))
        mels.feed(block)
        yield block
probs = vad.probabilities(blocks())
voiced = vad.segments(probs)
duration = len(probs) * vad.FRAME_SECONDS
start = datetime.fromisoformat(script["started_at"])
windows, nights = places(script["events"], start, duration)
host = announcements(script["events"], start, duration)
sound = speakers.Sound(np.concatenate(described), *mels.finish())
found = {{}}
for method in methods:
    attribution = speakers.attribute(
        sound, voiced, [speakers.Window(*w) for w in windows], nights, host=host, method=method
    )
    if not found:
        spent = clock.spent()
    found[method] = {{"stretches": [s.as_dict() for s in attribution.stretches],
      "suggestions": [s.as_dict() for s in attribution.suggestions],
      "modelled": attribution.modelled}}
# The same sound begun `late` seconds after the protocol's start (voice before it cut, or
# silence before it added): where does find_offset say it began?
offsets = []
for late in {lates!r}:
    moved = [(max(0.0, a - late), b - late) for a, b in voiced if b - late > 0]
    fit = find_offset(moved, duration - late, script["events"], start)
    offsets.append([late, fit.offset_seconds - late, fit.confidence, fit.sure])
peak_kb = int(re.search(r"VmHWM:\\s+(\\d+)", open("/proc/self/status").read())[1])
print(json.dumps({{"audio_seconds": duration, "wall_seconds": spent.wall,
  "cpu_seconds": spent.cpu, "peak_mb": peak_kb / 1024,
  "methods": found, "offsets": offsets}}))
"""


def heard_as(stretches: list[dict[str, Any]], start: float, end: float) -> int | None:
    share: dict[int | None, float] = {}
    for stretch in stretches:
        overlap = min(end, stretch["end"]) - max(start, stretch["start"])
        if overlap > 0:
            share[stretch["seat"]] = share.get(stretch["seat"], 0.0) + overlap
    return max(share, key=share.__getitem__) if share else None


# Recording starts after the protocol's (seconds; negative: before), for the offset figure.
LATES = (-240.0, -120.0, -61.5, -5.0, 0.0, 12.3, 60.0, 180.0, 300.0)
CAUGHT_SECONDS = 1.0  # an interruption over the speaker is caught when this much is heard


def heard_for(stretches: list[dict[str, Any]], seat: int | None, start: float, end: float) -> float:
    """Seconds of [start, end] the analysis gives to `seat`."""
    return sum(
        max(0.0, min(end, float(s["end"])) - max(start, float(s["start"])))
        for s in stretches
        if s["seat"] == seat
    )


def named(stretches: list[dict[str, Any]], planted: Any) -> bool:
    """Talk over the speaker is named when its seat is heard for at least half its span,
    alone or over the speaker (the speaker's own voice runs through it)."""
    span = float(planted.end - planted.start)
    return heard_for(stretches, planted.seat, planted.start, planted.end) >= 0.5 * span


def explained(suggestion: dict[str, Any], planted: list[Any]) -> bool:
    return any(
        p.seat == suggestion["seat"]
        and p.kind in ("interruption", "night")
        and (p.during == suggestion["during"] or p.kind == "night")
        and min(p.end, suggestion["end"]) > max(p.start, suggestion["start"])
        for p in planted
    )


def figures(found: dict[str, Any], planted: list[Any], foul_seconds: float) -> dict[str, Any]:
    stretches = found["stretches"]
    right = {
        p: named(stretches, p) if p.over else heard_as(stretches, p.start, p.end) == p.seat
        for p in planted
    }
    kinds: dict[str, list[bool]] = {}
    for p, ok in right.items():
        kinds.setdefault(p.kind + ("_over" if p.over else ""), []).append(ok)
    foulable = [
        p
        for p in planted
        if p.kind in ("interruption", "night") and p.end - p.start >= foul_seconds
    ]
    suggested = [
        p
        for p in foulable
        if any(
            s["seat"] == p.seat
            and (s["during"] == p.during or p.kind == "night")
            and min(p.end, s["end"]) > max(p.start, s["start"])
            for s in found["suggestions"]
        )
    ]
    false = [s for s in found["suggestions"] if not explained(s, planted)]
    over = [p for p in planted if p.over]
    caught = [p for p in over if heard_for(stretches, p.seat, p.start, p.end) >= CAUGHT_SECONDS]
    return {
        "seats": len(found["modelled"]),
        "planted": len(planted),
        "accuracy": round(sum(right.values()) / len(planted), 3),
        "false_fouls": len(false),
        "false_fouls_on_nobody": sum(
            any(p.seat is None and min(p.end, s["end"]) > max(p.start, s["start"]) for p in planted)
            for s in false
        ),
        "fouls_suggested": len(suggested),
        "foulable": len(foulable),
        "right_by_kind": {k: f"{sum(v)}/{len(v)}" for k, v in sorted(kinds.items())},
        **({"over_caught": f"{len(caught)}/{len(over)}"} if over else {}),
    }


def main() -> None:
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from games.recordings.audio.cost import Spent
    from games.recordings.audio.speakers import FOUL_SECONDS, METHOD
    from tests.sound import write
    from tests.table_sound import scripted_game

    parser = argparse.ArgumentParser()
    parser.add_argument("--real", action="store_true", help="the voices of ../shared/voices")
    parser.add_argument("--room", choices=("plain", "phone"), default="plain")
    parser.add_argument("--host", action="store_true", help="the host's voice announces")
    parser.add_argument("--over", action="store_true", help="interruptions over the speaker")
    parser.add_argument("--strangers", action="store_true", help="a spectator's voice by night")
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument(
        "--first-seed", type=int, default=0, help="seeds from this one (0: the documented tables)"
    )
    parser.add_argument("--method", nargs="+", default=[METHOD])
    args = parser.parse_args()

    for seed in range(args.first_seed, args.first_seed + args.seeds):
        rng = np.random.default_rng(2026 + seed)
        options: dict[str, Any] = {
            "host": args.host,
            "over_speaker": args.over,
            "strangers": 0.5 if args.strangers else 0.0,
        }
        if args.real:
            from bench.real_voices import RealBanks, phone_room, plain_room

            options["banks"] = RealBanks(rng)
            options["room"] = (
                phone_room(rng) if args.room == "phone" else plain_room(rng, 12, 0.004)
            )
        elif args.room == "phone":
            from bench.real_voices import phone_room

            options["room"] = phone_room(rng)
        began = time.perf_counter()
        game = scripted_game(rng, args.minutes, **options)
        log(
            f"seed {seed}: scripted {args.minutes:.0f} min, {len(game.planted)} planted, "
            f"{time.perf_counter() - began:.0f} s"
        )
        with tempfile.TemporaryDirectory() as folder:
            path = write(Path(folder) / "game.m4a", game.samples, "m4a")
            del game.samples
            script = Path(folder) / "script.json"
            script.write_text(
                json.dumps({"events": game.events, "started_at": game.started_at.isoformat()})
            )
            run = subprocess.run(
                [
                    sys.executable,
                    "-c",
                    ANALYSE.format(root=str(ROOT), lates=LATES),
                    str(path),
                    str(script),
                    ",".join(args.method),
                ],
                capture_output=True,
                text=True,
                check=True,
            )
        found = json.loads(run.stdout)
        for method, result in found["methods"].items():
            line = {
                "voices": "real" if args.real else "synthetic",
                "room": args.room,
                "host": args.host,
                "over": args.over,
                "strangers": args.strangers,
                "seed": seed,
                "minutes": args.minutes,
                "method": method,
                **figures(result, game.planted, FOUL_SECONDS),
            }
            if method == args.method[0]:
                errors = [abs(error) for _late, error, _c, _sure in found["offsets"]]
                line["start_error_max"] = round(max(errors), 2)
                line["start_sure"] = f"{sum(sure for *_, sure in found['offsets'])}/{len(errors)}"
                spent = Spent(wall=found["wall_seconds"], cpu=found["cpu_seconds"])
                line["rtf"] = round(spent.rtf(found["audio_seconds"]), 4)
                line["cpu_rtf"] = round(spent.cpu_rtf(found["audio_seconds"]), 4)
                line["peak_mb"] = round(found["peak_mb"], 1)
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
