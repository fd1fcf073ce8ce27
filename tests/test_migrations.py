"""The models that left games for their rooms (online, recordings, ratings) move by state
only: from the schema before, with rows in it, the migrations keep every row, the tables'
names, and the content types (their ids, so admin's history and permissions follow)."""

from datetime import date, timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.state import StateApps
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

GAMES_BEFORE = ("games", "0006_game_first_ended_at")
BEFORE: list[tuple[str, str | None]] = [
    GAMES_BEFORE,
    ("online", None),
    ("recordings", None),
    ("ratings", None),
]
MOVED = {
    "online": ["onlinetable", "mafiamessage"],
    "recordings": ["recording", "recordingdeletion"],
    "ratings": ["scoringscheme", "gameanalysis", "playerscore"],
}


def migrate(targets: list[tuple[str, str | None]], state_of: list[tuple[str, str]]) -> StateApps:
    """Migrate to `targets` (a None name: before the app's first migration); the models as
    they stood at `state_of`."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(state_of).apps


def test_the_moved_models_keep_their_rows_tables_and_content_types() -> None:
    accounts = ("accounts", "0005_nickname_key")  # the members' table as it stood then
    old = migrate([*BEFORE, accounts], state_of=[GAMES_BEFORE, accounts])
    User = old.get_model("accounts", "User")
    Game = old.get_model("games", "Game")
    ContentType = old.get_model("contenttypes", "ContentType")
    host = User.objects.create(
        nickname="Ведущий", nickname_key="ведущий", birth_date=date(1990, 1, 1), password="!"
    )
    now = timezone.now()
    game = Game.objects.create(number=1, host=host, ruleset="online", options={}, lineup={})
    old.get_model("games", "OnlineTable").objects.create(game=game, starts_at=now)
    old.get_model("games", "MafiaMessage").objects.create(game=game, seat=1, text="в 7")
    old.get_model("games", "Recording").objects.create(
        game=game, original_name="g.m4a", size=10, started_at=now
    )
    old.get_model("games", "RecordingDeletion").objects.create(
        recording_id=1, size=10, deleted_at=now, reason="retention"
    )
    # A transactional test that ran earlier may have flushed the row the migration seeds.
    scheme = old.get_model("games", "ScoringScheme").objects.get_or_create(
        version=1, defaults={"points": {}}
    )[0]
    old.get_model("games", "GameAnalysis").objects.create(
        game=game, scheme=scheme, digest="d", built_at=now
    )
    old.get_model("games", "PlayerScore").objects.create(
        game=game, seat=1, member=host, role="don", team="black", won=True, points=1.0,
        played_on=now.date(), ended_at=now + timedelta(hours=1),
    )  # fmt: skip
    ids = {
        model: ContentType.objects.get_or_create(app_label="games", model=model)[0].pk
        for models in MOVED.values()
        for model in models
    }

    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    new = migrate(list(leaves), state_of=leaves)
    for app, models in MOVED.items():
        for model in models:
            moved = new.get_model(app, model)
            assert moved._meta.db_table == f"games_{model}"
            rows = moved.objects.all()
            if model == "scoringscheme":  # ratings 0004 added the other presets' version 1
                rows = rows.filter(preset__code="club")
            assert rows.count() == 1, model
            content_type = new.get_model("contenttypes", "ContentType").objects.get(pk=ids[model])
            assert (content_type.app_label, content_type.model) == (app, model)
    table = new.get_model("online", "OnlineTable").objects.get()
    assert table.game_id == game.pk
    assert new.get_model("ratings", "PlayerScore").objects.get().member_id == host.pk
