"""The readings RULES.md §D leaves open, each an option of the online ruleset: both settings
of each, through the engine's API and through a protocol document replayed (docs/protocol.md
lists them with their defaults). The table: 1 don, 2 and 3 mafia, 4 commissar, 5–10
civilians."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from games.rules import protocol
from games.rules.errors import ProtocolError, RuleViolation
from games.rules.online import OnlineGame, OnlineOptions
from tests.games.online.tables import catastrophe_of

TABLE = {1: "don", 2: "mafia", 3: "mafia", 4: "commissar"} | {s: "civilian" for s in range(5, 11)}
DAY1: dict[str, Any] = {"type": "day", "n": 1}
END: dict[str, Any] = {"type": "day_end"}
VIA = "engine"


@pytest.fixture(autouse=True, params=["engine", "protocol"])
def via(request: pytest.FixtureRequest) -> Iterator[None]:
    global VIA
    VIA = request.param
    yield
    VIA = "engine"


def game(*events: dict[str, Any], **options: Any) -> OnlineGame:
    """The state after `events`, applied one by one or replayed from a JSON document."""
    if VIA == "engine":
        state = OnlineGame(TABLE, options=OnlineOptions.from_dict(options))
        state.apply_all(events)
        return state
    document = {
        "format": "mafia-protocol/1",
        "ruleset": "online",
        "options": options,
        "seats": [{"seat": s, "nick": f"Игрок {s}", "role": r} for s, r in TABLE.items()],
        "events": list(events),
    }
    replayed, failure = protocol.replay(protocol.loads(json.dumps(document)))
    if failure is not None:
        raise failure.error
    assert isinstance(replayed, OnlineGame)
    return replayed


def refused(*events: dict[str, Any], code: str, **options: Any) -> None:
    with pytest.raises(RuleViolation) as error:
        game(*events, **options)
    assert error.value.code == code


def votes(pairs: dict[int, Any]) -> list[dict[str, Any]]:
    return [{"type": "vote", "voter": v, "target": t} for v, t in pairs.items()]


def revotes(pairs: dict[int, Any]) -> list[dict[str, Any]]:
    return [{"type": "revote", "voter": v, "target": t} for v, t in pairs.items()]


def posts(*seats: int) -> list[dict[str, Any]]:
    return [{"type": "post", "seat": s, "text": "не я"} for s in seats]


def night(n: int) -> list[dict[str, Any]]:
    """A night with no shot (a misfire) that ends and the next day that starts."""
    return [{"type": "night", "n": n}, {"type": "night_end"}, {"type": "day", "n": n + 1}]


def out(state: OnlineGame) -> list[tuple[int, str]]:
    return [(e.seat, e.reason.value) for e in state.eliminated]


# Three tied at an even count (ten alive): 5, 6 and 7 have two votes each.
THREE_TIED = [DAY1, *votes({1: 5, 2: 5, 3: 6, 4: 6, 8: 7, 9: 7}), END]


def test_every_option_has_a_default_and_refuses_a_bad_value() -> None:
    defaults = OnlineOptions()
    assert (defaults.revote_tie_limit, defaults.catastrophe_silence) == (0, "nothing")
    assert OnlineOptions.from_dict(defaults.to_dict()) == defaults
    for bad in (
        {"revote_tie_limit": -1},
        {"catastrophe_silence": "shout"},
        {"two_leave_limit": 2},
        {"shot_changeable": "yes"},
    ):
        with pytest.raises(ProtocolError):
            OnlineOptions.from_dict(bad)


def test_a_three_way_tie_that_repeats_is_revoted_until_it_breaks_or_the_limit() -> None:
    again = revotes({1: 5, 2: 6, 3: 7})
    events = [*THREE_TIED, *again, END, *again, END, *again, END]
    unlimited = game(*events)
    assert catastrophe_of(unlimited).tied == [5, 6, 7] and not unlimited.eliminated
    broken = game(*events, *revotes({1: 6, 2: 6, 3: 5}), END)
    assert out(broken) == [(6, "voted")]
    limited = game(*THREE_TIED, *again, END, *again, END, revote_tie_limit=2)
    assert limited.outcome == "tie_again" and not limited.eliminated and not limited.open


def test_a_repeated_tie_at_an_odd_count_revotes_again_or_stops_at_the_limit() -> None:
    # Day 1 hangs 10; day 2 has nine alive: 5 and 6 tie, the revote ties them again.
    day_two = [
        DAY1, *votes({1: 10, 2: 10}), END, *night(1),
        *votes({1: 5, 2: 6}), END, *revotes({1: 5, 2: 6}), END,
    ]  # fmt: skip
    assert catastrophe_of(game(*day_two)).tied == [5, 6]
    stopped = game(*day_two, revote_tie_limit=1)
    assert stopped.outcome == "tie_again" and out(stopped) == [(10, "voted")]


def test_the_third_player_no_longer_tied_votes_in_the_follow_up_or_not() -> None:
    # The revote leaves 5 and 6 leading: the question «hang both / keep both» follows.
    to_two = [*THREE_TIED, *revotes({1: 5, 2: 5, 3: 6, 4: 6, 8: 7}), END]
    follow_up = game(*to_two)
    assert catastrophe_of(follow_up).tied == [5, 6] and catastrophe_of(follow_up).question
    assert "revote" in follow_up.actions_for(7)
    hanged = game(*to_two, *revotes({7: "hang_all", 1: "hang_all"}), END)
    assert out(hanged) == [(5, "voted"), (6, "voted")]
    assert "revote" not in game(*to_two, untied_vote_in_followup=False).actions_for(7)
    refused(*to_two, *revotes({7: "hang_all"}), code="catastrophe", untied_vote_in_followup=False)


def test_a_vote_left_in_advance_may_be_replaced_once_in_the_round_or_stands() -> None:
    tie = [DAY1, *revotes({1: "hang_all"}), *votes({2: 5, 3: 6}), END]
    assert catastrophe_of(game(*tie)).votes == {1: "hang_all"}
    replaced = game(*tie, *revotes({1: "pardon_all"}))
    assert catastrophe_of(replaced).votes[1] == "pardon_all"
    refused(*tie, *revotes({1: "pardon_all"}), *revotes({1: "hang_all"}), code="vote_final")
    refused(*tie, *revotes({1: "pardon_all"}), code="vote_final", advance_vote_replaceable=False)


def test_silence_in_a_catastrophe_round_counts_for_nobody_or_earns_a_warning() -> None:
    round_ = [DAY1, *votes({1: 5, 2: 6}), END, *revotes({1: "hang_all", 2: "hang_all"}), END]
    quiet = game(*round_)
    assert out(quiet) == [(5, "voted"), (6, "voted")] and not quiet.warnings
    warned = game(*round_, catastrophe_silence="warning")
    assert warned.warnings == {s: 1 for s in (3, 4, 7, 8, 9, 10)}


def test_the_round_closes_itself_when_everyone_has_posted_and_voted_or_waits() -> None:
    everyone = revotes({v: "pardon_all" for v in (1, 2, 3, 4, 7, 8, 9, 10)})
    round_ = [DAY1, *votes({1: 5, 2: 6}), END, *posts(5, 6), *everyone]
    closed = game(*round_)
    assert closed.catastrophe is None and closed.outcome == "pardon_all" and not closed.open
    waiting = game(*round_, catastrophe_closes_when_all_posted=False)
    assert waiting.catastrophe is not None and waiting.open
    # The tied have not posted yet: the round waits for them.
    assert game(DAY1, *votes({1: 5, 2: 6}), END, *everyone).catastrophe is not None


def test_day_one_pardon_with_a_silent_player_by_the_letter_or_with_the_silent_as_pass() -> None:
    day = [DAY1, *votes({**dict.fromkeys(range(1, 9), "pass"), 9: 5}), END]  # 10 is silent
    assert out(game(*day)) == [(5, "voted")]
    pardoned = game(*day, day_one_pardon_with_silent=True)
    assert pardoned.outcome == "pardoned" and not pardoned.eliminated


def test_a_removal_for_warnings_by_day_cancels_the_vote_or_not() -> None:
    day = [DAY1, *votes({1: 5, 2: 5}), *[{"type": "warning", "seat": 9}] * 3, END]
    cancelled = game(*day)
    assert cancelled.outcome == "cancelled" and out(cancelled) == [(9, "warnings")]
    voted = game(*day, warnings_removal_cancels_vote=False)
    assert out(voted) == [(9, "warnings"), (5, "voted")]


def test_a_modkill_at_night_cancels_the_next_days_vote_or_not() -> None:
    days = [
        DAY1, END, {"type": "night", "n": 1}, {"type": "modkill", "seat": 9},
        {"type": "night_end"}, {"type": "day", "n": 2}, *votes({1: 5, 2: 5}), END,
    ]  # fmt: skip
    assert out(game(*days)) == [(9, "modkill"), (5, "voted")]
    kept = game(*days, night_modkill_cancels_next_vote=True)
    assert kept.outcome == "cancelled" and out(kept) == [(9, "modkill")]


def test_a_fast_night_on_a_modkill_day_or_the_night_on_schedule() -> None:
    day = [DAY1, {"type": "modkill", "seat": 10}]
    fasts = [{"type": "fast", "voter": v} for v in range(1, 10)]
    on_schedule = game(*day, *fasts)
    assert on_schedule.open and on_schedule.outcome is None
    fast = game(*day, *fasts, fast_night_after_modkill=True)
    assert not fast.open and fast.outcome == "cancelled"


def test_never_more_than_two_over_the_vote_or_over_the_day() -> None:
    # Seats 10 and 7 leave for warnings (the vote stands: that option off); 5 and 6 then
    # tie among eight, and «hang all» wins the question.
    day = [
        DAY1,
        *[{"type": "warning", "seat": s} for s in (10, 10, 10, 7, 7, 7)],
        *votes({1: 5, 2: 6}), END, *revotes({1: "hang_all", 2: "hang_all"}), END,
    ]  # fmt: skip
    per_vote = game(*day, warnings_removal_cancels_vote=False)
    assert out(per_vote)[2:] == [(5, "voted"), (6, "voted")]
    per_day = game(*day, warnings_removal_cancels_vote=False, two_leave_limit="day")
    assert per_day.outcome == "limit" and out(per_day) == [(10, "warnings"), (7, "warnings")]


def test_a_mafioso_may_change_the_nights_shot_or_not() -> None:
    shots = [
        DAY1, END, {"type": "night", "n": 1},
        *[{"type": "shot", "by": s, "target": 5} for s in (1, 2, 3)],
        {"type": "shot", "by": 3, "target": 6},
    ]  # fmt: skip
    refused(*shots, code="acted")
    changed = game(*shots, {"type": "night_end"}, shot_changeable=True)
    assert changed.outcome == "misfire" and not changed.eliminated


def test_the_don_and_the_commissar_may_check_a_departed_player_or_not() -> None:
    checks = [
        DAY1, *votes({1: 9, 2: 9}), END, {"type": "night", "n": 1},
        {"type": "com_check", "target": 9}, {"type": "don_check", "target": 9},
    ]  # fmt: skip
    checked = game(*checks)
    assert [(c.kind, c.target, c.result) for c in checked.checks] == [
        ("commissar", 9, "red"),
        ("don", 9, "not_commissar"),
    ]
    refused(*checks, code="not_alive", check_departed=False)


def test_the_story_tells_the_game_in_order() -> None:
    state = game(
        DAY1, *votes({1: 5}), *votes({1: 6}), {"type": "warning", "seat": 8},
        *votes({2: 5}), END, *posts(5, 6),
        *revotes({v: "hang_all" for v in (1, 2, 3, 4, 7, 8, 9, 10)}), *posts(5),
    )  # fmt: skip
    told = [(line.kind, line.seat, line.target, line.seats, line.detail) for line in state.story]
    assert told == [
        ("phase", None, None, (), ""),
        ("vote", 1, 5, (), ""),
        ("vote", 1, 6, (), "final"),
        ("warning", 8, None, (), "1"),
        ("vote", 2, 5, (), ""),
        ("catastrophe", None, None, (5, 6), "question"),
        ("round_post", 5, None, (), ""),
        ("round_post", 6, None, (), ""),
        *[("revote", v, "hang_all", (), "") for v in (1, 2, 3, 4, 7, 8, 9, 10)],
        ("outcome", None, None, (5, 6), "hang_all"),
        ("last_word", 5, None, (), ""),
    ]
    assert [line.index for line in state.story][:3] == [0, 1, 2]
