"""The recording's start from its sound (games/recordings/audio/offset.py, #30): a scripted
table's sound, begun minutes before or after the protocol's start, a minute cut out of it,
or no game in it at all, through the real voice detector."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest

from games.recordings.audio import offset, vad
from games.recordings.audio.offset import find_offset
from tests.sound import RATE, quiet, script
from tests.table_sound import START, ScriptedGame, scripted_game

NOISE = 0.004  # the scripted table's room


@pytest.fixture(scope="module")
def table() -> ScriptedGame:
    """Twelve minutes of a table: a day of twelve speeches and a night (made once)."""
    return scripted_game(np.random.default_rng(5), 12)


@pytest.fixture(scope="module")
def other_table() -> ScriptedGame:
    return scripted_game(np.random.default_rng(6), 12)


def voiced(samples: np.ndarray) -> tuple[list[tuple[float, float]], float]:
    """What the worker keeps of a sound: its voiced intervals and its length."""
    blocks = [samples[i : i + vad.BLOCK_SAMPLES] for i in range(0, samples.size, vad.BLOCK_SAMPLES)]
    probs = vad.probabilities(blocks)
    return vad.segments(probs), len(probs) * vad.FRAME_SECONDS


def begun_at(game: ScriptedGame, seconds: float) -> np.ndarray:
    """The game's sound as a phone began recording it `seconds` after the protocol's start
    (before it, when negative: the room's noise first)."""
    if seconds >= 0:
        return game.samples[int(seconds * RATE) :]
    room = quiet(np.random.default_rng(1), -seconds, NOISE)
    return np.concatenate([room, game.samples])


@pytest.mark.parametrize("late", [-240.0, -61.5, 0.0, 12.0, 300.0])
def test_the_start_is_found_within_a_second(table: ScriptedGame, late: float) -> None:
    """The upload says the game's start; the phone began `late` seconds after it."""
    heard, duration = voiced(begun_at(table, late))
    found = find_offset(heard, duration, table.events, table.started_at)
    assert abs(found.offset_seconds - late) <= 1.0, found
    assert found.sure and found.confidence >= offset.SURE, found
    assert found.fits_given is (late == 0.0)
    assert found.pause is None
    assert found.speeches == sum(e["type"] == "speech" for e in table.events)


def test_a_given_start_that_was_right_fits(table: ScriptedGame) -> None:
    """The host gave the phone's real start, 200 s after the game's: it fits."""
    heard, duration = voiced(begun_at(table, 200.0))
    given = table.started_at + timedelta(seconds=200)
    found = find_offset(heard, duration, table.events, given)
    assert abs(found.offset_seconds) <= 1.0 and found.fits_given is True


def test_a_minute_cut_out_of_the_middle_is_a_pause_at_its_place(table: ScriptedGame) -> None:
    """The phone recorded from the game's start, was paused at 6:00 and resumed a minute
    later: the protocol fits 60 s later from 6:00 of the recording on."""
    cut_at = 360.0
    samples = np.concatenate(
        [table.samples[: int(cut_at * RATE)], table.samples[int((cut_at + 60) * RATE) :]]
    )
    heard, duration = voiced(samples)
    found = find_offset(heard, duration, table.events, table.started_at)
    assert found.pause is not None, found
    assert abs(found.offset_seconds) <= 1.0  # the start: the part before the pause
    assert abs(found.pause.seconds - 60.0) <= 1.0
    assert abs(found.pause.offset_after - 60.0) <= 1.0
    assert found.pause.earliest - 1 <= cut_at <= found.pause.latest + 1, found.pause
    assert abs(found.pause.at_seconds - cut_at) <= 45  # a speech's length at worst


def test_a_recording_of_noise_claims_no_start(table: ScriptedGame) -> None:
    heard, duration = voiced(quiet(np.random.default_rng(2), 12 * 60, NOISE))
    found = find_offset(heard, duration, table.events, table.started_at)
    assert not found.sure and found.fits_given is None and found.pause is None
    assert found.confidence < offset.SURE


def test_talk_that_is_not_the_game_claims_no_start(table: ScriptedGame) -> None:
    """Twelve minutes of speech and quiet in no relation to the protocol's timer."""
    rng = np.random.default_rng(4)
    parts = [
        ("speech" if i % 2 else "quiet", float(rng.uniform(2, 40) if i % 2 else rng.uniform(1, 8)))
        for i in range(40)
    ]
    heard, duration = voiced(script(rng, parts))
    found = find_offset(heard, duration, table.events, table.started_at)
    assert not found.sure and found.pause is None, found


def test_another_games_sound_claims_no_start(
    table: ScriptedGame, other_table: ScriptedGame
) -> None:
    """The right recording fits its protocol; the same table's next game does not."""
    heard, duration = voiced(other_table.samples)
    assert find_offset(heard, duration, other_table.events, other_table.started_at).sure
    found = find_offset(heard, duration, table.events, table.started_at)
    assert not found.sure and found.pause is None, found


def test_a_protocol_without_speeches_claims_no_start(table: ScriptedGame) -> None:
    heard, duration = voiced(table.samples[: 60 * RATE])
    nights_only = [e for e in table.events if e["type"] != "speech"]
    found = find_offset(heard, duration, nights_only, table.started_at)
    assert found == offset.NOT_FOUND and found.speeches == 0 and not found.sure


# --- the arithmetic, without sound ---------------------------------------------------


def windows(starts_and_lengths: list[tuple[float, float]]) -> list[dict[str, object]]:
    return [
        {
            "type": "speech",
            "seat": index % 10 + 1,
            "start": (START + timedelta(seconds=a)).isoformat(),
            "end": (START + timedelta(seconds=a + length)).isoformat(),
            "limit": 60,
        }
        for index, (a, length) in enumerate(starts_and_lengths)
    ]


def test_voice_exactly_in_the_windows_is_found_to_the_grid() -> None:
    rng = np.random.default_rng(8)
    clock, slots = 10.0, []
    for _ in range(20):
        length = float(rng.uniform(20, 60))
        slots.append((clock, length))
        clock += length + float(rng.uniform(1, 4))
    late = -37.3  # the phone began 37.3 s before the given start
    heard = [(a - late, a + length - late) for a, length in slots]
    found = find_offset(heard, clock - late + 30, windows(slots), START)
    assert abs(found.offset_seconds - late) <= offset.STEP + 1e-9 and found.sure


def test_a_protocols_wild_moment_costs_no_wild_array() -> None:
    """A speech dated centuries away can never be heard at any shift: it is left out (the
    pattern would otherwise be an array of 10^10 steps)."""
    slots = [(10.0 + 40 * i, 35.0) for i in range(10)]
    events = windows(slots)
    events.append(
        {**events[0], "start": "2999-01-01T00:00:00+00:00", "end": "2999-01-01T00:00:30+00:00"}
    )
    heard = [(a, a + length) for a, length in slots]
    found = find_offset(heard, 500.0, events, START)
    assert abs(found.offset_seconds) <= offset.STEP + 1e-9
