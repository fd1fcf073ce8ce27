"""Two real `celery beat` processes on the real Redis broker: only one publishes the club's
sweep; killed without a word, it is replaced by the other once its lease runs out."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from django.db import connection

from club.celery import app
from club.kernel.beat import LOCK_KEY
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]
LEASE = 3  # seconds
SWEEP = "club.tasks.schedule_sweep"  # due every second in these beats
pytestmark = pytest.mark.django_db(transaction=True)


def sweeps(ledger: Path) -> int:
    """How many sweeps that beat published (club/celery.py's ledger, one line a publish)."""
    if not ledger.exists():
        return 0
    return sum("queued" in line and SWEEP in line for line in ledger.read_text().splitlines())


def test_of_two_beat_processes_one_sends_and_the_other_takes_over_when_it_dies(
    tmp_path: Path,
) -> None:
    broker = redis.Redis.from_url(app.conf.broker_url)
    broker.delete(LOCK_KEY)
    test_database = connection.settings_dict["NAME"]
    beats: dict[str, subprocess.Popen[bytes]] = {}
    for name in ("a", "b"):
        env = {
            **os.environ,
            # Celery's Django fix-up in beat opens the database: give it the test's.
            "DATABASE_URL": os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/" + test_database,
            "CLUB_SCHEDULE_SWEEP_SECONDS": "1",
            "CLUB_BEAT_LOCK_SECONDS": str(LEASE),
            "CLUB_TASK_LEDGER": str(tmp_path / f"{name}.ledger"),
            "CLUB_VAR_DIR": str(tmp_path / name),
        }
        with (tmp_path / f"{name}.log").open("wb") as output:
            beats[name] = subprocess.Popen(
                [
                    *(sys.executable, "-m", "celery", "-A", "club", "beat", "--loglevel=INFO"),
                    *("--schedule", str(tmp_path / f"{name}-schedule")),
                ],
                cwd=ROOT,
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
            )

    def log(name: str) -> str:
        return (tmp_path / f"{name}.log").read_text(errors="replace")

    def someone_stands_by() -> bool:
        return any("standing by" in log(name) for name in beats)

    try:
        # Both are up: one holds the lock and sends, the other has said it stands by.
        assert wait_for(someone_stands_by, timeout=90), log("a") + log("b")
        holder_token = broker.get(LOCK_KEY)
        assert isinstance(holder_token, bytes)
        holder_pid = int(holder_token.decode().split(":")[1])
        holder = next(name for name, beat in beats.items() if beat.pid == holder_pid)
        standby = "b" if holder == "a" else "a"
        assert wait_for(lambda: sweeps(tmp_path / f"{holder}.ledger") >= 3, timeout=30)
        # Both tick side by side a while longer: the holder sends two more sweeps.
        sent = sweeps(tmp_path / f"{holder}.ledger")
        assert wait_for(lambda: sweeps(tmp_path / f"{holder}.ledger") >= sent + 2, timeout=30)
        assert sweeps(tmp_path / f"{standby}.ledger") == 0, log(standby)

        beats[holder].send_signal(signal.SIGKILL)  # no goodbye: its lease is left to run out
        beats[holder].wait(timeout=10)
        died = time.monotonic()
        assert wait_for(lambda: sweeps(tmp_path / f"{standby}.ledger") >= 2, timeout=30), log(
            standby
        )
        # Its lease (3 s), the standby's next try (every half second) and a sweep's second.
        assert time.monotonic() - died < LEASE + 5
        assert "holds the lock" in log(standby)
    finally:
        for beat in beats.values():
            if beat.poll() is None:
                beat.terminate()
                beat.wait(timeout=30)
        broker.delete(LOCK_KEY)
        app.control.purge()
