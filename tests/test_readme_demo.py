"""The README's demo, as a newcomer meets it: `make run`'s own commands (read from the
Makefile) on a clean database, then everything the README's demo section promises, checked
over HTTP against the running stack: the logins of its table, next Sunday's evening open for
sign-up, last week's analysed game on its page, the leaderboard and the players' pages, and
the online game among the ten members it names, starting two minutes after the demo."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import subprocess
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator

import pytest

from tests.club.test_embedded_stack import ROOT, embedded_env, healthz  # noqa: F401
from tests.waiting import wait_for

README = (ROOT / "README.md").read_text()
MAKEFILE = (ROOT / "Makefile").read_text()


def run_commands() -> list[list[str]]:
    """The manage.py commands of `make run`'s recipe, in order."""
    recipe = MAKEFILE.split("\nrun: install\n", 1)[1].split("\n\n", 1)[0]
    commands = []
    for line in recipe.splitlines():
        words = line.split("python manage.py ", 1)[1].split()
        words = [word.replace("$(PORT)", "{port}").replace("$(HOST)", "{host}") for word in words]
        commands.append(words)
    return commands


def found(pattern: str, text: str) -> str:
    """The first group of `pattern`'s first match in `text`, which must have one."""
    match = re.search(pattern, text)
    assert match is not None, f"{pattern!r} is not found"
    return match.group(1)


def demo_logins() -> list[tuple[str, str, str]]:
    """(who, nickname, password) from the README's table of demo logins."""
    rows = re.findall(
        r"^\| ([^|]+) \| `([^`]+)`(?:, `[^`]+`)*(?:, …)? \| `([^`]+)` \|$", README, re.M
    )
    return [(who.strip(), nick, password) for who, nick, password in rows]


class Browser:
    """A visitor of the running site: cookies kept, forms posted with their CSRF token."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.jar.set_cookie(self._cookie("django_language", "ru"))

    def _cookie(self, name: str, value: str) -> http.cookiejar.Cookie:
        return http.cookiejar.Cookie(
            0, name, value, None, False, "127.0.0.1", False, False, "/", True, False, None,
            True, None, None, {},
        )  # fmt: skip

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=20) as response:
            return str(response.read().decode())

    def log_in(self, nickname: str, password: str) -> str:
        self.get("/accounts/login/")
        token = next(c.value for c in self.jar if c.name == "csrftoken")
        body = urllib.parse.urlencode(
            {"username": nickname, "password": password, "csrfmiddlewaretoken": token}
        ).encode()
        request = urllib.request.Request(  # noqa: S310 (the test's own http:// site)
            self.base + "/accounts/login/", body, headers={"Referer": self.base + "/"}
        )
        with self.opener.open(request, timeout=20) as response:
            return str(response.read().decode())


@pytest.fixture
def demo_site(embedded_env: dict[str, str]) -> Iterator[str]:  # noqa: F811
    """`make run`'s commands, the last (the stack) left running until the test ends."""
    *setup, stack_command = run_commands()
    port = embedded_env["PORT"]
    for command in setup:
        subprocess.run(
            [sys.executable, "manage.py", *command], cwd=ROOT, env=embedded_env, check=True,
            capture_output=True, timeout=180,
        )  # fmt: skip
    stack = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            *(word.format(port=port, host="127.0.0.1") for word in stack_command),
        ],
        cwd=ROOT,
        env=embedded_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        assert wait_for(lambda: healthz(port), timeout=90), "the site did not start"
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(stack.pid, signal.SIGINT)
        stack.wait(timeout=60)


def test_the_readme_demo_is_what_make_run_gives(demo_site: str) -> None:
    assert [command[0] for command in run_commands()] == ["migrate", "demo_data", "run_stack"]
    logins = demo_logins()
    assert [who.split()[0] for who, _nick, _pw in logins] == ["admin", "host", "20"]

    for who, nickname, password in logins:
        home = Browser(demo_site).log_in(nickname, password)
        assert "Выйти" in home, f"{who} ({nickname}) cannot log in with {password}"
    admin = Browser(demo_site)
    admin.log_in("admin", "admin-demo")
    assert "Данные клуба" in admin.get("/admin/")

    # Next Sunday's evening, open for sign-up; last week's game, analysed, on every page.
    visitor = Browser(demo_site)
    home = visitor.get("/")
    assert re.search(r"<h3>Воскресенье, \d+ \w+</h3>\s*<p>18:00", home)
    assert "запись открыта" in home
    # Last week's game: the tournament's games are today's, listed before it.
    game_path = re.findall(r'<a href="(/games/\d+/)">\d+ \w+ · Игра 1</a>', home)[-1]
    game = visitor.get(game_path)
    assert "Победитель: красные (город)" in game and "Разбор" in game
    board = visitor.get("/leaderboard/")
    player_path = found(r'<a href="(/players/\d+/)"', board)
    assert "Лучшие игры" in visitor.get(player_path)

    # The online game: the ten members the README names sit at it, and it starts two
    # minutes after the demo was loaded.
    named = found(r"an online game among the first ten members \(([^)]*)\)", README)
    members = [" ".join(name.split()) for name in named.split(",")]
    assert len(members) == 10
    player = Browser(demo_site)
    player.log_in(members[-1], "mafia-demo")
    online = player.get("/online/")
    online_path = found(r'<a href="(/online/\d+/)">', online)
    table = player.get(online_path)
    for name in members:
        assert name in table, f"{name} is not at the demo's online game"
    outsider = Browser(demo_site)
    outsider.log_in("Рыжая", "mafia-demo")  # the eleventh member: not at the table
    assert "/online/" + online_path.split("/")[2] not in outsider.get("/online/")
    assert re.search(r"Начало \d+ \w+, \d\d:\d\d", table)

    # The club's Telegram app without a bot: the developer page the README names lists
    # the demo members and opens /tg/ with a signed launch in Telegram's colours.
    assert "http://127.0.0.1:8000/dev/tg/" in README
    developer = visitor.get("/dev/tg/")
    assert "Открыть приложение клуба" in developer and "Ворон" in developer
    assert 'value="light"' in developer and 'value="dark"' in developer


def test_the_makefile_recipe_is_read_as_written() -> None:
    assert run_commands() == [
        ["migrate", "--no-input"],
        ["demo_data"],
        ["run_stack", "--host", "{host}", "--port", "{port}"],
    ]
    assert ("admin", "admin", "admin-demo") in [
        (who.split()[0], nick, pw) for who, nick, pw in demo_logins()
    ]


def test_the_embedded_stack_links_to_the_port_it_runs_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from club.management.commands.run_stack import site_environment

    monkeypatch.delenv("SITE_URL", raising=False)
    assert site_environment(8080) == {"SITE_URL": "http://127.0.0.1:8080"}
    monkeypatch.setenv("SITE_URL", "https://club.example")
    assert site_environment(8080) == {"SITE_URL": "https://club.example"}
