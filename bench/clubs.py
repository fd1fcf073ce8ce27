"""A hundred clubs on one platform (issue #41 item 10), on PostgreSQL, Redis and a real
server and worker.

The platform: CLUBS clubs of MEMBERS members each (an account per member), each with a
finished evening of HISTORY analysed games, tonight's evening with its live tables (TABLES in
all: running games with the opening's events in their logs), the next evening with 15
seated and a reserve, and next week's evening whose sign-up opens now.

1. **Pages flat in the number of clubs.** The first club's home, evening, finished game,
   live table's poll (/games/<id>/live.json) and leaderboard, in the server process
   (Django's full request path, as bench/pages.py), when the platform has 1, 10 and CLUBS
   clubs: the median of REQUESTS requests (or of as many as fit in PAGE_SECONDS, when a
   page has grown slow) and the SQL queries of one; at CLUBS clubs also
   the last club's, under its /c/<slug>/ prefix.
2. **Sign-up bursts in BURST clubs at once.** On a real gunicorn server (bench/common.py's),
   every member of BURST clubs signs up for their club's 15-seat evening through the API's
   real path (club/seating.py on PostgreSQL), the clubs' requests interleaved, 50 in
   flight. Per club: confirmed, oversold, FIFO violations (as bench/registration_burst.py
   counts them); and the burst's throughput over the same server's ceiling (a request that
   authenticates the same way and inserts one row): the ratio registration_burst.py reports
   for one club.
3. **Announcing every club's Sunday at one hour.** Every club's beat sweep (club/scheduling.py)
   at the hour its next week's sign-up opens and its seated members are reminded: the outbox
   rows it writes, then a real Celery worker (4 processes) sends them through each club's
   bot to the fake Bot API (tests/fake_telegram.py, serving CLUBS bots, each allowing 30
   messages a second, as Telegram paces each bot). The time from the
   sweep's start until the last message is in, beside the first club's own announcement run
   alone afterwards (what the slowest single bot needs) and the floors (the busiest bot's
   messages at 29.5 a second; every message through one bot).
4. **The rating across clubs.** Every club joins one league that accepts rated games and the
   platform's rating (leagues/rating.py) is rebuilt over all their analysed games: the full
   fold's median seconds.

Prints one JSON line. Run: uv run python bench/clubs.py: the issue's size (100 clubs × 40
members, 150 live tables, 20 clubs' bursts) with 4 finished games a club, a few minutes;
--history 20 for a season's week of games (the seeding's analyses then take most of the
run); --clubs/--members/--tables/--burst-clubs/--requests to change the rest. The database
is a copy of one migrated once per set of migrations (mafia_bench_clubs_migrated_*). On a
machine shared with other work, run it in a session of its own at a raised priority, as
bench/README.md says for live.py.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project, for bench.*

from bench.common import (
    BASE_DATABASE_URL,
    ROOT,
    WORKERS,
    django_env,
    gunicorn,
    log,
    scratch_database,
    setup_django,
    wait_until,
)
from bench.load import percentile, run
from tests.fake_telegram import FakeTelegram

SEATS = 15  # each club's evening
IN_FLIGHT = 50
LEVELS = (1, 10)  # and --clubs: the platform sizes the pages are measured at
PER_BOT_LIMIT = 30  # Telegram's messages a second, per bot
PACE = 29.5  # the outbox's pace per bot (notifications/ratelimit.py)
PAGE_SECONDS = 10  # the timed requests of one page stop after this much


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="A hundred clubs on one platform.")
    parser.add_argument("--clubs", type=int, default=100)
    parser.add_argument("--members", type=int, default=40, help="per club")
    parser.add_argument("--tables", type=int, default=150, help="live tables in all")
    parser.add_argument("--burst-clubs", type=int, default=20)
    parser.add_argument("--history", type=int, default=4, help="finished games per club")
    parser.add_argument("--requests", type=int, default=20, help="timed requests per page")
    return parser.parse_args()


@dataclass
class ClubSeed:
    """What the bench made in one club."""

    club_id: int
    slug: str
    members: list[int]
    upcoming_evening: int
    finished_game: int
    live_games: list[int] = field(default_factory=list)
    burst_evening: int | None = None


def bot_token(index: int) -> str:
    return f"{700000 + index}:bench-bot-{index}"


def main() -> None:
    args = options()
    started = time.perf_counter()
    database_url = migrated_database("mafia_bench_clubs")
    env = django_env(database_url)
    setup_django(database_url, DJANGO_DEBUG="0")
    from django.core.cache import cache

    cache.clear()  # a live table's snapshot of an earlier run's game of the same id
    log(f"a migrated database in {time.perf_counter() - started:.0f} s")

    figures: dict[str, Any] = {
        "clubs": args.clubs,
        "members_per_club": args.members,
        "live_tables": args.tables,
    }
    seeds: list[ClubSeed] = []
    levels = sorted({level for level in (*LEVELS, args.clubs) if level <= args.clubs})
    pages_at: dict[int, dict[str, tuple[float, int]]] = {}
    for level in levels:
        began = time.perf_counter()
        while len(seeds) < level:
            seeds.append(seed_club(len(seeds), args))
        log(f"{level} clubs seeded ({time.perf_counter() - began:.0f} s)")
        pages_at[level] = measure_pages(seeds[0], args.requests)
        if level == args.clubs and level > 1:
            last = measure_pages(seeds[-1], args.requests)
            figures |= {f"last_club_{k}": v for k, v in flatten(last).items()}
    for level, pages in pages_at.items():
        figures |= {f"{k}_at_{level}": v for k, v in flatten(pages).items()}
    figures["queries_identical"] = (
        len({tuple(q for _, q in p.values()) for p in pages_at.values()}) == 1
    )
    figures |= platform_rating()
    figures |= burst(seeds[: args.burst_clubs], database_url)
    figures |= announce(seeds, env)
    print(json.dumps(figures))


def platform_rating(replays: int = 3) -> dict[str, Any]:
    """The rating across clubs (leagues/rating.py) rebuilt over every club's analysed games:
    every club joins one league that accepts rated games; the full fold's median seconds."""
    from club.kernel.clubs import Club
    from games.ratings.models import PlayerScore
    from leagues.models import JoinStatus, League, LeagueMembership
    from leagues.rating import platform_rating_rebuild

    league = League.objects.create(name="Bench league", slug="bench-league")
    LeagueMembership.objects.bulk_create(
        LeagueMembership(league=league, club=club, status=JoinStatus.ACCEPTED)
        for club in Club.objects.all()
    )
    times, players = [], 0
    for _ in range(replays):
        began = time.perf_counter()
        players = platform_rating_rebuild()
        times.append(time.perf_counter() - began)
    games = PlayerScore.all_clubs.values("game").distinct().count()
    log(f"the platform's rating over {games} games: {statistics.median(times):.2f} s")
    return {
        "platform_rating_games": games,
        "platform_rating_players": players,
        "platform_rating_rebuild_s": round(statistics.median(times), 3),
    }


def migrated_database(name: str) -> str:
    """A fresh database `name` at today's migrations: a copy of a template migrated once per
    set of migration files (a copy takes seconds; migrating takes this machine minutes)."""
    digest = hashlib.sha256()
    for path in sorted([*ROOT.glob("*/migrations/0*.py"), *ROOT.glob("*/*/migrations/0*.py")]):
        digest.update(str(path.relative_to(ROOT)).encode() + path.read_bytes())
    template = f"{name}_migrated_{digest.hexdigest()[:12]}"
    parts = urlsplit(BASE_DATABASE_URL)
    admin_url = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        templates = [
            row[0]
            for row in conn.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE %s", (f"{name}_migrated_%",)
            )
        ]
    if template not in templates:
        for stale in templates:  # earlier migrations'
            with psycopg.connect(admin_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{stale}" WITH (FORCE)')
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input", "-v0"],
            cwd=ROOT,
            env=django_env(scratch_database(template)),
            check=True,
        )
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


def flatten(pages: dict[str, tuple[float, int]]) -> dict[str, float | int]:
    flat: dict[str, float | int] = {}
    for name, (median_ms, queries) in pages.items():
        flat[f"{name}_ms"] = median_ms
        flat[f"{name}_queries"] = queries
    return flat


def seed_club(index: int, args: argparse.Namespace) -> ClubSeed:
    """One club: its members, a finished evening of analysed games, tonight's live tables, the
    next evening (15 seated and a reserve, reminders due) and next week's (sign-up opening)."""
    import random

    from django.contrib.auth.models import Group
    from django.utils import timezone

    from accounts.models import User
    from club.kernel.clubs import Club
    from club.kernel.tenancy import club_scope, clubs_changed
    from club.models import Evening, EveningStatus, Registration, RegistrationStatus
    from games.models import Game, GameEvent, GameStatus, Seat, Spectators
    from games.ratings import analysis
    from games.rules.options import ClubOptions
    from games.rules.simulate import SAMPLE_LINEUP, SAMPLE_OPENING, random_game

    if index == 0:
        club = Club.objects.get(slug="club")  # the first club, as the migration made it
    else:
        club = Club.objects.create(slug=f"c{index}", name=f"Клуб {index}")
        clubs_changed()
    # Every club's reminder hour (10:00 local) has come, and its evening starts in 4 hours
    # the same local day: a time zone whose clock now shows about 12:00.
    offset = (12 - timezone.now().hour) % 24
    offset = offset - 24 if offset > 14 else offset
    zone = f"Etc/GMT{-offset:+d}" if offset else "UTC"
    Club.objects.filter(pk=club.pk).update(
        timezone=zone,
        telegram_group_chat_id=-1_000_000 - index,
        telegram_bot_token=bot_token(index) if index else "",  # the first: the server's
    )
    Club.forget_cached()
    rng = random.Random(index)
    now = timezone.now()
    with club_scope(club.pk):
        members = User.objects.bulk_create(
            User(
                nickname=f"Член {index}-{n}",
                email=f"m{index}-{n}@example.org",
                birth_date=date(1990, 1, 1),
                password="!",
                telegram_id=10_000_000 + index * 1000 + n,
            )
            for n in range(args.members)
        )
        host = members[0]
        host.groups.add(Group.objects.get(name="Ведущие"))
        finished, tonight, upcoming, _next_week = Evening.objects.bulk_create(
            [
                Evening(
                    starts_at=now - timedelta(days=7),
                    opens_at=now - timedelta(days=13),
                    venue="Клуб",
                    capacity=SEATS,
                    status=EveningStatus.FINISHED,
                    signup_announced_at=now - timedelta(days=13),
                    reminders_sent_at=now - timedelta(days=7),
                ),
                Evening(
                    starts_at=now - timedelta(hours=1),
                    opens_at=now - timedelta(days=6),
                    venue="Клуб",
                    capacity=2 * SEATS,
                    status=EveningStatus.CLOSED,
                    signup_announced_at=now - timedelta(days=6),
                    reminders_sent_at=now - timedelta(hours=8),
                ),
                Evening(
                    starts_at=now + timedelta(hours=4),
                    opens_at=now - timedelta(days=5),
                    venue="Клуб",
                    capacity=SEATS,
                    signup_announced_at=now - timedelta(days=5),
                ),
                Evening(
                    starts_at=now + timedelta(days=7),
                    opens_at=now - timedelta(minutes=1),
                    venue="Клуб",
                    capacity=SEATS,
                ),
            ]
        )
        seated = members[1 : 1 + SEATS + 5]
        Registration.objects.bulk_create(
            Registration(
                evening=upcoming,
                member=member,
                status=RegistrationStatus.CONFIRMED if n <= SEATS else RegistrationStatus.RESERVE,
                source="site",
                arrival=n,
            )
            for n, member in enumerate(seated, start=1)
        )
        Evening.objects.filter(pk=upcoming.pk).update(arrivals=len(seated))
        options = ClubOptions().to_dict()
        played = [random_game(rng) for _ in range(args.history)]
        games = Game.objects.bulk_create(
            Game(
                evening=finished,
                number=number,
                host=host,
                options=options,
                lineup={},
                immune=generated.immune,
                status=GameStatus.FINISHED,
                winner=generated.game.winner or "",
                last_seq=len(generated.events),
                ended_at=finished.starts_at + timedelta(minutes=30 * number),
            )
            for number, generated in enumerate(played, start=1)
        )
        # Tonight's live tables: the platform's TABLES spread over the clubs, the first
        # clubs taking one more each.
        tables = args.tables // args.clubs + (index < args.tables % args.clubs)
        live = Game.objects.bulk_create(
            Game(
                evening=tonight,
                number=number,
                host=host,
                options=options,
                lineup={},
                status=GameStatus.RUNNING,
                last_seq=len(SAMPLE_OPENING),
                spectators=Spectators.PUBLIC,  # its live table open to anyone
            )
            for number in range(1, tables + 1)
        )
        seats, events = [], []
        for game, generated in zip(games, played, strict=True):
            table = rng.sample(members, len(generated.seats))
            seats += [
                Seat(game=game, number=n, member=member, role=generated.seats[n])
                for n, member in zip(sorted(generated.seats), table, strict=True)
            ]
            events += [
                GameEvent(game=game, seq=seq, type=event["type"], payload=event)
                for seq, event in enumerate(generated.events, start=1)
            ]
        for game in live:
            table = rng.sample(members, len(SAMPLE_LINEUP))
            seats += [
                Seat(game=game, number=n, member=member, role=role)
                for n, (member, role) in enumerate(zip(table, SAMPLE_LINEUP, strict=True), 1)
            ]
            events += [
                GameEvent(game=game, seq=seq, type=event["type"], payload=dict(event))
                for seq, event in enumerate(SAMPLE_OPENING, start=1)
            ]
        Seat.objects.bulk_create(seats, batch_size=5000)
        GameEvent.objects.bulk_create(events, batch_size=5000)
        analysis.analyses_rebuild()
    return ClubSeed(
        club_id=club.pk,
        slug=club.slug,
        members=[m.pk for m in members],
        upcoming_evening=upcoming.pk,
        finished_game=games[-1].pk,
        live_games=[g.pk for g in live],
    )


def measure_pages(seed: ClubSeed, requests: int) -> dict[str, tuple[float, int]]:
    """The club's pages as a reader sees them: median ms of `requests`, queries of one."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from club.kernel.clubs import Club
    from club.kernel.tenancy import club_ids, club_scope

    prefix = "" if seed.slug == "club" else f"/c/{seed.slug}"
    pages = {
        "home": "/",
        "evening": f"/evenings/{seed.upcoming_evening}/",
        "game": f"/games/{seed.finished_game}/",
        "live": f"/games/{seed.live_games[0]}/live.json" if seed.live_games else "",
        "leaderboard": "/leaderboard/",
    }
    client = Client(SERVER_NAME="127.0.0.1")
    measured: dict[str, tuple[float, int]] = {}
    for name, path in pages.items():
        if not path:
            continue
        url = prefix + path
        assert client.get(url).status_code == 200, url  # warm-up
        times: list[float] = []
        # A page that has grown slow gets fewer requests: `requests`, or as many as fit
        # in PAGE_SECONDS (at least one).
        while len(times) < requests and sum(times) < PAGE_SECONDS * 1000:
            began = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - began) * 1000)
            assert response.status_code == 200, url
        # The clubs' list and the club's row are each kept 5 s per process: read them
        # first, so that a count never includes a refresh that fell due inside it.
        club_ids(fresh=True)
        Club.forget_cached()
        with club_scope(seed.club_id):
            Club.current()
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200, url
        measured[name] = (round(statistics.median(times), 1), len(captured))
    log(f"pages of {seed.slug}: {measured}")
    return measured


def burst(seeds: list[ClubSeed], database_url: str) -> dict[str, Any]:
    """Every member of each of `seeds`' clubs signs up for a fresh 15-seat evening of their
    club through the API on a real server, the clubs at once."""
    from django.utils import timezone

    from accounts.models import ApiToken, User
    from club.kernel.tenancy import club_scope
    from club.models import Evening, Registration

    now = timezone.now()
    for seed in seeds:
        with club_scope(seed.club_id):
            seed.burst_evening = Evening.objects.create(
                starts_at=now + timedelta(days=3),
                opens_at=now - timedelta(hours=1),
                venue="Клуб",
                capacity=SEATS,
                signup_announced_at=now,
            ).pk
    # Distinct members for the burst, the ceiling and the warm-up (a token's first use
    # records it): the ceiling's and warm-up's from the clubs after the burst's.
    burst_members = [(seed, member) for seed in seeds for member in seed.members]
    spare = list(
        User.objects.exclude(pk__in=[m for _, m in burst_members])
        .order_by("pk")
        .values_list("pk", flat=True)[: len(burst_members) + 100]
    )
    if len(spare) < len(burst_members) + 100:  # a small platform: accounts of no club
        spare += [
            user.pk
            for user in User.objects.bulk_create(
                User(nickname=f"Гость {n}", birth_date=date(1990, 1, 1), password="!")
                for n in range(len(burst_members) + 100 - len(spare))
            )
        ]
    keys: dict[int, str] = {}
    tokens = []
    for member_id in [m for _, m in burst_members] + spare:
        key = ApiToken.new_key()
        token = ApiToken(user_id=member_id)
        token.set_key(key)
        tokens.append(token)
        keys[member_id] = key
    ApiToken.objects.bulk_create(tokens)
    ceiling_keys = [keys[m] for m in spare[: len(burst_members)]]
    warm_up_keys = [keys[m] for m in spare[len(burst_members) :]]
    # The clubs' sign-ups interleaved: each club's n-th member, club after club.
    by_club = [[(seed, m) for m in seed.members] for seed in seeds]
    order = [pair for row in zip(*by_club, strict=True) for pair in row]
    requests = [
        ("POST", f"/c/{seed.slug}/api/v1/evenings/{seed.burst_evening}/registration", keys[m])
        if seed.slug != "club"
        else ("POST", f"/api/v1/evenings/{seed.burst_evening}/registration", keys[m])
        for seed, m in order
    ]
    env = django_env(
        database_url,
        DJANGO_ROOT_URLCONF="bench.urls",
        DJANGO_DEBUG="false",
        # A sync worker serves one request at a time: two connections each (docs/deploy.md).
        DB_POOL_MAX_SIZE="2",
        DB_POOL_MIN_SIZE="1",
        LOG_LEVEL="WARNING",
        # A worker imports the URLs at its first request: on a loaded machine that alone
        # can pass gunicorn's default 30 s, and the worker is killed mid-burst.
        # Its workers then stop within 10 s of the burst, whatever a loaded machine does.
        GUNICORN_CMD_ARGS="--timeout 120 --graceful-timeout 10",
    )
    with gunicorn(env) as (base_url, _server_times):
        log(f"burst: {len(requests)} sign-ups in {len(seeds)} clubs, {WORKERS} workers")
        warm_evening = seeds[-1].upcoming_evening
        prefix = "" if seeds[-1].slug == "club" else f"/c/{seeds[-1].slug}"
        run(
            base_url,
            [("POST", "/bench/ceiling", k) for k in warm_up_keys]
            + [
                ("POST", f"{prefix}/api/v1/evenings/{warm_evening}/registration", k)
                for k in warm_up_keys
            ],
            in_flight=IN_FLIGHT,
        )
        ceiling = run(
            base_url, [("POST", "/bench/ceiling", k) for k in ceiling_keys], in_flight=IN_FLIGHT
        )
        signed = run(base_url, requests, in_flight=IN_FLIGHT)

    per_club = []
    for seed in seeds:
        assert seed.burst_evening is not None
        registrations = list(
            Registration.all_clubs.filter(evening_id=seed.burst_evening).order_by("arrival")
        )
        confirmed = sum(r.status == "confirmed" for r in registrations)
        reserve = [r for r in registrations if r.status == "reserve"]
        fifo = sum(1 for p, r in enumerate(reserve, start=1) if r.arrival != SEATS + p)
        wrong_club = sum(r.club_id != seed.club_id for r in registrations)
        per_club.append((confirmed, len(reserve), fifo, wrong_club))
    told: dict[str, list[int]] = {}
    for (seed, _m), (_status, body) in zip(order, signed.responses, strict=True):
        if body and body.get("status") == "reserve":
            told.setdefault(seed.slug, []).append(body["position"])
    told_wrong = sum(len(p) - len(set(p)) for p in told.values())
    return {
        "burst_clubs": len(seeds),
        "burst_requests": len(requests),
        "burst_confirmed_per_club": sorted({c for c, *_ in per_club}),
        "burst_reserve": sum(r for _, r, *_ in per_club),
        "burst_oversold": sum(max(0, c - SEATS) for c, *_ in per_club),
        "burst_fifo_violations": sum(f for *_, f, _ in per_club) + told_wrong,
        "burst_rows_in_another_club": sum(w for *_, w in per_club),
        "burst_errors": signed.errors,
        "burst_throughput_rps": round(signed.throughput_rps, 1),
        "burst_p50_ms": round(signed.percentile(50), 1),
        "burst_p99_ms": round(percentile(signed.latencies_ms, 99), 1),
        "burst_ceiling_rps": round(ceiling.throughput_rps, 1),
        "burst_ratio": round(signed.throughput_rps / ceiling.throughput_rps, 3),
    }


def announce(seeds: list[ClubSeed], env: dict[str, str]) -> dict[str, Any]:
    """Every club's beat sweep at the hour: the outbox rows, then a real worker sends them."""
    from django.db.models import Max

    from club.celery import app
    from club.kernel.tenancy import club_scope, each_club
    from club.scheduling import schedule_sweep
    from notifications.models import Notification

    # One fake Bot API serving every club's bot, each with its own 30 a second.
    bots = FakeTelegram(token=bot_token(0), rate_limit_per_s=PER_BOT_LIMIT)
    for index in range(1, len(seeds)):
        bots.add_bot(bot_token(index), f"club{index}_bot")
    bots.start()
    app.control.purge()  # the sign-ups' answers queued above: not this measurement's
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
        ],
        cwd=ROOT,
        env=env
        | {
            "TELEGRAM_BOT_TOKEN": bot_token(0),
            "TELEGRAM_API_BASE_URL": bots.url,
            "LOG_LEVEL": "WARNING",
        },
        stdout=sys.stderr,  # the worker's banner is progress: stdout is the one JSON line
    )

    def sent_after(first_pk: int) -> bool:
        return not (
            Notification.all_clubs.filter(pk__gt=first_pk)
            .exclude(status__in=["sent", "failed", "skipped"])
            .exists()
        )

    def last_call() -> float:
        return max((c.at for c in bots.sent()), default=0.0)

    try:
        # The worker answers a ping once it is connected and its processes forked.
        wait_until(
            lambda: bool(app.control.ping(timeout=0.5)), seconds=120, what="the Celery worker"
        )
        before = Notification.all_clubs.aggregate(m=Max("pk"))["m"] or 0
        began = time.monotonic()
        for _club in each_club():
            schedule_sweep()
        swept = time.monotonic() - began
        rows = Notification.all_clubs.filter(pk__gt=before)
        written = rows.count()
        per_club = Counter(rows.values_list("club_id", flat=True))
        log(f"announce: {written} outbox rows from {len(seeds)} sweeps in {swept:.1f} s")
        wait_until(
            lambda: sent_after(before), seconds=600, what="every announcement sent", every=0.2
        )
        all_sent = last_call() - began
        statuses = Counter(rows.values_list("status", flat=True))
        per_bot: dict[str, list[float]] = {}
        for call in bots.sent():
            per_bot.setdefault(call.token, []).append(call.at)
        busiest = max((len(calls) for calls in per_bot.values()), default=0)
        slowest_span = max((calls[-1] - calls[0] for calls in per_bot.values()), default=0.0)
        # The same message to the same chat twice (a group gets two different ones: its
        # two evenings' sign-up posts).
        chats = Counter((int(c.params["chat_id"]), c.params.get("text")) for c in bots.sent())

        # The first club's Sunday again, alone: what one club's bot needs through this worker.
        first = seeds[0]
        with club_scope(first.club_id):
            from club.models import Evening

            Notification.objects.filter(pk__gt=before).delete()
            Evening.objects.filter(signup_announced_at__gte=_at(began)).update(
                signup_announced_at=None
            )
            Evening.objects.filter(reminders_sent_at__gte=_at(began)).update(reminders_sent_at=None)
            before_alone = Notification.all_clubs.aggregate(m=Max("pk"))["m"] or 0
            already = len(bots.sent(bot_token(0)))
            began_alone = time.monotonic()
            schedule_sweep()
            alone_rows = Notification.all_clubs.filter(pk__gt=before_alone).count()
        wait_until(lambda: sent_after(before_alone), seconds=120, what="the first club's sent")
        alone_calls = bots.sent(bot_token(0))[already:]
        alone = (alone_calls[-1].at - began_alone) if alone_calls else 0.0
    finally:
        worker.terminate()
        worker.wait(timeout=60)
        bots.stop()
    return {
        "announce_rows": written,
        "announce_rows_per_club": sorted(set(per_club.values())),
        "announce_sweeps_s": round(swept, 1),
        "announce_sent": statuses.get("sent", 0),
        "announce_failed": statuses.get("failed", 0),
        "announce_duplicates": sum(n - 1 for n in chats.values()),
        "announce_bots_used": len(per_bot),
        "announce_all_sent_s": round(all_sent, 1),
        "announce_slowest_bot_span_s": round(slowest_span, 1),
        "announce_one_club_alone_s": round(alone, 2),
        "announce_one_club_rows": alone_rows,
        "announce_busiest_bot_floor_s": round(busiest / PACE, 1),
        "announce_one_bot_for_all_floor_s": round(written / PACE, 1),
    }


def _at(monotonic_moment: float) -> datetime:
    """A time.monotonic() moment of this process as a wall-clock time (a little before)."""
    from django.utils import timezone

    return timezone.now() - timedelta(seconds=time.monotonic() - monotonic_moment + 1)


if __name__ == "__main__":
    main()
