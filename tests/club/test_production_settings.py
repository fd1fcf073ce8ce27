"""DJANGO_ENV=production: refuses to start without its secrets, and passes check --deploy."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "DJANGO_ENV": "production",
    "DJANGO_SECRET_KEY": "p7$Hq2vN!x9Lr4Zt8Kw#Bm3Yc6Jd1Fg5Sa0Ue-Ri+Oh=Pl_Tk^Vn&Xb*Qz(My)Ws",
    "DJANGO_ALLOWED_HOSTS": "club.example.org",
    "DATABASE_URL": os.environ["DATABASE_URL"],
    "CELERY_BROKER_URL": os.environ["CELERY_BROKER_URL"],
}


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_with_no_warnings(db: None) -> None:
    # The model checks ask the server its version: point them at the test database.
    test_database = connection.settings_dict["NAME"]
    database_url = PRODUCTION_ENV["DATABASE_URL"].rsplit("/", 1)[0] + "/" + test_database
    env = {**PRODUCTION_ENV, "DATABASE_URL": database_url}
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize("missing", ["DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DATABASE_URL"])
def test_production_refuses_to_start_without(missing: str) -> None:
    env = {**PRODUCTION_ENV, missing: ""}
    result = manage("check", env=env)
    assert result.returncode != 0
    assert f"{missing} must be set when DJANGO_ENV=production" in result.stderr
