"""Beat's lock (club/kernel/beat.py): of two beats with one schedule only the one holding the
lease sends; the other stands by, says so once, and takes over when the holder closes or
dies. On the suite's real Redis broker, with real publishes."""

import logging
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from celery.beat import ScheduleEntry
from celery.signals import after_task_publish
from django.conf import settings

from club.celery import app
from club.kernel.beat import (
    LOCK_KEY,
    FileLease,
    LeasedScheduler,
    RedisLease,
    lease_for,
)

LEASE = 2.0  # seconds: a short lease keeps the takeover tests short
TASK = "club.tasks.housekeeping"  # any task: no worker consumes it, the broker is purged
EVERY = 0.2  # the test schedule's one entry, in seconds


def broker() -> redis.Redis:
    return redis.Redis.from_url(app.conf.broker_url)


@pytest.fixture(autouse=True)
def _one_fast_entry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Both beats read the same schedule: one entry due every EVERY seconds. No lease is left
    from an earlier test, and nothing they publish is left for the next one."""
    fast = {"task": "club.tasks.housekeeping", "schedule": EVERY}  # TASK, as a literal
    monkeypatch.setitem(app.conf, "beat_schedule", {"fast": fast})
    broker().delete(LOCK_KEY)
    yield
    broker().delete(LOCK_KEY)
    app.control.purge()


@pytest.fixture
def published() -> Iterator[list[str]]:
    """The tasks that reached the broker, by name."""
    names: list[str] = []

    def record(sender: str | None = None, **_: object) -> None:
        names.append(str(sender))

    after_task_publish.connect(record, weak=False)
    yield names
    after_task_publish.disconnect(record)


class Beat:
    """A scheduler as `celery beat` builds it, and what it sent."""

    def __init__(self, tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
        self.scheduler = LeasedScheduler(
            app, schedule_filename=str(tmp_path / f"{name}-schedule"), lock_seconds=LEASE
        )
        self.sent: list[str] = []
        self.sent_at: list[float] = []  # monotonic
        send = self.scheduler.apply_async

        def counted(entry: ScheduleEntry, *args: Any, **kwargs: Any) -> Any:
            self.sent.append(str(entry.name))
            self.sent_at.append(time.monotonic())
            return send(entry, *args, **kwargs)

        monkeypatch.setattr(self.scheduler, "apply_async", counted)

    def close(self) -> None:
        self.scheduler.close()


@pytest.fixture
def beats(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Beat]]:
    made = [Beat(tmp_path, name, monkeypatch) for name in ("first", "second")]
    yield made
    for beat in made:
        beat.close()


def run(beats: list[Beat], seconds: float) -> None:
    """Tick them in turn, as their beat loops would (faster than they sleep)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for beat in beats:
            beat.scheduler.tick()
        time.sleep(0.02)


def test_of_two_beats_with_one_schedule_only_the_holder_sends(
    beats: list[Beat], published: list[str]
) -> None:
    first, second = beats
    run(beats, 2.0)  # longer than the lease: the holder renews it, the other keeps waiting
    assert len(first.sent) >= 5, first.sent
    assert second.sent == []
    assert published == [TASK] * len(first.sent)  # each reached the broker, once
    assert first.scheduler.holds_lease and not second.scheduler.holds_lease


def test_the_standby_takes_over_at_once_when_the_holder_closes(beats: list[Beat]) -> None:
    first, second = beats
    run(beats, 0.5)
    assert first.sent and not second.sent
    first.close()  # a beat stopped by its supervisor frees the lock
    started = time.monotonic()
    run([second], 0.5)
    assert second.sent, "the standby did not take over"
    assert second.scheduler.holds_lease
    assert time.monotonic() - started < LEASE  # it did not wait for the lease to run out


def test_a_dead_holders_lease_runs_out_and_a_woken_one_sends_nothing(
    beats: list[Beat],
) -> None:
    first, second = beats
    run(beats, 0.3)
    assert first.sent and not second.sent
    # The holder stops ticking without a word (killed, frozen): its lease is not renewed.
    renewed_at = first.scheduler.renewed_at
    assert renewed_at is not None
    run([second], LEASE * 1.5)
    assert second.sent, "the lease outlived its holder"
    # Not a send before the lease could have run out in Redis (which counts whole
    # milliseconds from a moment after `renewed_at`), and soon after it.
    assert renewed_at + LEASE - 0.005 <= second.sent_at[0] < renewed_at + 3 * LEASE
    taken_over = len(second.sent)
    # The frozen holder wakes: it asks before sending and finds the lock taken.
    sent_before = len(first.sent)
    run(beats, 0.6)
    assert len(first.sent) == sent_before
    assert not first.scheduler.holds_lease
    assert len(second.sent) > taken_over  # the new holder goes on sending


def test_the_standby_says_once_that_it_stands_by(
    beats: list[Beat], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="club.kernel.beat"):
        run(beats, 1.0)
    assert beats[1].sent == []
    standing_by = [r for r in caplog.records if "standing by" in r.getMessage()]
    assert len(standing_by) == 1
    holder = broker().get(LOCK_KEY)
    assert isinstance(holder, bytes) and holder.decode() in standing_by[0].getMessage()
    assert [r for r in caplog.records if "holds the lock" in r.getMessage()] != []


def test_a_beat_whose_redis_does_not_answer_sends_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    beat = Beat(tmp_path, "cut-off", monkeypatch)
    try:
        # Nothing listens on port 1: the lease cannot be proven, so nothing is sent.
        monkeypatch.setattr(beat.scheduler, "lease", RedisLease("redis://127.0.0.1:1/0", LEASE))
        with caplog.at_level(logging.INFO, logger="club.kernel.beat"):
            run([beat], 0.5)
        assert beat.sent == []
        assert "Redis does not answer" in caplog.text
    finally:
        beat.close()


def test_a_lease_is_renewed_and_freed_only_by_its_holder() -> None:
    url = app.conf.broker_url
    mine, theirs = RedisLease(url, 5), RedisLease(url, 5)
    assert mine.claim() is None
    assert theirs.claim() == mine.token
    theirs.release()  # not theirs to free
    assert broker().get(LOCK_KEY) == mine.token.encode()
    assert mine.claim() is None  # renewed
    ttl = broker().pttl(LOCK_KEY)
    assert 4000 < ttl <= 5000
    mine.release()
    assert broker().get(LOCK_KEY) is None
    assert theirs.claim() is None


def test_the_lock_is_the_brokers() -> None:
    assert isinstance(lease_for("redis://127.0.0.1:6379/0", 30), RedisLease)
    local = lease_for("sqla+sqlite:////srv/club/var/celery/broker.sqlite3", 30)
    assert isinstance(local, FileLease)
    assert local.path == Path("/srv/club/var/celery/broker.sqlite3.beat-lock")
    with pytest.raises(ValueError, match="Beat's lock needs"):
        lease_for("amqp://guest@localhost//", 30)


def test_the_local_lock_excludes_another_and_ends_with_its_process(tmp_path: Path) -> None:
    path = tmp_path / "broker.sqlite3.beat-lock"
    first, second = FileLease(path), FileLease(path)
    assert first.claim() is None
    assert first.claim() is None  # still held
    assert second.claim() is not None
    first.release()
    assert second.claim() is None
    second.release()
    # A process that holds it and is killed: the kernel frees it.
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys, time; f = open(sys.argv[1], 'a+b'); "
            "fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)",
            str(path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert first.claim() is not None
    finally:
        holder.kill()
        holder.wait(timeout=10)
    assert first.claim() is None
    first.release()


def test_celery_beat_runs_this_scheduler_with_the_settings_lease(tmp_path: Path) -> None:
    assert app.conf.beat_scheduler == "club.kernel.beat:LeasedScheduler"
    scheduler = LeasedScheduler(app, schedule_filename=str(tmp_path / "schedule"), lazy=True)
    assert scheduler.lock_seconds == settings.CLUB_BEAT_LOCK_SECONDS == 30
    assert scheduler.max_interval == 5  # it renews a 30 s lease every 5 s
