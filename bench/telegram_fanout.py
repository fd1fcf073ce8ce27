"""1,000 notifications to 1,000 chats through a real Celery worker on Redis, against the fake
Bot API server, which allows 30 messages a second (429 with retry_after above it) and fails
5% of calls with 500.

Prints one JSON line: messages, delivered, duplicates, lost, seconds, msgs_per_s,
limit_msgs_per_s, ratio. Run: uv run python bench/telegram_fanout.py

`bench/telegram_fanout.py flood`: the same, and 5 s into the burst the server answers every
message 429 (retry_after 5) for 20 s, as Telegram does to a bot that sent too much; the line
adds the calls that reached it in that window, in all and at most in one retry_after period.
"""

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project, for bench.*

from bench.common import ROOT, django_env, log, scratch_database, setup_django

sys.path.insert(0, str(ROOT))
from tests.fake_telegram import FakeTelegram

MESSAGES = int(os.environ.get("BENCH_MESSAGES", "1000"))
LIMIT = 30
BROKER = "redis://127.0.0.1:6379/13"
FLOOD = len(sys.argv) > 1 and sys.argv[1] == "flood"
FLOOD_AFTER, FLOOD_SECONDS, RETRY_AFTER = 5.0, 20.0, 5


def main() -> None:
    database_url = scratch_database("mafia_bench_fanout")
    env = django_env(database_url, CELERY_BROKER_URL=BROKER)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    server = FakeTelegram(rate_limit_per_s=LIMIT, fail_share=0.05).start()
    env.update(
        TELEGRAM_BOT_TOKEN=server.token, TELEGRAM_API_BASE_URL=server.url, LOG_LEVEL="WARNING"
    )
    setup_django(database_url, CELERY_BROKER_URL=BROKER)
    from datetime import date

    from accounts.models import User
    from club.celery import app
    from notifications.models import Notification
    from notifications.tasks import notification_send

    app.control.purge()
    members = User.objects.bulk_create(
        User(
            nickname=f"Игрок {n}", birth_date=date(1990, 1, 1), password="!", telegram_id=10_000 + n
        )
        for n in range(MESSAGES)
    )
    rows = Notification.objects.bulk_create(
        Notification(
            dedupe_key=f"fanout:{m.pk}", member=m, text=f"Вечер в воскресенье, {m.nickname}"
        )
        for m in members
    )
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "club",
            "worker",
            "--concurrency=4",
            "--loglevel=WARNING",
            "--without-mingle",
            "--without-gossip",
            *os.environ.get("BENCH_WORKER_ARGS", "").split(),
        ],
        cwd=ROOT,
        env=env,
        stdout=sys.stderr,  # the worker's banner is progress: stdout is the one JSON line
    )
    try:
        time.sleep(3)  # let the worker connect before the burst
        flood_start = time.monotonic() + FLOOD_AFTER
        if FLOOD:
            server.flood(flood_start, FLOOD_SECONDS, RETRY_AFTER)
        for row in rows:
            notification_send.delay(row.pk)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            open_rows = Notification.objects.exclude(
                status__in=["sent", "failed", "skipped"]
            ).count()
            if open_rows == 0:
                break
            time.sleep(0.5)
        else:
            log("timed out waiting for the worker")
    finally:
        worker.terminate()
        worker.wait(timeout=60)
        server.stop()
    log(str(Counter(Notification.objects.values_list("status", flat=True))))
    log("refused: " + str(Counter(call.status for call in server.refused)))
    sent = server.sent()
    if os.environ.get("BENCH_DEBUG"):
        t0 = sent[0].at
        log(" ".join(f"{c.at - t0:.1f}" for c in sent))
    per_chat = Counter(int(call.params["chat_id"]) for call in sent)
    delivered = len(per_chat)
    seconds = sent[-1].at - sent[0].at if len(sent) > 1 else 0.0
    rate = delivered / seconds if seconds else 0.0
    figures: dict[str, object] = {
        "messages": MESSAGES,
        "delivered": delivered,
        "duplicates": sum(count - 1 for count in per_chat.values()),
        "lost": MESSAGES - delivered,
        "seconds": round(seconds, 1),
        "msgs_per_s": round(rate, 1),
        "limit_msgs_per_s": LIMIT,
        "ratio": round(rate / LIMIT, 3),
    }
    if FLOOD:
        # Every call that arrived while the server answered 429, by retry_after period.
        window = [
            call.at - flood_start
            for call in server.send_calls()
            if flood_start <= call.at < flood_start + FLOOD_SECONDS
        ]
        log("calls in the 429 window, s after its start: " + " ".join(f"{t:.2f}" for t in window))
        periods = Counter(int(t // RETRY_AFTER) for t in window)
        figures |= {
            "flood_seconds": FLOOD_SECONDS,
            "retry_after": RETRY_AFTER,
            "flood_calls": sum(periods.values()),
            "max_calls_per_period": max(periods.values(), default=0),
        }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
