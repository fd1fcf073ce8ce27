"""The engines speak no language: every refusal is a code, an English template and its
parameters (games/rules/errors.py), rendered through gettext by the Django layer
(games/rules_text.py), so the Russian and English catalogues hold every one of them."""

import ast
import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from games.rules.club import ClubGame
from games.rules.errors import RuleViolation
from games.rules.simulate import SAMPLE_LINEUP
from games.rules_text import rules_message
from tests.games.recording import Table

RULES = Path(__file__).resolve().parents[3] / "games" / "rules"
PARAM = re.compile(r"%\((\w+)\)s")


def templates() -> list[str]:
    found: list[str] = []
    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "gettext_noop"
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.append(node.args[0].value)
    return found


def test_every_engine_message_has_a_russian_translation_with_the_same_parameters() -> None:
    found = templates()
    assert len(found) > 100
    with translation.override("ru"):
        for template in found:
            russian = translation.gettext(template)
            assert russian != template or not re.search("[a-z]{3}", template), template
            assert sorted(PARAM.findall(russian)) == sorted(PARAM.findall(template)), template


def test_a_violation_reads_in_the_readers_language() -> None:
    game = ClubGame(dict(enumerate(SAMPLE_LINEUP, start=1)))
    game.apply({"type": "day", "n": 1})
    with pytest.raises(RuleViolation) as refused:
        game.apply({"type": "nominate", "by": 1, "target": 99})
    assert refused.value.code == "no_such_seat"
    with translation.override("ru"):
        assert rules_message(refused.value) == "Места 99 нет за столом."
    with translation.override("en"):
        assert rules_message(refused.value) == "There is no seat 99."
    assert str(refused.value) == "There is no seat 99."  # logs read English


@pytest.mark.django_db
def test_the_api_answers_in_the_callers_language(table: Table) -> None:
    from accounts.services import api_token_create
    from tests.games.recording import record, start_game

    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, {"type": "day", "n": 1}, *[{"type": "foul", "seat": 3}] * 3)
    token = api_token_create(member=host).key
    for language, words in (("ru", "уже выбыло"), ("en", "has already left the table")):
        client = Client(headers={"Authorization": f"Bearer {token}"})
        client.cookies["django_language"] = language
        refused = client.post(
            f"/api/v1/games/{game.pk}/events",
            {"type": "nominate", "by": 3, "target": 1, "seq": game.last_seq + 1},
            content_type="application/json",
        )
        assert refused.status_code == 422 and words in refused.json()["detail"]
        assert refused.json()["code"] == "seat_out"


@pytest.mark.django_db
def test_a_refused_speech_says_its_times_in_the_clubs_zone(table: Table) -> None:
    """The engine keeps a speech's start and the end before it as moments; the host's tap
    door says them as the club's time of day (#37: «04:41:42» was UTC on a Moscow table),
    and the host's page carries the zone for the phone's own engine."""
    import json

    from club.kernel.clubs import Club
    from tests.games.recording import record, start_game

    host, evening, players = table
    game = start_game(host, evening, players)
    spoken = {
        "type": "speech",
        "seat": 1,
        "start": "2026-12-06T01:41:20+00:00",
        "end": "2026-12-06T01:41:48+00:00",
        "limit": 30,
    }
    record(game, host, {"type": "day", "n": 1}, spoken)
    early = {
        **spoken,
        "seat": 2,
        "start": "2026-12-06T01:41:42.250000Z",
        "end": "2026-12-06T01:42:10Z",
    }
    client = Client()
    client.force_login(host)
    client.cookies["django_language"] = "ru"

    def refused() -> str:
        answer = client.post(
            f"/games/{game.pk}/tap/",
            {"seq": game.last_seq + 1, "client_id": None, "event": early},
            content_type="application/json",
        )
        assert answer.status_code == 422 and answer.json()["code"] == "speech_overlap"
        return str(answer.json()["error"])

    def zone_on_the_page() -> str:
        page = client.get(f"/games/{game.pk}/").content.decode()
        data = page.split('id="host-data" type="application/json">')[1].split("</script>")[0]
        return str(json.loads(data)["zone"])

    club = Club.current()
    assert club.timezone == "Europe/Moscow"
    assert refused() == (
        "Эта речь начинается в 04:41:42, раньше, чем закончилась предыдущая (04:41:48)."
    )
    assert zone_on_the_page() == "Europe/Moscow"
    club.timezone = "Asia/Vladivostok"
    club.save()
    assert refused() == (
        "Эта речь начинается в 11:41:42, раньше, чем закончилась предыдущая (11:41:48)."
    )
    assert zone_on_the_page() == "Asia/Vladivostok"
    # The engine's own English (logs, a reader without Django) keeps each moment's offset.
    game_rules = ClubGame(dict(enumerate(SAMPLE_LINEUP, start=1)))
    game_rules.apply({"type": "day", "n": 1})
    game_rules.apply(spoken)
    with pytest.raises(RuleViolation) as overlap:
        game_rules.apply(early)
    assert str(overlap.value) == (
        "This speech starts at 01:41:42, before the one before it ended (01:41:48)."
    )
