"""Shared by the benchmarks: a scratch PostgreSQL database and a real server on it."""

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

ROOT = Path(__file__).resolve().parent.parent
BASE_DATABASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/mafia_club")
BROKER_URL = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/14")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def wait_until(ready: Callable[[], bool], *, seconds: float, what: str, every: float = 0.1) -> None:
    """Wait for a process the bench started to be ready (a port open, the workers forked,
    the site answering), asking `every` seconds; a clear failure after `seconds`, never a
    hang and never a run against a server that is not up."""
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() >= deadline:
            raise RuntimeError(f"{what} not ready after {seconds:.0f} s")
        time.sleep(every)


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


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


def host_site(name: str) -> tuple[dict[str, str], Any, str]:
    """The host's screen benches' start: a scratch database `name`, migrated, Django set up
    in this process, and a host logged in. Returns the server's environment, the host and
    their session cookie's value (the cookie's name is settings.SESSION_COOKIE_NAME)."""
    database_url = scratch_database(name)
    env = django_env(database_url, DJANGO_DEBUG="0")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    setup_django(database_url, DJANGO_DEBUG="0")
    from django.conf import settings
    from django.test import Client

    from tests.games.recording import make_host

    host = make_host(nickname="Ведущая")
    client = Client()
    client.force_login(host)
    return env, host, client.cookies[settings.SESSION_COOKIE_NAME].value


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# Sync workers by default: each process takes a connection only when it is free, so a burst
# queues fairly in the kernel's accept queue. Threaded workers take connections greedily and
# a process holding more than its share of keep-alive connections makes a long tail.
WORKERS = int(os.environ.get("BENCH_WORKERS", "6"))
THREADS = int(os.environ.get("BENCH_THREADS", "1"))


class ServerTimes:
    """Each request's time inside the server (gunicorn's access log, %(D)s: from the parsed
    request to the response sent), without the time it waited to be accepted."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: list[str] = []

    def collect(self) -> None:
        """Read the log (once the server has stopped, so every line is in) and remove it."""
        self.lines = self.path.read_text().splitlines()
        self.path.unlink()

    def milliseconds(self, path_prefix: str, *, skip: int = 0) -> list[float]:
        """The times of requests to paths under `path_prefix`, after the first `skip`."""
        times = []
        for line in self.lines:
            micros, _, request_path = line.partition(" ")
            if request_path.startswith(path_prefix):
                times.append(int(micros) / 1000)
        return times[skip:]


@contextmanager
def gunicorn(
    env: dict[str, str], *, workers: int = WORKERS, threads: int = THREADS
) -> Iterator[tuple[str, ServerTimes]]:
    port = free_port()
    access_log = Path(tempfile.mkstemp(prefix="bench-access-", suffix=".log")[1])
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
        "gthread" if threads > 1 else "sync",
        "--backlog",
        "2048",
        "--log-level",
        "warning",
        "--access-logfile",
        str(access_log),
        "--access-logformat",
        "%(D)s %(U)s",
    ]
    times = ServerTimes(access_log)
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    try:
        wait_until(lambda: port_open(port), seconds=30, what="gunicorn")
        yield f"http://127.0.0.1:{port}", times
    finally:
        server.terminate()
        server.wait(timeout=30)
        times.collect()
