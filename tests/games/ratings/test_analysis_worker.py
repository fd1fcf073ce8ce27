"""The analysis is built by a real worker on Redis, after the commit that ends the game."""

from pathlib import Path

import pytest

from games.ratings.models import GameAnalysis, PlayerScore
from games.ratings.tasks import game_analyse
from tests.checks import present
from tests.games.recording import TOWN_WINS, evening_with_players, make_host, record, start_game
from tests.waiting import TaskDone

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("migration_rows", "celery_worker_on_redis"),
]


def test_the_last_tap_of_a_game_has_the_worker_build_its_analysis(task_done: TaskDone) -> None:
    host = make_host()
    evening, players = evening_with_players()
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS[:-1])
    assert not GameAnalysis.objects.filter(game=game).exists()
    built = task_done(game_analyse.name, game.pk)
    record(game, host, TOWN_WINS[-1])  # each tap commits; this one ends the game
    assert built.wait(timeout=30), "the worker did not build the analysis"
    assert GameAnalysis.objects.filter(game=game).exists()
    assert PlayerScore.objects.filter(game=game).count() == 12
    # The club's rating system, OpenSkill: a winner rises from a newcomer's 0.
    assert present(PlayerScore.objects.get(game=game, seat=4).rating_after) > 0.0


@pytest.mark.usefixtures("recording_storage")
def test_the_last_chunk_of_a_recording_has_the_worker_analyse_it(
    task_done: TaskDone, tmp_path: Path
) -> None:
    import numpy as np

    from games.recordings import services as recordings
    from games.recordings.models import Recording, RecordingStatus
    from games.recordings.tasks import recording_analyse
    from tests.sound import script, write

    host = make_host()
    evening, players = evening_with_players()
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    sound = script(np.random.default_rng(4), [("quiet", 1), ("speech", 4), ("quiet", 2)])
    data = write(tmp_path / "g.m4a", sound, "m4a").read_bytes()
    begun = recordings.recording_start(game_id=game.pk, user=host, name="g.m4a", size=len(data))
    analysed = task_done(recording_analyse.name, begun.pk)
    recordings.recording_append(recording_id=begun.pk, user=host, offset=0, data=data)
    assert analysed.wait(timeout=60), "the worker did not analyse the recording"
    recording = Recording.objects.get(pk=begun.pk)
    assert (recording.status, recording.progress) == (RecordingStatus.ANALYSED, 100)
    ((start, end),) = present(recording.voiced)
    assert abs(start - 1) < 0.5 and abs(end - 5) < 0.5
