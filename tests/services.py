"""Loaded first (`-p tests.services`): point the suite at PostgreSQL and Redis and make sure
both answer before anything else runs. A missing service stops the run at once, naming it;
the suite never skips what needs them."""

import os
import socket
from urllib.parse import urlsplit

import pytest

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/mafia_club"
DEFAULT_BROKER_URL = "redis://127.0.0.1:6379/15"
# The cache (the throttles' counters) in a database of its own: each test clears it.
DEFAULT_CACHE_URL = "redis://127.0.0.1:6379/14"

os.environ.setdefault("DATABASE_URL", DEFAULT_DATABASE_URL)
os.environ.setdefault("CELERY_BROKER_URL", DEFAULT_BROKER_URL)
os.environ.setdefault("CLUB_CACHE_URL", DEFAULT_CACHE_URL)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")


def _own_redis_database(variable: str, worker: int) -> None:
    """Under pytest-xdist each process gets Redis databases of its own (gw0 the given ones,
    gw1 the two below them, ...): every test clears its cache and purges its broker, which
    must not empty the other process's. PostgreSQL needs nothing: pytest-django gives each
    process its own test database."""
    parts = urlsplit(os.environ[variable])
    database = (int(parts.path.strip("/") or 0) - 2 * worker) % 16
    os.environ[variable] = parts._replace(path=f"/{database}").geturl()


if (xdist_worker := os.environ.get("PYTEST_XDIST_WORKER", "")).startswith("gw"):
    for name in ("CELERY_BROKER_URL", "CLUB_CACHE_URL"):
        _own_redis_database(name, int(xdist_worker.removeprefix("gw")))
# Settings read in tests must not depend on the developer's shell.
os.environ.pop("DJANGO_ENV", None)
os.environ.pop("TELEGRAM_BOT_TOKEN", None)

HOW_TO_START = {
    "PostgreSQL": "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
    "Redis": 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
}


def _answers(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port), timeout=2):
            return True
    except OSError:
        return False


def pytest_configure(config: pytest.Config) -> None:
    database_url = os.environ["DATABASE_URL"]
    broker_url = os.environ["CELERY_BROKER_URL"]
    if not database_url.startswith(("postgres://", "postgresql://")):
        pytest.exit(f"The suite runs on PostgreSQL; DATABASE_URL is {database_url!r}.", 3)
    if not broker_url.startswith(("redis://", "rediss://")):
        pytest.exit(f"The suite runs on Redis; CELERY_BROKER_URL is {broker_url!r}.", 3)
    for service, url, default_port in (
        ("PostgreSQL", database_url, 5432),
        ("Redis", broker_url, 6379),
    ):
        parts = urlsplit(url)
        probe = url if parts.port else url.replace(parts.netloc, f"{parts.netloc}:{default_port}")
        if not _answers(probe):
            pytest.exit(
                f"{service} does not answer at {parts.hostname}:{parts.port or default_port}. "
                f"Start it (`{HOW_TO_START[service]}`) or point "
                f"{'DATABASE_URL' if service == 'PostgreSQL' else 'CELERY_BROKER_URL'} at one.",
                3,
            )
