"""The online table's vote lists start on no one (#27): «Голос» pressed without a choice
voted for seat 1 (the catastrophe's for «Повесить всех») and spent the day's one change.
The lists open on an empty choice and the server refuses an empty vote in words, in the
reader's language, recording nothing."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.models import Game
from games.online import services as online_play
from games.online.sweep import online_sweep
from tests.factories import make_member
from tests.games.online.tables import table_of
from tests.games.recording import make_host

pytestmark = pytest.mark.django_db

MESSAGES = {
    "ru": "Сначала выберите, за кого голосуете.",
    "en": "Choose whom you vote for first.",
}


@pytest.fixture
def running() -> tuple[Game, User, dict[int, User]]:
    """Day 1 of an online game of ten, open for votes."""
    host = make_host()
    members = [make_member() for _ in range(10)]
    game = online_play.online_game_create(
        host=host, member_ids=[m.pk for m in members], starts_at=timezone.now()
    )
    assert online_sweep() == 1
    return game, host, {s.number: s.player for s in table_of(game.pk).seats}


def player(user: User, language: str = "ru") -> Client:
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def chosen(page: str, select_id: str) -> list[str]:
    """The options of a list that the page marks as chosen, by value."""
    found = re.search(rf'<select[^>]*id="{select_id}".*?</select>', page, re.S)
    assert found is not None, select_id
    return re.findall(r'<option value="([^"]*)"[^>]*selected', found.group(0))


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_vote_list_starts_on_no_one_and_an_empty_vote_is_refused(
    running: tuple[Game, User, dict[int, User]], language: str
) -> None:
    game, _host, seats = running
    client = player(seats[2], language)
    page = client.get(f"/online/{game.pk}/").content.decode()
    assert chosen(page, "vote-target") == [""]

    for headers in ({}, {"HX-Request": "true"}):
        answer = client.post(
            f"/online/{game.pk}/act/", {"type": "vote", "target": ""}, headers=headers
        )
        if headers:
            assert answer.status_code == 422
            assert MESSAGES[language] in answer.content.decode()
        else:  # a plain post: the message on the page it goes back to
            assert answer.status_code == 302
            assert MESSAGES[language] in client.get(answer["Location"]).content.decode()
    missing = client.post(
        f"/online/{game.pk}/act/", {"type": "vote"}, headers={"HX-Request": "true"}
    )
    assert missing.status_code == 422 and MESSAGES[language] in missing.content.decode()
    state = table_of(game.pk).state
    assert state.votes == {} and state.vote_count == {}  # nothing voted, no change spent


def test_after_a_vote_the_list_starts_empty_again(
    running: tuple[Game, User, dict[int, User]],
) -> None:
    """The player's vote shows in words; the list does not keep it, or «Сменить голос»
    pressed at once would spend the change on the same name."""
    game, _host, seats = running
    client = player(seats[2])
    answer = client.post(
        f"/online/{game.pk}/act/", {"type": "vote", "target": "5"}, headers={"HX-Request": "true"}
    )
    part = answer.content.decode()
    assert answer.status_code == 200 and chosen(part, "vote-target") == [""]
    assert 'id="vote-target" hx-preserve' not in part  # the browser's old choice is replaced
    page = client.get(f"/online/{game.pk}/").content.decode()
    assert chosen(page, "vote-target") == [""] and "Сейчас ваш голос: 5." in page
    assert 'id="vote-target" hx-preserve' in page  # the others' moves keep a choice in hand


def test_the_catastrophes_list_starts_on_no_one_and_an_empty_revote_is_refused(
    running: tuple[Game, User, dict[int, User]],
) -> None:
    game, host, seats = running
    a, b = 1, 2
    voters = [n for n in seats if n not in (a, b)]
    for index, voter in enumerate(voters):
        online_play.online_act(
            game_id=game.pk,
            user=seats[voter],
            event={"type": "vote", "target": a if index % 2 else b},
        )
    online_play.online_act(game_id=game.pk, user=host, event={"type": "day_end"})
    assert table_of(game.pk).state.catastrophe is not None
    client = player(seats[voters[0]])
    page = client.get(f"/online/{game.pk}/").content.decode()
    assert chosen(page, "revote-target") == [""]
    assert page.index('value=""') < page.index('value="hang_all"')
    answer = client.post(
        f"/online/{game.pk}/act/", {"type": "revote", "target": ""}, headers={"HX-Request": "true"}
    )
    assert answer.status_code == 422 and MESSAGES["ru"] in answer.content.decode()
    catastrophe = table_of(game.pk).state.catastrophe
    assert catastrophe is not None and catastrophe.votes == {}
