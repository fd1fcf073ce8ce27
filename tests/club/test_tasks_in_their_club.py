"""A real worker on the real Redis broker, with two clubs: a task queued inside a club's
scope runs in that club (the `club_id` header, club/kernel/tenancy.py), and beat's sweep,
sent outside every club, becomes one task per club, each in its own."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from celery.signals import task_postrun
from django.utils import timezone

from club import services
from club.kernel.clubs import Club
from club.kernel.tenancy import club_scope
from club.models import Evening, Registration, RegistrationStatus
from club.tasks import registration_leave, schedule_sweep
from games.ratings.models import PlayerScore
from games.ratings.tasks import game_analyse
from games.rules import rating
from tests.factories import make_evening, sign_up_many
from tests.games.recording import TOWN_WINS, evening_with_players, make_host, record, start_game
from tests.waiting import TaskDone

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("migration_rows", "celery_worker_on_redis"),
]


@pytest.fixture
def east() -> Club:
    Club.current()  # the first club, as the migration made it
    return Club.objects.create(slug="east", name="East", timezone="Asia/Vladivostok")


def test_a_task_queued_in_a_clubs_scope_runs_in_that_club(east: Club, task_done: TaskDone) -> None:
    with club_scope(east):
        evening = make_evening(capacity=1)
        seated, waiting = (result.registration for result in sign_up_many(evening, 2))
        # «Не смогу» a while ago: its undo window has just ended, the place still held.
        services.registration_cancel(
            member=seated.signed_member,
            evening_id=evening.pk,
            undo_window=timedelta(seconds=1),
            now=timezone.now() - timedelta(seconds=2),
        )
        assert Registration.objects.get(pk=seated.pk).status == RegistrationStatus.CONFIRMED
        done = task_done(registration_leave.name, seated.pk)
        # Outside the club's scope, with two clubs, the task would find no club to work in.
        registration_leave.delay(seated.pk)
    assert done.wait(timeout=30), "the worker did not run the task"
    statuses = dict(
        Registration.all_clubs.filter(pk__in=[seated.pk, waiting.pk]).values_list("pk", "status")
    )
    assert statuses == {seated.pk: RegistrationStatus.CANCELLED, waiting.pk: "confirmed"}


def test_a_games_analysis_runs_in_its_club_by_its_clubs_rating_system(
    east: Club, task_done: TaskDone
) -> None:
    east.rating_system = rating.ELO_TRACKS
    east.save()
    with club_scope(east):
        host = make_host()
        evening, players = evening_with_players()
        game = start_game(host, evening, players)
        record(game, host, *TOWN_WINS[:-1])
        built = task_done(game_analyse.name, game.pk)
        record(game, host, TOWN_WINS[-1])  # the last tap's commit queues the analysis
    assert built.wait(timeout=60), "the worker did not analyse the game"
    scores = PlayerScore.all_clubs.filter(game=game)
    assert scores.count() == 12
    # Elo (the club's choice) starts every newcomer at 1500; OpenSkill would at 0.
    assert set(scores.values_list("rating_before", flat=True)) == {rating.INITIAL}


def test_beats_sweep_becomes_one_task_per_club_each_in_its_own(east: Club) -> None:
    first = Club.objects.exclude(pk=east.pk).get()
    swept: list[Any] = []
    both = threading.Event()

    def on_done(sender: Any = None, retval: Any = None, **_: object) -> None:
        if sender is not None and sender.name == "club.tasks.club_schedule_sweep":
            swept.append(retval)
            if len(swept) == 2:
                both.set()

    task_postrun.connect(on_done, weak=False)
    try:
        schedule_sweep.delay()  # as beat sends it: outside every club
        assert both.wait(timeout=60), f"the clubs' sweeps did not both run: {swept}"
    finally:
        task_postrun.disconnect(on_done)
    assert all(isinstance(report, dict) for report in swept), swept  # none raised
    made = {club.pk: Evening.all_clubs.get(club=club) for club in (first, east)}
    # Each at 18:00 on Sunday where it plays.
    for club, evening in ((first, made[first.pk]), (east, made[east.pk])):
        local = timezone.localtime(evening.starts_at, club.zone)
        assert (local.weekday(), local.hour, local.minute) == (6, 18, 0)
