"""The Russian catalogues (the pages' `django` and their scripts' `djangojs`) cover every UI
string, with no fuzzy entries, and the committed .mo files match the .po (gettext is not
needed to run the site, only to edit strings)."""

import gettext
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[1]
CATALOGUES = ROOT / "locale/ru/LC_MESSAGES"
DOMAINS = ["django", "djangojs"]
SOURCES = [
    "accounts",
    "bot",
    "club",
    "games",
    "history",
    "leagues",
    "live",
    "notifications",
    "tournaments",
    "templates",
    "static",
    "manage.py",
]


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_string_in_the_code_has_a_russian_translation(tmp_path: Path, domain: str) -> None:
    skipped = shutil.ignore_patterns("__pycache__", "vendor")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=skipped)
        else:
            shutil.copy(source, tmp_path / name)
    (tmp_path / "locale").mkdir()
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-d", domain, "--locale", "ru"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        env={
            "PATH": "/usr/bin:/bin",
            "DJANGO_SETTINGS_MODULE": "club.settings",
            "PYTHONPATH": str(tmp_path),
            "CLUB_VAR_DIR": str(tmp_path / "var"),
        },
    )
    fresh = tmp_path / f"locale/ru/LC_MESSAGES/{domain}.po"
    # msgcmp: every message the code uses must be translated in the committed catalogue.
    committed = CATALOGUES / f"{domain}.po"
    result = subprocess.run(["msgcmp", str(committed), str(fresh)], capture_output=True, text=True)
    assert result.returncode == 0, "Run `make messages` and translate:\n" + result.stderr


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_catalogue_has_no_fuzzy_or_untranslated_entries(domain: str) -> None:
    result = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(CATALOGUES / f"{domain}.po")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "fuzzy" not in result.stderr and "untranslated" not in result.stderr, result.stderr


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalogue_is_up_to_date(tmp_path: Path, domain: str) -> None:
    compiled = tmp_path / f"{domain}.mo"
    subprocess.run(["msgfmt", "-o", str(compiled), str(CATALOGUES / f"{domain}.po")], check=True)
    with (CATALOGUES / f"{domain}.mo").open("rb") as committed, compiled.open("rb") as fresh:
        # typeshed leaves out the private catalogue; comparing it is the point of the test.
        assert (
            gettext.GNUTranslations(committed)._catalog  # type: ignore[attr-defined]
            == gettext.GNUTranslations(fresh)._catalog  # type: ignore[attr-defined]
        )


@pytest.mark.django_db
def test_the_site_speaks_russian_unless_english_is_chosen(client: Client) -> None:
    page = client.get("/", headers={"accept-language": "en-US,en;q=0.9"}).content.decode()
    assert "Ближайшие вечера" in page  # the browser's language does not switch the site
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "Upcoming evenings" in client.get("/").content.decode()
