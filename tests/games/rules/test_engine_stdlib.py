"""The phone's engine runs on engine_stdlib.zip (tools/engine-stdlib.mjs, `make vendor`):
Pyodide's standard library cut to what its start and games/rules import, as bytecode. A
module games/rules starts to import must be in it, or the engine fails on the phone; the
build takes it in when `make vendor` runs again (it runs whenever games/rules changes)."""

from __future__ import annotations

import ast
import zipfile
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
STOCK = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
ENGINE = ROOT / "static" / "vendor" / "pyodide" / "engine_stdlib.zip"


def imported_by_the_rules() -> set[str]:
    """Every module named by an import anywhere in games/rules (at the top or in a body)."""
    names: set[str] = set()
    for path in (ROOT / "games" / "rules").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
    return {name for name in names if not name.startswith("games")}


def modules(archive: Path, suffix: str) -> set[str]:
    with zipfile.ZipFile(archive) as opened:
        files = [name for name in opened.namelist() if name.endswith(suffix)]
    return {name.removesuffix(suffix).removesuffix("/__init__").replace("/", ".") for name in files}


def test_every_module_the_rules_import_is_in_the_phones_library() -> None:
    assert ENGINE.exists(), "make vendor (it writes static/vendor/pyodide/engine_stdlib.zip)"
    sources = modules(STOCK, ".py")  # Pyodide's library in Python; the rest is built in
    kept = modules(ENGINE, ".pyc")
    wanted = {name for name in imported_by_the_rules() if name in sources}
    assert {"dataclasses", "json", "re", "random"} <= wanted, "the check reads the imports"
    assert sorted(wanted - kept) == [], "make vendor: the phone's library lacks them"


def test_the_engine_itself_is_in_it_as_bytecode() -> None:
    """Laid out as sys.pycache_prefix = "/pycache" reads them for /engine/games/rules (the
    worker, static/games/engine-worker.js); a file added since the last build is compiled
    on the phone, so only the engine's main modules are asked for here."""
    with zipfile.ZipFile(ENGINE) as opened:
        cached = set(opened.namelist())
    for module in ("__init__", "club/__init__", "club/state", "online/state", "table", "log"):
        assert f"pycache/engine/games/rules/{module}.cpython-314.pyc" in cached, module
