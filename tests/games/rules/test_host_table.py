"""The host's table screen as data (games/rules/table.py): what the screen shows and offers
at each point of a game, the same JSON the phone's engine computes offline."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

from django.utils import translation

from games.host_screen import engine_messages, engine_zip
from games.rules.club import LAST_WORD_SECONDS, ClubGame
from games.rules.simulate import SAMPLE_LINEUP, SAMPLE_OPENING
from games.rules.table import (
    Consequence,
    HostTable,
    OfflineTap,
    Refusal,
    TapJudged,
    build,
    host_table,
    offline_tap,
    table_for,
)
from tests.checks import present

BY_NUMBER = dict(enumerate(SAMPLE_LINEUP, start=1))  # 1 boss, 2–3 mafia, 4 commissar, 5 doctor
# As the phone's engine takes them: a seat's key may be its number or its text.
SEATS: dict[int | str, str] = {n: role for n, role in BY_NUMBER.items()}


def table(log: list[dict[str, Any]]) -> HostTable:
    return table_for(SEATS, None, [], log)


def speak(seat: int) -> dict[str, Any]:
    at = "2026-12-06T18:00:00+03:00"
    return {"type": "speech", "seat": seat, "start": at, "end": at, "limit": 30}


def test_during_a_speech_a_seat_tap_nominates_for_the_speaker_and_no_vote_shows_yet() -> None:
    shown = table([{"type": "day", "n": 1}, {"type": "nominate", "by": 1, "target": 6}])
    assert shown["tap"] == {"kind": "nominate", "by": 1}
    assert shown["timer"] == {
        "kind": "speech",
        "seat": 1,
        "seconds": 30,
        "turn": 0,
        "after": None,
    }
    assert shown["vote"] is None and shown["seats"][5]["nominated"]
    assert shown["balagan"] is None  # the round has begun


def test_the_vote_comes_after_the_round_then_the_defence_and_the_first_day_question() -> None:
    log: list[dict[str, Any]] = [{"type": "day", "n": 1}]
    log += [{"type": "nominate", "by": 1, "target": 6}, {"type": "nominate", "by": 1, "target": 7}]
    log += [speak(seat) for seat in range(1, 13)]
    shown = table(log)
    assert present(shown["vote"])["type"] == "votes" and present(shown["vote"])["among"] == [6, 7]
    assert shown["tap"] == {"kind": "hand"} and len(present(shown["vote"])["voters"]) == 12
    log.append({"type": "votes", "counts": {"6": 5, "7": 5}})
    shown = table(log)
    # The defence cannot start before the round's last speech ended.
    assert shown["timer"] == {
        "kind": "defence",
        "seat": 6,
        "seconds": 30,
        "turn": 12,
        "after": "2026-12-06T18:00:00+03:00",
    }
    assert shown["vote"] is None and not shown["seats"][5]["nominated"]
    assert shown["seats"][5]["candidate"]
    shown = table([*log, speak(6), speak(7)])
    assert present(shown["vote"])["type"] == "first_day_expel" and shown["majority"] == 7


def test_a_night_step_names_its_actor_and_may_target_nobody() -> None:
    log = [{"type": "day", "n": 1}, {"type": "night", "n": 1}]
    shown = table(log)
    assert present(shown["night"])["slot"] == "check:boss" and present(shown["night"])["actor"] == 1
    assert shown["tap"] == {"kind": "night", "event": {"type": "check", "by": 1}}
    log += [
        {"type": "check", "by": 1, "target": None},
        {"type": "kill", "by": "mafia", "target": None},
        {"type": "check", "by": 4, "target": 2},
        {"type": "heal", "target": None},
    ]
    shown = table(log)
    assert shown["night"] is None and "day" in shown["legal"]
    game = build(SEATS, None, [], log)
    assert game.kills == [] and game.heals == set() and len(game.checks) == 1


def test_the_morning_says_what_the_night_did_and_its_last_word_opens_the_day() -> None:
    shown = table(list(SAMPLE_OPENING))
    morning = present(shown["morning"])
    assert morning["shots"] == [{"by": "mafia", "target": 6}] and morning["healed"] == [7]
    assert [c["result"] for c in morning["checks"]] == ["commissar", "black"]
    assert [out["seat"] for out in morning["left"]] == [6]
    last_word = {
        "kind": "last_word",
        "seat": 6,
        "seconds": LAST_WORD_SECONDS,
        "turn": 0,
        "after": None,
    }
    assert shown["timer"] == last_word
    assert shown["vote"] is None
    # The green frame is on the victim giving the last word, not on the round's first speaker.
    assert [seat["no"] for seat in shown["seats"] if seat["speaking"]] == [6]


def test_a_player_fouled_out_mid_round_speaks_after_the_speech_under_way() -> None:
    fouls = [{"type": "foul", "seat": 9}] * 3
    shown = table([{"type": "day", "n": 1}, *fouls])
    assert shown["seats"][8]["out"] == "fouls" and shown["last_words"] == [9]
    assert (
        present(shown["timer"])["kind"] == "speech" and present(shown["tap"])["kind"] == "nominate"
    )
    assert [seat["no"] for seat in shown["seats"] if seat["speaking"]] == [1]  # speech under way
    round_over = [speak(seat) for seat in range(1, 13) if seat != 9]
    after = table([{"type": "day", "n": 1}, *fouls, *round_over])
    assert present(after["timer"]) == {
        "kind": "last_word",
        "seat": 9,
        "seconds": 60,
        "turn": 11,
        "after": "2026-12-06T18:00:00+03:00",
    }
    assert [seat["no"] for seat in after["seats"] if seat["speaking"]] == [9]


def test_a_clock_names_when_the_speech_before_it_ended_and_an_undo_takes_it_back() -> None:
    """The screen starts no clock before the speech before it ended (a start kept from an
    undone turn would make the speech unrecordable): the table says that end, as the
    effective log has it."""

    def spoke(seat: int, start: str, end: str) -> dict[str, Any]:
        return {"type": "speech", "seat": seat, "start": start, "end": end, "limit": 30}

    first = spoke(1, "2026-12-06T15:00:00+00:00", "2026-12-06T15:00:30+00:00")
    second = spoke(2, "2026-12-06T15:00:30+00:00", "2026-12-06T15:01:00+00:00")
    log: list[dict[str, Any]] = [{"type": "day", "n": 1}, first, second]
    assert present(table(log)["timer"])["after"] == "2026-12-06T15:01:00+00:00"
    undone = present(table([*log, {"type": "undo"}])["timer"])
    assert (undone["seat"], undone["turn"], undone["after"]) == (2, 1, "2026-12-06T15:00:30+00:00")
    unchecked = table_for(SEATS, {"speeches_checked": False}, [], log)
    assert present(unchecked["timer"])["after"] is None


def test_an_offline_tap_is_judged_words_its_refusal_and_names_a_removal() -> None:
    log = [{"type": "day", "n": 1}, {"type": "foul", "seat": 9}, {"type": "foul", "seat": 9}]
    third = offline_tap(SEATS, None, [], log, {"type": "foul", "seat": 9})
    assert third["ok"] and third["consequence"] == {
        "removes": [9],
        "winner": None,
        "reasons": {"9": "fouls"},  # the question says why
    }
    refused = offline_tap(SEATS, None, [], log, {"type": "nominate", "by": 1, "target": 99})
    assert refused == {
        "ok": False,
        "refusal": {
            "code": "no_such_seat",
            "template": "There is no seat %(seat)s.",
            "params": {"seat": 99},
        },
    }
    undone = offline_tap(SEATS, None, [], log, {"type": "undo"})
    assert undone["ok"] and undone["table"]["seats"][8]["fouls"] == 1
    nothing = offline_tap(SEATS, None, [], [], {"type": "undo"})
    assert refusal_of(nothing)["code"] == "nothing_to_undo"


def test_the_page_carries_every_refusal_of_the_engine_in_the_readers_language() -> None:
    with translation.override("ru"):
        words = engine_messages()
    assert words["There is no seat %(seat)s."] == "Места %(seat)s нет за столом."
    assert "The game is over." in words and "nominee" in words
    assert all(template in words for template in ("There is nothing to undo.",))


def test_the_table_is_json_and_shows_no_more_than_the_engine_allows() -> None:
    import json

    game = ClubGame(BY_NUMBER)
    shown = host_table(game, [])
    assert json.loads(json.dumps(shown)) == shown
    assert shown["legal"] == ["day"] and shown["undo"] is False and shown["tap"] is None


def judged(tap: OfflineTap) -> TapJudged:
    assert tap["ok"], tap
    return tap


def consequence_of(tap: OfflineTap) -> Consequence:
    """What a tap the engine took does to the table: this one has a consequence."""
    consequence = judged(tap).get("consequence")
    assert consequence is not None, tap
    return consequence


def refusal_of(tap: OfflineTap) -> Refusal:
    assert not tap["ok"], tap
    return tap["refusal"]


def speeches_from(first: int, *seats: int) -> list[dict[str, Any]]:
    """Speeches in turn, each after the last: a minute apart from `first` minutes on."""

    def at(minute: int, second: int) -> str:
        return f"2026-12-06T18:{minute:02d}:{second:02d}+03:00"

    return [
        {"type": "speech", "seat": s, "start": at(first + i, 0), "end": at(first + i, 30),
         "limit": 30}
        for i, s in enumerate(seats)
    ]  # fmt: skip


def test_the_night_says_who_has_not_acted_and_marks_the_targets() -> None:
    log = [{"type": "day", "n": 1}, {"type": "night", "n": 1}]
    shown = table(log)
    assert [w["role"] for w in present(shown["night_waiting"])] == [
        "boss",
        "mafia",
        "commissar",
        "doctor",
    ]
    log += [{"type": "check", "by": 1, "target": 4}, {"type": "kill", "by": "mafia", "target": 6}]
    shown = table(log)
    assert [w["slot"] for w in present(shown["night_waiting"])] == ["check:commissar", "heal"]
    assert shown["seats"][5]["targeted"] == ["kill:mafia"]
    assert shown["seats"][3]["targeted"] == ["check:boss"]
    # A morning now asks first, naming who has not acted.
    early = offline_tap(SEATS, None, [], log, {"type": "day", "n": 2})
    assert consequence_of(early)["waiting"] == [
        {"slot": "check:commissar", "role": "commissar"},
        {"slot": "heal", "role": "doctor"},
    ]
    log += [{"type": "check", "by": 4, "target": None}, {"type": "heal", "target": None}]
    assert table(log)["night_waiting"] == []
    on_time = offline_tap(SEATS, None, [], log, {"type": "day", "n": 2})
    assert on_time["ok"] and on_time["consequence"] is not None  # the shot seat leaves
    assert "waiting" not in on_time["consequence"]
    day = table([*log, {"type": "day", "n": 2}])
    assert day["night_waiting"] is None and all(s["targeted"] == [] for s in day["seats"])


def test_the_host_sees_each_vote_and_what_it_did() -> None:
    log: list[dict[str, Any]] = [
        {"type": "day", "n": 1}, {"type": "night", "n": 1}, {"type": "day", "n": 2},
        {"type": "nominate", "by": 2, "target": 7}, {"type": "nominate", "by": 2, "target": 8},
        {"type": "nominate", "by": 3, "target": 9},
        *speeches_from(0, *range(2, 13), 1),
        {"type": "votes", "counts": {"7": 4, "8": 4, "9": 3}},
    ]  # fmt: skip
    shown = table(log)
    assert shown["tally"] == {"type": "votes", "counts": {"7": 4, "8": 4, "9": 3}, "for": None,
                              "dropped": [], "expelled": [], "defence": [7, 8, 9],
                              "outcome": None}  # fmt: skip
    log += speeches_from(20, 7, 8, 9)
    shown = table(log)
    assert present(shown["vote"])["type"] == "hands" and present(shown["vote"])["round"] == 1
    log.append({"type": "hands", "counts": {"7": 5, "8": 5, "9": 1}})
    shown = table(log)
    assert present(shown["tally"])["dropped"] == [9] and present(shown["tally"])["expelled"] == []
    assert present(shown["tally"])["defence"] == []  # a runoff's hands, not the count
    log += speeches_from(30, 7, 8)
    shown = table(log)
    assert (present(shown["vote"])["round"], present(shown["vote"])["dropped"]) == (
        2,
        [9],
    )  # the runoff says so
    log.append({"type": "hands", "counts": {"7": 5, "8": 5}})
    shown = table(log)
    assert present(shown["vote"])["type"] == "expel_both" and present(shown["vote"])["about"] == [
        7,
        8,
    ]
    both = offline_tap(SEATS, None, [], log, {"type": "expel_both", "for": 7})
    assert consequence_of(both)["reasons"] == {"7": "car_crash", "8": "car_crash"}
    kept = table([*log, {"type": "expel_both", "for": 2}])
    assert kept["tally"] == {"type": "expel_both", "counts": None, "for": 2, "dropped": [],
                             "expelled": [], "defence": [], "outcome": "both_kept"}  # fmt: skip


def test_undoing_the_end_asks_on_the_phone_as_on_the_server() -> None:
    from games.rules.simulate import SAMPLE_TOWN_WINS

    undone = offline_tap(SEATS, None, [], list(SAMPLE_TOWN_WINS), {"type": "undo"})
    assert consequence_of(undone)["reopens"] is True
    assert not judged(undone)["table"]["over"]


def test_the_phone_engine_zip_holds_every_module_of_the_rules_and_runs_on_the_stdlib_alone(
    tmp_path: Path,
) -> None:
    """The phone unpacks /games/engine.zip and imports `games.rules.table` from it: every
    module of games/rules is in it, the engines' packages (club/, online/) included, and
    it runs with nothing but the standard library (`-S`: no site-packages, as Pyodide)."""
    rules = Path(__file__).resolve().parents[3] / "games" / "rules"
    modules = {f"games/rules/{path.relative_to(rules).as_posix()}" for path in rules.rglob("*.py")}
    assert {"games/rules/club/vote.py", "games/rules/online/night.py"} <= modules
    archive = zipfile.ZipFile(io.BytesIO(engine_zip()))
    assert set(archive.namelist()) == modules | {"games/__init__.py"}
    archive.extractall(tmp_path)
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); from games.rules import table; "
        "from games.rules.simulate import SAMPLE_LINEUP; "
        "shown = table.table_for(dict(enumerate(SAMPLE_LINEUP, 1)), None, [], "
        "[{'type': 'day', 'n': 1}]); print(shown['timer']['seat'])"
    )
    ran = subprocess.run(
        [sys.executable, "-S", "-c", script, str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "1"


def test_the_morning_offers_the_best_move_until_the_round_or_until_it_is_recorded() -> None:
    log: list[dict[str, Any]] = list(SAMPLE_OPENING)  # seat 6 shot on night 1
    shown = table(log)
    assert shown["best_move"] == {"by": [6], "most": 3}
    assert shown["tap"] == {"kind": "best_move"}  # the last word leaves the seats' taps free
    assert present(shown["timer"])["kind"] == "last_word"
    # Named in the last word: once it is over the screen no longer asks (the engine still
    # takes it, from the API or a protocol).
    after_last_word = table([*log, {"type": "last_word", "seat": 6}])
    assert after_last_word["best_move"] is None
    assert present(after_last_word["tap"])["kind"] == "nominate"
    named = offline_tap(SEATS, None, [], log, {"type": "best_move", "by": 6, "targets": [1, 2, 9]})
    after = judged(named)["table"]
    assert consequence_of_none(named) and after["best_move"] is None and after["tap"] is None
    assert after["best_move_given"] == {"by": 6, "targets": [1, 2, 9]}
    assert after["morning"] == shown["morning"] and after["timer"] == shown["timer"]
    assert after["last_words"] == [6]  # the last word goes on
    twice = offline_tap(
        SEATS, None, [], [*log, {"type": "best_move", "by": 6, "targets": []}],
        {"type": "best_move", "by": 6, "targets": [1]},
    )  # fmt: skip
    assert refusal_of(twice)["code"] == "best_move_given"


def consequence_of_none(tap: OfflineTap) -> bool:
    """A tap that removes nobody and ends nothing: no question before it is kept."""
    return judged(tap).get("consequence") is None


def test_no_best_move_after_a_quiet_night_and_extra_points_are_listed() -> None:
    quiet = [{"type": "day", "n": 1}, {"type": "night", "n": 1}, {"type": "day", "n": 2}]
    shown = table(quiet)
    assert shown["best_move"] is None and present(shown["tap"])["kind"] == "nominate"
    given = offline_tap(
        SEATS, None, [], quiet, {"type": "bonus", "seat": 4, "points": 0.2, "reason": " лидер "}
    )
    assert judged(given)["table"]["bonuses"] == [{"seat": 4, "points": 0.2, "reason": "лидер"}]
    assert consequence_of_none(given)


def test_the_table_names_what_undo_takes_back() -> None:
    assert table([])["undoes"] is None
    bonus = {"type": "bonus", "seat": 4, "points": 0.15, "reason": "лидер"}
    given = [*SAMPLE_OPENING, {"type": "best_move", "by": 6, "targets": [1, 2]}, bonus]
    assert table(given)["undoes"] == bonus
    # After an undo, the event before it: the best move.
    assert table([*given, {"type": "undo"}])["undoes"] == given[-2]
    assert table([*given, {"type": "foul", "seat": 3}])["undoes"] == {"type": "foul", "seat": 3}


def test_after_the_end_the_best_move_is_still_offered_until_recorded() -> None:
    seats: dict[int | str, str] = {1: "mafia", 2: "civilian", 3: "civilian", 4: "civilian"}
    options = {"min_players": 4}
    log: list[dict[str, Any]] = [
        {"type": "day", "n": 1},
        {"type": "night", "n": 1},
        {"type": "kill", "by": "mafia", "target": 2},
        {"type": "day", "n": 2},
        {"type": "nominate", "by": 1, "target": 3},
        {"type": "votes", "counts": {"3": 2}},
    ]
    over = table_for(seats, options, [], log)
    assert over["over"] and over["best_move"] == {"by": [2], "most": 3}
    assert over["tap"] == {"kind": "best_move"}
    done = table_for(seats, options, [], [*log, {"type": "best_move", "by": 2, "targets": [1]}])
    assert done["best_move"] is None and done["tap"] is None


def test_the_preliminary_count_says_who_speaks_in_defence() -> None:
    """The count after the nominations names the candidates it sends to the defence speech
    (first and second places, RULES.md §B), on day 1 before its question too; a count that
    expels its one candidate or ends the vote sends nobody."""
    day_one: list[dict[str, Any]] = [
        {"type": "day", "n": 1},
        {"type": "nominate", "by": 2, "target": 7}, {"type": "nominate", "by": 3, "target": 9},
        {"type": "nominate", "by": 4, "target": 5},
        *speeches_from(0, *range(1, 13)),
        {"type": "votes", "counts": {"7": 5, "9": 3, "5": 3}},
    ]  # fmt: skip
    assert present(table(day_one)["tally"])["defence"] == [5, 7, 9]
    nobody = [*day_one[:-1], {"type": "votes", "counts": {"7": 0, "9": 0, "5": 0}}]
    assert present(table(nobody)["tally"])["defence"] == []
    day_two: list[dict[str, Any]] = [
        {"type": "day", "n": 1}, {"type": "night", "n": 1}, {"type": "day", "n": 2},
        {"type": "nominate", "by": 2, "target": 7},
        *speeches_from(0, *range(2, 13), 1),
        {"type": "votes", "counts": {"7": 6}},
    ]  # fmt: skip
    shown = present(table(day_two)["tally"])
    assert (shown["defence"], shown["expelled"]) == ([], [7])
