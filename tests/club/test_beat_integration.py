"""A real Celery beat and a real worker on the real Redis broker run the club's sweep end to
end, with a one-second schedule."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from django.db import connection

from club.celery import app
from club.kernel.beat import LOCK_KEY
from club.kernel.clubs import Club
from club.models import Evening
from notifications.models import Notification
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.usefixtures("celery_worker_on_redis")
def test_beat_sends_the_sweep_and_the_worker_makes_the_evening(tmp_path: Path) -> None:
    club = Club.current()
    club.telegram_group_chat_id = -100777
    club.save()
    # A beat killed by an earlier run may have left its lock: this one would stand by for it.
    redis.Redis.from_url(app.conf.broker_url).delete(LOCK_KEY)
    test_database = connection.settings_dict["NAME"]
    env = {
        **os.environ,
        # Celery's Django fix-up in beat opens the database: give it the test's.
        "DATABASE_URL": os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/" + test_database,
        "CLUB_SCHEDULE_SWEEP_SECONDS": "1",
        "CLUB_VAR_DIR": str(tmp_path),
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
    }
    beat = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "club",
            "beat",
            "--loglevel=INFO",
            "--schedule",
            str(tmp_path / "beat-schedule"),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        made = wait_for(
            lambda: Evening.objects.filter(scheduled_for__isnull=False).exists(), timeout=60
        )
    finally:
        beat.terminate()
        output, _ = beat.communicate(timeout=30)
    assert made, output[-2000:]
    assert "club.tasks.schedule_sweep" in output
    evening = Evening.objects.get()
    assert evening.starts_at.astimezone(club.zone).strftime("%w %H:%M") == "0 18:00"
    if evening.opens_at <= evening.created_at:
        assert Notification.objects.filter(dedupe_key=f"announce:signup:{evening.pk}").exists()
    # The sweep ran more than once (every second) and made nothing twice.
    assert Evening.objects.count() == 1
