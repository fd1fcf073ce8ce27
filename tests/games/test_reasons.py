"""A host's reason names players by seat (games/reasons.py, issue 38 item 1): a nickname
in any grammatical form is refused at every door, a reference `{seat:N}` is read as the
nickname or «место N» by the reader's consent rules, and a reason written before the check
(or before its player refused publication) is screened as it is shown."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from club.kernel.errors import Refused
from games.models import Game
from games.queries import bonuses_given
from games.ratings import tasks
from games.reasons import Naming, find_names, refuse_names, shown
from tests.factories import set_consent
from tests.games.ratings.scored import COMMISSAR, NICKS, named, played
from tests.games.recording import Table, record
from tests.games.test_best_move_and_bonus_doors import bearer, bonus

# Each nickname with its six cases in the singular and the plural, as people write them.
FORMS = {
    "Лиса": "Лиса Лисы Лисе Лису Лисой Лисою Лисы Лис Лисам Лисами Лисах",
    "Ворон": "Ворон Ворона Ворону Вороном Вороне Вороны Воронов Воронам Воронами Воронах",
    "Сова": "Сова Совы Сове Сову Совой Совы Сов Совам Совами Совах",
    "Кот Бегемот": (
        "Кот_Бегемот Кота_Бегемота Коту_Бегемоту Котом_Бегемотом Коте_Бегемоте "
        "Коты_Бегемоты Котов_Бегемотов Котам_Бегемотам Котами_Бегемотами Котах_Бегемотах "
        "Бегемота Бегемоту"
    ),
    "Шерхан": "Шерхан Шерхана Шерхану Шерханом Шерхане",  # not in the dictionary
    "Fox": "Fox FOX Foxes Fox's Foxа Fox'у Fox-ом Foxе",
    "Raven": "Raven Ravens Raven's Ravenа Raven-у Ravenом",
}
# Words that only look like one of them: no nickname is found in them.
OTHERS = "совет котлета воронка лиственница Foxtrot Ravenclaw бегемотик доктор сыграл"


@pytest.mark.parametrize(
    ("nick", "form"),
    [(nick, form.replace("_", " ")) for nick, forms in FORMS.items() for form in forms.split()],
)
def test_a_nickname_is_found_in_every_case_and_number(nick: str, form: str) -> None:
    found = find_names(f"в конце раскусил {form}, молодец", {5: nick})
    assert [(f.seat, f.text) for f in found] == [(5, form)]


def test_words_that_only_look_like_a_nickname_are_not_found() -> None:
    names = dict(enumerate(FORMS, start=1))
    assert find_names(OTHERS, names) == []


def test_a_part_of_a_nickname_of_several_words_is_found_but_not_a_word_of_the_game() -> None:
    assert [f.text for f in find_names("Кот промолчал", {6: "Кот Бегемот"})] == ["Кот"]
    assert find_names("доктор спас комиссара", {6: "Доктор Хаус"}) == []
    assert [f.text for f in find_names("Хауса не слушали", {6: "Доктор Хаус"})] == ["Хауса"]
    assert find_names("598 раз", {6: "Игрок 598"}) == []


def test_a_reason_is_read_by_the_readers_consent_rules() -> None:
    names = {2: "Лиса", 4: "Кот Бегемот"}
    public, hidden = Naming(names, frozenset({2, 4})), Naming(names, frozenset({4}))
    reason = "раскусил {seat:2} на втором круге, {seat:4} ошибся"
    assert shown(reason, public) == "раскусил Лиса на втором круге, Кот Бегемот ошибся"
    assert shown(reason, hidden) == "раскусил место 2 на втором круге, Кот Бегемот ошибся"
    # Written in words before the check: the hidden nickname in any form is the seat.
    old = "раскусил Лису на втором круге, Коту Бегемоту не поверили"
    assert shown(old, hidden) == "раскусил место 2 на втором круге, Коту Бегемоту не поверили"
    assert shown(old, public) == old


# --- the doors ------------------------------------------------------------------------


def finished_game(table: Table) -> tuple[Game, list[Any]]:
    return played(table)


def test_every_door_refuses_a_declined_nickname_in_the_members_language(table: Table) -> None:
    host = table[0]
    game, _players = finished_game(table)
    client = Client()
    client.force_login(host)
    # The game page's form.
    page = client.post(
        f"/games/{game.pk}/bonus/",
        {"seat": "4", "points": "0.3", "reason": "раскусил Лису на втором круге"},
    )
    assert page.status_code == 422
    assert "Назовите игрока местом: «Лису» — имя места 2." in page.content.decode()
    # The host screen's tap.
    body = {"seq": game.last_seq + 1, "event": bonus(4, 0.3, "поверил Воронам")}
    tapped = client.post(f"/games/{game.pk}/tap/", body, content_type="application/json")
    assert tapped.status_code == 422
    assert tapped.json()["error"] == "Назовите игрока местом: «Воронам» — имя места 1."
    # The API.
    answer = Client().post(
        f"/api/v1/games/{game.pk}/events",
        bonus(4, 0.3, "trusted Кота Бегемота"),
        content_type="application/json",
        headers=bearer(host),
    )
    assert answer.status_code == 422
    assert answer.json()["detail"] == "Назовите игрока местом: «Кота Бегемота» — имя места 6."
    assert bonuses_given(game) == []
    # In English for whoever reads English.
    with translation.override("en"), pytest.raises(Refused) as refused:
        refuse_names(["trusted Ravens"], {7: "Raven"})
    assert refused.value.message == "Name the player by seat: «Ravens» is the name of seat 7."


def test_a_reason_by_seat_shows_the_name_until_the_member_opts_out(table: Table) -> None:
    host = table[0]
    game, players = finished_game(table)
    record(game, host, bonus(COMMISSAR, 0.3, "раскусил {seat:2} на втором круге"))
    tasks.game_analyse(game.pk)
    url = f"/games/{game.pk}/"
    assert "«раскусил Лиса на втором круге»" in Client().get(url).content.decode()
    shy = players[1]
    set_consent(shy, consent=False)
    page = Client().get(url).content.decode()
    assert "«раскусил место 2 на втором круге»" in page and "Лиса" not in page
    # Their player's page and the commissar's own page (the lines of «За что»).
    commissar = Client()
    commissar.force_login(players[COMMISSAR - 1])
    mine = commissar.get(f"/players/{players[COMMISSAR - 1].pk}/").content.decode()
    assert "раскусил место 2 на втором круге" in mine and "Лиса" not in mine
    # The host, who ran the game, still reads the name.
    host_client = Client()
    host_client.force_login(host)
    assert "«раскусил Лиса на втором круге»" in host_client.get(url + "?public=1").content.decode()


def test_named_players_are_the_sample_nicknames() -> None:
    # The nicknames the page tests look for are real-looking ones of either kind.
    assert {"Ворон", "Лиса", "Кот Бегемот"} <= set(NICKS) and callable(named)
