"""«Ок, играем» pressed in Telegram by 500 members, 20 updates in flight, against the webhook
on a real server (gunicorn) on PostgreSQL: the server time of a callback, registration
included. Prints one JSON line: updates, ok, errors, registrations, median_ms, p99_ms.
Run: uv run python bench/webhook.py
"""

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project, for bench.*

from bench.common import ROOT, django_env, gunicorn, log, scratch_database, setup_django
from bench.load import Request, percentile, run

MEMBERS = 500
IN_FLIGHT = 20
SECRET = "bench-webhook-secret"
WARM_UP = 100


def callback(update_id: int, telegram_id: int, evening_id: int) -> Request:
    body = json.dumps(
        {
            "update_id": update_id,
            "callback_query": {
                "id": f"cb{update_id}",
                "chat_instance": "1",
                "data": f"su:{evening_id}",
                "from": {"id": telegram_id, "is_bot": False, "first_name": "Игрок"},
            },
        }
    ).encode()
    headers = {"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": SECRET}
    return ("POST", "/telegram/webhook/", headers, body)


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
        for n in range(MEMBERS + WARM_UP)
    )
    now = timezone.now()
    evening, warm_up = (
        Evening.objects.create(
            # One evening per start (club/models.py): the warm-up's an hour later.
            starts_at=now + timedelta(days=3, hours=hour),
            opens_at=now - timedelta(hours=1),
            venue="GrandDaddy",
            capacity=15,
        )
        for hour in range(2)
    )
    # A server that has run for a while: the same path warmed up by other members on
    # another evening.
    warm_ups = [callback(400_000 + n, 20_000 + MEMBERS + n, warm_up.pk) for n in range(WARM_UP)]
    updates = [callback(500_000 + n, 20_000 + n, evening.pk) for n in range(MEMBERS)]
    server_env = django_env(
        database_url,
        TELEGRAM_WEBHOOK_SECRET=SECRET,
        DJANGO_DEBUG="false",
        LOG_LEVEL="WARNING",
        DB_POOL_MAX_SIZE="10",
    )
    with gunicorn(server_env) as (url, server_times):
        log(f"server at {url}")
        run(url, warm_ups, in_flight=IN_FLIGHT)
        result = run(url, updates, in_flight=IN_FLIGHT)
    server_ms = server_times.milliseconds("/telegram/webhook/", skip=WARM_UP)
    answers = [body for status, body in result.responses if status == 200 and body]
    print(
        json.dumps(
            {
                "updates": MEMBERS,
                "ok": sum(1 for a in answers if a.get("method") == "answerCallbackQuery"),
                "errors": result.errors,
                "registrations": Registration.objects.filter(evening=evening).count(),
                "median_ms": round(percentile(server_ms, 50), 1),
                "p99_ms": round(percentile(server_ms, 99), 1),
                # As the sender of the updates saw it, the wait to be accepted included.
                "client_median_ms": round(result.percentile(50), 1),
                "client_p99_ms": round(result.percentile(99), 1),
            }
        )
    )


if __name__ == "__main__":
    main()
