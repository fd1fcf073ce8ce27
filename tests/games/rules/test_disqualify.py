"""The judge's disqualification in the live game (`disqualify`, games/rules/club/end.py): at
any moment of day or night the host removes a living player with the reason; the player
leaves revealed and without a last word, the speeches and the vote go on as after a removal
by three fouls, and each scoring preset counts its `disqualification` line, not `removal`."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest
from django.core.management import call_command

from games.rules import protocol
from games.rules.club import ClubGame, Reason, Step
from games.rules.errors import ProtocolError, RuleCode, RuleViolation
from games.rules.presets import PRESETS
from games.rules.scoring import Extras, Line, Scheme, score
from games.rules.simulate import SAMPLE_LINEUP, SAMPLE_OPENING, SAMPLE_TOWN_WINS
from games.rules.table import offline_tap

# 1 boss, 2 and 3 mafia, 4 commissar, 5 doctor, 6–12 civilians; OPENING ends on day 2 with
# seat 6 shot on night 1, and day 2's round opens at seat 2.
TABLE = dict(enumerate(SAMPLE_LINEUP, start=1))
OPENING = list(SAMPLE_OPENING)


def disqualify(seat: int, reason: str = "оскорбление игрока") -> dict[str, Any]:
    return {"type": "disqualify", "seat": seat, "reason": reason}


def foul(seat: int) -> dict[str, Any]:
    return {"type": "foul", "seat": seat}


def game_after(*events: dict[str, Any]) -> ClubGame:
    game = ClubGame(TABLE)
    game.apply_all(events)
    return game


def test_a_disqualified_player_leaves_revealed_without_a_last_word_and_not_for_fouls() -> None:
    game = game_after(*OPENING, foul(2), disqualify(2))
    assert game.eliminated[-1].as_dict() == {
        "seat": 2,
        "phase": "day",
        "n": 2,
        "reason": Reason.DISQUALIFIED,
        "revealed": True,
        "last_word": False,
    }
    assert 2 not in game.alive and 2 not in game.last_words_due
    assert game.fouls == {2: 1}  # the foul before stays one foul: nothing was added
    # Three fouls are another way out: with a last word, and a reason of their own.
    fouled = game_after(*OPENING, foul(3), foul(3), foul(3))
    assert fouled.eliminated[-1].reason == Reason.FOULS and 3 in fouled.last_words_due
    # A seat that has left has no last word to give.
    with pytest.raises(RuleViolation) as refused:
        game.apply({"type": "last_word", "seat": 2})
    assert refused.value.code == RuleCode.NO_LAST_WORD


def test_the_speaker_disqualified_mid_speech_gives_way_to_the_next_seat() -> None:
    game = game_after(*OPENING)
    assert game.speaker_due() == 2 and "disqualify" in game.prompt().legal
    game.apply(disqualify(2))
    assert game.speaker_due() == 3 and game.prompt().speaker == 3
    at = "2026-12-06T18:10:00+03:00"
    with pytest.raises(RuleViolation) as refused:
        game.apply({"type": "speech", "seat": 2, "start": at, "end": at, "limit": 30})
    assert refused.value.code == RuleCode.SPEECH_ORDER


def test_a_disqualified_nominee_leaves_the_nominations() -> None:
    game = game_after(*OPENING, {"type": "nominate", "by": 2, "target": 3}, disqualify(3))
    assert game.nominees == [] and game.step == Step.ROUND
    game.apply({"type": "night", "n": 2})  # nobody left to vote on: the night may come


def test_a_candidate_disqualified_mid_vote_leaves_it_as_a_fouled_out_one_does() -> None:
    nominations = [
        {"type": "nominate", "by": 2, "target": 3},
        {"type": "nominate", "by": 4, "target": 5},
        {"type": "nominate", "by": 7, "target": 8},
    ]
    # Two candidates: one disqualified leaves too few, and the vote ends with nobody out.
    two = game_after(*OPENING, *nominations[:2], {"type": "votes", "counts": {"3": 4, "5": 4}})
    assert two.step == Step.HANDS and two.candidates == [3, 5]
    two.apply(disqualify(5))
    assert (two.step, two.outcome, two.candidates) == (Step.DONE, "candidates_left", [])
    assert sorted(set(TABLE) - two.alive) == [5, 6]
    # Three: the other two go on to the hands, and the hands decide between them.
    three = game_after(
        *OPENING, *nominations, {"type": "votes", "counts": {"3": 4, "5": 4, "8": 2}}
    )
    assert three.candidates == [3, 5, 8]
    three.apply(disqualify(8))
    assert three.step == Step.HANDS and three.candidates == [3, 5]
    three.apply({"type": "hands", "counts": {"3": 5, "5": 3}})
    assert [(out.seat, out.reason) for out in three.eliminated[-2:]] == [
        (8, Reason.DISQUALIFIED),
        (3, Reason.VOTED),
    ]


def test_at_night_the_disqualified_role_wakes_no_more_and_a_shot_at_them_kills_nobody() -> None:
    night = game_after(*OPENING, {"type": "night", "n": 2})
    assert "disqualify" in night.prompt().legal
    night.apply(disqualify(4))  # the commissar, before waking
    assert "check:commissar" not in {slot for _order, slot in night.night_slots()}
    night.apply({"type": "kill", "by": "mafia", "target": 7})
    night.apply(disqualify(7))  # the mafia's target, before the morning
    night.apply({"type": "day", "n": 3})
    assert [(out.seat, out.phase, out.reason) for out in night.eliminated[1:]] == [
        (4, "night", Reason.DISQUALIFIED),
        (7, "night", Reason.DISQUALIFIED),
    ]
    assert night.last_words_due == set()


def test_disqualifying_the_last_black_player_ends_the_game() -> None:
    before_the_last_vote = list(SAMPLE_TOWN_WINS[:-2])
    game = game_after(*before_the_last_vote, disqualify(1, "подсказка жестом"))
    assert game.finished and game.winner == "red"
    with pytest.raises(RuleViolation) as refused:
        game.apply(disqualify(4))
    assert refused.value.code == RuleCode.GAME_OVER


@pytest.mark.parametrize(
    ("before", "event", "code"),
    [
        ([], disqualify(2), RuleCode.NOT_STARTED),
        (OPENING, disqualify(6), RuleCode.SEAT_OUT),
        (OPENING, disqualify(20), RuleCode.NO_SUCH_SEAT),
        (OPENING, disqualify(2, "   "), RuleCode.DISQUALIFY_REASON),
        (OPENING, disqualify(2, "я" * 201), RuleCode.DISQUALIFY_REASON),
        (list(SAMPLE_TOWN_WINS), disqualify(4), RuleCode.GAME_OVER),
        (OPENING, {"type": "disqualify", "seat": 2}, RuleCode.MALFORMED),
        (OPENING, {"type": "disqualify", "seat": "2", "reason": "x"}, RuleCode.MALFORMED),
    ],
)
def test_refusals_change_nothing(
    before: list[dict[str, Any]], event: dict[str, Any], code: RuleCode
) -> None:
    game = game_after(*before)
    alive = set(game.alive)
    with pytest.raises((RuleViolation, ProtocolError)) as refused:
        game.apply(event)
    assert refused.value.code == code
    assert game.alive == alive


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_scores_a_disqualification_as_the_field_does(preset: str) -> None:
    """FIIM (mafiaratings' scoring 19: «kicked out», −0.5), the automatic preset (as FIIM)
    and the club's (the scheme's default, −0.5, as a removal for fouls): the line is
    `disqualification`, a penalty, never `removal`."""
    scheme = Scheme.from_dict(PRESETS[preset].points)
    events = [*OPENING, disqualify(12), foul(11), foul(11), foul(11)]
    lines = score(ClubGame(TABLE), events, scheme)
    assert Line("disqualification", -0.5) in lines[12]
    assert "removal" not in {line.code for line in lines[12]}
    assert [line.code for line in lines[11]] == ["removal"]
    assert Extras.of(lines[12]).penalty == -0.5


def test_the_disqualified_player_on_the_winning_side_still_wins() -> None:
    opening = len(OPENING)
    events = [*SAMPLE_TOWN_WINS[:opening], disqualify(12), *SAMPLE_TOWN_WINS[opening:]]
    lines = score(ClubGame(TABLE), events, Scheme())
    assert sorted((line.code, line.points) for line in lines[12]) == [
        ("disqualification", -0.5),
        ("win", 1.0),
    ]


def document(*events: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": "mafia-protocol/1",
        "ruleset": "club",
        "seats": [{"seat": n, "nick": f"Игрок {n}", "role": r} for n, r in TABLE.items()],
        "events": list(events),
    }


def test_a_disqualification_replays_and_survives_export_and_import() -> None:
    parsed = protocol.parse(document(*OPENING, disqualify(3, "  угрозы  ")))
    state, failure = protocol.replay(parsed)
    assert failure is None
    assert state.summary()["eliminated"][-1] == {
        "seat": 3,
        "phase": "day",
        "n": 2,
        "reason": "disqualified",
        "revealed": True,
        "last_word": False,
    }
    exported = protocol.export(
        seats=parsed.seats, events=protocol.normalized_events(parsed), options=parsed.options
    )
    assert exported["events"][-1] == {"type": "disqualify", "seat": 3, "reason": "угрозы"}
    again, failure = protocol.replay(protocol.loads(json.dumps(exported, ensure_ascii=False)))
    assert failure is None and again.summary() == state.summary()


def test_the_replay_command_stops_at_a_disqualification_without_a_reason() -> None:
    raw = json.dumps(document(*OPENING, disqualify(3, " ")))
    out, stdin = io.StringIO(), sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(raw.encode()))
    try:
        with pytest.raises(SystemExit) as exit_:
            call_command("replay_protocol", "-", lang="ru", stdout=out)
    finally:
        sys.stdin = stdin
    assert exit_.value.code == 2
    answer = json.loads(out.getvalue())
    assert answer["event"] == len(OPENING) and "нужна причина" in answer["error"]


def test_the_phone_asks_before_a_disqualification_and_names_it() -> None:
    seats: dict[int | str, str] = {seat: role for seat, role in TABLE.items()}
    log = [*OPENING, {"type": "last_word", "seat": 6}]  # the night's victim has spoken
    tapped = offline_tap(seats, None, [], log, disqualify(2))
    assert tapped["ok"]
    assert tapped.get("consequence") == {
        "removes": [2],
        "winner": None,
        "reasons": {"2": Reason.DISQUALIFIED},
    }
    shown = tapped["table"]
    assert shown["seats"][1]["out"] == "disqualified" and not shown["seats"][1]["last_word"]
    assert shown["timer"] is not None and shown["timer"]["seat"] == 3  # no last word of 2's
    refused = offline_tap(seats, None, [], log, disqualify(2, ""))
    assert not refused["ok"] and refused["refusal"]["code"] == "disqualify_reason"
