"""«Why I got X» (#28): on the game's page and the player's page every score opens to its
lines (the automatic ones, the best move, the host's extra points with the reason), under
the consent rules: a member who refused publication is «Игрок N» in every line another
reads, a reason the host wrote with their nickname included, and sees their own."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game
from games.ratings import tasks
from tests.factories import set_consent
from tests.games.ratings.scored import BONUS, COMMISSAR, played
from tests.games.recording import Table

pytestmark = pytest.mark.django_db

WHY = re.compile(r'<details class="why"( open)?>(.*?)</details>', re.S)


def disclosures(page: str) -> list[tuple[bool, str]]:
    """Each score's disclosure: open or not, and its text without the markup."""
    return [
        (bool(opened), " ".join(re.sub(r"<[^>]+>", " ", body).split()))
        for opened, body in WHY.findall(page)
    ]


def as_member(member: User | None) -> Client:
    client = Client()
    if member is not None:
        client.force_login(member)
    return client


@pytest.fixture
def game(table: Table) -> tuple[Game, list[User]]:
    """The town's win with a best move, the host's extra points to the commissar with a
    reason naming seat 2's player, who refused publication."""
    reason = {**BONUS, "reason": "раскусил Лису с первой проверки"}
    game, players = played(table, reason)
    tasks.game_analyse(game.pk)
    shy = players[1]
    set_consent(shy, consent=False)
    return game, players


def test_every_score_on_the_game_page_opens_to_its_lines(game: tuple[Game, list[User]]) -> None:
    played_game, _players = game
    page = as_member(None).get(f"/games/{played_game.pk}/").content.decode()
    shown = disclosures(page)
    assert len(shown) == 12 and not any(opened for opened, _text in shown)
    commissar = shown[COMMISSAR - 1][1]
    assert commissar.startswith("За что 2,30")
    assert "проверка нашла чёрного: 2 (Игрок 2) +0,30" in commissar
    assert "выставление чёрного игрока: 3 (Барон) +0,20" in commissar
    assert "победа красных (города) +1,00" in commissar
    # The reason as the host wrote it («Лису»), with «место 2» for the hidden nickname.
    assert "дополнительные баллы от ведущего: «раскусил место 2 с первой проверки» +0,30" in (
        commissar
    )
    assert (
        "лучший ход, два из названных чёрные: 1 (Ворон), 2 (Игрок 2), 9 (Граф) +0,25"
        in (shown[5][1])
    )
    # A lost game's score says why it is nothing.
    assert shown[0][1] == "За что 0,00 Ни одной строки: игра сама по себе очков не даёт."
    assert "Лиса" not in page


def test_a_member_sees_their_own_score_open_and_their_own_name(
    game: tuple[Game, list[User]],
) -> None:
    played_game, players = game
    shy = players[1]
    page = as_member(shy).get(f"/games/{played_game.pk}/").content.decode()
    shown = disclosures(page)
    assert [opened for opened, _text in shown].count(True) == 1 and shown[1][0]
    assert "Лиса" in page  # their own seat, to themselves
    assert "«раскусил Лису с первой проверки»" in shown[COMMISSAR - 1][1]
    # Another member sees them as their seat.
    other = as_member(players[4]).get(f"/games/{played_game.pk}/").content.decode()
    assert "Лиса" not in other and disclosures(other)[4][0]


def test_every_score_on_the_players_page_opens_under_the_same_rules(
    game: tuple[Game, list[User]],
) -> None:
    _played_game, players = game
    commissar, shy = players[COMMISSAR - 1], players[1]
    page = as_member(None).get(f"/players/{commissar.pk}/").content.decode()
    shown = disclosures(page)
    assert len(shown) == 2  # the best games' and the recent games' rows: the same game
    for _opened, text in shown:
        assert text.startswith("За что 2,30")
        assert "проверка нашла чёрного: 2 (Игрок 2) +0,30" in text
        assert "«раскусил место 2 с первой проверки»" in text
    assert "Лиса" not in page
    # The shy member's page is theirs alone, with their lines, named to themselves.
    assert as_member(None).get(f"/players/{shy.pk}/").status_code == 404
    assert as_member(players[4]).get(f"/players/{shy.pk}/").status_code == 404
    own = as_member(shy).get(f"/players/{shy.pk}/").content.decode()
    assert disclosures(own)[0][1].startswith("За что 0,00 Ни одной строки")
    # Seen by the commissar himself, the hidden player stays «Игрок 2».
    mine = as_member(commissar).get(f"/players/{commissar.pk}/").content.decode()
    assert "Лис" not in mine and "«раскусил место 2 с первой проверки»" in mine


def test_the_english_page_labels_each_line(game: tuple[Game, list[User]]) -> None:
    played_game, _players = game
    client = as_member(None)
    client.cookies["django_language"] = "en"
    shown = disclosures(client.get(f"/games/{played_game.pk}/").content.decode())
    commissar = shown[COMMISSAR - 1][1]
    assert commissar.startswith("Why 2.30")
    assert "a check found black: 2 (Player 2) +0.30" in commissar
    assert "extra points from the host: «раскусил seat 2 с первой проверки» +0.30" in commissar
