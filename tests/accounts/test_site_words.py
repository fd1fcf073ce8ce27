"""The site's own words are no nickname (#37): a guest is «Гость» on an evening's list and a
player whose name is not shown is «Игрок 3» on the game's pages, so a member called
«Гость» or «Игрок 3» would pass for one. They are refused in both of the site's languages,
in any letter case, with a number or without, and in look-alike letters (accounts/
validation.py's reads_as_a_site_word); a longer name that holds such a word is welcome."""

import pytest
from django.test import Client

from accounts import services
from accounts.models import User
from accounts.validation import reads_as_a_site_word
from club.kernel.errors import RefusalCode, Refused
from tests.accounts.test_sign_up import sign_up

pytestmark = pytest.mark.django_db

REFUSED = [
    ("Гость", "Гость"),
    ("гость 2", "Гость"),
    ("ГОСТЬ_12", "Гость"),
    ("Г0сть", "Гость"),  # a zero for the «о»
    ("Игрок", "Игрок"),
    ("Игрок 3", "Игрок"),
    ("игрок3", "Игрок"),
    ("Игрок-100", "Игрок"),
    ("Игрок З", "Игрок"),  # a Cyrillic «З» for the «3»
    ("Guest", "Guest"),
    ("guest 7", "Guest"),
    ("Player", "Player"),
    ("PLAYER 12", "Player"),
    ("player_1", "Player"),
    ("P1ayer", "Player"),  # a one for the «l»
]
WELCOME = ["Гостья", "Гости", "Игроки", "Игрок Ночи", "Гость Петя", "Player One", "Guesto", "Ворон"]


@pytest.mark.parametrize(("nickname", "word"), REFUSED)
def test_a_nickname_that_reads_as_the_site_s_word_is_refused_at_sign_up(
    client: Client, nickname: str, word: str
) -> None:
    answer = sign_up(client, nickname=nickname)
    assert answer.status_code == 200
    assert (
        f"«{word}» — так сайт называет гостя или игрока, чьё имя не показано, поэтому "
        "никнеймом это быть не может" in answer.content.decode()
    )
    assert not User.objects.exists()


def test_the_refusal_speaks_english_and_names_the_field_at_every_door() -> None:
    """nickname_clean is the rule of every door that names a member (the sign-up page,
    the bot, the Mini App, the admin)."""
    client = Client()
    client.cookies["django_language"] = "en"
    page = sign_up(client, nickname="Player 4").content.decode()
    assert "The site writes «Player» for a guest or a player whose name is not shown" in page
    with pytest.raises(Refused) as refused:
        services.nickname_clean("игрок 9")
    assert refused.value.code == RefusalCode.INVALID
    assert list(refused.value.details["fields"]) == ["nickname"]


@pytest.mark.parametrize(("nickname", "word"), REFUSED)
def test_what_reads_as_the_site_s_word(nickname: str, word: str) -> None:
    assert reads_as_a_site_word(nickname) == word


@pytest.mark.parametrize("nickname", WELCOME)
def test_a_name_that_only_holds_such_a_word_is_welcome(client: Client, nickname: str) -> None:
    assert reads_as_a_site_word(nickname) is None
    assert sign_up(client, nickname=nickname).status_code == 302
