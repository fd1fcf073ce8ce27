"""500 members sign up for one 15-seat evening, 50 requests in flight, on a real server.

Prints one JSON line: requests, confirmed, reserve, oversold, fifo_violations, errors,
throughput_rps, p50_ms, p99_ms, ceiling_rps, ratio. `ceiling_rps` is the same server's
throughput, under the same load, on a view that authenticates the same way and inserts one
row in its own transaction: the least a sign-up can cost.
Run: uv run python bench/registration_burst.py
"""

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project, for bench.*

from bench.common import (
    ROOT,
    THREADS,
    WORKERS,
    django_env,
    gunicorn,
    log,
    scratch_database,
    setup_django,
)
from bench.load import percentile, run

MEMBERS = 500
SEATS = 15
IN_FLIGHT = 50
WARM_UP = 100


def prepare(database_url: str) -> tuple[int, int, list[str], list[str], list[str]]:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"],
        cwd=ROOT,
        env=django_env(database_url),
        check=True,
    )
    setup_django(database_url)
    from datetime import date, timedelta

    from django.utils import timezone

    from accounts.models import ApiToken, User
    from club.models import Evening

    members = User.objects.bulk_create(
        User(nickname=f"Игрок {n}", birth_date=date(1990, 1, 1), password="!")
        for n in range(2 * MEMBERS + WARM_UP)
    )
    keys = [ApiToken.new_key() for _ in members]
    tokens = []
    for member, key in zip(members, keys, strict=True):
        token = ApiToken(user=member)
        token.set_key(key)
        tokens.append(token)
    ApiToken.objects.bulk_create(tokens)
    now = timezone.now()
    evening, warm_up = (
        Evening.objects.create(
            # One evening per start (club/models.py): the warm-up's an hour later.
            starts_at=now + timedelta(days=3, hours=hour),
            opens_at=now - timedelta(hours=1),
            venue="GrandDaddy",
            capacity=SEATS,
        )
        for hour in range(2)
    )
    # Distinct members for the burst, the ceiling probe and the warm-up: a token's first use
    # records it, so every measured request pays for that once.
    return evening.pk, warm_up.pk, keys[:MEMBERS], keys[MEMBERS : 2 * MEMBERS], keys[-WARM_UP:]


def main() -> None:
    database_url = scratch_database("mafia_bench_registration")
    evening_id, warm_up_id, signup_keys, ceiling_keys, warm_up_keys = prepare(database_url)
    pool = str(max(2, 90 // WORKERS))  # stay under PostgreSQL's 100 connections
    env = django_env(
        database_url,
        DJANGO_ROOT_URLCONF="bench.urls",
        DJANGO_DEBUG="false",
        DB_POOL_MAX_SIZE=pool,
        DB_POOL_MIN_SIZE="2",
        LOG_LEVEL="WARNING",
    )
    with gunicorn(env) as (base_url, server_times):
        log(f"server at {base_url}: {WORKERS} workers x {THREADS} threads, pool {pool}")
        # A server that has run for a while: both paths warmed up on other rows.
        warm_up = f"/api/v1/evenings/{warm_up_id}/registration"
        run(
            base_url,
            [("POST", "/bench/ceiling", k) for k in warm_up_keys]
            + [("POST", warm_up, k) for k in warm_up_keys],
            in_flight=IN_FLIGHT,
        )
        ceiling = run(
            base_url, [("POST", "/bench/ceiling", k) for k in ceiling_keys], in_flight=IN_FLIGHT
        )
        path = f"/api/v1/evenings/{evening_id}/registration"
        burst = run(base_url, [("POST", path, k) for k in signup_keys], in_flight=IN_FLIGHT)

    from club.models import Registration

    registrations = list(Registration.objects.filter(evening_id=evening_id).order_by("arrival"))
    confirmed = sum(r.status == "confirmed" for r in registrations)
    reserve = [r for r in registrations if r.status == "reserve"]
    # FIFO: the reserve, in promotion order, is the order in which sign-ups took the lock,
    # and every member was told the position that order gives them.
    fifo_violations = sum(
        1 for position, r in enumerate(reserve, start=1) if r.arrival != SEATS + position
    )
    told = [
        body["position"]
        for status, body in burst.responses
        if body and body.get("status") == "reserve"
    ]
    fifo_violations += (
        len(told) - len(set(told)) + sum(1 for p in told if not 1 <= p <= len(reserve))
    )
    figures = {
        "requests": len(signup_keys),
        "confirmed": confirmed,
        "reserve": len(reserve),
        "oversold": max(0, confirmed - SEATS),
        "fifo_violations": fifo_violations,
        "errors": burst.errors,
        "throughput_rps": round(burst.throughput_rps, 1),
        "p50_ms": round(burst.percentile(50), 1),
        "p99_ms": round(burst.percentile(99), 1),
        # Inside the server only, without the wait to be accepted (for comparison).
        "server_p50_ms": round(percentile(server_times.milliseconds(path), 50), 1),
        "server_p99_ms": round(percentile(server_times.milliseconds(path), 99), 1),
        "ceiling_rps": round(ceiling.throughput_rps, 1),
        "ratio": round(burst.throughput_rps / ceiling.throughput_rps, 3),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
