"""The Russian catalogue covers every UI string, with no fuzzy entries, and the committed
.mo file matches the .po (gettext is not needed to run the site, only to edit strings)."""

import gettext
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PO = ROOT / "locale/ru/LC_MESSAGES/django.po"
MO = ROOT / "locale/ru/LC_MESSAGES/django.mo"
SOURCES = ["accounts", "club", "games", "notifications", "templates", "manage.py"]


def test_every_string_in_the_code_has_a_russian_translation(tmp_path: Path) -> None:
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / name)
    (tmp_path / "locale").mkdir()
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "--locale", "ru"],
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
    fresh = tmp_path / "locale/ru/LC_MESSAGES/django.po"
    # msgcmp: every message the code uses must be translated in the committed catalogue.
    result = subprocess.run(["msgcmp", str(PO), str(fresh)], capture_output=True, text=True)
    assert result.returncode == 0, "Run `make messages` and translate:\n" + result.stderr


def test_the_catalogue_has_no_fuzzy_or_untranslated_entries() -> None:
    result = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(PO)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "fuzzy" not in result.stderr and "untranslated" not in result.stderr, result.stderr


def test_the_compiled_catalogue_is_up_to_date(tmp_path: Path) -> None:
    compiled = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "-o", str(compiled), str(PO)], check=True)
    with MO.open("rb") as committed, compiled.open("rb") as fresh:
        assert (
            gettext.GNUTranslations(committed)._catalog == gettext.GNUTranslations(fresh)._catalog
        )


@pytest.mark.django_db
def test_the_site_speaks_russian_unless_english_is_chosen(client) -> None:
    page = client.get("/", headers={"accept-language": "en-US,en;q=0.9"}).content.decode()
    assert "Ближайшие вечера" in page  # the browser's language does not switch the site
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "Upcoming evenings" in client.get("/").content.decode()
