"""A game marked unrated (a practice game) keeps its scores on its page, in «За что» and in
the personal report, but counts for nothing in the ratings (the replay and the foresight
skip it) and in the season's tables; marking it queues the replay after the commit
(docs/scoring.md «Games that do not count»)."""

import re

import pytest
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.services import api_token_create
from club.kernel.errors import Refused
from games.models import Game
from games.ratings import reports, stats, systems, tasks, whatif
from games.ratings.models import PlayerScore, RatingForecast, ScoringPreset
from games.ratings.presets import scheme_version
from games.ratings.services import game_rated_set
from games.rules import rating
from games.rules.forecast import forecast
from tests.games.season import History, seed_history

pytestmark = pytest.mark.django_db
REPLAY = ("games.ratings.tasks.ratings_replay", ())


@pytest.fixture
def history() -> History:
    return seed_history(games=12, members=16, seed=11)


def practice(history: History) -> Game:
    """The fifth game marked unrated, by its host, and the worker's replay it queued."""
    game = history.games[4]
    game_rated_set(game_id=game.pk, rated=False, by=history.host)
    tasks.ratings_replay()
    game.refresh_from_db()
    return game


def rows(exclude: int | None = None) -> list[rating.Played]:
    found = PlayerScore.objects.order_by("ended_at", "game_id", "seat").values_list(
        "pk", "game_id", "member_id", "track", "game__winner", "won", "points"
    )
    return [rating.Played(*row) for row in found if row[1] != exclude]


def test_an_unrated_game_is_in_no_rating(history: History) -> None:
    game = practice(history)
    assert not PlayerScore.objects.filter(game=game, rating_after__isnull=False).exists()
    assert not PlayerScore.objects.filter(game=game, rating_before__isnull=False).exists()
    # Every other score is the club's system's fold of the rated games alone.
    changes = rating.replay(rows(exclude=game.pk), systems.rater(rating.OPENSKILL_PLAIN))
    for pk, after in PlayerScore.objects.exclude(game=game).values_list("pk", "rating_after"):
        assert after == pytest.approx(changes[pk].after)
    # The foresight too: the game is not one of those foreseen.
    kept = RatingForecast.objects.get(system=rating.OPENSKILL_PLAIN)
    alone = forecast(rows(exclude=game.pk), systems.rater(rating.OPENSKILL_PLAIN))
    assert kept.games == alone.games and kept.log_loss == pytest.approx(alone.log_loss)
    # Rated again: its rows are rated as before it was marked.
    before = dict(PlayerScore.objects.values_list("pk", "rating_after"))
    game_rated_set(game_id=game.pk, rated=True, by=history.host)
    tasks.ratings_replay()
    everything = rating.replay(rows(), systems.rater(rating.OPENSKILL_PLAIN))
    for pk, after in PlayerScore.objects.values_list("pk", "rating_after"):
        assert after == pytest.approx(everything[pk].after)
    assert before != dict(PlayerScore.objects.values_list("pk", "rating_after"))


def test_an_unrated_game_counts_in_no_seasons_table(history: History) -> None:
    season = stats.current_season()
    before = {row.member_id: row for row in stats.leaderboard(season, "points", None).rows}
    game = practice(history)
    after = {row.member_id: row for row in stats.leaderboard(season, "points", None).rows}
    scores = {s.member_id: s for s in PlayerScore.objects.filter(game=game)}
    assert scores
    for member_id, score in scores.items():
        was = before[member_id]
        now = after.get(member_id)
        if was.games == 1:
            assert now is None
            continue
        assert now is not None and now.games == was.games - 1
        assert now.wins == was.wins - score.won
        assert now.points == pytest.approx(was.points - score.points, abs=0.011)
    for member_id in before.keys() - scores.keys():
        assert after[member_id].games == before[member_id].games
    # The one condition every season aggregate filters by, and the what-if reads.
    assert not PlayerScore.objects.filter(whatif.in_season(season), game=game).exists()
    fiim = ScoringPreset.objects.get(code="fiim")
    rescored = whatif.season_rescored(season, scheme_version(fiim))
    assert len(rescored) == PlayerScore.objects.exclude(game=game).count()
    member = next(iter(scores))
    compensation = stats.member_compensation(member, season)
    if compensation is not None:
        assert compensation.games == after[member].games


def test_its_scores_still_show_on_its_page_and_in_the_report(history: History) -> None:
    game = practice(history)
    page = Client().get(f"/games/{game.pk}/?public=1").content.decode()
    assert "Игра не в рейтинге" in page
    assert "За что" in page and 'id="analysis"' in page
    score = PlayerScore.objects.filter(game=game).order_by("seat").first()
    assert score is not None
    text = reports.report_text(game, score, score.member)
    assert "Игра не в рейтинге" in text and "Очки:" in text and "Рейтинг (" not in text
    assert score.member is not None
    rated = PlayerScore.objects.exclude(game=game).filter(member=score.member).first()
    assert rated is not None and "Рейтинг (" in reports.report_text(rated.game, rated, score.member)
    assert (
        "Игра не в рейтинге"
        not in Client().get(f"/games/{rated.game_id}/?public=1").content.decode()
    )
    # The player's page lists the game with its points, without a rating for it.
    played = [g for g in stats.profile(score.member).games if g.game_id == game.pk]
    assert played and played[0].points == score.points and played[0].rating_after is None


def test_marking_it_queues_the_replay_after_the_commit(
    history: History,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    queued: list[tuple[str, tuple[object, ...]]],
) -> None:
    game = history.games[2]
    host = Client()
    host.force_login(history.host)
    page = host.get(f"/games/{game.pk}/?public=1").content.decode()
    assert "Отметить игру как тренировочную (вне рейтинга)" in page
    with django_capture_on_commit_callbacks(execute=True):
        answer = host.post(f"/games/{game.pk}/rated/", {"rated": "0"})
    assert answer.status_code == 302
    assert queued == [REPLAY]
    game.refresh_from_db()
    assert not game.rated
    assert "Учитывать игру в рейтингах" in host.get(f"/games/{game.pk}/?public=1").content.decode()
    # The same flag again changes nothing and queues nothing.
    with django_capture_on_commit_callbacks(execute=True):
        host.post(f"/games/{game.pk}/rated/", {"rated": "0"})
    assert queued == [REPLAY]
    # The API, by its host: back to rated.
    token = {"Authorization": f"Bearer {api_token_create(member=history.host).key}"}
    with django_capture_on_commit_callbacks(execute=True):
        answer = Client().patch(
            f"/api/v1/games/{game.pk}",
            {"rated": True},
            content_type="application/json",
            headers=token,
        )
    assert answer.status_code == 200 and answer.json()["rated"] is True
    assert queued == [REPLAY, REPLAY]


def test_a_player_may_not_mark_a_game(history: History) -> None:
    game = history.games[2]
    player = history.members[0]
    with pytest.raises(Refused) as refused:
        game_rated_set(game_id=game.pk, rated=False, by=player)
    assert refused.value.code == "forbidden"
    token = {"Authorization": f"Bearer {api_token_create(member=player).key}"}
    answer = Client().patch(
        f"/api/v1/games/{game.pk}",
        {"rated": False},
        content_type="application/json",
        headers=token,
    )
    assert answer.status_code == 403
    assert "ведущий игры или администратор" in answer.json()["detail"]
    game.refresh_from_db()
    assert game.rated


def test_the_admin_marks_it_and_the_replay_follows(
    history: History,
    admin_client_: Client,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    queued: list[tuple[str, tuple[object, ...]]],
) -> None:
    game = history.games[3]
    change = f"/admin/games/game/{game.pk}/change/"
    page = admin_client_.get(change).content.decode()
    assert 'name="rated"' in page and "В рейтинге" in page and "тренировочная игра" in page
    form = admin_form(page)
    with django_capture_on_commit_callbacks(execute=True):
        answer = admin_client_.post(change, form)  # `rated` unticked
    assert answer.status_code == 302, answer.content.decode()[:2000]
    game.refresh_from_db()
    assert not game.rated and queued == [REPLAY]
    with django_capture_on_commit_callbacks(execute=True):
        admin_client_.post(change, form | {"rated": "on"})
    assert Game.objects.get(pk=game.pk).rated and queued == [REPLAY, REPLAY]


def admin_form(page: str) -> dict[str, str]:
    """The game's admin form as the page filled it: every input but the checkboxes (a
    ticked box is posted by the test), with the inlines' management and id fields."""
    fields: dict[str, str] = {}
    for tag in re.findall(r"<input [^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        kind = re.search(r'type="([^"]+)"', tag)
        if name is None or (kind and kind.group(1) in ("checkbox", "submit", "file")):
            continue
        value = re.search(r'value="([^"]*)"', tag)
        fields[name.group(1)] = value.group(1) if value else ""
    for name, body in re.findall(r'(?s)<select name="([^"]+)"[^>]*>(.*?)</select>', page):
        chosen = re.search(r'<option value="([^"]*)" selected', body)
        fields[name] = chosen.group(1) if chosen else ""
    fields.pop("csrfmiddlewaretoken", None)
    return fields
