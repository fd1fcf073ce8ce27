"""`make run HOST=0.0.0.0` (#27): `make run` listened on 127.0.0.1 only, so the phone-first
site could not be opened on a phone on the same Wi-Fi. With HOST the server listens there,
Django accepts the machine's network address and name, and the links and the banner name
that address; HOST left alone keeps the machine to itself."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from club.management.commands import run_stack
from club.management.commands.run_stack import network_address, site_environment
from tests.club.test_embedded_stack import ROOT, embedded_env, manage  # noqa: F401
from tests.waiting import wait_for

EVERYWHERE = "0.0.0.0"  # noqa: S104 (what `make run HOST=0.0.0.0` asks for)
MAKEFILE = (ROOT / "Makefile").read_text()
README = (ROOT / "README.md").read_text()


def test_the_makefile_passes_host_and_the_readme_says_how() -> None:
    assert "HOST ?= 127.0.0.1" in MAKEFILE
    assert "run_stack --host $(HOST) --port $(PORT)" in MAKEFILE
    assert "make run HOST=0.0.0.0" in README


def test_the_loopback_keeps_the_default_hosts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SITE_URL", raising=False)
    monkeypatch.delenv("DJANGO_ALLOWED_HOSTS", raising=False)
    assert site_environment(8000) == {"SITE_URL": "http://127.0.0.1:8000"}
    assert site_environment(8000, "127.0.0.1") == {"SITE_URL": "http://127.0.0.1:8000"}


def test_every_interface_names_the_network_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SITE_URL", raising=False)
    monkeypatch.delenv("DJANGO_ALLOWED_HOSTS", raising=False)
    monkeypatch.setattr(run_stack, "network_address", lambda: "192.168.1.23")
    monkeypatch.setattr(socket, "gethostname", lambda: "laptop")
    assert site_environment(8080, EVERYWHERE) == {
        "SITE_URL": "http://192.168.1.23:8080",
        "DJANGO_ALLOWED_HOSTS": "localhost,127.0.0.1,[::1],192.168.1.23,laptop,laptop.local",
    }
    # One address named: that one.
    assert site_environment(8080, "10.0.0.5")["DJANGO_ALLOWED_HOSTS"].endswith(",10.0.0.5")
    # What the developer set wins.
    monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", "club.lan")
    monkeypatch.setenv("SITE_URL", "http://club.lan:8080")
    assert site_environment(8080, EVERYWHERE) == {"SITE_URL": "http://club.lan:8080"}


def test_the_network_address_is_an_address() -> None:
    address = network_address()
    assert address.count(".") == 3 and all(part.isdigit() for part in address.split("."))


def fetch(url: str, host: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})  # noqa: S310
    try:
        # Long: the three processes start on a machine that may be busy with other work.
        with urllib.request.urlopen(request, timeout=20) as answer:  # noqa: S310
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, ""
    except OSError:
        return 0, ""


def test_the_stack_on_every_interface_answers_at_the_network_address(
    embedded_env: dict[str, str],  # noqa: F811
    tmp_path: Path,
) -> None:
    manage(embedded_env, "migrate", "--no-input")
    address, port = network_address(), embedded_env["PORT"]
    log = tmp_path / "stack.log"
    with log.open("w") as output:
        stack = subprocess.Popen(
            [sys.executable, "manage.py", "run_stack", "--host", EVERYWHERE, "--port", port],
            cwd=ROOT,
            env=embedded_env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        home = f"http://{address}:{port}/"
        assert wait_for(lambda: fetch(home)[0] == 200, timeout=240), log.read_text()
        assert wait_for(lambda: f"The club site is up: {home}" in log.read_text(), timeout=60)
        assert fetch(f"http://127.0.0.1:{port}/")[0] == 200  # this machine still
        assert fetch(home, host="evil.example")[0] == 400  # not any host at all
    finally:
        os.killpg(stack.pid, signal.SIGINT)
        stack.wait(timeout=60)
