"""No step of `make run` is silent for more than 10 s (the first run on a fresh machine once
sat 366 s behind one «Building pyicu» line, and a newcomer took it for a hang): every step
that downloads, builds or fills the database runs through tools/progress.py, which names
the step, passes its output on and says it is still working after a quiet spell."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAKEFILE = (ROOT / "Makefile").read_text()
# The targets `make run` goes through on a fresh machine.
RUN_TARGETS = ("var/tools/bin/uv", "install", "$(NODE_MODULES)", "$(VENDOR)", "$(ENGINE_STDLIB)",
               "run")  # fmt: skip
# Recipe lines that take no time to speak of: files copied and folders made.
QUICK = ("rm ", "mkdir ", "cp ", "touch ")
# What takes long on a fresh machine (downloads, the engine's build, the database).
LONG = ("pip install", "uv sync", "npm ci", "tools/engine-stdlib.mjs", "manage.py migrate",
        "manage.py demo_data")  # fmt: skip


def progress(what: str, *command: str, every: str = "8") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "tools/progress.py", what, *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "PROGRESS_EVERY": every},
        check=False,
        timeout=60,
    )


def test_a_quiet_step_says_it_is_still_working() -> None:
    done = progress("Sleeping", "sleep", "1.5", every="0.2")
    lines = done.stdout.splitlines()
    assert lines[0] == "==> Sleeping"
    assert re.fullmatch(r"Sleeping: still working, \d+ s", lines[1])
    assert re.fullmatch(r"Sleeping: done in \d+ s", lines[-1])
    assert done.returncode == 0


def test_the_steps_output_is_passed_on_and_its_failure_too() -> None:
    done = progress("Failing", "sh", "-c", "echo one; echo two >&2; exit 3")
    assert done.stdout.splitlines() == [
        "==> Failing",
        "one",
        "two",
        "Failing: failed (exit 3) after 0 s",
    ]
    assert done.returncode == 3  # make stops on it


def recipe(target: str) -> list[str]:
    """The target's recipe lines in the Makefile, continuation lines joined."""
    body = MAKEFILE.split(f"\n{target}:", 1)[1].split("\n", 1)[1]
    lines: list[str] = []
    for line in body.splitlines():
        if not line.startswith("\t"):
            break
        if lines and lines[-1].endswith("\\"):
            lines[-1] = lines[-1][:-1] + line.strip()
        else:
            lines.append(line.strip())
    return lines


def test_every_long_step_of_make_run_says_it_is_alive() -> None:
    steps = [line for target in RUN_TARGETS for line in recipe(target)]
    assert len(steps) >= 10
    talking = [line for line in steps if line.startswith("@$(PROGRESS) ")]
    for step in LONG:
        assert any(step in line for line in talking), step
    # The rest copies files, or is the stack, which prints every process's lines itself.
    for line in steps:
        if line not in talking:
            assert line.startswith(QUICK) or " run_stack " in line, line
