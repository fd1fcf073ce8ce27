"""A guest's name is told apart (#37): «петя» was taken beside «Петя», and a guest «Ворон»
while the member Ворон sat at the table, where the host's screen showed «6 Ворон» with
nothing to say which. A guest's name now follows the nicknames' look-alike rule
(accounts/lookalikes.py) against every member's nickname and the evening's other guests,
is no word of the site's own («Гость», «Игрок 3»), and a guest's seat says «гость» on
the host's screen and the game's page to whoever sees the guest's name.

The line-up's form is the one door that names a guest (the host seats the evening's
guests by id): each refusal is checked there, in the organiser's language, and nothing
is written."""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from accounts.models import User
from club import lineup
from club.kernel.errors import RefusalCode, Refused
from club.models import Evening, Guest
from games.models import Game
from games.starting import game_create, present_players
from tests.club.test_lineup import LINEUP_12
from tests.factories import make_evening, make_member, sign_up_many
from tests.games.recording import make_host

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
MEMBER = "никнейм участника клуба"
SITE_WORD = "так сайт называет гостя или игрока, чьё имя не показано"
MIXED = "смешивает латинские и кириллические буквы"


@dataclass(frozen=True)
class Door:
    """An evening an hour away with the members Петя and Ворон, and its organiser's client."""

    evening: Evening
    host: User
    client: Client

    def add(self, name: str) -> tuple[int, str]:
        answer = self.client.post(
            f"/evenings/{self.evening.pk}/lineup/guest/",
            {"name": name, "of_age": "1"},
            headers=HTMX,
        )
        return answer.status_code, answer.content.decode()


@pytest.fixture
def door() -> Door:
    evening = make_evening(
        capacity=12,
        starts_at=timezone.now() + timedelta(hours=1),
        opens_at=timezone.now() - timedelta(days=1),
    )
    for nickname in ("Петя", "Ворон"):
        make_member(nickname=nickname)
    host = make_host(nickname="Организатор")
    client = Client()
    client.force_login(host)
    return Door(evening, host, client)


def said(body: str) -> str:
    """The refusal the answer shows above the guest's form."""
    found = re.search(r'id="guest-said" class="notice error" role="alert">([^<]*)<', body)
    assert found is not None, "no refusal shown"
    return html.unescape(found.group(1))


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # A member's nickname in any letter case, and in look-alike letters.
        ("петя", f"«Петя» — {MEMBER}"),
        ("Ворон", f"«Ворон» — {MEMBER}"),
        ("ВОРОН", f"«Ворон» — {MEMBER}"),
        ("BOPOH", f"Имя «BOPOH» слишком похоже на «Ворон» — {MEMBER}"),  # all Latin
        ("Bop0h", f"Имя «Bop0h» слишком похоже на «Ворон» — {MEMBER}"),  # and a zero
        ("Вoрон", MIXED),  # a Latin «o» among Cyrillic letters
        # The site's own words for a guest and for a player whose name is not shown.
        ("Гость", f"«Гость» — {SITE_WORD}"),
        ("гость 2", f"«Гость» — {SITE_WORD}"),
        ("Игрок 3", f"«Игрок» — {SITE_WORD}"),
        ("Игрок №3", f"«Игрок» — {SITE_WORD}"),
        ("Guest", f"«Guest» — {SITE_WORD}"),
        ("PLAYER_7", f"«Player» — {SITE_WORD}"),
        ("Г0сть (2)", f"«Гость» — {SITE_WORD}"),
    ],
)
def test_a_guest_named_like_a_member_or_as_the_site_s_word_is_refused_and_not_written(
    door: Door, name: str, expected: str
) -> None:
    status, body = door.add(name)
    assert status == 422
    assert expected in said(body)
    assert not Guest.objects.exists()


def test_a_guest_named_like_another_guest_of_the_evening_is_refused_naming_them(
    door: Door,
) -> None:
    assert door.add("Света")[0] == 200
    # The same name again (a form sent twice, most likely) keeps its own words.
    status, body = door.add(" СВЕТА ")
    assert status == 409 and "Света — уже в списке вечера" in said(body)
    # In Latin capitals «CBETA» reads as «СВЕТА».
    status, body = door.add("CBETA")
    assert status == 422
    assert "Имя «CBETA» слишком похоже на «Света» — гостя, который уже есть в списке" in said(body)
    assert list(Guest.objects.values_list("name", flat=True)) == ["Света"]
    # Names a person tells apart are welcome: an initial, a word more, the site's word
    # inside a longer name.
    for name in ("Света К.", "Петя-2 гость Лисы", "Ворона", "Гость Петя"):
        assert door.add(name)[0] == 200, name
    assert Guest.objects.count() == 5


def test_a_guest_of_another_evening_or_off_the_list_leaves_the_name_free(door: Door) -> None:
    """Only this evening's list counts among guests: the members count everywhere."""
    added = lineup.lineup_add_guest(
        evening_id=door.evening.pk, name="Олег", of_age=True, actor=door.host
    )
    other = make_evening(starts_at=timezone.now() + timedelta(days=2))
    lineup.lineup_add_guest(evening_id=other.pk, name="олег", of_age=True, actor=door.host)
    lineup.lineup_remove(registration_id=added.registration.pk, reason="by_phone", actor=door.host)
    lineup.lineup_add_guest(evening_id=door.evening.pk, name="Олег", of_age=True, actor=door.host)
    with pytest.raises(Refused) as member:
        lineup.lineup_add_guest(evening_id=other.pk, name="петя", of_age=True, actor=door.host)
    assert member.value.code == RefusalCode.INVALID and member.value.details["fields"] == {
        "name": 1
    }


def test_the_refusals_speak_english_to_an_english_speaking_organiser(door: Door) -> None:
    door.client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    for name, expected in [
        ("петя", "«Петя» is a member's nickname"),
        ("BOPOH", "The name «BOPOH» looks too much like «Ворон», a member's nickname"),
        ("Игрок 5", "The site writes «Игрок» for a guest or a player whose name is not shown"),
    ]:
        status, body = door.add(name)
        assert status == 422 and expected in said(body), name


# --- the guest's seat is marked -----------------------------------------------------------


def game_with_a_guest(host: User) -> tuple[Game, int]:
    """A 12-seat game of `host`'s with the member Ворон and the guest «Ворон К.» at the
    table: (the game, the guest's seat)."""
    evening = make_evening(
        capacity=15,
        starts_at=timezone.now() + timedelta(hours=1),
        opens_at=timezone.now() - timedelta(days=1),
    )
    sign_up_many(evening, 10)
    lineup.lineup_add_member(
        evening_id=evening.pk, member_id=make_member(nickname="Ворон").pk, actor=host
    )
    lineup.lineup_add_guest(evening_id=evening.pk, name="Ворон К.", of_age=True, actor=host)
    present = present_players(evening)
    seated = list(enumerate(zip(present, LINEUP_12, strict=True), 1))
    seats = {n: (person.player, role) for n, (person, role) in seated}
    game = game_create(host=host, evening_id=evening.pk, seats=seats)
    return game, next(n for n, (person, _role) in seated if person.guest is not None)


def test_the_host_s_screen_and_the_game_s_page_mark_the_guest_s_seat() -> None:
    host = make_host(nickname="Ведущая")
    game, guest = game_with_a_guest(host)
    client = Client()
    client.force_login(host)
    page = client.get(f"/games/{game.pk}/").content.decode()
    carried = re.search(r'id="host-data" type="application/json">(.*?)</script>', page, re.S)
    assert carried is not None
    data = json.loads(carried.group(1))
    assert data["guests"] == [guest]
    assert data["nicks"][str(guest)] == "Ворон К."
    public = client.get(f"/games/{game.pk}/?public").content.decode()
    seat = re.search(rf'<span class="no">{guest}</span>(.*?)</div>', public, re.S)
    assert seat is not None and '<span class="guest">гость</span>' in seat.group(1)
    assert public.count('<span class="guest">') == 1
    # Where the guest is «Игрок N» nothing says a guest sits there.
    anonymous = Client().get(f"/games/{game.pk}/").content.decode()
    assert f"Игрок {guest}" in anonymous and '<span class="guest">' not in anonymous
