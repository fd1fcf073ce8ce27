"""`make run`: the web server, the Celery worker and beat together, for the embedded site.

A small supervisor rather than honcho: honcho stops every process when one exits, so one
crash took the whole site down. Here a process that exits by itself is started again (with
a growing pause, and logged as a restart); the others go on. Ctrl-C (or SIGTERM) stops all
three. The site's address is printed once it answers, not before.
"""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from typing import IO, Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

MAX_PAUSE = 30.0
# How long the site may be quiet while it starts before run_stack says it is still starting.
STILL_STARTING = 8.0


@dataclass
class Process:
    name: str
    command: list[str]
    process: subprocess.Popen[str] | None = None
    # runserver's reloader runs the server as its child: stop the whole group. Celery stops
    # its own pool on SIGTERM (a warm shutdown), so only its main process is signalled.
    stop_group: bool = False
    restarts: int = 0
    pause: float = 1.0
    started_at: float = field(default=0.0)


LOOPBACK = "127.0.0.1"
EVERY_INTERFACE = {"0.0.0.0", "::", "[::]"}  # noqa: S104 (what `make run HOST=0.0.0.0` asks)
DEFAULT_HOSTS = ["localhost", "127.0.0.1", "[::1]"]  # club/settings.py's, off production


def network_address() -> str:
    """The machine's address on its network (what a phone on the same Wi-Fi opens): the
    source address of a route outwards. A UDP "connect" sends nothing; without a network,
    the loopback."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached, only routed
            address = str(probe.getsockname()[0])
    except OSError:
        return LOOPBACK
    return address if address != "0.0.0.0" else LOOPBACK  # noqa: S104


def link_host(host: str) -> str:
    """The address the site's links and banner name for a server bound to `host`."""
    return network_address() if host in EVERY_INTERFACE else host


def site_environment(port: int, host: str = LOOPBACK) -> dict[str, str]:
    """What the three processes serve, unless it was set: SITE_URL (the links in the
    calendar feed and the messages) and, when the server listens beyond this machine, the
    host names Django must accept (the network address, the machine's name)."""
    named = link_host(host)
    environment = {"SITE_URL": os.environ.get("SITE_URL") or f"http://{named}:{port}"}
    if host != LOOPBACK and not os.environ.get("DJANGO_ALLOWED_HOSTS"):
        names = [named]
        if host in EVERY_INTERFACE:  # also the machine's name, as a phone may know it
            names += [socket.gethostname(), f"{socket.gethostname()}.local"]
        hosts = dict.fromkeys([*DEFAULT_HOSTS, *names])  # in order, each once
        environment["DJANGO_ALLOWED_HOSTS"] = ",".join(hosts)
    return environment


class Command(BaseCommand):
    help = "Run the web server, the Celery worker and beat; restart any that exits."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=8000)
        # 127.0.0.1: this machine only; 0.0.0.0: a phone on the same network too.
        parser.add_argument("--host", default=LOOPBACK)

    def handle(self, *args: Any, port: int, host: str, **options: Any) -> None:
        broker = getattr(settings, "BROKER_DATABASE", None)
        if broker is not None:
            # Write-ahead logging lets the three read the broker while one writes; the mode
            # stays with the file once set.
            with sqlite3.connect(broker) as database:
                database.execute("PRAGMA journal_mode=WAL")
        # Links the site writes (the calendar feed, messages) name the address it runs on.
        os.environ.update(site_environment(port, host))
        bind = f"[{host.strip('[]')}]:{port}" if ":" in host else f"{host}:{port}"
        python = sys.executable
        celery = [python, "-m", "celery", "-A", "club", "--quiet"]
        self.processes = [
            Process(
                "web",
                [python, "manage.py", "runserver", bind, "--skip-checks"],
                stop_group=True,
            ),
            Process(
                "worker",
                [*celery, "worker", "--loglevel=INFO", "--concurrency=2", "--hostname=worker@%h"],
            ),
            Process("beat", [*celery, "beat", "--loglevel=INFO"]),
        ]
        self.stopping = threading.Event()
        self.output = threading.Lock()
        signal.signal(signal.SIGINT, self._stop)
        signal.signal(signal.SIGTERM, self._stop)
        self._say("run_stack | starting web, worker and beat (the site answers in a few seconds)")
        for process in self.processes:
            self._start(process)
        threading.Thread(target=self._announce, args=(host, port), daemon=True).start()
        while not self.stopping.is_set():
            for process in self.processes:
                assert process.process is not None
                code = process.process.poll()
                if code is not None and not self.stopping.is_set():
                    self._restart(process, code)
            self.stopping.wait(0.5)
        self._stop_all()

    def _start(self, process: Process) -> None:
        process.process = subprocess.Popen(  # noqa: S603 (our own commands)
            process.command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
            start_new_session=True,  # Ctrl-C reaches the supervisor, which stops each in turn
        )
        process.started_at = time.monotonic()
        threading.Thread(target=self._pump, args=(process,), daemon=True).start()

    def _pump(self, process: Process) -> None:
        assert process.process is not None and process.process.stdout is not None
        stream: IO[str] = process.process.stdout
        for line in stream:
            self._say(f"{process.name:<6} | {line.rstrip()}")

    def _say(self, line: str) -> None:
        with self.output:
            self.stdout.write(line)
            self.stdout.flush()

    def _restart(self, process: Process, code: int) -> None:
        # A process that ran a while had a passing failure: start again soon. One that keeps
        # failing at once waits longer each time, so a broken set-up does not spin.
        if time.monotonic() - process.started_at > 60:
            process.pause = 1.0
        process.restarts += 1
        self._say(
            f"run_stack | {process.name} exited with {code}; restart #{process.restarts} "
            f"in {process.pause:.0f} s (the others keep running)"
        )
        if self.stopping.wait(process.pause):
            return
        process.pause = min(MAX_PAUSE, process.pause * 2)
        self._start(process)

    def _announce(self, host: str, port: int) -> None:
        local = host in EVERY_INTERFACE or host == LOOPBACK
        probe = f"http://{LOOPBACK if local else host}:{port}/healthz"
        started = time.monotonic()
        said = started
        while not self.stopping.is_set():
            try:
                with urllib.request.urlopen(probe, timeout=2):
                    break
            except OSError:
                time.sleep(0.5)
            # No silence past 10 s on a slow machine's first start (tools/progress.py).
            if time.monotonic() - said >= STILL_STARTING:
                said = time.monotonic()
                self._say(f"run_stack | the site is still starting, {said - started:.0f} s")
        if not self.stopping.is_set():
            address = f"{os.environ['SITE_URL'].rstrip('/')}/"
            lines = [f"The club site is up: {address}  (admin: {address}admin/)"]
            if host == LOOPBACK:
                lines.append(
                    "This machine only; for a phone on the same Wi-Fi: make run HOST=0.0.0.0"
                )
            else:
                lines.append(f"A phone on the same network opens {address}")
            width = max(len(line) for line in lines)
            for line in ["=" * width, *lines, "=" * width]:
                self._say(line)

    def _stop(self, signum: int, frame: object) -> None:
        self.stopping.set()

    def _stop_all(self) -> None:
        self._say("run_stack | stopping web, worker and beat")
        for process in self.processes:
            if process.process is not None and process.process.poll() is None:
                if process.stop_group:
                    os.killpg(process.process.pid, signal.SIGTERM)
                else:
                    process.process.terminate()
        deadline = time.monotonic() + 15
        for process in self.processes:
            if process.process is None:
                continue
            try:
                process.process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(process.process.pid, signal.SIGKILL)
        total = sum(p.restarts for p in self.processes)
        self._say(f"run_stack | stopped ({total} restarts)")
