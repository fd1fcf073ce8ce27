"""Who may see a member's name is decided once (games/access.may_see_name) and the pages,
the API and the links agree.

The hole it closes (#14): the game page named a non-consenting member to themselves, to
those who consented and to the game's host, while the stats linked their scores for
themselves and for staff: a staff member who was not the host saw a link beside
«Игрок N».
"""

import pytest
from django.test import Client

from accounts.services import api_token_create
from games.ratings import analysis
from tests.factories import make_member
from tests.games.recording import TOWN_WINS, record, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def shy_game(table):
    host, evening, players = table
    shy = players[0]
    shy.publication_consent = False
    shy.save()
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    analysis.game_analysis_build(game_id=game.pk)
    analysis.ratings_replay()
    return game, host, shy


def row_of_seat_one(viewer, game) -> dict:
    headers = {"Authorization": f"Bearer {api_token_create(member=viewer).key}"} if viewer else {}
    answer = Client(headers=headers).get(f"/api/v1/games/{game.pk}/analysis")
    return next(row for row in answer.json()["scores"] if row["seat"] == 1)


def test_each_viewer_sees_the_name_and_the_link_by_one_rule(shy_game) -> None:
    game, host, shy = shy_game
    staff = make_member(nickname="Сотрудник", is_staff=True)
    stranger = make_member(nickname="Прохожий")
    seen = {
        "visitor": row_of_seat_one(None, game),
        "member": row_of_seat_one(stranger, game),
        "staff": row_of_seat_one(staff, game),
        "themselves": row_of_seat_one(shy, game),
        "host": row_of_seat_one(host, game),
    }
    named = {who: row["nick"] == shy.nickname for who, row in seen.items()}
    linked = {who: row["member_id"] == shy.pk for who, row in seen.items()}
    assert named == {
        "visitor": False, "member": False, "staff": True, "themselves": True, "host": True,
    }  # fmt: skip
    # A link goes to the player page, which only those who may see the name everywhere
    # open: the host sees the name of the table they ran, but no link to elsewhere.
    assert linked == {**named, "host": False}
    for who in ("visitor", "member"):
        assert seen[who]["nick"] == "Игрок 1" and seen[who]["member_id"] is None
    page = Client()
    page.force_login(staff)
    assert page.get(f"/players/{shy.pk}/").status_code == 200
    page.force_login(host)
    assert page.get(f"/players/{shy.pk}/").status_code == 404
