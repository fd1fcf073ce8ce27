"""Replay 10,000 generated games through the club rules engine on one core.

The games are generated first (not timed) and serialized as protocol documents; the timed
part parses each document and folds its events, as `replay_protocol` does. Prints one JSON
line: games, events, seconds, events_per_s. Run: uv run python bench/replay.py
"""

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules import protocol
from games.rules.protocol import Seat
from games.rules.simulate import random_game

GAMES = 10_000


def main() -> None:
    rng = random.Random(20261206)
    documents = []
    for _ in range(GAMES):
        generated = random_game(rng)
        seats = [Seat(n, f"Игрок {n}", role) for n, role in sorted(generated.seats.items())]
        documents.append(
            json.dumps(
                protocol.export(seats=seats, events=generated.events, immune=generated.immune)
            )
        )
    events = 0
    started = time.perf_counter()
    for text in documents:
        game, failure = protocol.replay(protocol.loads(text))
        assert failure is None and game.finished
        events += game.events_applied
    seconds = time.perf_counter() - started
    print(
        json.dumps(
            {
                "games": GAMES,
                "events": events,
                "seconds": round(seconds, 3),
                "events_per_s": round(events / seconds),
            }
        )
    )


if __name__ == "__main__":
    main()
