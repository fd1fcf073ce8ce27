"""One evening of the club at one start (issue 37, «a duplicate evening»): on a Sunday
before 18:00 the admin's «Добавить вечер» offered the evening that existed, and saving
made a second one. The database holds the rule; every door that makes or moves an evening
refuses a taken start with the same refusal, the admin's with a link to the evening there;
a cancelled evening frees its start."""

import importlib
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.apps import apps
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from accounts.services import api_token_create
from club import scheduling, services
from club.kernel.errors import RefusalCode, Refused
from club.models import ONE_EVENING_PER_START, Evening, EveningStatus
from tests.factories import make_evening, make_member

pytestmark = pytest.mark.django_db
MOSCOW = ZoneInfo("Europe/Moscow")
# Sunday, 6 December 2026: the club's game day (Sunday, 18:00, Moscow by default).
SUNDAY_AFTERNOON = datetime(2026, 12, 6, 15, 0, tzinfo=MOSCOW)
SUNDAY_EVENING = datetime(2026, 12, 6, 18, 0, tzinfo=MOSCOW)
migration = importlib.import_module("club.migrations.0016_one_evening_per_start")


def form_moment(name: str, moment: datetime) -> dict[str, str]:
    """A moment as the admin's split date and time fields post it."""
    local = timezone.localtime(moment)
    return {f"{name}_0": local.strftime("%Y-%m-%d"), f"{name}_1": local.strftime("%H:%M:%S")}


def add_form(starts_at: datetime) -> dict[str, str]:
    return {
        **form_moment("starts_at", starts_at),
        "venue": "GrandDaddy",
        "capacity": "12",
        **form_moment("opens_at", starts_at - timedelta(days=6)),
    }


def change_form(starts_at: datetime) -> dict[str, str]:
    """The change page's form: the start, and its sign-ups' (none) management form."""
    return {
        **add_form(starts_at),
        "registrations-TOTAL_FORMS": "0",
        "registrations-INITIAL_FORMS": "0",
    }


def change_link(evening: Evening) -> str:
    return f'<a href="/admin/club/evening/{evening.pk}/change/">'


def test_the_database_holds_one_evening_per_start_and_a_cancelled_one_frees_it() -> None:
    first = make_evening(starts_at=SUNDAY_EVENING)
    with pytest.raises(IntegrityError) as broken, transaction.atomic():
        make_evening(starts_at=SUNDAY_EVENING)
    assert services.breaks_one_evening_per_start(broken.value)
    assert ONE_EVENING_PER_START in str(broken.value)
    # A cancelled evening holds no start: beside the live one, and after it is cancelled.
    make_evening(starts_at=SUNDAY_EVENING, status=EveningStatus.CANCELLED)
    Evening.objects.filter(pk=first.pk).update(status=EveningStatus.CANCELLED)
    make_evening(starts_at=SUNDAY_EVENING)
    assert Evening.objects.filter(starts_at=SUNDAY_EVENING).count() == 3


def test_on_a_game_day_before_the_start_the_admin_offers_the_week_after(
    admin_client_: Client,
) -> None:
    with time_machine.travel(SUNDAY_AFTERNOON, tick=False):
        assert scheduling.schedule_sweep(now=timezone.now()).created  # today's evening
        page = admin_client_.get("/admin/club/evening/add/").content.decode()
    assert 'name="starts_at_0" value="13.12.2026"' in page
    assert 'name="starts_at_1" value="18:00:00"' in page
    assert 'name="opens_at_0" value="07.12.2026"' in page
    # Once that one exists too, the week after it.
    make_evening(starts_at=datetime(2026, 12, 13, 18, 0, tzinfo=MOSCOW))
    with time_machine.travel(SUNDAY_AFTERNOON, tick=False):
        page = admin_client_.get("/admin/club/evening/add/").content.decode()
    assert 'name="starts_at_0" value="20.12.2026"' in page


def test_the_admin_refuses_a_second_evening_at_a_start_with_a_link_to_it(
    admin_client_: Client,
) -> None:
    with time_machine.travel(SUNDAY_AFTERNOON, tick=False):
        scheduling.schedule_sweep(now=timezone.now())
        existing = Evening.objects.get()
        answer = admin_client_.post("/admin/club/evening/add/", add_form(SUNDAY_EVENING))
        assert answer.status_code == 200
        page = answer.content.decode()
        assert "На это время уже назначен другой вечер: 6 декабря 2026, 18:00." in page
        assert f"{change_link(existing)}Открыть тот вечер</a>" in page
        assert page.count("другой вечер") == 1  # the form's word, not the constraint's too
        admin_client_.cookies["django_language"] = "en"
        page = admin_client_.post(
            "/admin/club/evening/add/", add_form(SUNDAY_EVENING)
        ).content.decode()
        assert "Another evening already starts at this time: 6 December 2026, 18:00." in page
        assert f"{change_link(existing)}Open that evening</a>" in page
        assert Evening.objects.count() == 1
        # An hour later is another start: made.
        later = add_form(SUNDAY_EVENING + timedelta(hours=1))
        assert admin_client_.post("/admin/club/evening/add/", later).status_code == 302
    assert Evening.objects.count() == 2


def test_the_admin_refuses_to_move_an_evening_onto_another_s_start_but_a_cancelled_one_may(
    admin_client_: Client, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    starts = (timezone.now() + timedelta(days=3)).replace(second=0, microsecond=0)
    sunday = make_evening(starts_at=starts)
    monday = make_evening(starts_at=sunday.starts_at + timedelta(days=1))
    moved = {**change_form(sunday.starts_at), "status": "scheduled"}
    with django_capture_on_commit_callbacks(execute=True):
        answer = admin_client_.post(f"/admin/club/evening/{monday.pk}/change/", moved)
    assert answer.status_code == 200
    assert f"{change_link(sunday)}Открыть тот вечер</a>" in answer.content.decode()
    monday.refresh_from_db()
    assert monday.starts_at == sunday.starts_at + timedelta(days=1)
    # Saving an evening at its own start is no clash with itself.
    same = {**change_form(monday.starts_at), "status": "scheduled"}
    answer = admin_client_.post(f"/admin/club/evening/{monday.pk}/change/", same)
    assert answer.status_code == 302
    # A cancelled evening holds no start: it may be moved onto a live one's.
    Evening.objects.filter(pk=monday.pk).update(status=EveningStatus.CANCELLED)
    cancelled = change_form(sunday.starts_at)
    with django_capture_on_commit_callbacks(execute=True):
        answer = admin_client_.post(f"/admin/club/evening/{monday.pk}/change/", cancelled)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert Evening.objects.get(pk=monday.pk).starts_at == sunday.starts_at


def test_the_api_answers_a_taken_start_409_naming_the_evening() -> None:
    existing = make_evening()
    admin = make_member(is_superuser=True)
    auth = {"authorization": f"Bearer {api_token_create(member=admin).key}"}
    payload = {"starts_at": existing.starts_at.isoformat(), "capacity": 12}
    answer = Client().post(
        "/api/v1/evenings", payload, content_type="application/json", headers=auth
    )
    assert answer.status_code == 409
    body = answer.json()
    assert (body["code"], body["evening"]) == ("conflict", existing.pk)
    assert body["detail"].startswith("На это время уже назначен другой вечер: ")
    assert Evening.objects.count() == 1


def test_the_services_refuse_a_taken_start_and_a_cancelled_evening_frees_it() -> None:
    sunday = make_evening(starts_at=timezone.now() + timedelta(days=3))
    monday = make_evening(starts_at=sunday.starts_at + timedelta(days=1))
    with pytest.raises(Refused) as created:
        services.evening_create(starts_at=sunday.starts_at)
    with pytest.raises(Refused) as moved:
        services.evening_move(evening_id=monday.pk, starts_at=sunday.starts_at)
    for refusal in (created.value, moved.value):
        assert (refusal.code, refusal.details) == (RefusalCode.CONFLICT, {"evening": sunday.pk})
    assert Evening.objects.get(pk=monday.pk).starts_at == sunday.starts_at + timedelta(days=1)
    assert Evening.objects.count() == 2
    services.evening_cancel(evening_id=sunday.pk)
    services.evening_move(evening_id=monday.pk, starts_at=sunday.starts_at)
    with pytest.raises(Refused) as again:
        services.evening_create(starts_at=sunday.starts_at)
    assert again.value.details == {"evening": monday.pk}


def test_the_beat_makes_no_evening_at_a_start_an_admin_took() -> None:
    with time_machine.travel(SUNDAY_AFTERNOON - timedelta(days=3), tick=False):
        mine = services.evening_create(starts_at=SUNDAY_EVENING)
        assert scheduling.schedule_sweep(now=timezone.now()).created == []
    assert list(Evening.objects.all()) == [mine]


def test_the_migration_names_the_evenings_that_share_a_start_and_changes_nothing() -> None:
    """A database with duplicates cannot take the constraint: the migration's first step
    stops with the evenings named (the constraint dropped here, in the test's transaction,
    to make them)."""
    constraint = next(c for c in Evening._meta.constraints if c.name == ONE_EVENING_PER_START)
    with connection.schema_editor() as editor:
        editor.remove_constraint(Evening, constraint)
    first, second = (make_evening(starts_at=SUNDAY_EVENING) for _ in range(2))
    make_evening(starts_at=SUNDAY_EVENING, status=EveningStatus.CANCELLED)
    alone = make_evening(starts_at=SUNDAY_EVENING + timedelta(days=7))
    with pytest.raises(migration.DuplicateEvenings) as stopped:
        migration.refuse_duplicate_evenings(apps, None)
    said = str(stopped.value)
    assert f"evenings {first.pk} (scheduled), {second.pk} (scheduled)" in said
    assert "2026-12-06T15:00:00+00:00" in said
    assert f"{alone.pk} " not in said and "cancel or move all but one" in said
    assert Evening.objects.exclude(status=EveningStatus.CANCELLED).count() == 3
    Evening.objects.filter(pk=second.pk).update(status=EveningStatus.CANCELLED)
    migration.refuse_duplicate_evenings(apps, None)  # resolved: the constraint may follow


def test_a_tournament_is_refused_at_another_evening_s_start() -> None:
    from tournaments.services import TournamentPlan, tournament_create

    existing = make_evening()
    plan = TournamentPlan(
        name="Кубок",
        starts_at=existing.starts_at,
        ends_on=timezone.localtime(existing.starts_at).date(),
        venue="GrandDaddy",
        preset="fiim",
        tables=1,
        rounds=2,
    )
    organiser = admin_member()
    with pytest.raises(Refused) as refused:
        tournament_create(plan=plan, actor=organiser)
    assert refused.value.details == {"evening": existing.pk}
    assert Evening.objects.count() == 1


def test_the_tournaments_admin_and_api_refuse_another_evening_s_start(
    admin_client_: Client,
) -> None:
    from games.ratings.models import ScoringPreset

    existing = make_evening(starts_at=SUNDAY_EVENING)
    form = {
        "name": "Кубок зимы",
        **form_moment("starts_at", SUNDAY_EVENING),
        "venue": "GrandDaddy",
        "capacity": "",
        "ends_on": "2026-12-06",
        "preset": ScoringPreset.objects.get(code="fiim").pk,
        "table_size": "10",
        "tables": "1",
        "rounds": "2",
        "final_players": "10",
        "final_rounds": "0",
        "final_weight": "1.0",
    }
    with time_machine.travel(SUNDAY_AFTERNOON, tick=False):
        answer = admin_client_.post("/admin/tournaments/tournament/add/", form)
        auth = {"authorization": f"Bearer {api_token_create(member=admin_member()).key}"}
        body = {
            "name": "Кубок зимы",
            "starts_at": SUNDAY_EVENING.isoformat(),
            "ends_on": "2026-12-06",
            "venue": "GrandDaddy",
            "preset": "fiim",
            "tables": 1,
            "rounds": 2,
        }
        refused = Client().post(
            "/api/v1/tournaments", body, content_type="application/json", headers=auth
        )
    assert answer.status_code == 200
    assert f"{change_link(existing)}Открыть тот вечер</a>" in answer.content.decode()
    assert refused.status_code == 409, refused.content
    assert (refused.json()["code"], refused.json()["evening"]) == ("conflict", existing.pk)
    assert Evening.objects.count() == 1


def admin_member() -> User:
    return make_member(is_staff=True, is_superuser=True)
