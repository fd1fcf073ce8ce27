import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from celery import Task
from django.db.models import Model
from django.test import Client
from pytest_django import Settings
from pytest_django.plugin import blocking_manager_key

import tests.examples  # noqa: F401  (loads the Hypothesis profile for every test)
from accounts.models import User
from notifications.ratelimit import resume_sending
from notifications.telegram import process_bot
from tests.factories import make_member
from tests.fake_telegram import FakeTelegram
from tests.waiting import TaskDone


@pytest.fixture
def member(db: None) -> User:
    return make_member()


@pytest.fixture
def member_client(member: User) -> Client:
    client = Client()
    client.force_login(member)
    return client


@pytest.fixture
def admin_member(db: None) -> User:
    return make_member(nickname="Админ", is_staff=True, is_superuser=True)


@pytest.fixture
def admin_client_(admin_member: User) -> Client:
    client = Client()
    client.force_login(admin_member)
    return client


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Settings) -> None:
    # PBKDF2's real cost is a security feature, not something the tests need to pay for.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_club_settings() -> None:
    # Each test's database starts from the migration's row; forget what the last one cached.
    from club.kernel.clubs import Club

    Club.forget_cached()


@pytest.fixture(autouse=True)
def _breakers_closed() -> None:
    # A breaker opened by one test's dead cache or broker must not skip the next test's.
    from club.kernel.cache import CACHE
    from club.kernel.queueing import BROKER

    CACHE.reset()
    BROKER.reset()


@pytest.fixture(autouse=True)
def _club_language() -> Iterator[None]:
    """Every test starts in the club's language (Russian) whatever an earlier test in the
    process left active: a refusal's words are made in the language active when it is
    raised, and a test that switched to English must not change the next one's."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    # The throttles count in Redis: every test starts with no attempts behind it.
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def celery_worker_on_redis() -> Iterator[None]:
    """A real Celery worker (in a thread) on the real Redis broker, from an empty queue:
    other tests leave tasks behind (their commits enqueue sends nobody consumes)."""
    from celery.contrib.testing.worker import start_worker

    from club.celery import app

    app.loader.import_default_modules()  # every app's tasks, as `celery worker` loads them
    app.control.purge()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        yield


@pytest.fixture
def task_done() -> Iterator[TaskDone]:
    """task_done(name, first_arg) → an Event set when that task finishes with that argument."""
    from celery.signals import task_postrun

    handlers = []

    def watch(name: str, first_arg: object = None) -> threading.Event:
        event = threading.Event()

        def on_done(
            sender: Task[Any, Any] | None = None, args: tuple[object, ...] = (), **kwargs: object
        ) -> None:
            if (
                sender is not None
                and sender.name == name
                and (first_arg is None or (args and args[0] == first_arg))
            ):
                event.set()

        task_postrun.connect(on_done, weak=False)
        handlers.append(on_done)
        return event

    yield watch
    for handler in handlers:
        task_postrun.disconnect(handler)


@pytest.fixture
def fake_telegram(settings: Settings) -> Iterator[FakeTelegram]:
    """The bot pointed at a fake Bot API server on this machine, for the test's length; no
    429 pause of an earlier test's server carries over."""
    server = FakeTelegram().start()
    settings.TELEGRAM_BOT_TOKEN = server.token
    settings.TELEGRAM_API_BASE_URL = server.url
    settings.TELEGRAM_CONSOLE_MODE = False
    process_bot.reset()
    resume_sending()
    yield server
    resume_sending()
    process_bot.reset()
    server.stop()


def seed_migration_rows() -> None:
    """Make the rows the data migrations made (the hosts' group, the club's settings row, the
    role catalogue, scoring scheme v1) again, as they do: a transactional test's flush takes
    them."""
    import importlib

    from django.apps import apps

    seeds = {
        "accounts.migrations.0002_hosts_group": "create_hosts_group",
        "club.migrations.0002_club_settings_row": "create_settings_row",
        "club.migrations.0021_clubs": "first_club",  # the settings row became the first club
        "accounts.migrations.0008_hosts_group_in_russian": "rename_hosts_group",
        "games.migrations.0002_seed_roles": "seed",
        # Version 1 of each scoring preset («Клуб»'s is the old scheme_v1 of games 0004).
        "games.ratings.migrations.0004_scoring_presets_data": "presets_made",
    }

    class Current:
        """Today's registry, under the labels the seeding migrations knew."""

        moved = {
            ("games", "scoringscheme"): ("ratings", "ScoringScheme"),
            ("club", "clubsettings"): ("club", "Club"),
        }

        def get_model(self, app: str, name: str) -> type[Model]:
            return apps.get_model(*self.moved.get((app, name.lower()), (app, name)))

        def __getattr__(self, name: str) -> object:
            return getattr(apps, name)  # the rest of the registry's API

    for module, function in seeds.items():
        getattr(importlib.import_module(module), function)(Current(), None)


@pytest.fixture
def migration_rows() -> None:
    """The data migrations' rows, for a transactional test that needs them from its start."""
    seed_migration_rows()


def _delete_rather_than_truncate() -> None:
    """A transactional test's flush empties the tables with DELETE, not Django's one
    TRUNCATE of them all: on PostgreSQL a TRUNCATE makes new files for every table and
    index, which took 1.5–2 s a flush on a loaded CI machine against 0.02 s for the DELETEs
    of the few rows a test leaves (133 tests flush, 90 of them the browser tests). The
    tables end as empty; sequences go on as after a TRUNCATE without RESTART IDENTITY (what
    the flush asks for unless reset_sequences, which keeps the TRUNCATE). The foreign keys
    are checked at the flush's commit (Django makes them DEFERRABLE INITIALLY DEFERRED), so
    the order of the DELETEs does not matter."""
    from django.core.management.color import Style
    from django.db.backends.base.operations import BaseDatabaseOperations
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(
        self: BaseDatabaseOperations,
        style: Style,
        tables: Sequence[str],
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if reset_sequences or allow_cascade:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        # The names are the models' tables, quoted: nothing from outside.
        return [f"DELETE FROM {self.quote_name(table)};" for table in tables]  # noqa: S608

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]


_delete_rather_than_truncate()


def _flushes(item: pytest.Item) -> bool:
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", ())
    return bool(
        (marker and marker.kwargs.get("transaction"))
        or "transactional_db" in fixtures
        or "live_server" in fixtures
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After a transactional test's flush, the data migrations' rows again: under
    pytest-xdist a process runs the files it is sent in any order, so a plain test may follow
    a transactional one (alone, pytest-django runs the transactional tests last)."""
    yield
    if nextitem is not None and _flushes(item):
        # The database is closed to code outside a test's fixtures; this is such code.
        with item.config.stash[blocking_manager_key].unblock():
            seed_migration_rows()


@pytest.fixture
def recording_storage(settings: Settings, tmp_path: Path) -> None:
    """Recordings stored and uploaded under the test's own folder."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.RECORDING_UPLOAD_DIR = tmp_path / "uploads"


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[object, ...]]]:
    """The tasks queued after commits (club/kernel/queueing.py), as (name, args), not sent."""
    from club.celery import app  # the app club/kernel/queueing.py sends with

    sent: list[tuple[str, tuple[object, ...]]] = []
    monkeypatch.setattr(
        app, "send_task", lambda name, args=(), **options: sent.append((name, args))
    )
    return sent
