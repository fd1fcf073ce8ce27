"""Properties of random legal online games (RULES.md §D), with Hypothesis."""

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import protocol
from games.rules.errors import ProtocolError, RuleViolation
from games.rules.online import BLACK_ROLES, OnlineGame, OnlineOptions
from games.rules.simulate import random_online_game
from tests.examples import examples

seeds = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def states(
    seed: int,
) -> tuple[dict[int, str], list[dict[str, Any]], list[OnlineGame]]:
    seats, events, _end = random_online_game(random.Random(seed))
    game = OnlineGame(seats)
    after = []
    for event in events:
        game.apply(event)
        after.append(game.copy())
    return seats, events, after


@SETTINGS
@given(seeds)
def test_every_seat_is_alive_or_out_once(seed: int) -> None:
    seats, _events, after = states(seed)
    for state in after:
        gone = [e.seat for e in state.eliminated]
        assert len(gone) == len(set(gone)) and set(gone) | state.alive == set(seats)


@SETTINGS
@given(seeds)
def test_the_game_ends_exactly_when_a_side_has_won(seed: int) -> None:
    _seats, _events, after = states(seed)
    for state in after:
        black = len(state.black_alive)
        won = black == 0 or black >= len(state.alive) - black or state.misfires >= 3
        assert state.finished == won == (state.winner is not None)


@SETTINGS
@given(seeds)
def test_never_more_than_two_leave_by_one_vote(seed: int) -> None:
    _seats, _events, after = states(seed)
    voted = Counter((e.phase, e.n) for e in after[-1].eliminated if e.reason == "voted")
    assert all(count <= 2 for count in voted.values())


@SETTINGS
@given(seeds)
def test_a_night_kills_only_when_every_living_mafioso_shot_the_same_seat(seed: int) -> None:
    seats, events, after = states(seed)
    for index, event in enumerate(events):
        if event["type"] == "night_end" and after[index].outcome == "killed":
            before = after[index - 1]
            mafia = {s for s in before.alive if seats[s] in BLACK_ROLES}
            targets = {before.shots.get(s) for s in mafia}
            (target,) = targets
            assert target is not None and after[index].eliminated[-1].seat == target


@SETTINGS
@given(seeds)
def test_the_protocol_replays_to_the_same_end(seed: int) -> None:
    seats, events, after = states(seed)
    document = protocol.export(
        seats=[protocol.Seat(s, f"Игрок {s}", r) for s, r in seats.items()],
        events=events,
        options=OnlineOptions(),
    )
    replayed, failure = protocol.replay(protocol.loads(json.dumps(document)))
    assert failure is None and replayed.summary() == after[-1].summary()


@SETTINGS
@given(seeds, st.data())
def test_a_refused_event_changes_nothing(seed: int, data: st.DataObject) -> None:
    _seats, _events, after = states(seed)
    state = data.draw(st.sampled_from(after)).copy()
    seat = st.integers(min_value=0, max_value=11)
    event = data.draw(
        st.one_of(
            st.fixed_dictionaries(
                {"type": st.just("vote"), "voter": seat, "target": st.one_of(seat, st.just("pass"))}
            ),
            st.fixed_dictionaries(
                {"type": st.just("shot"), "by": seat, "target": st.one_of(seat, st.none())}
            ),
            st.fixed_dictionaries(
                {"type": st.sampled_from(["don_check", "com_check"]), "target": seat}
            ),
            st.fixed_dictionaries({"type": st.sampled_from(["fast", "unfast"]), "voter": seat}),
            st.fixed_dictionaries(
                {
                    "type": st.just("revote"),
                    "voter": seat,
                    "target": st.one_of(seat, st.sampled_from(["hang_all", "pardon_all"])),
                }
            ),
            st.fixed_dictionaries(
                {"type": st.sampled_from(["day", "night"]), "n": st.integers(0, 40)}
            ),
            st.fixed_dictionaries({"type": st.sampled_from(["day_end", "night_end"])}),
        )
    )
    before = state.copy()
    try:
        state.apply(event)
    except (RuleViolation, ProtocolError):
        assert state.summary() == before.summary() and state.prompt() == before.prompt()
        assert state.votes == before.votes and state.shots == before.shots
