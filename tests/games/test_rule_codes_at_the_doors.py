"""The engine's reason reaches the door: an event the rules refuse is answered with the
rule's own code (`not_day`, not `invalid`) on the host's tap, on the API, in the online
game and in an import, with the status of `invalid` (422)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from accounts.services import api_token_create
from club.kernel.errors import RefusalCode, Refused
from games.protocols import protocol_read
from games.rules.errors import ProtocolError, RuleCode, RuleViolation
from games.rules.simulate import SAMPLE_OPENING
from games.rules_text import rule_refused
from tests.factories import make_member
from tests.games.online.test_online_play import Player, online_game
from tests.games.recording import LINEUP, Table, record, start_game

ROOT = Path(__file__).resolve().parents[2]
OPENING = list(SAMPLE_OPENING)  # day 1, night 1 (seat 6 killed), day 2

# Real refusals of the club game: the log before, the event, the rule that refuses it.
REFUSED: list[tuple[list[dict[str, Any]], dict[str, Any], RuleCode]] = [
    ([], {"type": "nominate", "by": 1, "target": 2}, RuleCode.NOT_DAY),
    ([], {"type": "check", "by": 4, "target": 1}, RuleCode.NOT_NIGHT),
    ([], {"type": "night", "n": 1}, RuleCode.PHASE_ORDER),
    ([], {"type": "foul", "seat": 6}, RuleCode.NOT_STARTED),
    (OPENING, {"type": "foul", "seat": 6}, RuleCode.SEAT_OUT),
    (OPENING, {"type": "votes", "counts": {"2": 1}}, RuleCode.NO_NOMINEES),
    (OPENING, {"type": "kill", "by": "mafia", "target": 3}, RuleCode.NOT_NIGHT),
    (OPENING, {"type": "heal", "by": 5, "target": 3}, RuleCode.MALFORMED),
    ([], {"type": "undo"}, RuleCode.NOTHING_TO_UNDO),
]
IDS = [f"{code}-{len(before)}" for before, _event, code in REFUSED]


def _bearer(member: Any) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_token_create(member=member).key}"}


@pytest.mark.parametrize(("before", "event", "code"), REFUSED, ids=IDS)
def test_the_tap_and_the_api_answer_the_rules_code(
    table: Table, before: list[dict[str, Any]], event: dict[str, Any], code: RuleCode
) -> None:
    host, evening, players = table
    game = start_game(host, evening, players, LINEUP)
    record(game, host, *before)
    seq = game.last_seq + 1
    host_client = Client()
    host_client.force_login(host)
    tapped = host_client.post(
        f"/games/{game.pk}/tap/",
        {"seq": seq, "event": event, "confirmed": True},
        content_type="application/json",
    )
    api = Client().post(
        f"/api/v1/games/{game.pk}/events",
        {**event, "seq": seq},
        content_type="application/json",
        headers=_bearer(host),
    )
    for answer in (tapped, api):
        assert answer.status_code == 422, answer.content
        assert answer.json()["code"] == code.value
    game.refresh_from_db()
    assert game.last_seq == seq - 1


@pytest.mark.django_db
def test_the_online_game_answers_the_rules_code() -> None:
    """A modkill before the start: the engine's `wrong_phase`, as it said."""
    host, _players, _seats, game_id, _starts = online_game(
        [Player(make_member(telegram_id=7100 + n)) for n in range(10)]
    )
    answer = host.api.post(
        f"/api/v1/online-games/{game_id}/actions",
        {"type": "modkill", "seat": 3},
        content_type="application/json",
    )
    assert answer.status_code == 422, answer.content
    assert answer.json()["code"] == RuleCode.WRONG_PHASE.value


def test_an_import_says_which_rule_refused_which_event(table: Table) -> None:
    host, _evening, players = table
    document = {
        "format": "mafia-protocol/1",
        "ruleset": "club",
        "seats": [
            {"seat": n, "nick": player.nickname, "role": role}
            for n, (player, role) in enumerate(zip(players, LINEUP, strict=True), 1)
        ],
        "events": [{"type": "nominate", "by": 1, "target": 2}],
    }
    with pytest.raises(Refused) as refused:
        protocol_read(document, host=host)
    assert refused.value.code == RuleCode.NOT_DAY
    assert refused.value.message.startswith(("Событие 0", "Event 0"))


@pytest.mark.parametrize("code", list(RuleCode))
def test_every_rule_code_is_the_body_code_with_422(code: RuleCode) -> None:
    error = RuleViolation(code, "No.") if code != RuleCode.MALFORMED else ProtocolError("No.")
    refusal = rule_refused(error)
    assert refusal.status == 422
    assert refusal.body()["code"] == refusal.body(tap=True)["code"] == code.value


def test_the_rule_codes_are_not_the_doors_codes() -> None:
    """A client branches on `stale` or `confirm`: no rule may say one of the doors' words."""
    assert not {code.value for code in RuleCode} & {code.value for code in RefusalCode}


def test_every_code_the_engines_raise_is_a_rule_code_and_every_rule_code_is_raised() -> None:
    raised: set[str] = set()
    for path in (ROOT / "games" / "rules").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleViolation":
                first = node.args[0]
                assert isinstance(first, ast.Attribute), f"{path}:{node.lineno}"
                assert ast.unparse(first.value) == "RuleCode", f"{path}:{node.lineno}"
                raised.add(first.attr)
    assert raised == {code.name for code in RuleCode} - {"MALFORMED"}


def test_no_door_words_an_engine_refusal_without_its_code() -> None:
    """Every place that turns an engine's refusal into the doors' goes through
    `rule_refused`: a `Refused(rules_message(...))` would drop the rule's code."""
    dropping = []
    for path in ROOT.glob("*/**/*.py"):
        if any(part in {"node_modules", "var", "tests", ".venv"} for part in path.parts):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                path.name != "rules_text.py"  # rule_refused itself
                and isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "Refused"
                and "rules_message" in ast.unparse(node)
            ):
                dropping.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert dropping == []
