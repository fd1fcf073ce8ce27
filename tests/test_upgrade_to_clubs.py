"""The upgrade path to many clubs (issue #41): a single club's database, with games, seasons'
presets, a tournament, recordings, notifications and evenings with their sign-ups, at the
migration state before the clubs, migrates forward to today's schema, backward, and forward
again. Forward, every row is the first club's (pk 1, slug «club») and nothing else moved:
every table's rows, column by column, are those the old schema held, and the first club's
settings are the old settings row's. Backward, the same rows and the settings row are back.
A game's protocol (games/protocols.py) is the same before and after, and importing it after
the upgrade replays into the same protocol.

The history is written by today's code (the real sign-up, analysis, tournament and import
paths), then the database goes back to the old schema, where the old models add rows
of their own (rows written before the club key existed) and the old settings row changes."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.state import StateApps
from django.utils import timezone

from club.kernel.clubs import Club
from club.kernel.tenancy import clubs_changed
from games.protocols import game_import, game_protocol
from tests.factories import make_evening, sign_up_many
from tests.games.recording import make_host, view_of
from tests.games.season import seed_history

pytestmark = pytest.mark.django_db(transaction=True)

# Each app's last migration before the clubs (its next one adds the club key).
BEFORE_CLUBS: list[tuple[str, str]] = [
    ("club", "0020_season_tournament_games"),
    ("games", "0012_game_spectators"),
    ("ratings", "0008_rating_forecasts"),
    ("recordings", "0005_stored_size"),
    ("tournaments", "0001_initial"),
    ("notifications", "0008_notification_language"),
    ("live", "0001_live_links"),
]
# The settings row became the clubs' table.
RENAMED = {"club_clubsettings": "club_club"}
# Tables the migrate command's signals fill (content types, permissions), not the
# migrations this test runs, and the migrations' own record.
NOT_DATA = {"django_migrations", "django_content_type", "auth_permission"}
# The old settings row as a club had set it (every field the clubs' settings keep).
OLD_SETTINGS: dict[str, Any] = {
    "name": "GrandDaddy",
    "venue": "GrandDaddy, Лиговский 50",
    "weekday": 5,
    "timezone": "Asia/Yekaterinburg",
    "seats_per_evening": 22,
    "min_age": 18,
    "signup_opens_days_before": 4,
    "telegram_group_chat_id": -100_123,
    "rating_system": "elo_tracks",
    "season_tournament_games": "excluded",
}

type Snapshot = dict[str, tuple[list[str], list[tuple[Any, ...]]]]


def migrate(targets: Iterable[tuple[str, str]]) -> StateApps:
    """Migrate to `targets`; the models as the database then stands."""
    executor = MigrationExecutor(connection)
    state = executor.migrate(list(targets))
    clubs_changed()
    Club.forget_cached()
    return state.apps


def latest() -> list[tuple[str, str]]:
    return list(MigrationExecutor(connection).loader.graph.leaf_nodes())


def snapshot() -> Snapshot:
    """Every data table's columns and rows, in the key's order."""
    tables: Snapshot = {}
    with connection.cursor() as cursor:
        for table in sorted(set(connection.introspection.table_names(cursor)) - NOT_DATA):
            columns = [
                column.name
                for column in connection.introspection.get_table_description(cursor, table)
            ]
            tables[table] = (columns, rows_of(cursor, table, columns))
    return tables


def rows_of(cursor: Any, table: str, columns: list[str]) -> list[tuple[Any, ...]]:
    quoted = ", ".join(connection.ops.quote_name(c) for c in columns)
    order = '"id"' if "id" in columns else quoted
    cursor.execute(f"SELECT {quoted} FROM {connection.ops.quote_name(table)} ORDER BY {order}")  # noqa: S608
    return [tuple(row) for row in cursor.fetchall()]


# Columns the upgrade moves to another table: a block of the bot is per club's bot
# (accounts 0013 after notifications 0010 copied it into notifications_telegramblock), the
# consent to publication per club (accounts 0014 after 0012 copied it into the memberships).
MOVED = {("accounts_user", "telegram_blocked_at"), ("accounts_user", "publication_consent")}


def assert_kept(old: Snapshot) -> None:
    """Every table the old schema had holds the same rows in its old columns (a table the
    upgrade renamed, under its new name; a column it moved to another table is left out:
    MOVED)."""
    with connection.cursor() as cursor:
        present = set(connection.introspection.table_names(cursor))
        for table, (columns, rows) in old.items():
            now = RENAMED.get(table, table) if table not in present else table
            assert now in present, f"{table} is gone"
            kept = [i for i, column in enumerate(columns) if (table, column) not in MOVED]
            now_rows = rows_of(cursor, now, [columns[i] for i in kept])
            assert now_rows == [tuple(row[i] for i in kept) for row in rows], (
                f"{table}'s rows changed"
            )


def assert_first_club_owns_everything(old: Snapshot) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, slug FROM club_club")
        assert cursor.fetchall() == [(1, "club")]
        keyed = 0
        for table in connection.introspection.table_names(cursor):
            columns = [
                c.name for c in connection.introspection.get_table_description(cursor, table)
            ]
            if "club_id" not in columns or table.startswith("club_club"):
                continue
            quoted = connection.ops.quote_name(table)
            cursor.execute(f"SELECT count(*), count(*) FILTER (WHERE club_id = 1) FROM {quoted}")  # noqa: S608
            total, first = cursor.fetchone()
            assert total == first, f"{table}: {total - first} rows of no club or another"
            keyed += total
    assert keyed >= sum(len(old[t][1]) for t in ("club_evening", "games_game")), keyed


def protocols_of(game_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    protocols = {}
    for game_id in game_ids:
        view = view_of(game_id)
        protocols[game_id] = game_protocol(view.game, view.seats, view.log)
    return protocols


def single_club_history() -> tuple[list[int], int, int]:
    """Today's code writes a club's history: finished, analysed games on past evenings, a
    tournament and its game, an evening with sign-ups and a reserve, a season's preset,
    notifications, the Telegram group. Returns the games' ids, the coming evening's and
    the host's."""
    from games.ratings.models import ScoringPreset, SeasonPreset
    from notifications.models import Notification, TelegramGroup
    from tests.tournaments.test_tournament_scores import tournament_game

    history = seed_history(games=6, members=16, seed=41)
    tournament, tournament_game_row, *_ = tournament_game()
    evening = make_evening(capacity=10)
    sign_up_many(evening, 13)  # ten seats and three in the reserve
    SeasonPreset.objects.create(
        since=date(2026, 1, 1), preset=ScoringPreset.objects.get(code="fiim"), note="зима"
    )
    Notification.objects.create(dedupe_key="upgrade:1", member=history.host, text="Привет")
    TelegramGroup.objects.create(chat_id=-100_123, title="Клуб")
    games = [game.pk for game in history.games] + [tournament_game_row.pk]
    assert tournament.pk
    return games, evening.pk, history.host.pk


def write_in_the_old_schema(old: StateApps, evening_id: int, game_id: int, host_id: int) -> None:
    """The old models' own rows (no club key then), and the settings as the club had them."""
    settings = old.get_model("club", "ClubSettings")
    assert settings.objects.filter(pk=1).update(**OLD_SETTINGS) == 1
    evening = old.get_model("club", "Evening").objects.create(
        starts_at=timezone.now() + timedelta(days=10),
        opens_at=timezone.now() + timedelta(days=4),
        venue="GrandDaddy",
        capacity=12,
    )
    old.get_model("club", "Registration").objects.create(
        evening=evening, member_id=host_id, status="confirmed", source="site", arrival=1
    )
    old.get_model("recordings", "Recording").objects.create(
        game_id=game_id, original_name="вечер.m4a", size=10, started_at=timezone.now()
    )
    old.get_model("notifications", "Notification").objects.create(
        dedupe_key="upgrade:old", member_id=host_id, text="Запись открыта"
    )
    assert old.get_model("club", "Registration").objects.filter(evening_id=evening_id).count() == 13


def test_a_single_club_database_upgrades_to_clubs_and_back() -> None:
    games, evening_id, host_id = single_club_history()
    protocols = protocols_of(games)
    old = migrate(BEFORE_CLUBS)
    write_in_the_old_schema(old, evening_id, games[0], host_id)
    before = snapshot()
    assert len(before["games_game"][1]) == len(games)
    assert len(before["games_gameevent"][1]) > 100
    assert before["club_registration"][1] and before["tournaments_tournament"][1]
    assert before["games_recording"][1] and before["games_playerscore"][1]
    assert before["notifications_notification"][1] and before["ratings_seasonpreset"][1]

    migrate(latest())
    assert_kept(before)
    assert_first_club_owns_everything(before)
    club = Club.objects.get()
    assert {field: getattr(club, field) for field in OLD_SETTINGS} == OLD_SETTINGS
    assert protocols_of(games) == protocols

    old = migrate(BEFORE_CLUBS)
    assert snapshot() == before
    settings = old.get_model("club", "ClubSettings").objects.get()
    assert {field: getattr(settings, field) for field in OLD_SETTINGS} == OLD_SETTINGS

    migrate(latest())
    assert_kept(before)
    assert_first_club_owns_everything(before)
    assert protocols_of(games) == protocols
    # A protocol imported after the upgrade replays into the same protocol.
    host = make_host()
    replayed = game_import(
        document=protocols[games[0]], evening_id=evening_id, host=host, author=host
    )
    assert protocols_of([replayed.pk])[replayed.pk] == protocols[games[0]]
    assert replayed.club_id == 1
