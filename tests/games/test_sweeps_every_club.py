"""The games' sweeps and tasks on a site with two clubs: each club's online games stepped,
analyses and recordings caught up, tournaments told, recordings expired by the club's own
retention, ratings replayed by the club's own system over the club's own games; no sweep
raises NoClubInScope (beat runs them outside every club) and none touches the other club's
rows."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import time_machine
from django.core.files.base import ContentFile
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from club.celery import app
from club.kernel import tenancy
from club.kernel.clubs import Club
from club.kernel.tenancy import club_scope
from club.models import RegistrationSource
from club.services import registration_create
from games.models import Game, GameStatus
from games.online import services as online_play
from games.online.models import OnlineTable
from games.ratings import analysis, fold
from games.ratings.models import PlayerScore, RatingFold, RatingForecast
from games.recordings.models import Recording, RecordingStatus
from games.rules import rating
from notifications.models import Notification
from tests.factories import make_member, sign_up_many
from tests.games.recording import TOWN_WINS, evening_with_players, make_host, record, start_game
from tournaments import services as tournaments
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs() -> tuple[Club, Club]:
    return Club.current(), Club.objects.create(slug="east", name="East")


def beat(task_name: str) -> Any:
    """A beat entry's task, run as the worker runs it for beat: outside every club."""
    assert tenancy.scoped_club_id() is None
    app.loader.import_default_modules()  # every app's tasks, as `celery worker` loads them
    return app.tasks[task_name]()


@pytest.fixture
def queued_in(monkeypatch: pytest.MonkeyPatch) -> Callable[[Any], list[tuple[int, int | None]]]:
    """Record a task's `.delay(id)` with the club in scope when it is queued (the club its
    header carries), instead of sending it."""

    def watch(task: Any) -> list[tuple[int, int | None]]:
        calls: list[tuple[int, int | None]] = []
        monkeypatch.setattr(task, "delay", lambda pk: calls.append((pk, tenancy.scoped_club_id())))
        return calls

    return watch


def finished_game(players: list[User] | None = None) -> Game:
    """A game of the club in scope played to the town's win (not analysed: no worker)."""
    host = make_host()
    evening, signed = evening_with_players()
    if players is not None:  # the same members play in the other club too
        evening, signed = evening_with_players(0)
        for member in players:
            registration_create(member=member, evening_id=evening.pk, source=RegistrationSource.WEB)
        signed = players
    game = start_game(host, evening, signed)
    record(game, host, *TOWN_WINS)
    assert game.status == GameStatus.FINISHED
    return game


def test_analyses_are_caught_up_in_each_club_queued_in_its_own(
    clubs: tuple[Club, Club], queued_in: Callable[[Any], list[tuple[int, int | None]]]
) -> None:
    from games.ratings.tasks import game_analyse

    moscow, east = clubs
    with club_scope(moscow):
        west_game = finished_game()
    with club_scope(east):
        east_game = finished_game()
    calls = queued_in(game_analyse)
    later = timezone.now() + timedelta(minutes=5)
    with time_machine.travel(later, tick=False):
        beat("games.ratings.tasks.analyses_catch_up")
    assert sorted(calls) == sorted([(west_game.pk, moscow.pk), (east_game.pk, east.pk)])


def test_each_club_rates_its_own_games_by_its_own_system(clubs: tuple[Club, Club]) -> None:
    moscow, east = clubs
    east.rating_system = rating.ELO_TRACKS
    east.save()
    with club_scope(moscow):
        west_game = finished_game()
        players = [seat.member for seat in west_game.seats.order_by("number")]
        analysis.game_analysis_build(game_id=west_game.pk)
        assert not fold.ratings_after_game(west_game.pk).incremental  # no fold yet
    west_scores = PlayerScore.all_clubs.filter(game=west_game)
    west_ratings = list(west_scores.values_list("rating_before", "rating_after"))
    # The same twelve members play a later game in the other club.
    with club_scope(east):
        east_game = finished_game([member for member in players if member is not None])
        analysis.game_analysis_build(game_id=east_game.pk)
        ended = fold.ratings_after_game(east_game.pk)
        assert (ended.incremental, ended.changed) == (False, 12)  # its own game's rows only
    # Newcomers to that club's rating, by that club's system (Elo starts at 1500), not
    # carrying the ratings the first club's game gave them.
    east_scores = PlayerScore.all_clubs.filter(game=east_game)
    assert set(east_scores.values_list("rating_before", flat=True)) == {rating.INITIAL}
    assert list(west_scores.values_list("rating_before", "rating_after")) == west_ratings
    # The first club's next game folds on from its own fold, the other club's game between
    # them in time being no game of its.
    with club_scope(moscow):
        later = finished_game(players=[member for member in players if member is not None])
        analysis.game_analysis_build(game_id=later.pk)
        assert fold.ratings_after_game(later.pk).incremental
        assert analysis.ratings_replay() == 0  # what the fold wrote is what a replay writes
    assert list(east_scores.values_list("rating_before", flat=True)) == [rating.INITIAL] * 12
    # Each club's fold and foresight are of its own games.
    for club, games in ((moscow, 2), (east, 1)):
        assert RatingFold.all_clubs.filter(club=club).count() == len(rating.SYSTEMS)
        forecasts = RatingForecast.all_clubs.filter(club=club)
        assert {row.games for row in forecasts} == {games}


def test_online_games_are_stepped_in_each_club(clubs: tuple[Club, Club]) -> None:
    games = []
    for club in clubs:
        with club_scope(club):
            members = [make_member(telegram_id=None) for _ in range(10)]
            games.append(
                online_play.online_game_create(
                    host=make_host(),
                    member_ids=[m.pk for m in members],
                    starts_at=timezone.now() + timedelta(minutes=1),
                )
            )
    with time_machine.travel(timezone.now() + timedelta(minutes=2), tick=False):
        assert beat("games.online.tasks.online_sweep") == 2
        assert beat("games.online.tasks.online_sweep") == 0
    for game in games:
        table = OnlineTable.objects.get(game=game)
        assert table.deadline_at is not None and table.deadline_at > timezone.now()
        # Day 1's announcement is a message of the game's own club.
        told = Notification.all_clubs.filter(dedupe_key__startswith=f"online:{game.pk}:")
        assert told.exists() and {n.club_id for n in told} == {game.club_id}


def a_recording(game: Game, status: str, uploaded_at: datetime) -> Recording:
    return Recording.objects.create(
        game=game,
        original_name="game.m4a",
        size=5,
        started_at=uploaded_at,
        status=status,
        uploaded_at=uploaded_at,
    )


@pytest.mark.usefixtures("recording_storage")
def test_recordings_expire_by_each_clubs_retention_and_no_club_takes_anothers_file(
    clubs: tuple[Club, Club],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    from games.recordings import tasks

    moscow, east = clubs
    east.audio_retention_days = 10
    east.save()
    kept: dict[int, Recording] = {}
    for club in clubs:
        with club_scope(club):
            game = finished_game()
            recording = a_recording(game, RecordingStatus.ANALYSED, timezone.now())
            recording.file.save(f"game-{game.pk}.m4a", ContentFile(b"sound"), save=True)
            kept[club.pk] = recording
    # Each club's sweep runs in a task of its own, queued in the club's scope.
    published: list[tuple[str, int | None]] = []

    def publish(task_name: str, *args: object, countdown: float | None = None) -> bool:
        published.append((task_name, tenancy.scoped_club_id()))
        app.tasks[task_name](*args)
        return True

    monkeypatch.setattr(tasks, "publish", publish)
    # Five days on: past the first club's 3 days, within the other's 10; and long past the
    # age at which a file no recording names is an orphan.
    with (
        time_machine.travel(timezone.now() + timedelta(days=5), tick=False),
        django_capture_on_commit_callbacks(execute=True),  # the files go after the commit
    ):
        beat("games.recordings.tasks.recordings_sweep")
    assert published == [
        ("games.recordings.tasks.club_recordings_expire", moscow.pk),
        ("games.recordings.tasks.club_recordings_expire", east.pk),
    ]
    west, east_recording = (Recording.all_clubs.get(pk=kept[c.pk].pk) for c in clubs)
    assert west.deleted_at is not None and not west.file
    assert east_recording.deleted_at is None
    assert Path(east_recording.file.path).exists()  # not an orphan: the other club names it


def test_stalled_recordings_are_restarted_in_their_own_club(
    clubs: tuple[Club, Club], queued_in: Callable[[Any], list[tuple[int, int | None]]]
) -> None:
    from games.recordings.tasks import recording_analyse

    stalled = []
    for club in clubs:
        with club_scope(club):
            stalled.append(
                a_recording(
                    finished_game(), RecordingStatus.QUEUED, timezone.now() - timedelta(hours=1)
                )
            )
    calls = queued_in(recording_analyse)
    beat("games.recordings.tasks.recordings_catch_up")
    assert sorted(calls) == sorted((r.pk, r.club_id) for r in stalled)


def test_each_clubs_tournament_is_told_its_round(clubs: tuple[Club, Club]) -> None:
    made: list[Tournament] = []
    for club in clubs:
        with club_scope(club):
            organiser = make_member(is_staff=True)
            starts = timezone.now() + timedelta(hours=1)
            tournament = tournaments.tournament_create(
                plan=tournaments.TournamentPlan(
                    name="Кубок",
                    starts_at=starts,
                    ends_on=timezone.localdate(starts),
                    venue="Зал",
                    preset="fiim",
                    tables=1,
                    rounds=2,
                    final_players=0,
                ),
                actor=organiser,
            )
            sign_up_many(tournament.evening, 10)
            tournaments.tournament_seat(tournament_id=tournament.pk, actor=organiser, effort=50)
            made.append(tournament)
    assert beat("tournaments.tasks.tournaments_sweep") == 2
    for tournament in made:
        first = tournament.round_set.get(number=1)
        told = Notification.all_clubs.filter(dedupe_key__startswith=f"tournament-round:{first.pk}:")
        assert told.count() == 10
        assert {n.club_id for n in told} == {tournament.club_id}
    assert beat("tournaments.tasks.tournaments_sweep") == 0


def test_a_new_version_of_a_preset_rescores_every_clubs_games(
    clubs: tuple[Club, Club],
    queued: list[tuple[str, tuple[object, ...]]],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    from club.kernel import queueing
    from games.ratings.models import ScoringPreset
    from games.ratings.presets import scheme_version
    from games.ratings.services import scheme_version_create

    scopes: list[int | None] = []
    real = queueing.publish

    def publish(task_name: str, *args: object, countdown: float | None = None) -> bool:
        scopes.append(tenancy.scoped_club_id())
        return real(task_name, *args, countdown=countdown)

    monkeypatch.setattr(queueing, "publish", publish)
    with club_scope(clubs[0]):
        admin = make_member(is_staff=True, is_superuser=True)
    preset = ScoringPreset.objects.club()
    with django_capture_on_commit_callbacks(execute=True):
        scheme_version_create(scheme=scheme_version(preset).scheme(), note="", by=admin)
    # A preset is the platform's: each club's games are scored again, in a task of its own.
    assert queued == [("games.ratings.tasks.games_rescore", ())] * 2
    assert scopes == [club.pk for club in clubs]
