"""The analysis of a finished game: scores stored with their lines, Elo across games,
rebuilt idempotently, withdrawn when an undo reopens the game, rescored by a new scheme."""

from typing import Any

import pytest

from club.kernel.clubs import Club
from games.models import Game
from games.ratings import analysis
from games.ratings.models import GameAnalysis, PlayerScore, ScoringScheme
from games.rules import rating
from tests.checks import present
from tests.games.recording import TOWN_WINS, Table, record, start_game

pytestmark = pytest.mark.django_db


def finished_game(table: Table) -> Game:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    assert game.finished
    return game


def built(game: Game) -> dict[str, Any]:
    analysis.game_analysis_build(game_id=game.pk)
    analysis.ratings_replay()
    return snapshot(game)


def snapshot(game: Game) -> dict[str, Any]:
    found = GameAnalysis.objects.get(game=game)
    scores = PlayerScore.objects.filter(game=game).order_by("seat")
    return {
        "digest": found.digest,
        "sections": found.sections,
        "scores": [s.__dict__ | {"_state": None, "id": None, "ended_at": None} for s in scores],
    }


def test_each_seat_gets_its_points_with_the_lines_that_make_them(table: Table) -> None:
    game = finished_game(table)
    built(game)
    commissar = PlayerScore.objects.get(game=game, seat=4)
    assert (commissar.role, commissar.team, commissar.won) == ("commissar", "red", True)
    assert commissar.points == 2.0
    assert sorted(line["code"] for line in commissar.lines) == [
        "check_found_black",
        "red_nominates_black",
        "red_nominates_black",
        "red_nominates_black",
        "win",
        "winner_survives",
    ]
    losers = PlayerScore.objects.filter(game=game, seat__in=[1, 2, 3])
    assert {(s.team, s.won, s.points) for s in losers} == {("black", False, 0.0)}
    assert PlayerScore.objects.filter(game=game).count() == 12


def test_building_twice_gives_the_same_analysis_and_changes_nothing(table: Table) -> None:
    game = finished_game(table)
    first = built(game)
    assert analysis.game_analysis_build(game_id=game.pk) is False
    assert analysis.ratings_replay() == 0
    assert snapshot(game) == first


def test_the_timeline_is_grouped_by_day_and_night(table: Table) -> None:
    game = finished_game(table)
    sections = built(game)["sections"]
    assert [(s["phase"], s["n"]) for s in sections] == [
        ("day", 1),
        ("night", 1),
        ("day", 2),
        ("night", 2),
        ("day", 3),
        ("night", 3),
        ("day", 4),
    ]
    assert [e["type"] for e in sections[1]["events"]] == ["check", "kill", "check", "heal"]
    assert [e["type"] for e in sections[-1]["events"]] == ["nominate", "votes"]


def test_an_undo_after_the_end_withdraws_the_analysis_and_the_next_end_rebuilds_it(
    table: Table,
) -> None:
    host = table[0]
    game = finished_game(table)
    first = built(game)
    record(game, host, {"type": "undo"})
    assert not game.finished
    assert analysis.game_analysis_build(game_id=game.pk) is True
    assert not GameAnalysis.objects.filter(game=game).exists()
    assert not PlayerScore.objects.filter(game=game).exists()
    record(game, host, TOWN_WINS[-1])
    assert built(game)["scores"] == first["scores"]


def test_the_first_game_moves_ratings_from_the_initial_value(table: Table) -> None:
    Club.objects.update(rating_system=rating.ELO_TRACKS)
    Club.forget_cached()  # an update() is not a save: the kept row is read afresh
    game = finished_game(table)
    built(game)
    red = present(PlayerScore.objects.filter(game=game, track="red").first())
    black = present(PlayerScore.objects.filter(game=game, track="black").first())
    assert red.rating_before == black.rating_before == rating.INITIAL
    # Equal teams at 1500: expected 0.5 each, so the winners gain K/2 and the losers lose it.
    assert red.rating_after == pytest.approx(rating.INITIAL + rating.K / 2)
    assert black.rating_after == pytest.approx(rating.INITIAL - rating.K / 2)


def test_a_new_scheme_version_rescores_every_game(table: Table) -> None:
    game = finished_game(table)
    built(game)
    ScoringScheme.objects.create(version=2, points={"win": 2.0})
    assert analysis.analyses_rebuild() == [game.pk]
    assert PlayerScore.objects.get(game=game, seat=4).points == 3.0
    assert GameAnalysis.objects.get(game=game).scheme.version == 2


def test_ratings_follow_the_order_games_ended_in(table: Table) -> None:
    """Two games with the same players: the second starts from the first's ratings."""
    host, evening, players = table
    first = finished_game(table)
    second = start_game(host, evening, players)
    record(second, host, *TOWN_WINS)
    for game in (first, second):
        analysis.game_analysis_build(game_id=game.pk)
    analysis.ratings_replay()
    one = PlayerScore.objects.get(game=first, seat=4)
    two = PlayerScore.objects.get(game=second, member_id=one.member_id)
    assert two.rating_before == pytest.approx(one.rating_after)
