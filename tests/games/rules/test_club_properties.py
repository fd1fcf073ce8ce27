"""Properties over random legal games (12–15 seats, random line-ups), with Hypothesis."""

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import protocol
from games.rules.club import ClubGame
from games.rules.errors import ProtocolError, RuleViolation
from games.rules.protocol import Seat
from games.rules.simulate import random_game
from tests.examples import examples

seeds = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def replayed(seed: int) -> tuple[list[dict[str, Any]], ClubGame, list[ClubGame]]:
    """A random game, and its replay from scratch with the state after every event."""
    generated = random_game(random.Random(seed))
    game = ClubGame(generated.seats, immune=generated.immune)
    states = []
    for event in generated.events:
        game.apply(event)
        states.append(game.copy())
    return generated.events, game, states


@SETTINGS
@given(seeds)
def test_alive_and_eliminated_are_every_seat(seed: int) -> None:
    _events, _game, states = replayed(seed)
    for state in states:
        gone = [e.seat for e in state.eliminated]
        assert len(gone) == len(set(gone))
        assert set(gone) | state.alive == set(state.roles)
        assert not set(gone) & state.alive


@SETTINGS
@given(seeds)
def test_the_game_ends_exactly_when_a_win_condition_holds(seed: int) -> None:
    _events, game, states = replayed(seed)
    for state in states:
        assert state.finished == (state._winner() is not None)
        assert state.finished == (state.winner is not None)
    if game.finished:
        for event in (
            {"type": "day", "n": game.n + 1},
            {"type": "nominate", "by": min(game.alive), "target": max(game.alive)},
        ):
            try:
                game.apply(event)
            except RuleViolation as violation:
                assert violation.code == "game_over"
            else:
                raise AssertionError("an event was accepted after the end")
        # Only a foul heard later is taken, and it changes nothing of the result.
        result = (game.winner, sorted(game.alive), len(game.eliminated))
        game.apply({"type": "foul", "seat": min(game.alive)})
        assert (game.winner, sorted(game.alive), len(game.eliminated)) == result


@SETTINGS
@given(seeds, st.data())
def test_no_event_on_a_seat_that_has_left_is_accepted(seed: int, data: st.DataObject) -> None:
    _events, _game, states = replayed(seed)
    candidates = [s for s in states if s.eliminated and not s.finished]
    if not candidates:
        return
    state = data.draw(st.sampled_from(candidates)).copy()
    gone = data.draw(st.sampled_from([e.seat for e in state.eliminated]))
    living = min(state.alive)
    for event in (
        {"type": "foul", "seat": gone},
        {"type": "extension", "seat": gone},
        {"type": "nominate", "by": gone, "target": living},
        {"type": "nominate", "by": living, "target": gone},
        {"type": "kill", "by": "mafia", "target": gone},
        {"type": "heal", "target": gone},
        {"type": "check", "by": gone, "target": living},
    ):
        before = state.summary()
        try:
            state.apply(event)
        except (RuleViolation, ProtocolError):
            assert state.summary() == before
        else:
            raise AssertionError(f"accepted {event} on seat {gone}, which has left")


@SETTINGS
@given(seeds)
def test_votes_and_hands_never_exceed_the_living(seed: int) -> None:
    events, _game, states = replayed(seed)
    for event, state in zip(events, states, strict=True):
        if event["type"] in ("votes", "hands"):
            total = sum(event["counts"].values()) if "counts" in event else len(event["voters"])
            living_before = len(state.alive) + sum(
                1 for e in state.eliminated if (e.phase, e.n) == ("day", state.n)
            )
            assert total <= living_before
    # And an inflated count is refused wherever a vote is due.
    for state in states:
        if state.prompt().question == "hands" and not state.finished:
            probe = state.copy()
            seat = probe.candidates[0]
            try:
                probe.apply({"type": "hands", "counts": {str(seat): len(probe.alive) + 1}})
            except RuleViolation as violation:
                assert violation.code == "too_many_votes"
            else:
                raise AssertionError("more hands than the living were accepted")


@SETTINGS
@given(seeds)
def test_replaying_the_exported_protocol_gives_the_same_state(seed: int) -> None:
    generated = random_game(random.Random(seed))
    seats = [Seat(n, f"Игрок {n}", role) for n, role in sorted(generated.seats.items())]
    exported = protocol.export(seats=seats, events=generated.events, immune=generated.immune)
    again, failure = protocol.replay(protocol.loads(json.dumps(exported, ensure_ascii=False)))
    assert failure is None
    assert again.summary() == generated.game.summary()
