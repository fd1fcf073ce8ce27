"""A fresh machine builds nothing to run the site: every package `make run` installs
(uv.lock's closure of pyproject.toml's dependencies, without the dev group or the extras)
comes as a built wheel for CPython 3.13 on Linux, x86_64 and aarch64. PyICU from its source
took 366 s of a newcomer's first `make run` (428 s), behind one silent «Building pyicu» line,
and needed ICU's headers and a C++ compiler; pyicu-wheels brings the same PyICU with ICU
inside (accounts/lookalikes.py)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from packaging.markers import Marker
from packaging.tags import parse_tag

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURES = ("x86_64", "aarch64")

# uv.lock's tables as TOML reads them.
Lock = dict[str, list[dict[str, Any]]]


def read_lock(text: str) -> Lock:
    """uv.lock's packages by name (a name may have several versions, by platform)."""
    packages: Lock = {}
    for package in tomllib.loads(text)["package"]:
        packages.setdefault(package["name"], []).append(package)
    return packages


def linux(architecture: str) -> dict[str, str]:
    """The marker environment of CPython 3.13 on Linux on `architecture`."""
    return {
        "sys_platform": "linux",
        "platform_system": "Linux",
        "os_name": "posix",
        "platform_machine": architecture,
        "python_version": "3.13",
        "python_full_version": "3.13.0",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "extra": "",
    }


def installed(lock: Lock, architecture: str, root: str = "mafia-club") -> set[str]:
    """The packages `uv sync --no-dev` installs on Linux on `architecture`: the closure of
    the project's dependencies, each with the extras asked for, markers evaluated (the
    overrides that keep torch and its kin out are markers that never hold)."""
    seen: set[tuple[str, tuple[str, ...]]] = set()
    todo: list[tuple[str, tuple[str, ...]]] = [(root, ())]
    while todo:
        name, extras = todo.pop()
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        for package in lock[name]:
            needs = list(package.get("dependencies", []))
            for extra in extras:
                needs += package.get("optional-dependencies", {}).get(extra, [])
            for need in needs:
                marker = need.get("marker")
                if marker is None or Marker(marker).evaluate(linux(architecture)):
                    todo.append((need["name"], tuple(need.get("extra", ()))))
    return {name for name, _extras in seen} - {root}


def fits(wheel_url: str, architecture: str) -> bool:
    """Whether the wheel installs on CPython 3.13 on glibc Linux on `architecture`."""
    name = wheel_url.rsplit("/", 1)[-1].removesuffix(".whl")
    for tag in parse_tag("-".join(name.split("-")[-3:])):
        if tag.platform == "any" and tag.interpreter.startswith("py3"):
            return True
        python = tag.interpreter in ("cp313", "py3") or tag.abi == "abi3"
        on_linux = tag.platform.startswith("manylinux") and tag.platform.endswith(architecture)
        if python and on_linux:
            return True
    return False


def built_from_source(lock: Lock, architecture: str) -> list[str]:
    """The packages that `make run` would build on the machine: no wheel fits."""
    return sorted(
        name
        for name in installed(lock, architecture)
        if not any(
            fits(wheel["url"], architecture)
            for package in lock[name]
            for wheel in package.get("wheels", [])
        )
    )


@pytest.mark.parametrize("architecture", ARCHITECTURES)
def test_every_package_make_run_installs_comes_built(architecture: str) -> None:
    lock = read_lock((ROOT / "uv.lock").read_text())
    assert built_from_source(lock, architecture) == []
    assert {"django", "pyicu-wheels", "onnxruntime"} <= installed(lock, architecture)
    assert "torch" not in installed(lock, architecture)  # an override keeps it out


def test_a_package_with_only_its_source_is_caught() -> None:
    """The lock as it was with PyICU: a source archive and no wheel."""
    lock = read_lock(
        """
[[package]]
name = "mafia-club"
version = "0.1.0"
source = { virtual = "." }
dependencies = [
    { name = "pyicu" },
    { name = "tzdata", marker = "sys_platform == 'win32'" },
    { name = "psycopg", extra = ["binary"] },
]

[[package]]
name = "pyicu"
version = "2.17"
source = { registry = "https://pypi.org/simple" }
sdist = { url = "pyicu-2.17.tar.gz" }

[[package]]
name = "tzdata"
version = "2025.1"
source = { registry = "https://pypi.org/simple" }
sdist = { url = "tzdata-2025.1.tar.gz" }

[[package]]
name = "psycopg"
version = "3.2.0"
source = { registry = "https://pypi.org/simple" }
wheels = [{ url = "psycopg-3.2.0-py3-none-any.whl" }]

[package.optional-dependencies]
binary = [{ name = "psycopg-binary" }]

[[package]]
name = "psycopg-binary"
version = "3.2.0"
source = { registry = "https://pypi.org/simple" }
wheels = [
    { url = "psycopg_binary-3.2.0-cp313-cp313-manylinux_2_17_x86_64.manylinux2014_x86_64.whl" },
    { url = "psycopg_binary-3.2.0-cp313-cp313-macosx_11_0_arm64.whl" },
]
"""
    )
    assert built_from_source(lock, "x86_64") == ["pyicu"]
    assert built_from_source(lock, "aarch64") == ["psycopg-binary", "pyicu"]
