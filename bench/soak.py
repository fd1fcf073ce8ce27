"""`make run` for half an hour under a club's traffic: does the embedded site stay up?

A clean clone of this repository (git clone of HEAD) is started with `make run`, as a
newcomer would, with the club's sweep every minute. A scripted workload then plays members
and a host against it: members log in through the login form, sign up and cancel for the
open evening (htmx and plain posts), read the pages; the host starts a game for the
evening's first twelve and records it to the end through the API, which queues the
analysis; the demo's online game runs its sweeps. At the end the stack is stopped with
Ctrl-C and the bench prints one JSON line:

    {"minutes", "requests", "errors", "tasks_queued", "tasks_done", "process_restarts"}

errors: 5xx answers, refused connections and unexpected statuses; tasks: every task any
of the three processes queued and the worker finished (CLUB_TASK_LEDGER, club/celery.py),
counted after a drain; process_restarts: the times run_stack had to start a process again.
Targets: errors 0, tasks_done = tasks_queued, process_restarts 0.

    uv run python bench/soak.py            # SOAK_MINUTES=30 by default
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import ROOT, free_port, log, wait_until
from games.rules.simulate import SAMPLE_LINEUP, SAMPLE_TOWN_WINS

MINUTES = float(os.environ.get("SOAK_MINUTES", "30"))
MEMBERS = ["Ворон", "Лиса", "Барон", "Шериф", "Мотылёк", "Кот Бегемот", "Северянка",
           "Доктор Ватсон", "Граф", "Ласточка", "Молчун", "Рыжая", "Профессор", "Тень",
           "Сова", "Kapitan", "Jazz", "Маэстро", "Вишня", "Lucky"]  # fmt: skip


class Counter:
    def __init__(self) -> None:
        self.requests = 0
        self.errors: list[str] = []
        self.lock = threading.Lock()

    def record(self, status: int, expected: set[int], what: str) -> None:
        with self.lock:
            self.requests += 1
            if status not in expected:
                self.errors.append(f"{status} {what}")
                log(f"unexpected {status}: {what}")


def send(
    opener: urllib.request.OpenerDirector, request: urllib.request.Request, counter: Counter,
    expect: tuple[int, ...],
) -> str:  # fmt: skip
    """Make one request and count it; the body, or the error's text."""
    try:
        with opener.open(request, timeout=30) as response:
            status, text = response.status, str(response.read().decode())
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode(errors="replace")
    except OSError as error:
        status, text = 0, str(error)
    counter.record(status, set(expect), f"{request.get_method()} {request.full_url}")
    return text


class Browser:
    """A member's browser: cookies, the CSRF token, form posts."""

    def __init__(self, base: str, counter: Counter) -> None:
        self.base, self.counter = base, counter
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def csrf(self) -> str:
        return next((c.value or "" for c in self.jar if c.name == "csrftoken"), "")

    def call(self, method: str, path: str, data: dict[str, object] | None = None, *,
             expect: tuple[int, ...] = (200,), headers: dict[str, str] | None = None,
             ) -> str:  # fmt: skip
        body = urllib.parse.urlencode(data or {}, doseq=True).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body, method=method)
        request.add_header("X-CSRFToken", self.csrf())
        request.add_header("Referer", self.base + "/")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        return send(self.opener, request, self.counter, tuple(expect))

    def log_in(self, nickname: str, password: str) -> None:
        self.call("GET", "/accounts/login/")
        self.call("POST", "/accounts/login/", {"username": nickname, "password": password})


def api(base: str, token: str, counter: Counter, method: str, path: str, body: object = None,
        expect: tuple[int, ...] = (200, 201)) -> Any:  # fmt: skip
    """The answer's JSON (an object or a list), or {} when it is not JSON."""
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode() if body is not None else None,
        method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    text = send(urllib.request.build_opener(), request, counter, tuple(expect))
    try:
        return json.loads(text)
    except ValueError:
        return {}


def site_up(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/healthz", timeout=2):
            return True
    except OSError:
        return False


def members_workload(base: str, counter: Counter, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    browsers = {}
    for nickname in MEMBERS:
        browser = Browser(base, counter)
        browser.log_in(nickname, "mafia-demo")
        browsers[nickname] = browser
    evening = None
    while not stop.is_set():
        nickname = rng.choice(MEMBERS)
        browser = browsers[nickname]
        if evening is None:
            found = re.search(r'href="/evenings/(\d+)/"', browser.call("GET", "/"))
            evening = found.group(1) if found else None
            continue
        action = rng.random()
        htmx = {"HX-Request": "true"} if rng.random() < 0.5 else {}
        if action < 0.35:
            browser.call("POST", f"/evenings/{evening}/signup/", {}, expect=(200, 302),
                         headers=htmx)  # fmt: skip
        elif action < 0.5 and nickname not in MEMBERS[:12]:  # the first twelve keep their seats
            browser.call("POST", f"/evenings/{evening}/cancel/", {}, expect=(200, 302),
                         headers=htmx)  # fmt: skip
        else:
            path = rng.choice(["/", f"/evenings/{evening}/", "/leaderboard/", "/evenings/mine/",
                               "/online/", "/accounts/profile/"])  # fmt: skip
            browser.call("GET", path)
        stop.wait(rng.uniform(0.2, 1.0))


def host_workload(base: str, token: str, counter: Counter, stop: threading.Event) -> None:
    """Sign the first twelve up, then record games on the open evening, one after another."""
    first_twelve = [Browser(base, counter) for _ in range(12)]
    evening_id = None
    while evening_id is None and not stop.is_set():
        evenings = api(base, token, counter, "GET", "/api/v1/evenings")
        evening_id = evenings[0]["id"] if isinstance(evenings, list) and evenings else None
        stop.wait(2)
    for browser, nickname in zip(first_twelve, MEMBERS[:12], strict=True):
        browser.log_in(nickname, "mafia-demo")
        browser.call("POST", f"/evenings/{evening_id}/signup/", {}, expect=(200, 302))
    while not stop.is_set():
        detail = api(base, token, counter, "GET", f"/api/v1/evenings/{evening_id}")
        seated = detail.get("confirmed", [])[:12]
        if len(seated) < 12:
            stop.wait(5)
            continue
        seats = [
            {"seat": n, "nick": nick, "role": role}
            for n, (nick, role) in enumerate(zip(seated, SAMPLE_LINEUP, strict=True), 1)
        ]
        game = api(base, token, counter, "POST", "/api/v1/games",
                   {"evening_id": evening_id, "seats": seats}, expect=(201,))  # fmt: skip
        if "id" not in game:
            stop.wait(5)
            continue
        for seq, event in enumerate(SAMPLE_TOWN_WINS, start=1):
            if stop.is_set():
                return
            api(base, token, counter, "POST", f"/api/v1/games/{game['id']}/events",
                {**event, "seq": seq, "client_id": f"soak-{game['id']}-{seq}"})  # fmt: skip
            stop.wait(1.0)
        api(base, token, counter, "GET", f"/api/v1/games/{game['id']}")
        stop.wait(20)


def main() -> None:
    port = free_port()
    work = Path(tempfile.mkdtemp(prefix="club-soak-"))
    clone = work / "clone"
    log(f"cloning HEAD into {clone}")
    subprocess.run(["git", "clone", "--quiet", "--local", str(ROOT), str(clone)], check=True)
    ledger = work / "tasks.ledger"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "CLUB_CACHE_URL", "VIRTUAL_ENV"}
        and not k.startswith("DJANGO_")
    }
    env.update(
        PORT=str(port),
        CLUB_SCHEDULE_SWEEP_SECONDS="60",
        CLUB_TASK_LEDGER=str(ledger),
        PYTHONUNBUFFERED="1",
    )
    output = open(work / "make-run.log", "w")  # noqa: SIM115
    log(f"make run on port {port} (log: {work / 'make-run.log'})")
    stack = subprocess.Popen(["make", "run"], cwd=clone, env=env, stdout=output,
                             stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    wait_until(lambda: site_up(base), seconds=900, what="make run's site", every=1)
    token = subprocess.run(
        [str(clone / ".venv/bin/python"), "manage.py", "api_token", "Ведущий"],
        cwd=clone, env=env, capture_output=True, text=True, check=True,
    ).stdout.split()[-1]  # fmt: skip
    counter, stop = Counter(), threading.Event()
    threads = [
        threading.Thread(target=members_workload, args=(base, counter, stop, seed))
        for seed in (1, 2)
    ] + [threading.Thread(target=host_workload, args=(base, token, counter, stop))]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    while time.monotonic() - began < MINUTES * 60:
        time.sleep(10)
        log(f"{(time.monotonic() - began) / 60:.1f} min: {counter.requests} requests, "
            f"{len(counter.errors)} errors")  # fmt: skip
    stop.set()
    for thread in threads:
        thread.join()
    minutes = (time.monotonic() - began) / 60

    def tally() -> tuple[set[str], set[str]]:
        queued: set[str] = set()
        done: set[str] = set()
        for line in ledger.read_text().splitlines() if ledger.exists() else []:
            kind, task_id, *_ = line.split()
            (queued if kind == "queued" else done).add(task_id)
        return queued, done

    drain = time.monotonic() + 180  # the queued tasks finish (retries run out, sweeps run)
    queued, done = tally()
    while not queued <= done and time.monotonic() < drain:
        time.sleep(5)
        queued, done = tally()
    os.killpg(stack.pid, signal.SIGINT)
    stack.wait(timeout=120)
    output.close()
    text = (work / "make-run.log").read_text()
    # Every task queued before the drain began, and done (a sweep queued at the very end
    # and not yet run is left out of both).
    queued, done = tally()
    print(
        json.dumps(
            {
                "minutes": round(minutes, 1),
                "requests": counter.requests,
                "errors": len(counter.errors),
                "tasks_queued": len(queued),
                "tasks_done": len(queued & done),
                "process_restarts": len(re.findall(r"restart #\d+", text)),
            }
        )
    )


if __name__ == "__main__":
    main()
