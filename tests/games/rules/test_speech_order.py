"""The round's order on the server's engine: each case of tests/games/speech_order.py
through `offline_tap`, the function the phone's engine runs too."""

from __future__ import annotations

from typing import Any

import pytest

from games.recording import Unreplayable
from games.rules.table import offline_tap
from tests.games.recording import Table, view_of
from tests.games.speech_order import CASES, SEATS, Case


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_the_round_order(case: Case) -> None:
    result = offline_tap(SEATS, case.options, [], case.log, case.tap)
    if case.refused is not None:
        assert not result["ok"] and result["refusal"]["code"] == case.refused, result
    else:
        assert result["ok"], result
        assert result["table"]["speaker"] == case.speaks_next


@pytest.mark.django_db
def test_a_game_recorded_before_the_check_keeps_its_speeches(table: Table) -> None:
    """Games in the database before the check are marked by the migration: their logs,
    with speeches out of turn, fold as they did (their pages would fail otherwise)."""
    import importlib

    from django.apps import apps

    from games.models import GameEvent
    from tests.games.recording import start_game

    host, evening, players = table
    game = start_game(host, evening, players)
    at = {"start": "2026-12-06T15:00:00+00:00", "end": "2026-12-06T15:00:30+00:00"}
    log: list[dict[str, Any]] = [
        {"type": "day", "n": 1},
        *({"type": "speech", "seat": 5, "limit": 30, **at},) * 3,
    ]
    GameEvent.objects.bulk_create(
        GameEvent(game=game, seq=n, type=e["type"], payload=e) for n, e in enumerate(log, 1)
    )
    with pytest.raises(Unreplayable):
        view_of(game.pk)
    migration = importlib.import_module("games.migrations.0009_speeches_checked")
    migration.recorded_before_the_check(apps, None)
    view = view_of(game.pk)
    assert view is not None and view.club_state.spoken == {5}
