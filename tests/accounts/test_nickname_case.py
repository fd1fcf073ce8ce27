"""Nicknames are one name in any letter case of any script, on PostgreSQL and on SQLite.

The hole it closes (#14): SQLite's LOWER() folds ASCII only, so on the embedded default
«ЛИСА» registered beside «Лиса» and «ВОРОН» could not log in as «Ворон».
"""

import subprocess
import sys

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from accounts.services import member_sign_up, refusal_fields
from club.kernel.errors import Refused
from tests.club.test_embedded_stack import ROOT, embedded_env  # noqa: F401
from tests.factories import PASSWORD, make_member

pytestmark = pytest.mark.django_db


def test_a_nickname_is_taken_in_any_letter_case() -> None:
    make_member(nickname="Лиса")
    with pytest.raises(Refused) as refused:
        member_sign_up(nickname="ЛИСА", birth_date=make_member().birth_date, password=PASSWORD)
    assert "nickname" in refusal_fields(refused.value)


@pytest.mark.parametrize("typed", ["ВОРОН", "ворон", " Ворон "])
def test_a_member_logs_in_in_any_letter_case(typed: str) -> None:
    make_member(nickname="Ворон")
    client = Client()
    client.post("/accounts/login/", {"username": typed, "password": PASSWORD})
    assert "_auth_user_id" in client.session


SQLITE_CHECK = """
from django.contrib.auth import authenticate
from club.kernel.errors import Refused
from accounts.services import member_sign_up, refusal_fields
from club.kernel.errors import Refused
from datetime import date
member_sign_up(nickname="Лиса", birth_date=date(1990, 1, 1), password="correct-horse-battery")
try:
    member_sign_up(nickname="ЛИСА", birth_date=date(1990, 1, 1), password="correct-horse-battery")
    print("both registered")
except Refused:
    print("refused")
print("login", authenticate(username="лИСА", password="correct-horse-battery") is not None)
"""


def test_on_sqlite_too(embedded_env: dict[str, str]) -> None:  # noqa: F811
    def manage(*args: str) -> str:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=embedded_env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout

    manage("migrate", "--no-input")
    out = manage("shell", "-c", SQLITE_CHECK)
    assert "refused" in out and "login True" in out


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_keys_and_reports_clashes() -> None:
    """From the schema before the key, with data in it."""
    executor = MigrationExecutor(connection)
    before = [("accounts", "0004_used_signature")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("accounts", "User")
    old.objects.create(nickname="Сова", birth_date="1990-01-01", password="!")
    # On PostgreSQL the old constraint (LOWER) already refused a Cyrillic clash; SQLite let
    # it through. The migration must say which members clash rather than fail obscurely:
    # drop the old constraint to plant one as SQLite would have.
    with connection.cursor() as cursor:
        cursor.execute("DROP INDEX accounts_user_nickname_ci_unique")
    clash = old.objects.create(nickname="СОВА", birth_date="1990-01-01", password="!")
    executor = MigrationExecutor(connection)
    with pytest.raises(Exception, match=r"«Сова» \(id \d+\) and «СОВА»"):
        executor.migrate([("accounts", "0005_nickname_key")])
    # Renamed, the migration goes through and keys every member.
    old.objects.filter(pk=clash.pk).update(nickname="Сова Вторая")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    from accounts.models import User

    assert set(User.objects.values_list("nickname_key", flat=True)) >= {"сова", "сова вторая"}
