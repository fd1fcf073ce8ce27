"""`make run`'s stack as a newcomer gets it: no variables set, so SQLite and a SQLite Celery
broker under var/, and web, worker and beat started together by `run_stack`; a process that
dies is started again while the others go on; Ctrl-C stops all."""

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def embedded_env(tmp_path: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {"DATABASE_URL", "CELERY_BROKER_URL", "CLUB_CACHE_URL", "OPENBLAS_NUM_THREADS"}
        and not key.startswith("DJANGO_")
    }
    env.update(
        CLUB_VAR_DIR=str(tmp_path / "var"), PORT=str(free_port()), PATH=f"{BIN}:{env['PATH']}"
    )
    return env


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return result.stdout


def healthz(port: str) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def test_web_worker_and_beat_run_on_the_embedded_defaults(embedded_env: dict[str, str]) -> None:
    manage(embedded_env, "migrate", "--no-input")
    assert "Ворон" in manage(embedded_env, "demo_data")
    stack = subprocess.Popen(
        [sys.executable, "manage.py", "run_stack", "--port", embedded_env["PORT"]],
        cwd=ROOT,
        env=embedded_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    database = Path(embedded_env["CLUB_VAR_DIR"]) / "club.sqlite3"
    try:
        assert wait_for(lambda: healthz(embedded_env["PORT"]), timeout=60), "web did not start"
        # A task sent through the SQLite broker is run by the worker against SQLite.
        manage(
            embedded_env,
            "shell",
            "-c",
            "from datetime import timedelta; from django.utils import timezone; "
            "from django.contrib.sessions.backends.db import SessionStore; "
            "from django.contrib.sessions.models import Session; "
            "s = SessionStore(); s.create(); "
            "Session.objects.filter(pk=s.session_key)"
            ".update(expire_date=timezone.now() - timedelta(days=1)); "
            "from club.tasks import clear_expired_sessions; clear_expired_sessions.delay()",
        )

        def sessions_left() -> int:
            with sqlite3.connect(database) as db:
                count: int = db.execute("SELECT count(*) FROM django_session").fetchone()[0]
                return count

        assert wait_for(lambda: sessions_left() == 0, timeout=60), "the worker ran nothing"

        # The worker dies: it is started again, and the web server never stops answering.
        def worker_pid() -> int | None:
            """This stack's worker (a child of its run_stack), not any other on the machine."""
            found = subprocess.run(
                ["pgrep", "-P", str(stack.pid), "-f", "celery -A club --quiet worker"],
                capture_output=True,
                text=True,
            ).stdout.split()
            return int(found[0]) if found else None

        first = worker_pid()
        assert first is not None
        # Its numpy's BLAS runs one thread (club/celery.py, tests/club/test_worker_blas.py).
        started_with = Path(f"/proc/{first}/environ").read_bytes().split(b"\0")
        assert b"OPENBLAS_NUM_THREADS=1" in started_with
        os.kill(first, signal.SIGKILL)
        assert healthz(embedded_env["PORT"])
        assert wait_for(lambda: worker_pid() not in (None, first), timeout=30)
        assert healthz(embedded_env["PORT"])
    finally:
        os.killpg(stack.pid, signal.SIGINT)  # Ctrl-C in the terminal reaches the whole group
        output, _ = stack.communicate(timeout=60)
    # It speaks at once: a slow machine's first start is not silent (tools/progress.py).
    assert output.startswith("run_stack | starting web, worker and beat")
    assert "beat: Starting" in output
    assert "worker@" in output and "ready" in output
    assert "worker exited with -9; restart #1" in output
    assert "The club site is up: http://127.0.0.1:" in output
    # A healthy start logs no error: the first /healthz (run_stack's own probe) answers 200
    # at once, not "the broker did not answer" (tests/club/test_first_health_check.py).
    start = output.split("The club site is up")[0]
    assert [line for line in start.splitlines() if "ERROR" in line] == []
    assert "Starting development server" in output or "Starting WSGI development server" in output
    with pytest.raises(ProcessLookupError):
        os.killpg(stack.pid, 0)  # nothing of the three is left running


SQLITE_SIGN_UPS = """
from datetime import date, timedelta
from django.utils import timezone
from accounts.models import User
from club import services
from club.models import Evening, RegistrationSource
from notifications.models import Notification
now = timezone.now()
evening = Evening.objects.create(
    starts_at=now + timedelta(days=2), opens_at=now - timedelta(hours=1), venue="G", capacity=2
)
members = [User.objects.create(nickname=f"sq{n}", birth_date=date(1990, 1, 1)) for n in range(4)]
def sign_up(member):
    r = services.registration_create(
        member=member, evening_id=evening.pk, source=RegistrationSource.WEB
    )
    return f"{r.registration.status}:{r.seat}:{r.position}:{r.created}"
print(*[sign_up(m) for m in members])
print(sign_up(members[0]))
services.registration_cancel(member=members[0], evening_id=evening.pk)
print(sign_up(members[0]))
print(*Notification.objects.order_by("id").values_list("dedupe_key", flat=True))
"""


def test_sign_up_runs_the_same_statements_on_sqlite(embedded_env: dict[str, str]) -> None:
    """`make run` signs members up on SQLite with the statements PostgreSQL runs as one
    message (club/seating.py), one by one in a transaction."""
    manage(embedded_env, "migrate", "--no-input")
    lines = manage(embedded_env, "shell", "--no-imports", "-c", SQLITE_SIGN_UPS).splitlines()
    assert lines[0] == (
        "confirmed:1:None:True confirmed:2:None:True reserve:None:1:True reserve:None:2:True"
    )
    assert lines[1] == "confirmed:1:None:False"  # a double tap returns the same seat
    # Cancelling promoted the first of the reserve; signing up again goes to the end.
    assert lines[2] == "reserve:None:2:True"
    assert lines[3].split() == [
        "seat:1:1",
        "seat:2:2",
        "reserve:3:3",
        "reserve:4:4",
        "cancelled:1:1",
        "promoted:3:3",
        "reserve:1:6",
    ]
