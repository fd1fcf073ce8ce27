"""The house's arrows point one way (docs/architecture.md): a module imports only rooms at
its own level or below; the online game and the recordings, side by side, never import
each other; the rules engines import nothing but the standard library and each other.

It reads every first-party module's imports with `ast` (top-level and inside functions
alike), so a backwards import fails here, not in a review.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("accounts", "club", "games", "notifications")

# Doors and wiring: views, API routers, admin, tasks, URLs, forms, template tags, commands,
# the bot, the project's wiring. They may import any room.
DOORS = re.compile(
    r"(\.(views|api|admin|tasks|urls|forms|apps)$|\.(management|templatetags)(\.|$)"
    r"|^notifications\.bot"
    r"|^club\.doors(\.|$)|^club\.(api_evenings|wsgi|asgi|urls)$|^notifications\.views$|^games\.host_screen$|^accounts\.miniapp$)"
)
# The rooms, lowest first.
LEVELS: list[tuple[str, re.Pattern[str]]] = [
    ("rules", re.compile(r"^games\.rules(\.|$)")),
    (
        "kernel",
        re.compile(r"^club\.kernel(\.|$)|^club\.(celery|settings)$|^club$"),
    ),
    ("accounts", re.compile(r"^accounts(\.|$)")),
    ("outbox", re.compile(r"^notifications(\.|$)")),
    ("club", re.compile(r"^club(\.|$)")),
    ("games", re.compile(r"^games(\.(models|services|queries|access|timeline|rules_text))?$")),
    ("online", re.compile(r"^games\.online(\.|$)")),
    ("recordings", re.compile(r"^games\.recordings(\.|$)")),
    ("ratings", re.compile(r"^games\.ratings(\.|$)")),
]
RANK = {
    "rules": 0,
    "kernel": 1,
    "accounts": 2,
    "outbox": 3,
    "club": 4,
    "games": 5,
    "online": 6,
    "recordings": 6,
    "ratings": 7,
}
SIBLINGS = {"online", "recordings"}


def room_of(module: str) -> str:
    if DOORS.search(module):
        return "doors"
    for name, pattern in LEVELS:
        if pattern.search(module):
            return name
    raise AssertionError(f"{module} is in no room: add it to LEVELS or DOORS")


def modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def first_party(name: str, known: dict[str, Path]) -> str | None:
    """The first-party module an imported name is (or lives in), if any."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def test_every_import_points_down_or_sideways_within_a_room() -> None:
    known = modules()
    wrong: set[str] = set()
    for module, path in sorted(known.items()):
        here = room_of(module)
        for imported in sorted(imports(path)):
            target = first_party(imported, known)
            if target is None or target == module:
                continue
            there = room_of(target)
            if here == "doors":
                continue
            if there == "doors":
                wrong.add(f"{module} ({here}) imports the door {target}")
            elif RANK[there] > RANK[here]:
                wrong.add(f"{module} ({here}) imports {target} ({there}), a room above it")
            elif here != there and {here, there} <= SIBLINGS:
                wrong.add(f"{module} ({here}) imports its sibling room {target} ({there})")
    assert not wrong, "\n".join(sorted(wrong))


def test_the_rules_engines_import_no_django_and_nothing_of_the_site() -> None:
    known = modules()
    wrong = []
    for module, path in known.items():
        if room_of(module) != "rules":
            continue
        for imported in imports(path):
            top = imported.split(".")[0]
            if imported.startswith("games.rules") or imported == "games" or top == "__future__":
                continue
            if top in APPS or top not in sys.stdlib_module_names:
                wrong.append(f"{module} imports {imported}")
    assert wrong == [], "\n".join(wrong)


def test_the_checker_sees_a_backwards_import(tmp_path: Path) -> None:
    """The test itself can fail: a service of accounts importing games is caught."""
    path = tmp_path / "services.py"
    path.write_text("from games.services import game_create\n")
    target = first_party("games.services.game_create", modules())
    assert target == "games.services"
    assert RANK[room_of(target)] > RANK[room_of("accounts.services")]
    assert "games.services.game_create" in imports(path)


# Imports written inside strings: the benchmarks' child processes run such code.
_QUOTED_IMPORT = re.compile(r"^\s*from ((?:accounts|club|games|notifications)[\w.]*) import", re.M)


def imported_modules(path: Path) -> set[str]:
    """The modules named by `import m` and `from m import x`, and by such lines quoted."""
    text = path.read_text()
    names = set(_QUOTED_IMPORT.findall(text))
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_the_benchmarks_import_modules_that_exist() -> None:
    """bench/ is not imported by the suite, so a moved module would break it unseen."""
    known = modules()
    missing = [
        f"{path.name} imports {name}"
        for path in sorted((ROOT / "bench").glob("*.py"))
        for name in sorted(imported_modules(path))
        if name.split(".")[0] in APPS and name not in known
    ]
    assert missing == [], "\n".join(missing)
