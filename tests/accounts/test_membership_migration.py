"""The migration that gives every member of the single club its membership: standing and
consent as they were, staff as club admins, the hosts' group as hosts."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from club.kernel import tenancy

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("accounts", "0011_user_language"), ("club", "0022_club_key")]
AFTER = [("accounts", "0012_membership")]


def _migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture(autouse=True)
def _clubs_read_afresh() -> Iterator[None]:
    yield
    # The schema the other tests run on, whatever this test left (every app's latest).
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    # The flush after this test removes the first club: the next test must not go on
    # with its id as this process last read it.
    tenancy.clubs_changed()


def test_members_get_the_first_clubs_membership_and_back() -> None:
    old = _migrate(BEFORE)
    user_model = old.get_model("accounts", "User")
    # A transactional test's flush may have emptied what the data migrations made.
    kind, _new = old.get_model("contenttypes", "ContentType").objects.get_or_create(
        app_label="accounts", model="user"
    )
    permission, _new = old.get_model("auth", "Permission").objects.get_or_create(
        content_type=kind, codename="host_games", defaults={"name": "Can host and record games"}
    )
    group, _new = old.get_model("auth", "Group").objects.get_or_create(name="Ведущие")
    group.permissions.add(permission)

    def make(nickname: str, **fields: Any) -> int:
        return int(
            user_model.objects.create(
                nickname=nickname, birth_date="1990-01-01", email=f"{nickname}@x.org", **fields
            ).pk
        )

    plain = make("plain", publication_consent=False)
    banned = make("banned", status="banned", status_reason="cheating")
    staff = make("staff", is_staff=True)
    host = make("host")
    user_model.objects.get(pk=host).groups.add(group)
    new = _migrate(AFTER)
    club = new.get_model("club", "Club").objects.order_by("pk").first()
    rows = {m.user_id: m for m in new.get_model("accounts", "Membership").objects.filter(club=club)}
    assert rows[plain].role == "member" and rows[plain].publication_consent is False
    assert rows[banned].status == "banned" and rows[banned].status_reason == "cheating"
    assert rows[staff].role == "admin"
    assert rows[host].role == "host"
    membership = new.get_model("accounts", "Membership")
    membership.objects.filter(user_id=plain).update(publication_consent=True)
    back = _migrate(BEFORE)
    assert back.get_model("accounts", "User").objects.get(pk=plain).publication_consent is True
    _migrate(AFTER)
