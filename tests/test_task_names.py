"""Every Celery task the code names by a string is a task the worker has.

A room low in the house queues a higher room's task by its name (club/kernel/queueing.py),
and beat names the sweeps in settings, so a typo or a renamed task is no import error: the
message waits in the broker for a task nobody runs. This reads every way the code names a
task: the first argument of `queue_on_commit`, `publish`, `send_task` and `signature`; a
`"task"` entry of a dict (beat's schedule); a lookup in the registry (`app.tasks["…"]`);
every string shaped like `<app>….tasks.<name>`, in code, comments, docstrings and the docs;
and beat's schedule as Django loaded it. Each must be registered by Celery's own discovery
over the installed apps.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.apps import apps
from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (
    "accounts",
    "bot",
    "club",
    "games",
    "leagues",
    "live",
    "notifications",
    "tournaments",
    "bench",
    "tests",
)
# The calls whose first argument is a task's name.
QUEUERS = {"queue_on_commit", "publish", "send_task", "signature", "Signature"}
# The one place a name passes through as a variable: the queueing helpers themselves.
PASS_THROUGH = Path("club/kernel/queueing.py")
TASK_PATH = re.compile(r"\b((?:accounts|club|games|leagues|notifications)(?:\.\w+)*\.tasks\.\w+)\b")


def registered() -> set[str]:
    from club.celery import app

    app.loader.autodiscover_tasks([config.name for config in apps.get_app_configs()])
    return set(app.tasks)


def _called(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def named_in(path: Path, text: str) -> list[tuple[str, str]]:
    """(name, where) for each task a Python file names; a name that is not a literal string
    is reported as such, since no test could check it."""
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    found = [(name, f"{where}: {name!r}") for name in TASK_PATH.findall(text)]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Call) and _called(node) in QUEUERS and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append((first.value, f"{where}:{node.lineno}"))
            elif where != PASS_THROUGH:
                found.append(("<not a literal>", f"{where}:{node.lineno}: {ast.unparse(first)}"))
        elif isinstance(node, ast.Subscript) and getattr(node.value, "attr", "") == "tasks":
            if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                found.append((node.slice.value, f"{where}:{node.lineno}"))
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "task":
                    name = value.value if isinstance(value, ast.Constant) else "<not a literal>"
                    found.append((str(name), f"{where}:{node.lineno}"))
    return found


def names_in_the_house() -> list[tuple[str, str]]:
    found = [
        pair
        for source in SOURCES
        for path in sorted((ROOT / source).rglob("*.py"))
        if "migrations" not in path.parts and path != Path(__file__)  # its planted typos
        for pair in named_in(path, path.read_text())
    ]
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        found += [(name, f"{path.name}: {name!r}") for name in TASK_PATH.findall(path.read_text())]
    found += [
        (str(entry["task"]), f"CELERY_BEAT_SCHEDULE[{key!r}]")
        for key, entry in settings.CELERY_BEAT_SCHEDULE.items()
    ]
    return found


def unknown(found: list[tuple[str, str]], tasks: set[str]) -> dict[str, list[str]]:
    """Each name that is no registered task, with where it is written."""
    wrong: dict[str, list[str]] = {}
    for name, where in found:
        if name not in tasks:
            wrong.setdefault(name, []).append(where)
    return wrong


def test_every_task_named_by_a_string_is_registered() -> None:
    found = names_in_the_house()
    assert unknown(found, registered()) == {}
    # What it reads: beat's sweeps and the hooks of docs/architecture.md among them.
    names = {name for name, _ in found}
    assert {"club.tasks.schedule_sweep", "games.ratings.tasks.game_analyse"} <= names
    assert "notifications.tasks.notification_send" in names


def test_a_misspelt_or_computed_name_is_caught(tmp_path: Path) -> None:
    planted = tmp_path / "services.py"
    planted.write_text(
        "queue_on_commit('games.ratings.tasks.game_analyze', 1)\n"
        "queueing.publish(f'club.tasks.{name}')\n"
        "app.send_task('notifications.tasks.notification_sned')\n"
        "app.tasks['games.recordings.tasks.recording_analyze'].delay(1)\n"
        "BEAT = {'sweep': {'task': 'club.tasks.schedule_swep'}}\n"
        "# the hook is club.tasks.lineup_sinc\n"
    )
    wrong = unknown(named_in(planted, planted.read_text()), registered())
    assert set(wrong) == {
        "games.ratings.tasks.game_analyze",
        "<not a literal>",
        "notifications.tasks.notification_sned",
        "club.tasks.schedule_swep",
        "club.tasks.lineup_sinc",
        "games.recordings.tasks.recording_analyze",
    }
