"""Every rule of RULES.md §D through the online engine (games/rules/online/) and the
protocol. The table: 1 don, 2 and 3 mafia, 4 commissar, 5–10 civilians."""

from collections.abc import Sequence
from typing import Any

import pytest

from games.rules import protocol
from games.rules.errors import ProtocolError, RuleViolation
from games.rules.online import OnlineGame, OnlineOptions
from tests.games.online.tables import catastrophe_of

TABLE = {1: "don", 2: "mafia", 3: "mafia", 4: "commissar"} | {s: "civilian" for s in range(5, 11)}
DAY1: dict[str, Any] = {"type": "day", "n": 1}


def game(*events: dict[str, Any], **options: Any) -> OnlineGame:
    state = OnlineGame(TABLE, options=OnlineOptions(**options))
    state.apply_all(events)
    return state


def votes(pairs: dict[int, object]) -> list[dict[str, Any]]:
    return [{"type": "vote", "voter": v, "target": t} for v, t in pairs.items()]


def refused(state: OnlineGame, event: dict[str, Any], code: str | None = None) -> None:
    before = state.summary(), state.prompt()
    with pytest.raises(RuleViolation) as error:
        state.apply(event)
    if code:
        assert error.value.code == code
    assert (state.summary(), state.prompt()) == before  # nothing changed


def kill(target: int, n: int, shooters: Sequence[int] = (1, 2, 3)) -> list[dict[str, Any]]:
    return [{"type": "shot", "by": s, "target": target} for s in shooters] + [{"type": "night_end"}]


def test_the_line_up_is_a_don_two_mafia_a_commissar_and_six_civilians() -> None:
    with pytest.raises(ProtocolError):
        OnlineGame({**TABLE, 10: "mafia"})
    with pytest.raises(ProtocolError):
        OnlineGame({**TABLE, 5: "doctor"})
    relaxed = OnlineGame(
        {1: "don", 2: "commissar", 3: "civilian", 4: "civilian"},
        options=OnlineOptions(strict_lineup=False),
    )
    assert relaxed.alive == {1, 2, 3, 4}


def test_the_most_voted_player_is_hanged_and_pass_does_not_compete() -> None:
    state = game(
        DAY1, *votes({5: 7, 6: 7, 8: "pass", 9: "pass", 10: "pass", 1: 6}), {"type": "day_end"}
    )
    assert [(e.seat, e.reason) for e in state.eliminated] == [(7, "voted")]
    assert state.outcome == "voted"


def test_all_pass_or_no_vote_means_nobody_dies() -> None:
    everyone_passes = game(DAY1, *votes(dict.fromkeys(range(1, 11), "pass")), {"type": "day_end"})
    assert not everyone_passes.eliminated and everyone_passes.outcome == "nobody"
    silent = game(DAY1, {"type": "day_end"})
    assert not silent.eliminated


def test_day_one_nine_pass_and_one_vote_pardons_but_one_vote_suffices_later() -> None:
    day_one = {**dict.fromkeys(range(1, 10), "pass"), 10: 5}
    pardoned = game(DAY1, *votes(day_one), {"type": "day_end"})
    assert not pardoned.eliminated and pardoned.outcome == "pardoned"
    later = game(
        DAY1,
        {"type": "day_end"},
        {"type": "night", "n": 1},
        {"type": "night_end"},
        {"type": "day", "n": 2},
        *votes({**dict.fromkeys(range(1, 10), "pass"), 10: 5}),
        {"type": "day_end"},
    )
    assert [e.seat for e in later.eliminated] == [5]
    switched_off = game(DAY1, *votes(day_one), {"type": "day_end"}, day_one_pardon=False)
    assert [e.seat for e in switched_off.eliminated] == [5]


def test_a_vote_may_change_once_and_the_second_is_final() -> None:
    state = game(
        DAY1, {"type": "vote", "voter": 5, "target": 6}, {"type": "vote", "voter": 5, "target": 7}
    )
    assert state.votes[5] == 7
    refused(state, {"type": "vote", "voter": 5, "target": 8}, "vote_final")


def test_the_dead_neither_vote_nor_are_voted_for() -> None:
    state = game(DAY1, *votes({5: 7, 6: 7}), {"type": "day_end"})
    state.apply({"type": "night", "n": 1})
    state.apply_all([{"type": "night_end"}, {"type": "day", "n": 2}])
    refused(state, {"type": "vote", "voter": 7, "target": 5}, "not_alive")
    refused(state, {"type": "vote", "voter": 5, "target": 7}, "not_alive")


def test_the_kill_needs_every_living_mafioso_on_the_same_target() -> None:
    base = [DAY1, {"type": "day_end"}, {"type": "night", "n": 1}]
    agreed = game(*base, *kill(8, 1))
    assert [(e.seat, e.reason) for e in agreed.eliminated] == [(8, "killed")]
    split = game(
        *base,
        {"type": "shot", "by": 1, "target": 8},
        {"type": "shot", "by": 2, "target": 8},
        {"type": "shot", "by": 3, "target": 9},
        {"type": "night_end"},
    )
    assert not split.eliminated and split.outcome == "misfire"
    silent_one = game(*base, *kill(8, 1, shooters=(1, 2)))
    assert not silent_one.eliminated and silent_one.misfires == 1


def test_three_misfired_nights_in_a_row_give_the_town_the_win() -> None:
    events = [DAY1, {"type": "day_end"}]
    for n in (1, 2, 3):
        events += [{"type": "night", "n": n}, {"type": "night_end"}]
        if n < 3:
            events += [{"type": "day", "n": n + 1}, {"type": "day_end"}]
    state = game(*events)
    assert state.winner == "red" and state.finished


def test_a_kill_between_misfires_resets_the_count() -> None:
    events = [
        DAY1,
        {"type": "day_end"},
        {"type": "night", "n": 1},
        {"type": "night_end"},
        {"type": "day", "n": 2},
        {"type": "day_end"},
        {"type": "night", "n": 2},
        *kill(9, 2),
        {"type": "day", "n": 3},
        {"type": "day_end"},
        {"type": "night", "n": 3},
        {"type": "night_end"},
    ]
    state = game(*events)
    assert state.misfires == 1 and not state.finished


def test_a_lone_mafioso_may_skip_but_three_skips_lose() -> None:
    state = game(
        DAY1,
        {"type": "modkill", "seat": 1},
        {"type": "day_end"},
        {"type": "night", "n": 1},
        {"type": "night_end"},
        {"type": "day", "n": 2},
        {"type": "modkill", "seat": 2},
        {"type": "day_end"},
        {"type": "night", "n": 2},
    )
    state.apply({"type": "shot", "by": 3, "target": None})  # a lone mafioso skips
    state.apply({"type": "night_end"})
    assert state.misfires == 2
    state.apply_all(
        [
            {"type": "day", "n": 3},
            {"type": "day_end"},
            {"type": "night", "n": 3},
            {"type": "night_end"},
        ]
    )
    assert state.winner == "red"


def test_the_dons_check_finds_the_commissar_and_dies_with_him() -> None:
    state = game(
        DAY1,
        {"type": "day_end"},
        {"type": "night", "n": 1},
        {"type": "don_check", "target": 4},
        {"type": "com_check", "target": 2},
    )
    assert [c.as_dict() for c in state.checks] == [
        {"by": 1, "target": 4, "result": "commissar"},
        {"by": 4, "target": 2, "result": "black"},
    ]
    refused(state, {"type": "don_check", "target": 5}, "acted")
    state.apply_all(
        [
            {"type": "night_end"},
            {"type": "day", "n": 2},
            *votes({5: 1, 6: 1}),
            {"type": "day_end"},
            {"type": "night", "n": 2},
        ]
    )
    refused(state, {"type": "don_check", "target": 5}, "no_checker")
    state.apply({"type": "com_check", "target": 5})
    assert state.checks[-1].result == "red"


def test_roles_stay_closed_until_the_end() -> None:
    state = game(DAY1, *votes({5: 7, 6: 7}), {"type": "day_end"})
    assert state.summary()["eliminated"][0]["revealed"] is False
    assert state.summary()["eliminated"][0]["last_word"] is True


def test_the_eliminated_have_a_last_word_and_then_only_the_living_post() -> None:
    state = game(DAY1, *votes({5: 7, 6: 7}), {"type": "day_end"})
    state.apply({"type": "post", "seat": 7, "text": "Я мирный!"})  # the last word
    refused(state, {"type": "post", "seat": 7, "text": "ещё"}, "not_alive")


def test_when_everyone_fasts_the_day_resolves_and_the_one_under_the_vote_may_abstain() -> None:
    state = game(DAY1, *votes({5: 7, 6: 7, 8: 9}))
    for voter in range(1, 11):
        if voter != 7:  # 7 leads the vote and abstains
            state.apply({"type": "fast", "voter": voter})
    assert state.outcome == "fast" and [e.seat for e in state.eliminated] == [7]
    assert not state.open  # the fast night comes next
    state.apply({"type": "night", "n": 1})


def test_a_fast_can_be_withdrawn() -> None:
    state = game(
        DAY1, *[{"type": "fast", "voter": v} for v in range(1, 10)], {"type": "unfast", "voter": 9}
    )
    state.apply({"type": "fast", "voter": 10})
    assert state.open  # 9 withdrew: not everyone is fasting
    state.apply({"type": "fast", "voter": 9})
    assert not state.open


def test_a_fasted_mafioso_without_a_shot_is_a_skipped_shot_and_shots_can_be_left_in_advance() -> (
    None
):
    state = game(
        DAY1,
        {"type": "shot", "by": 1, "target": 8},
        {"type": "shot", "by": 2, "target": 8},
        {"type": "day_end"},
        {"type": "night", "n": 1},
        {"type": "shot", "by": 3, "target": 8},
        {"type": "night_end"},
    )
    assert [e.seat for e in state.eliminated] == [8]  # the advance shots counted
    offline = game(
        DAY1,
        {"type": "shot", "by": 1, "target": 8},
        {"type": "shot", "by": 2, "target": 8},
        {"type": "day_end"},
        {"type": "night", "n": 1},
        {"type": "night_end"},
    )
    assert offline.outcome == "misfire"  # 3 left no shot


def tie(*seats: int, voters: list[int]) -> list[dict[str, Any]]:
    """Votes splitting `voters` evenly over `seats`."""
    return votes({v: seats[i % len(seats)] for i, v in enumerate(voters)})


def test_a_tie_at_an_even_count_asks_hang_all_or_pardon_all() -> None:
    state = game(DAY1, *tie(5, 6, voters=[1, 2, 3, 4]), {"type": "day_end"})
    assert catastrophe_of(state).tied == [5, 6] and catastrophe_of(state).question
    state.apply_all([{"type": "post", "seat": 5, "text": "не я"}, {"type": "post", "seat": 6}])
    refused(state, {"type": "post", "seat": 5}, "catastrophe")
    refused(state, {"type": "post", "seat": 8}, "catastrophe")
    refused(state, {"type": "revote", "voter": 5, "target": "hang_all"}, "catastrophe")
    state.apply_all([{"type": "revote", "voter": v, "target": "hang_all"} for v in (1, 2, 3, 4, 7)])
    state.apply_all([{"type": "revote", "voter": v, "target": "pardon_all"} for v in (8, 9)])
    state.apply({"type": "day_end"})
    assert [(e.seat, e.reason) for e in state.eliminated] == [(5, "voted"), (6, "voted")]


def test_a_tie_in_hang_all_or_pardon_all_pardons() -> None:
    state = game(
        DAY1,
        *tie(5, 6, voters=[1, 2, 3, 4]),
        {"type": "day_end"},
        *[{"type": "revote", "voter": v, "target": "hang_all"} for v in (1, 2)],
        *[{"type": "revote", "voter": v, "target": "pardon_all"} for v in (3, 4)],
        {"type": "day_end"},
    )
    assert not state.eliminated and state.outcome == "pardon_all"


def test_votes_on_hang_all_left_in_advance_count_when_the_round_comes() -> None:
    state = game(
        DAY1,
        *[{"type": "revote", "voter": v, "target": "hang_all"} for v in (7, 8, 9)],
        *tie(5, 6, voters=[1, 2, 3, 4]),
        {"type": "day_end"},
        {"type": "day_end"},
    )
    assert sorted(e.seat for e in state.eliminated) == [5, 6]


def test_at_an_odd_count_the_tied_are_revoted_and_one_leaves() -> None:
    state = game(
        DAY1,
        {"type": "modkill", "seat": 10},
        {"type": "day_end"},
        {"type": "night", "n": 1},
        {"type": "night_end"},
        {"type": "day", "n": 2},
        *tie(5, 6, voters=[1, 2, 3, 4]),
        {"type": "day_end"},
    )
    assert len(state.alive) == 9 and not catastrophe_of(state).question
    refused(state, {"type": "revote", "voter": 1, "target": "hang_all"}, "bad_target")
    refused(state, {"type": "revote", "voter": 1, "target": 7}, "bad_target")
    state.apply_all([{"type": "revote", "voter": v, "target": 6} for v in (1, 2, 3)])
    state.apply({"type": "revote", "voter": 4, "target": 5})
    refused(state, {"type": "revote", "voter": 4, "target": 6}, "vote_final")
    state.apply({"type": "day_end"})
    assert [e.seat for e in state.eliminated if e.reason == "voted"] == [6]


def test_three_tied_at_an_even_count_revote_and_two_leaders_get_the_question() -> None:
    state = game(DAY1, *tie(5, 6, 7, voters=[1, 2, 3, 4, 8, 9]), {"type": "day_end"})
    assert catastrophe_of(state).tied == [5, 6, 7] and not catastrophe_of(state).question
    state.apply_all(
        [
            {"type": "revote", "voter": v, "target": t}
            for v, t in ((1, 5), (2, 5), (3, 6), (4, 6), (8, 7))
        ]
    )
    state.apply({"type": "day_end"})
    assert catastrophe_of(state).tied == [5, 6] and catastrophe_of(state).question
    state.apply_all([{"type": "revote", "voter": v, "target": "pardon_all"} for v in (1, 2, 3)])
    state.apply({"type": "day_end"})
    assert not state.eliminated


def test_three_leaders_again_mean_another_revote_as_written() -> None:
    """«Если лидеров 3 то заново»: the revote is held again while three lead."""
    again = [{"type": "revote", "voter": v, "target": t} for v, t in ((1, 5), (2, 6), (3, 7))]
    state = game(
        DAY1, *tie(5, 6, 7, voters=[1, 2, 3, 4, 8, 9]), {"type": "day_end"}, *again,
        {"type": "day_end"}, *again, {"type": "day_end"},
    )  # fmt: skip
    assert catastrophe_of(state).tied == [5, 6, 7] and state.open and not state.eliminated
    state.apply_all([{"type": "revote", "voter": v, "target": 6} for v in (1, 2, 3, 4)])
    state.apply({"type": "day_end"})
    assert [e.seat for e in state.eliminated] == [6]
    limited = game(
        DAY1, *tie(5, 6, 7, voters=[1, 2, 3, 4, 8, 9]), {"type": "day_end"}, *again,
        {"type": "day_end"}, revote_tie_limit=1,
    )  # fmt: skip
    assert limited.outcome == "tie_again" and not limited.eliminated


def test_four_alive_and_a_tie_means_no_revote_and_nobody_leaves() -> None:
    # 1 don, 4 commissar, 5 and 6 civilians remain: mafia 1 vs red 3.
    state = game(
        DAY1,
        *[{"type": "modkill", "seat": s} for s in (2, 3, 7, 8, 9, 10)],
        {"type": "day_end"},
        {"type": "night", "n": 1},
        {"type": "night_end"},
        {"type": "day", "n": 2},
        *tie(5, 6, voters=[1, 4]),
        {"type": "day_end"},
    )
    assert len(state.alive) == 4 and state.outcome == "catastrophe_at_four"
    assert state.catastrophe is None and not state.open
    state.apply({"type": "night", "n": 2})


def test_the_night_cannot_start_over_a_tie() -> None:
    state = game(DAY1, *tie(5, 6, voters=[1, 2, 3, 4]))
    refused(state, {"type": "night", "n": 1}, "vote_pending")


def test_three_warnings_remove_a_player() -> None:
    state = game(DAY1, *[{"type": "warning", "seat": 5, "reason": "«честно»"}] * 2)
    assert state.warnings[5] == 2 and 5 in state.alive
    state.apply({"type": "warning", "seat": 5})
    assert [(e.seat, e.reason) for e in state.eliminated] == [(5, "warnings")]
    assert state.summary()["fouls"] == {"5": 3}


def test_a_modkill_cancels_that_days_vote_but_night_comes_on_schedule() -> None:
    state = game(
        DAY1,
        *votes({1: 7, 2: 7, 3: 7}),
        {"type": "modkill", "seat": 9, "reason": "inactive"},
        {"type": "day_end"},
        {"type": "night", "n": 1},
    )
    assert [(e.seat, e.reason) for e in state.eliminated] == [(9, "modkill")]
    assert 7 in state.alive


def test_the_mafia_win_at_parity_and_the_town_when_the_mafia_are_gone() -> None:
    black = game(DAY1, *[{"type": "modkill", "seat": s} for s in (5, 6, 7)])
    assert not black.finished  # 3 black against 4 red
    black.apply({"type": "modkill", "seat": 8})  # 3 against 3
    assert black.winner == "black"
    red = game(DAY1, *[{"type": "modkill", "seat": s} for s in (1, 2, 3)])
    assert red.winner == "red"


def test_nothing_after_the_end() -> None:
    state = game(DAY1, *[{"type": "modkill", "seat": s} for s in (1, 2, 3)])
    refused(state, {"type": "vote", "voter": 5, "target": 6}, "game_over")


def test_phases_follow_each_other() -> None:
    state = game()
    refused(state, {"type": "night", "n": 1}, "phase_order")
    refused(state, {"type": "day", "n": 2}, "phase_order")
    state.apply(DAY1)
    refused(state, {"type": "night_end"}, "wrong_phase")
    refused(state, {"type": "com_check", "target": 1}, "wrong_phase")


def test_an_online_protocol_replays_and_exports() -> None:
    events = [
        DAY1,
        *votes({5: 7, 6: 7}),
        {"type": "day_end"},
        {"type": "night", "n": 1},
        *kill(8, 1),
        {"type": "day", "n": 2},
    ]
    document = protocol.export(
        seats=[protocol.Seat(s, f"Игрок {s}", r) for s, r in TABLE.items()],
        events=events,
        options=OnlineOptions(),
    )
    assert document["ruleset"] == "online"
    state, failure = protocol.replay(protocol.parse(document))
    assert failure is None
    assert [e["seat"] for e in state.summary()["eliminated"]] == [7, 8]
    bad = {**document, "events": [*events, {"type": "vote", "voter": 7, "target": 5}]}
    _state, failure = protocol.replay(protocol.parse(bad))
    assert failure is not None and failure.index == len(events)
    with pytest.raises(ProtocolError):
        protocol.parse({**document, "immune": [1]})
