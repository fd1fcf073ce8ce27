"""Every file the docs and the code's comments cite is in the repository.

A moved or renamed module leaves its old path in the comments and docs that pointed the
reader to it (docs/scoring.md still sent them to the games folder for the analysis after it
moved into games/ratings/). This reads
README.md and docs/*.md whole, the comments and docstrings of every Python file, and the
project's other text files (pyproject.toml, the Makefile, CI's script, the pages' scripts
and styles, the templates), finds each path under one of the repository's folders, and
checks it: a file or folder that exists; `module.name` (`club/models.Evening`) for a name
the module holds; a glob (`static/club/icon-*.png`, `bench/<name>.py`) that matches. A
template or a static file is also named as Django finds it, under templates/ or static/
(`{% include "club/_seats.html" %}`, `{% static "club/club.css" %}`).

static/vendor/ is not in the repository: `make vendor` writes it from node_modules (git
ignores it). A path under it is checked against what the Makefile's vendor recipe makes (its
targets and what it copies in), so the check passes on a fresh clone before `make vendor`
and still catches a vendored file the Makefile does not make.
"""

from __future__ import annotations

import ast
import fnmatch
import io
import re
import subprocess
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS: tuple[str, ...] = (
    "accounts",
    "bot",
    "club",
    "games",
    "leagues",
    "live",
    "notifications",
    "tournaments",
    "docs",
    "bench",
    "tests",
)
FOLDERS += ("static", "templates", "locale", ".ci")
CITED = re.compile(
    r"(?<![\w./@-])((?:" + "|".join(re.escape(f) for f in FOLDERS) + r")/[\w./*<>-]*[\w*>])"
)
# Read whole: what is not Python is read as it is written, comments and all.
WHOLE = (".md", ".toml", ".js", ".mjs", ".ts", ".css", ".html", ".json", ".sh")
WHOLE_NAMES = ("Makefile", "run")
# A placeholder in a cited path stands for any name: bench/<name>.py, bench/NAME.py.
PLACEHOLDER = re.compile(r"<[^/>]+>|\b[A-Z]{2,}\b(?=[./]|$)")
# Where a path is looked for: the repository, and Django's roots of templates and statics.
ROOTS = (ROOT, ROOT / "templates", ROOT / "static")
VENDOR = "static/vendor/"


def made_by_make_vendor(makefile: Path = ROOT / "Makefile") -> frozenset[str]:
    """The files and folders under static/vendor/ that `make vendor` makes: the paths its
    variables name (`VENDOR := …`, `ENGINE_STDLIB := …`) and each file a `cp` copies into a
    static/vendor/ folder, with every folder above them."""
    lines = makefile.read_text().replace("\\\n", " ").splitlines()
    made: set[str] = set()
    for line in lines:
        words = line.split()
        if len(words) > 2 and words[1] == ":=":
            made.update(word for word in words[2:] if word.startswith(VENDOR))
        elif words[:1] == ["cp"] and words[-1].startswith(VENDOR) and words[-1].endswith("/"):
            made.update(words[-1] + Path(source).name for source in words[1:-1])
    for path in list(made):
        folder = path
        while "/" in folder.rstrip("/"):
            folder = folder.rpartition("/")[0]
            made.add(folder)
    return frozenset(made - {"static"})


def tracked() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    return [
        ROOT / name
        for name in listed
        if name and not name.startswith(("static/vendor/", "locale/")) and (ROOT / name).is_file()
    ]


def comments_and_docstrings(text: str) -> str:
    """What a Python file says to its reader: its comments and docstrings."""
    said = [
        token.string
        for token in tokenize.generate_tokens(io.StringIO(text).readline)
        if token.type == tokenize.COMMENT
    ]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            said.append(ast.get_docstring(node, clean=False) or "")
    return "\n".join(said)


def prose(path: Path) -> str | None:
    if path.suffix == ".py":
        return comments_and_docstrings(path.read_text())
    if path.suffix in WHOLE or path.name in WHOLE_NAMES:
        return path.read_text()
    return None


def holds(module: Path, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", module.read_text()) is not None


def problem(cited: str) -> str | None:
    """Why a cited path names nothing in the repository, or None when it names something."""
    cited = cited.rstrip(".")
    pattern = PLACEHOLDER.sub("*", cited)
    vendored = made_by_make_vendor() if cited.startswith(VENDOR.rstrip("/")) else frozenset()
    if "*" in pattern:
        if any(any(root.glob(pattern)) for root in ROOTS) or fnmatch.filter(vendored, pattern):
            return None
        return "matches no file"
    if any((root / cited).exists() for root in ROOTS) or cited.rstrip("/") in vendored:
        return None
    if vendored:
        return "no such file, and `make vendor` (the Makefile) makes none"
    folder, _, last = cited.rpartition("/")
    module, dot, name = last.partition(".")
    if dot and (ROOT / folder / f"{module}.py").is_file():  # club/models.Evening.signup_refusal
        if holds(ROOT / folder / f"{module}.py", name.split(".")[0]):
            return None
        return f"{folder}/{module}.py holds no {name.split('.')[0]}"
    return "no such file"


def stale(files: list[Path]) -> list[str]:
    found = []
    for path in files:
        text = prose(path)
        for cited in sorted(set(CITED.findall(text or ""))):
            why = problem(cited)
            if why:
                where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
                found.append(f"{where} cites {cited}: {why}")
    return found


def test_every_cited_path_exists() -> None:
    assert stale(tracked()) == [], "\n".join(stale(tracked()))


def test_a_stale_path_is_caught(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text(
        '"""Built by games/analysis.py (docs/scoring.md)."""\n'
        "# The rule is club/models.Evening.signup_refusal; the sweep club/models.sweep_all.\n"
        "# Icons: static/club/icon-*.png; bench/<name>.py; and static/club/nothing-*.svg.\n"
        "path = 'games/not_cited_in_code.py'  # code is not prose\n"
    )
    wrong = [line.split(" cites ")[1] for line in stale([planted])]
    assert wrong == [
        "club/models.sweep_all: club/models.py holds no sweep_all",
        "games/analysis.py: no such file",
        "static/club/nothing-*.svg: matches no file",
    ]


def test_what_make_vendor_makes_is_cited_before_it_runs(tmp_path: Path) -> None:
    planted = tmp_path / "Makefile"
    planted.write_text(
        "VENDOR := static/vendor/htmx/htmx.min.js \\\n\tstatic/vendor/pico/pico.min.css\n"
        "$(VENDOR):\n"
        "\tcp node_modules/pyodide/pyodide.mjs \\\n"
        "\t   node_modules/x/y.json static/vendor/pyodide/\n"
        "\tcp node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx/\n"
    )
    assert made_by_make_vendor(planted) == {
        "static/vendor",
        "static/vendor/htmx",
        "static/vendor/htmx/htmx.min.js",
        "static/vendor/pico",
        "static/vendor/pico/pico.min.css",
        "static/vendor/pyodide",
        "static/vendor/pyodide/pyodide.mjs",
        "static/vendor/pyodide/y.json",
    }
    # The repository's Makefile, whether or not static/vendor/ is there yet.
    assert problem("static/vendor/pyodide/engine_stdlib.zip") is None
    assert problem("static/vendor/pyodide/pyodide-lock.json") is None
    assert problem("static/vendor/*") is None
    assert problem("static/vendor/htmx/htmx.js") == (
        "no such file, and `make vendor` (the Makefile) makes none"
    )
