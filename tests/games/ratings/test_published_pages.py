"""The published pages as members read them: the player page, the leaderboard, a
game's result; each test failed on the code before its fix."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from club.kernel.clubs import Club
from club.models import Evening
from games.models import Game
from games.ratings.tasks import ratings_replay
from tests.games.recording import (
    TOWN_WINS,
    Table,
    evening_with_players,
    make_host,
    record,
    start_game,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def analysed() -> tuple[Game, Evening, list[User]]:
    """A game the town won, analysed: (game, evening, players)."""
    from games.ratings.tasks import game_analyse

    host = make_host()
    evening, players = evening_with_players()
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    game_analyse(game.pk)
    return game, evening, players


def test_the_player_pages_title_is_the_nickname_only() -> None:
    host = make_host()
    evening, players = evening_with_players()
    record(start_game(host, evening, players), host, *TOWN_WINS)
    page = Client().get(f"/players/{players[0].pk}/").content.decode()
    title = page.split("<title>")[1].split("</title>")[0]
    assert title == players[0].nickname


def test_a_team_win_names_the_team_and_the_season_has_a_human_name(analysed: Table) -> None:
    game, _evening, _players = analysed
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "победа красных (города)" in page and "победа команды (" not in page
    board = Client().get("/leaderboard/").content.decode()
    names = re.findall(r"<option [^>]*>([^<]*)</option>", board)
    assert names and all("-Q" not in name for name in names), names


# A provisional rating carries its mark after the number (test_provisional.py).
MARK = r'(?: <small class="muted provisional"[^>]*>[^<]*</small>)?'


def test_points_and_ratings_read_the_same_way_on_every_page(analysed: Table) -> None:
    game, _evening, _players = analysed
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert re.search(r"\+1,00", page) and not re.search(r"[+−]\d+\.\d\d", page)
    # OpenSkill's ratings (tens) with one decimal, as points are written: a comma in Russian.
    board = Client().get("/leaderboard/").content.decode()
    ratings = re.findall(rf'<td class="num">(−?-?\d+[.,]?\d*){MARK}</td>', board)[-1:]
    assert ratings and all(re.fullmatch(r"-?\d+,\d", rating) for rating in ratings), ratings
    # Elo's hundreds whole.
    Club.objects.update(rating_system="elo_tracks")
    Club.forget_cached()
    ratings_replay()
    board = Client().get("/leaderboard/").content.decode()
    ratings = re.findall(rf"<td[^>]*>(1[45]\d\d[.,]?\d*){MARK}</td>", board)
    assert ratings and all(rating.isdigit() for rating in ratings), ratings


def test_the_players_charts_say_what_they_add_up_with_axes_and_dates(analysed: Table) -> None:
    from django.utils.formats import date_format

    _game, evening, players = analysed
    page = Client().get(f"/players/{players[3].pk}/").content.decode()
    assert "Очки нарастающим итогом, игра за игрой" in page
    day = date_format(timezone.localtime(evening.starts_at), "j E Y")
    chart = page.split('<figure class="chart">')[1].split("</figure>")[0]
    assert 'class="axis"' in chart and day in chart and "за 1 игру" in chart


def test_the_leaderboard_filters_by_team_role_and_games_and_states_its_sort(
    analysed: Table,
) -> None:
    _game, _evening, players = analysed
    everyone = Client().get("/leaderboard/").content.decode()
    assert "Сортировка: Очки." in everyone
    black = Client().get("/leaderboard/?team=black").content.decode()

    def rows(page: str) -> list[str]:
        return re.findall(r'<a href="/players/(\d+)/"', page)

    assert len(rows(black)) == 3 and len(rows(everyone)) == 12
    doctors = Client().get("/leaderboard/?role=doctor").content.decode()
    assert rows(doctors) == [str(players[4].pk)]
    assert rows(Client().get("/leaderboard/?min_games=2").content.decode()) == []
    # What the page did not offer reads as "all".
    odd = Client().get("/leaderboard/?team=green&role=x&min_games=-5")
    assert odd.status_code == 200 and len(rows(odd.content.decode())) == 12
    # A NUL is never a choice: the rule for texts refuses it with a message (#24).
    nul = Client().get("/leaderboard/?role=%00")
    assert nul.status_code == 400 and "NUL" in nul.content.decode()


def test_a_player_page_shows_streaks_and_the_seasons_played(analysed: Table) -> None:
    _game, _evening, players = analysed
    winner = Client().get(f"/players/{players[3].pk}/").content.decode()  # the commissar
    assert "Лучшая серия</dt><dd>1 <small>сейчас 1</small>" in winner
    loser = Client().get(f"/players/{players[0].pk}/").content.decode()  # the boss
    assert "Лучшая серия</dt><dd>0 <small>сейчас 0</small>" in loser
    assert re.search(r'Сезоны: <a href="/leaderboard/\?season=\d{4}(-Q\d)?">', winner)
