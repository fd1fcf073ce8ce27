"""Every rule of RULES.md §B, through the engine's API (the protocol has its own tests)."""

import json
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from games.rules import protocol
from games.rules.club import ClubGame, Prompt
from games.rules.errors import ProtocolError, RuleViolation
from games.rules.options import ClubOptions

# Seat → role for a standard table of 12; seats 1-3 black, 11 maniac, 12 kamikaze.
TABLE = {
    1: "boss",
    2: "mafia",
    3: "swindler",
    4: "commissar",
    5: "doctor",
    6: "civilian",
    7: "civilian",
    8: "civilian",
    9: "civilian",
    10: "civilian",
    11: "maniac",
    12: "kamikaze",
}

# A full table of 15, for counts like the original's 5/4/4 (thirteen voters).
TABLE15 = {**TABLE, 13: "civilian", 14: "civilian", 15: "civilian"}


VIA = "engine"
_DOCUMENTS: dict[int, dict[str, Any]] = {}


@pytest.fixture(autouse=True, params=["engine", "protocol"])
def via(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every rule test runs twice: events applied through the engine's API, and the same
    events written as a protocol document, serialized to JSON and replayed."""
    global VIA
    VIA = request.param
    yield
    VIA = "engine"
    _DOCUMENTS.clear()


def game(
    *events: dict[str, Any],
    table: dict[int, str] | None = None,
    immune: Sequence[int] = (),
    **options: Any,
) -> ClubGame:
    table = table or TABLE
    if VIA == "engine":
        g = ClubGame(table, options=ClubOptions.from_dict(options), immune=immune)
        g.apply_all(events)
        return g
    doc = {
        "format": "mafia-protocol/1",
        "ruleset": "club",
        "options": options,
        "seats": [
            {"seat": seat, "nick": f"Игрок {seat}", "role": role} for seat, role in table.items()
        ],
        "immune": list(immune),
        "events": list(events),
    }
    replayed, failure = protocol.replay(protocol.loads(json.dumps(doc)))
    if failure is not None:
        raise failure.error
    assert isinstance(replayed, ClubGame)
    g = replayed
    _DOCUMENTS[id(g)] = doc
    return g


def day(n: int) -> dict[str, Any]:
    return {"type": "day", "n": n}


def night(n: int) -> dict[str, Any]:
    return {"type": "night", "n": n}


def nominate(by: int, target: int) -> dict[str, Any]:
    return {"type": "nominate", "by": by, "target": target}


def votes(**counts: int) -> dict[str, Any]:
    return {"type": "votes", "counts": {k.lstrip("s"): v for k, v in counts.items()}}


def hands(**counts: int) -> dict[str, Any]:
    return {"type": "hands", "counts": {k.lstrip("s"): v for k, v in counts.items()}}


def nominated(*targets: int) -> list[dict[str, Any]]:
    return [nominate(by, target) for by, target in zip((6, 7, 8, 9, 10), targets, strict=False)]


_CLOCK = iter(range(10**6))


def speech(seat: int, **extra: Any) -> dict[str, Any]:
    """A speech of 20 s, each after the last one made: speeches follow one another."""
    second = next(_CLOCK) * 30

    def at(s: int) -> str:
        return f"2026-12-06T{18 + s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}+03:00"

    return {"type": "speech", "seat": seat, "start": at(second), "end": at(second + 20),
            "limit": 30, **extra}  # fmt: skip


def speeches(*seats: int) -> list[dict[str, Any]]:
    return [speech(seat) for seat in seats]


def violation(g: ClubGame, event: dict[str, Any]) -> RuleViolation:
    if VIA == "protocol" and id(g) in _DOCUMENTS:
        # The same refusal through the protocol: the replay stops at this event.
        doc = _DOCUMENTS[id(g)]
        if len(doc["events"]) == g.events_applied:  # no event applied to g since the replay
            forbidden = {**doc, "events": [*doc["events"], event]}
            _state, failure = protocol.replay(protocol.loads(json.dumps(forbidden)))
            assert failure is not None and failure.index == len(doc["events"])
            assert isinstance(failure.error, RuleViolation)
    before = g.summary(), g.step, g.phase
    with pytest.raises(RuleViolation) as caught:
        g.apply(event)
    assert (g.summary(), g.step, g.phase) == before  # nothing changed
    return caught.value


def day2(*events: dict[str, Any], table: dict[int, str] | None = None, **options: Any) -> ClubGame:
    """A game on day 2 where nobody has left (day 1 ended with no nominations, night quiet)."""
    return game(day(1), night(1), day(2), *events, table=table, **options)


# --- the preliminary count: who makes the defence -------------------------------------


@pytest.mark.parametrize(
    ("counts", "candidates"),
    [
        ({"s6": 5, "s7": 4}, [6, 7]),  # the original's 5/4 → both
        ({"s6": 5, "s7": 5}, [6, 7]),  # 5/5 → both
        ({"s6": 5, "s7": 4, "s8": 4}, [6, 7, 8]),  # 5/4/4 → three
        ({"s6": 5, "s7": 4, "s8": 0}, [6, 7]),  # zero votes → never a candidate
        ({"s6": 5, "s7": 5, "s8": 1}, [6, 7, 8]),  # reading: 5/5/3 → three
        ({"s6": 5, "s7": 3, "s8": 1}, [6, 7]),
    ],
)
def test_defence_candidates_share_first_and_second_place(
    counts: dict[str, int], candidates: list[int]
) -> None:
    g = day2(*nominated(6, 7, 8), votes(**counts), table=TABLE15)
    assert g.candidates == candidates and g.step == "hands"


def test_ranks_reading_counts_a_shared_first_place_as_both_places() -> None:
    g = day2(*nominated(6, 7, 8), votes(s6=5, s7=5, s8=1), candidate_places="ranks")
    assert g.candidates == [6, 7]


def test_all_zero_votes_make_no_candidate_and_the_day_ends() -> None:
    g = day2(*nominated(6, 7), votes(s6=0, s7=0))
    assert (g.step, g.outcome, g.candidates) == ("done", "no_candidates", [])
    g.apply(night(2))


def test_more_than_four_candidates_is_nesostrel() -> None:
    # 2/2/2/1/1: five share the first two places → nobody leaves, night.
    g = day2(*nominated(6, 7, 8, 9, 10), votes(s6=2, s7=2, s8=2, s9=1, s10=1))
    assert (g.step, g.outcome) == ("done", "nesostrel")
    assert g.alive == set(TABLE)


def test_a_day_without_nominations_simply_ends() -> None:
    g = day2()
    v = violation(g, votes())
    assert v.code == "no_nominees"
    g.apply(night(2))


def test_a_nominated_day_cannot_go_to_night_before_the_vote() -> None:
    g = day2(nominate(6, 7))
    assert violation(g, night(2)).code == "vote_pending"


def test_nominations_one_or_two_each_never_the_same_twice() -> None:
    g = day2(nominate(6, 7), nominate(6, 8))
    assert violation(g, nominate(6, 9)).code == "too_many_nominations"
    assert violation(g, nominate(6, 7)).code == "duplicate_nomination"
    g.apply(nominate(9, 7))  # someone else may nominate the same player
    assert g.nominees == [7, 8]


def test_votes_never_exceed_the_living_and_only_go_to_nominees() -> None:
    g = day2(*nominated(6, 7))
    assert violation(g, votes(s6=7, s7=6)).code == "too_many_votes"
    assert violation(g, votes(s6=1, s9=1)).code == "not_a_candidate"


def test_voters_give_the_counts_and_each_living_player_votes_once() -> None:
    g = day2(*nominated(6, 7), {"type": "votes", "voters": {"1": 6, "2": 6, "3": 7}})
    assert g.candidates == [6, 7]
    g = day2(*nominated(6, 7))
    with pytest.raises(
        ProtocolError
    ):  # a JSON object cannot hold a voter twice; a repeat is malformed
        g.apply({"type": "votes", "voters": {"1": 6, 1: 7}})
    assert violation(g, {"type": "votes", "voters": {"99": 6}}).code == "no_such_seat"


# --- hands ---------------------------------------------------------------------------


def test_one_candidate_from_day_two_is_expelled() -> None:
    g = day2(*nominated(6), votes(s6=3))
    assert g.eliminated[-1].as_dict() == {
        "seat": 6,
        "phase": "day",
        "n": 2,
        "reason": "voted",
        "revealed": True,
        "last_word": True,
    }


def test_two_candidates_more_hands_leaves() -> None:
    g = day2(*nominated(6, 7), votes(s6=5, s7=4), hands(s6=3, s7=7))
    assert [e.seat for e in g.eliminated] == [7]
    assert g.step == "done"


def test_hands_never_exceed_the_living_and_only_go_to_candidates() -> None:
    g = day2(*nominated(6, 7), votes(s6=5, s7=4))
    assert violation(g, hands(s6=7, s7=6)).code == "too_many_votes"
    assert violation(g, hands(s8=1)).code == "not_a_candidate"


def test_a_tie_of_two_asks_expel_both_and_a_majority_takes_both() -> None:
    g = day2(*nominated(6, 7), votes(s6=5, s7=4), hands(s6=4, s7=4))
    assert g.step == "expel_both" and g.prompt().question == "expel_both"
    g.apply({"type": "expel_both", "for": 7})  # 7 of 12 living: more than half
    assert [(e.seat, e.reason) for e in g.eliminated] == [(6, "car_crash"), (7, "car_crash")]


def test_expel_both_without_a_majority_keeps_both() -> None:
    g = day2(
        *nominated(6, 7), votes(s6=5, s7=4), hands(s6=4, s7=4), {"type": "expel_both", "for": 6}
    )
    assert (g.step, g.outcome, g.eliminated) == ("done", "both_kept", [])
    g.apply(night(2))


def test_three_candidates_fewest_hands_drop_then_two_vote_again() -> None:
    g = day2(*nominated(6, 7, 8), votes(s6=5, s7=4, s8=4), hands(s6=5, s7=4, s8=1), table=TABLE15)
    assert (g.step, g.candidates) == ("hands", [6, 7])
    g.apply(hands(s6=2, s7=8))
    assert [e.seat for e in g.eliminated] == [7]


def test_four_candidates_run_off_down_to_a_tie_and_expel_both() -> None:
    g = day2(*nominated(6, 7, 8, 9), votes(s6=3, s7=3, s8=2, s9=2))
    assert g.candidates == [6, 7, 8, 9]
    g.apply(hands(s6=4, s7=3, s8=3, s9=1))
    assert g.candidates == [6, 7, 8]
    g.apply(hands(s6=5, s7=5, s8=2))
    assert g.candidates == [6, 7]
    g.apply(hands(s6=5, s7=5))
    assert g.step == "expel_both"


def test_a_tie_for_fewest_hands_drops_all_of_the_tied() -> None:
    g = day2(*nominated(6, 7, 8), votes(s6=5, s7=4, s8=4), hands(s6=6, s7=2, s8=2), table=TABLE15)
    assert [e.seat for e in g.eliminated] == [6]


def test_a_tie_for_fewest_hands_can_end_the_vote_instead() -> None:
    g = day2(
        *nominated(6, 7, 8),
        votes(s6=5, s7=4, s8=4),
        hands(s6=6, s7=2, s8=2),
        table=TABLE15,
        runoff_tie_for_fewest="nobody_leaves",
    )
    assert (g.eliminated, g.outcome) == ([], "runoff_tie")


def test_all_three_tied_drop_and_nobody_leaves() -> None:
    g = day2(*nominated(6, 7, 8), votes(s6=5, s7=4, s8=4), hands(s6=2, s7=2, s8=2), table=TABLE15)
    assert (g.eliminated, g.step) == ([], "done")


# --- the first day -------------------------------------------------------------------


def test_first_day_asks_whether_to_expel_anyone_at_all() -> None:
    g = game(day(1), *nominated(6, 7), votes(s6=5, s7=4))
    assert g.step == "first_day_question" and g.prompt().question == "expel_anyone"
    g.apply({"type": "first_day_expel", "for": 7})
    assert g.step == "hands"


def test_first_day_without_a_majority_nobody_leaves() -> None:
    g = game(day(1), *nominated(6, 7), votes(s6=5, s7=4), {"type": "first_day_expel", "for": 6})
    assert (g.step, g.outcome, g.eliminated) == ("done", "first_day_kept", [])


def test_one_candidate_on_day_one_needs_the_question() -> None:
    g = game(day(1), *nominated(6), votes(s6=5))
    assert g.step == "first_day_question"
    g.apply({"type": "first_day_expel", "for": 7})
    assert [e.seat for e in g.eliminated] == [6]


def test_one_candidate_on_day_one_can_be_expelled_outright() -> None:
    g = game(day(1), *nominated(6), votes(s6=5), single_candidate_day1="expel")
    assert [e.seat for e in g.eliminated] == [6]


def test_first_day_question_hands_never_exceed_the_living() -> None:
    g = game(day(1), *nominated(6), votes(s6=5))
    assert violation(g, {"type": "first_day_expel", "for": 13}).code == "too_many_votes"


# --- fouls ---------------------------------------------------------------------------


def test_three_fouls_remove_the_player_with_reveal() -> None:
    g = game(day(1), {"type": "foul", "seat": 6}, {"type": "foul", "seat": 6})
    assert g.fouls[6] == 2 and 6 in g.alive
    g.apply({"type": "foul", "seat": 6, "reason": "talking at night"})
    assert g.eliminated[-1].as_dict()["reason"] == "fouls" and g.eliminated[-1].revealed
    assert violation(g, {"type": "foul", "seat": 6}).code == "seat_out"


def test_pod_fol_twice_per_speech_each_a_foul_adds_30_seconds() -> None:
    g = game(day(1))
    assert g.prompt().speaker == 1 and g.prompt().seconds == 30
    g.apply({"type": "extension", "seat": 1})
    assert g.prompt().seconds == 60 and g.fouls[1] == 1
    g.apply({"type": "extension", "seat": 1})
    assert g.prompt().seconds == 90
    assert violation(g, {"type": "extension", "seat": 1}).code == "extension_limit"


def test_pod_fol_limit_is_per_speech_by_default_and_per_game_by_option() -> None:
    # Seat 1 takes «под фол» in the round, and again in its defence the same day.
    ext = {"type": "extension", "seat": 1}
    day_one = [day(1), ext, speech(1), nominate(2, 1), *speeches(*range(2, 13)), votes(s1=7)]
    g = game(*day_one, ext)
    assert g.fouls[1] == 2
    assert g.prompt().speaker == 1 and g.prompt().seconds == 60  # the defence lengthened too
    g = game(*day_one, extension_limit_per="game")
    g.apply(ext)
    assert violation(g, ext).code == "extension_limit"


def test_pod_fol_is_the_speakers_alone() -> None:
    g = game(day(1), *speeches(1, 2))
    assert violation(g, {"type": "extension", "seat": 6}).code == "not_speaking"
    g.apply({"type": "extension", "seat": 3})
    assert g.prompt().seconds == 60


def test_the_third_foul_by_extension_removes_the_player() -> None:
    g = game(day(1), *speeches(1, 2, 3, 4, 5), {"type": "foul", "seat": 6})
    g.apply({"type": "extension", "seat": 6})
    g.apply({"type": "extension", "seat": 6})
    assert 6 not in g.alive and g.eliminated[-1].reason == "fouls"


# --- the night -----------------------------------------------------------------------


def night1(*events: dict[str, Any], **options: Any) -> ClubGame:
    return game(day(1), night(1), *events, **options)


def test_the_night_order_is_kept() -> None:
    g = night1(
        {"type": "check", "by": 1, "target": 4}, {"type": "kill", "by": "mafia", "target": 6}
    )
    assert violation(g, {"type": "check", "by": 1, "target": 5}).code == "already_acted"
    g.apply({"type": "kill", "by": "maniac", "target": 7})
    assert violation(g, {"type": "kill", "by": "swindler", "target": 8}).code == "night_order"
    g.apply({"type": "check", "by": 4, "target": 11})
    g.apply({"type": "heal", "target": 6})
    g.apply(day(2))
    assert [(e.seat, e.reason) for e in g.eliminated] == [(7, "killed")]


def test_the_engine_answers_the_checks() -> None:
    g = night1({"type": "check", "by": 1, "target": 4}, {"type": "check", "by": 4, "target": 1})
    assert [c.as_dict() for c in g.checks] == [
        {"by": 1, "target": 4, "result": "commissar"},
        {"by": 4, "target": 1, "result": "black"},
    ]
    g = night1({"type": "check", "by": 1, "target": 5}, {"type": "check", "by": 4, "target": 11})
    assert [c.result for c in g.checks] == ["not_commissar", "black"]  # loners read black
    g = night1({"type": "check", "by": 4, "target": 11}, loners_check_as="red")
    assert g.checks[0].result == "red"
    g = night1({"type": "check", "by": 4, "target": 3})
    assert g.checks[0].result == "black"  # the swindler is black


def test_only_the_role_itself_acts() -> None:
    g = night1()
    assert violation(g, {"type": "check", "by": 6, "target": 4}).code == "wrong_role"
    assert violation(g, {"type": "kill", "by": "commissar", "target": 4}).code == "no_killer"


def test_a_heal_saves_from_every_kill_of_the_night() -> None:
    g = night1(
        {"type": "kill", "by": "mafia", "target": 6},
        {"type": "kill", "by": "swindler", "target": 6},
        {"type": "kill", "by": "maniac", "target": 6},
        {"type": "heal", "target": 6},
        day(2),
    )
    assert g.eliminated == [] and 6 in g.alive


def test_the_swindlers_victim_leaves_without_reveal_or_last_word() -> None:
    g = night1({"type": "kill", "by": "swindler", "target": 8}, day(2))
    assert g.eliminated[0].as_dict() == {
        "seat": 8,
        "phase": "night",
        "n": 1,
        "reason": "swindler",
        "revealed": False,
        "last_word": False,
    }
    assert violation(g, {"type": "last_word", "seat": 8}).code == "no_last_word"


def test_others_killed_at_night_have_a_last_word_once() -> None:
    g = night1(
        {"type": "kill", "by": "mafia", "target": 8}, day(2), {"type": "last_word", "seat": 8}
    )
    assert violation(g, {"type": "last_word", "seat": 8}).code == "no_last_word"


def test_the_maniacs_kill_on_the_kamikaze_takes_both() -> None:
    g = night1({"type": "kill", "by": "maniac", "target": 12}, day(2))
    assert [(e.seat, e.reason) for e in g.eliminated] == [(11, "kamikaze"), (12, "killed")]
    assert g.first_eliminated == (11, 12)


def test_a_heal_on_the_kamikaze_saves_both() -> None:
    g = night1(
        {"type": "kill", "by": "maniac", "target": 12}, {"type": "heal", "target": 12}, day(2)
    )
    assert g.eliminated == []


def test_the_kamikaze_reading_can_be_switched_off() -> None:
    g = night1({"type": "kill", "by": "maniac", "target": 12}, day(2), kamikaze_takes_maniac=False)
    assert [e.seat for e in g.eliminated] == [12]


def test_night_one_kills_can_be_switched_off() -> None:
    g = night1(night_one_kills=False)
    assert violation(g, {"type": "kill", "by": "mafia", "target": 6}).code == "no_kills_night_one"


def test_no_action_on_a_seat_that_has_left() -> None:
    g = day2(*nominated(6), votes(s6=3), night(2))
    assert violation(g, {"type": "kill", "by": "mafia", "target": 6}).code == "seat_out"
    assert violation(g, {"type": "check", "by": 4, "target": 6}).code == "seat_out"
    assert violation(g, {"type": "heal", "target": 6}).code == "seat_out"


def test_the_instigators_action_is_recorded_as_is() -> None:
    table = {**TABLE, 10: "instigator"}
    g = game(
        day(1),
        night(1),
        {"type": "action", "by": 10, "target": 4, "kind": "pressure"},
        day(2),
        table=table,
    )
    assert g.eliminated == []


# --- immunity ------------------------------------------------------------------------


def test_the_carried_in_seat_cannot_be_nominated_on_day_one() -> None:
    g = game(day(1), immune=[7])
    assert violation(g, nominate(6, 7)).code == "immune"


def test_a_night_one_kill_on_the_immune_seat_fails_but_night_two_lands() -> None:
    g = night1({"type": "kill", "by": "mafia", "target": 7}, day(2), immune=[7])
    assert g.eliminated == []
    g.apply(nominate(6, 7))  # day 2: no immunity any more
    g.apply(votes(s7=3))
    assert [e.seat for e in g.eliminated] == [7]


def test_the_first_to_leave_carry_immunity_into_the_next_game() -> None:
    g = day2(
        *nominated(6, 7), votes(s6=5, s7=4), hands(s6=4, s7=4), {"type": "expel_both", "for": 9}
    )
    assert g.first_eliminated == (6, 7)
    g.apply(night(2))
    g.apply({"type": "kill", "by": "mafia", "target": 8})
    g.apply(day(3))
    assert g.first_eliminated == (6, 7)


# --- winning -------------------------------------------------------------------------

SMALL = {1: "mafia", 2: "civilian", 3: "civilian", 4: "civilian"}


def small(*events: dict[str, Any], table: dict[int, str] = SMALL) -> ClubGame:
    return game(*events, table=table, min_players=4)


def test_red_wins_when_every_black_card_is_gone_loners_included() -> None:
    table = {1: "mafia", 2: "maniac", 3: "civilian", 4: "civilian", 5: "civilian", 6: "civilian"}
    g = game(day(1), night(1), day(2), nominate(3, 1), votes(s1=4), table=table, min_players=4)
    assert not g.finished  # the maniac is still at the table
    g.apply(night(2))
    g.apply({"type": "kill", "by": "maniac", "target": 3})
    g.apply(day(3))
    g.apply(nominate(4, 2))
    g.apply(votes(s2=3))
    assert (g.finished, g.winner) == (True, "red")


def test_black_wins_at_parity_loners_not_counted() -> None:
    table = {1: "mafia", 2: "maniac", 3: "civilian", 4: "civilian", 5: "civilian"}
    g = game(
        day(1),
        night(1),
        {"type": "kill", "by": "mafia", "target": 3},
        day(2),
        table=table,
        min_players=4,
    )
    assert (g.finished, g.winner) == (False, None)  # 1 black, 2 red
    g.apply(nominate(4, 5))
    g.apply(votes(s5=3))
    assert (g.finished, g.winner) == (True, "black")  # 1 black, 1 red, the maniac aside


def test_a_loner_left_with_one_other_player_wins_alone() -> None:
    table = {1: "mafia", 2: "maniac", 3: "civilian", 4: "civilian"}
    g = game(
        day(1),
        night(1),
        {"type": "kill", "by": "maniac", "target": 1},
        day(2),
        table=table,
        min_players=4,
    )
    assert not g.finished  # 2 red, the maniac: red has not won, nobody has
    g.apply(nominate(3, 4))
    g.apply(votes(s4=3))
    assert (g.finished, g.winner) == (True, "maniac")


def test_nothing_but_a_foul_heard_later_is_accepted_after_the_end() -> None:
    g = small(day(1), night(1), {"type": "kill", "by": "mafia", "target": 2}, day(2))
    g.apply(nominate(1, 3))
    g.apply(votes(s3=2))
    assert g.winner == "black"
    assert violation(g, night(2)).code == "game_over"
    assert violation(g, nominate(1, 4)).code == "game_over"
    # A foul heard on the recording after the end counts, and changes nothing else.
    before = (g.winner, sorted(g.alive), [e.seat for e in g.eliminated])
    for _ in range(3):
        g.apply({"type": "foul", "seat": 1, "reason": "по записи"})
    assert g.fouls[1] == 3 and (g.winner, sorted(g.alive), [e.seat for e in g.eliminated]) == before
    assert violation(g, {"type": "foul", "seat": 99}).code == "no_such_seat"


def test_a_line_up_that_is_already_decided_is_refused() -> None:
    with pytest.raises(ProtocolError):
        ClubGame({1: "civilian", 2: "civilian", 3: "civilian"}, options=ClubOptions(min_players=3))


def test_the_table_holds_12_to_15_by_default() -> None:
    with pytest.raises(ProtocolError):
        ClubGame({1: "mafia", 2: "civilian", 3: "civilian", 4: "civilian"})


# --- what comes next -----------------------------------------------------------------


def test_the_round_opens_one_seat_further_each_day_and_the_last_speaker_gets_45() -> None:
    g = game(day(1))
    assert g.round_order()[0] == 1
    for seat in range(1, 12):
        g.apply({"type": "speech", "seat": seat})
    assert g.prompt() == Prompt("day", 1, "round", g.prompt().legal, speaker=12, seconds=45)
    g.apply(night(1))
    g.apply(day(2))
    assert g.round_order()[:2] == [2, 3] and g.prompt().speaker == 2


def test_the_prompt_names_who_wakes_at_night_in_order() -> None:
    g = night1()
    assert g.prompt().wake == "boss"
    g.apply({"type": "kill", "by": "mafia", "target": 6})
    assert g.prompt().wake == "swindler"
    g.apply({"type": "kill", "by": "maniac", "target": 7})
    assert g.prompt().wake == "commissar"
    assert "check" in g.prompt().legal and "kill" not in g.prompt().legal


def test_events_follow_the_phases() -> None:
    g = game()
    assert violation(g, night(1)).code == "phase_order"
    assert violation(g, day(2)).code == "phase_order"
    g.apply(day(1))
    assert violation(g, {"type": "kill", "by": "mafia", "target": 6}).code == "not_night"
    g.apply(night(1))
    assert violation(g, nominate(6, 7)).code == "not_day"
    assert violation(g, day(3)).code == "phase_order"


def test_the_same_events_give_the_same_state() -> None:
    events = [
        day(1),
        *nominated(6, 7),
        votes(s6=5, s7=4),
        {"type": "first_day_expel", "for": 9},
        hands(s6=2, s7=8),
        night(1),
        {"type": "kill", "by": "mafia", "target": 8},
        day(2),
    ]
    assert game(*events).summary() == game(*events).summary()
    g = game(*events[:3])
    copied = g.copy()
    g.apply(events[3])
    assert copied.step == "round" and g.step == "first_day_question"


def test_unknown_and_malformed_events_are_protocol_errors() -> None:
    g = game(day(1), nominate(6, 7))
    malformed: list[Any] = [
        {"type": "dance"},
        {"n": 1},
        [1, 2],
        {"type": "nominate", "by": "6", "target": 7},
        {"type": "foul", "seat": True},
        {"type": "votes", "counts": [1, 2]},
    ]
    for event in malformed:
        with pytest.raises(ProtocolError):
            g.apply(event)
