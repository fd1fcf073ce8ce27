"""Shared by the benchmarks: a scratch PostgreSQL database and a real server on it."""

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

ROOT = Path(__file__).resolve().parent.parent
BASE_DATABASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/mafia_club")
BROKER_URL = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/14")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def scratch_database(name: str) -> str:
    """Create (afresh) a database `name` beside DATABASE_URL's and return its URL."""
    parts = urlsplit(BASE_DATABASE_URL)
    admin_url = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


def django_env(database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update({"DATABASE_URL": database_url, "CELERY_BROKER_URL": BROKER_URL, **extra})
    return env


def setup_django(database_url: str, **extra: str) -> None:
    os.environ.update(django_env(database_url, **extra))
    os.environ["DJANGO_SETTINGS_MODULE"] = "club.settings"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def gunicorn(env: dict[str, str], *, workers: int, threads: int) -> Iterator[str]:
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "club.wsgi",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--worker-class",
        "gthread",
        "--backlog",
        "2048",
        "--log-level",
        "warning",
    ]
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)
