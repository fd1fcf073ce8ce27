"""The house's arrows (docs/architecture.md, «The arrows») are import-linter's contracts in
pyproject.toml, which `make lint` runs (`lint-imports`). These tests hold the contracts to
the code: they pass on today's imports; every module of the four apps is in a room (a layer
of the contract) or is a door, so a new module cannot slip between them; and a backward
import, written relative or absolute, breaks them (a planted `from ..ratings import stats`
in the recordings' services passed the regular expressions this file held before).

The rules engines are also held here to the standard library alone, a list no contract can
name.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import grimp

ROOT = Path(__file__).resolve().parents[1]
APPS = (
    "accounts",
    "bot",
    "club",
    "games",
    "history",
    "leagues",
    "live",
    "notifications",
    "tournaments",
)
LINT_IMPORTS = str(Path(sys.executable).with_name("lint-imports"))
# Packages in no room that only hold their modules (`club`'s also loads the Celery app).
CONTAINERS = {
    "accounts",
    "club",
    "games",
    "notifications",
    "games.online",
    "games.recordings",
    "games.ratings",
    "history",
    "leagues",
    "live",
    "tournaments",
}


def contracts() -> dict[str, dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return {contract["id"]: contract for contract in config["contracts"]}


def rooms() -> list[set[str]]:
    """The layers of the rooms' contract, highest first, each as its set of modules."""
    return [
        {name.strip() for name in re.split(r"[:|]", layer)}
        for layer in contracts()["rooms"]["layers"]
    ]


def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*APPS, cache_dir=None)


def within(module: str, packages: set[str]) -> bool:
    return any(module == package or module.startswith(package + ".") for package in packages)


def test_the_contracts_hold() -> None:
    run = subprocess.run(
        [LINT_IMPORTS, "--no-cache", "--no-logo"], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Contracts: 8 kept, 0 broken." in run.stdout


def test_every_module_is_in_one_room_or_is_a_door() -> None:
    imports = graph()
    in_rooms = set().union(*rooms())
    assert set(contracts()["doors"]["source_modules"]) == in_rooms  # the two lists agree
    doors = {
        found
        for expression in contracts()["doors"]["forbidden_modules"]
        for found in (
            imports.find_matching_modules(expression) if "*" in expression else {expression}
        )
    }
    assert doors <= imports.modules, doors - imports.modules
    wrong = []
    for module in sorted(imports.modules):
        if ".migrations" in module or module in CONTAINERS:
            continue
        room, door = within(module, in_rooms), within(module, doors)
        if room == door:
            wrong.append(f"{module}: {'both a room and a door' if room else 'in no room'}")
    assert wrong == [], "\n".join(wrong)


def test_a_container_holds_no_code() -> None:
    """A package's __init__ in no room would import freely: only `club`'s has code."""
    for package in sorted(CONTAINERS - {"club"}):
        body = ast.parse((ROOT / package.replace(".", "/") / "__init__.py").read_text()).body
        assert all(isinstance(node, ast.Expr) for node in body), f"{package} has code"
    assert imports(ROOT / "club" / "__init__.py", "club") == {"club.celery", "club.celery.app"}


def planted(tmp_path: Path, path: str, line: str) -> subprocess.CompletedProcess[str]:
    """The contracts run over a copy of the apps with one import added to one module."""
    for app in APPS:
        shutil.copytree(ROOT / app, tmp_path / app, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    with (tmp_path / path).open("a") as module:
        module.write(f"\n{line}\n")
    return subprocess.run(
        [LINT_IMPORTS, "--no-cache", "--no-logo"], cwd=tmp_path, capture_output=True, text=True
    )


def test_a_relative_backward_import_breaks_the_rooms(tmp_path: Path) -> None:
    run = planted(tmp_path, "games/recordings/services.py", "from ..ratings import stats")
    assert run.returncode == 1
    assert "games.recordings.services -> games.ratings.stats" in run.stdout
    assert "Contracts: 6 kept, 2 broken." in run.stdout  # the rooms, and the siblings via stats


def test_a_room_importing_a_door_breaks_the_doors(tmp_path: Path) -> None:
    run = planted(tmp_path, "club/services.py", "from club.doors.responses import action_answer")
    assert run.returncode == 1
    assert "club.services -> club.doors.responses" in run.stdout
    assert "No room imports a door BROKEN" in run.stdout


def test_the_outbox_importing_the_bot_breaks_the_outbox(tmp_path: Path) -> None:
    """notifications/ is the outbox under the club; the bot (bot/) stands on the club. Even
    the outbox's own doors (its tasks) may not reach up into the bot."""
    run = planted(tmp_path, "notifications/tasks.py", "from bot.process import process_update")
    assert run.returncode == 1
    assert "notifications.tasks -> bot.process" in run.stdout
    assert "Contracts: 7 kept, 1 broken." in run.stdout


def test_a_bot_handler_importing_another_breaks_the_bot(tmp_path: Path) -> None:
    """The bot's handlers stand side by side on the chat they share, each alone."""
    run = planted(tmp_path, "bot/handlers/online.py", "from bot.handlers import evening")
    assert run.returncode == 1
    assert "bot.handlers.online -> bot.handlers.evening" in run.stdout
    assert "Contracts: 7 kept, 1 broken." in run.stdout


def test_the_engines_importing_django_break_the_rules(tmp_path: Path) -> None:
    run = planted(tmp_path, "games/rules/roles.py", "from django.conf import settings")
    assert run.returncode == 1
    assert "games.rules.roles -> django" in run.stdout


def test_the_seating_generator_importing_django_breaks_its_purity(tmp_path: Path) -> None:
    run = planted(tmp_path, "tournaments/seating/tally.py", "from django.conf import settings")
    assert run.returncode == 1
    assert "tournaments.seating.tally -> django" in run.stdout
    assert "Contracts: 7 kept, 1 broken." in run.stdout


def test_a_phase_importing_one_above_it_breaks_the_phases(tmp_path: Path) -> None:
    """An engine's end knows nothing of its vote (the vote ends in eliminations)."""
    run = planted(tmp_path, "games/rules/club/end.py", "from games.rules.club.vote import ClubVote")
    assert run.returncode == 1
    assert "games.rules.club.end -> games.rules.club.vote" in run.stdout
    assert "a phase builds on the phases below it BROKEN" in run.stdout


def imports(path: Path, module: str) -> set[str]:
    """Every module a file imports, relative imports resolved against its package."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - node.level + 1] if node.level else []
            prefix = ".".join([*base, node.module] if node.module else base)
            names.add(prefix)
            names |= {f"{prefix}.{alias.name}" for alias in node.names}
    return names


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def test_the_rules_engines_import_the_standard_library_alone() -> None:
    wrong = []
    for path in sorted((ROOT / "games" / "rules").rglob("*.py")):
        for imported in imports(path, module_name(path)):
            top = imported.split(".")[0]
            if imported.startswith("games.rules") or imported == "games":
                continue
            if top in APPS or top not in sys.stdlib_module_names:
                wrong.append(f"{module_name(path)} imports {imported}")
    assert wrong == [], "\n".join(wrong)


def test_relative_imports_are_resolved(tmp_path: Path) -> None:
    """The check above sees `from ..x import y` as the module it names."""
    package = tmp_path / "games" / "rules"
    package.mkdir(parents=True)
    (package / "club.py").write_text("from ..services import game_create\nfrom . import log\n")
    found = imports(package / "club.py", "games.rules.club")
    assert {"games.services", "games.services.game_create", "games.rules.log"} <= found


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
    known = graph().modules
    missing = [
        f"{path.name} imports {name}"
        for path in sorted((ROOT / "bench").glob("*.py"))
        for name in sorted(imported_modules(path))
        if name.split(".")[0] in APPS and name not in known
    ]
    assert missing == [], "\n".join(missing)
