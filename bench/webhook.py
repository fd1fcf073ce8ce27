"""«Ок, играем» pressed in Telegram by 500 members, 20 updates in flight, against the webhook
on a real server (gunicorn) on PostgreSQL: the server time of a callback, registration
included. Prints one JSON line: updates, ok, errors, registrations, median_ms, p99_ms.
Run: uv run python bench/webhook.py
"""

import json
import os
import subprocess
import sys

from common import ROOT, django_env, gunicorn, log, scratch_database, setup_django
from load import run

MEMBERS = 500
IN_FLIGHT = 20
SECRET = "bench-webhook-secret"


def main() -> None:
    database_url = scratch_database("mafia_bench_webhook")
    env = django_env(database_url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    setup_django(database_url)
    from datetime import date, timedelta

    from django.utils import timezone

    from accounts.models import User
    from club.models import Evening, Registration

    User.objects.bulk_create(
        User(
            nickname=f"Игрок {n}", birth_date=date(1990, 1, 1), password="!", telegram_id=20_000 + n
        )
        for n in range(MEMBERS)
    )
    now = timezone.now()
    evening = Evening.objects.create(
        starts_at=now + timedelta(days=3),
        opens_at=now - timedelta(hours=1),
        venue="GrandDaddy",
        capacity=15,
    )
    updates = []
    for n in range(MEMBERS):
        body = json.dumps(
            {
                "update_id": 500_000 + n,
                "callback_query": {
                    "id": f"cb{n}",
                    "chat_instance": "1",
                    "data": f"su:{evening.pk}",
                    "from": {"id": 20_000 + n, "is_bot": False, "first_name": "Игрок"},
                },
            }
        ).encode()
        headers = {"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": SECRET}
        updates.append(("POST", "/telegram/webhook/", headers, body))
    server_env = django_env(
        database_url,
        TELEGRAM_WEBHOOK_SECRET=SECRET,
        DJANGO_DEBUG="false",
        LOG_LEVEL="WARNING",
        DB_POOL_MAX_SIZE="20",
    )
    workers = int(os.environ.get("BENCH_WORKERS", "3"))
    with gunicorn(
        server_env, workers=workers, threads=int(os.environ.get("BENCH_THREADS", "4"))
    ) as url:
        log(f"server at {url}")
        result = run(url, updates, in_flight=IN_FLIGHT)
    answers = [body for status, body in result.responses if status == 200 and body]
    print(
        json.dumps(
            {
                "updates": MEMBERS,
                "ok": sum(1 for a in answers if a.get("method") == "answerCallbackQuery"),
                "errors": result.errors,
                "registrations": Registration.objects.filter(evening=evening).count(),
                "median_ms": round(result.percentile(50), 1),
                "p99_ms": round(result.percentile(99), 1),
            }
        )
    )


if __name__ == "__main__":
    main()
