"""Hostile input at the line-up's doors (#27), on PostgreSQL: the members' search and the
guest's form. Each answer is a refusal in the organiser's language, naming what is wrong,
or a correct (maybe empty) result; a refusal changes nothing; nothing answers 5xx; and
the search does bounded work whatever is sent (one query, LIMIT FOUND_LIMIT, a search
longer than a nickname refused before anything reads it).

The search matches a nickname as it looks: any letter case, «ё» as «е», a Latin look-alike
letter as the Cyrillic one (accounts/lookalikes.py), invisible characters taken out, and
«%» and «_» as themselves, not SQL's wildcards.

What it found: a phone of 21 characters passed the form's pattern and broke the 20-character
column (a 500); a guest's name kept control characters, zero-width spaces and direction
overrides (a name shown reversed or doubled on the hosts' screens); «Алена» did not find
«Алёна», nor «Лисa» (a Latin «a») «Лиса»; a search of 1 MB was echoed back whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from accounts.models import MembershipStatus, User
from club import lineup
from club.kernel.errors import Refused
from club.models import Evening, Guest, LineupChange, Registration
from notifications.models import Notification
from tests.examples import examples
from tests.factories import make_evening, make_member, set_standing, sign_up_many
from tests.games.recording import make_host

pytestmark = pytest.mark.django_db

NICKNAMES = ["Лиса", "Лисёнок", "Алёна", "Ворон", "Кот_Бегемот", "Lisa", "Игрок 100"]
HTMX = {"HX-Request": "true"}
FOUND = {**HTMX, "HX-Target": "found"}


@dataclass(frozen=True)
class Door:
    """An evening an hour away, its organiser's client, and the members to find."""

    evening: Evening
    host: User
    client: Client
    members: dict[str, User]

    def url(self, tail: str = "") -> str:
        return f"/evenings/{self.evening.pk}/lineup/{tail}"

    def search(self, query: str) -> list[str]:
        return [m.nickname for m in lineup.members_to_add(evening=self.evening, query=query)]


@pytest.fixture
def door() -> Door:
    evening = make_evening(
        capacity=3,
        starts_at=timezone.now() + timedelta(hours=1),
        opens_at=timezone.now() - timedelta(days=1),
    )
    members = {nick: make_member(nickname=nick) for nick in NICKNAMES}
    sign_up_many(evening, 2)
    host = make_host(nickname="Организатор")
    client = Client()
    client.force_login(host)
    return Door(evening, host, client, members)


def english(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def rows() -> tuple[int, ...]:
    """What a refused request must leave as it was."""
    return (
        User.objects.count(),
        Guest.objects.count(),
        Registration.objects.count(),
        LineupChange.objects.count(),
        Notification.objects.count(),
    )


@pytest.fixture
def unchanged() -> Iterator[None]:
    before = rows()
    yield
    assert rows() == before, "a refused request changed data"


# --- the members' search ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "found"),
    [
        # Letter case, «ё» and «е», look-alike letters.
        ("лиса", ["Лиса"]),
        ("ЛИСА", ["Лиса"]),
        ("лИсА", ["Лиса"]),
        ("Алена", ["Алёна"]),
        ("АЛЁНА", ["Алёна"]),
        ("лисенок", ["Лисёнок"]),
        ("Лисa", ["Лиса"]),  # a Latin «a»
        ("Вoрон", ["Ворон"]),  # a Latin «o»
        ("BOPOH", ["Ворон"]),  # all Latin, in capitals as «ВОРОН» looks
        ("Ｌｉｓａ", ["Lisa"]),  # full-width Latin
        ("Lisa", ["Lisa"]),  # Latin is not Cyrillic: «Лиса» looks otherwise
        # Those who begin with it first, then the rest.
        ("лис", ["Лиса", "Лисёнок"]),
        ("иса", ["Лиса"]),
        # Invisible characters (pasted from a chat) are taken out.
        ("Ли\u200bса", ["Лиса"]),  # a zero-width space
        ("\u202eЛиса", ["Лиса"]),  # a right-to-left override
        ("\u2067Лиса\u2069", ["Лиса"]),  # an isolate and its end
        ("\ufeffЛиса\u200d", ["Лиса"]),  # a byte-order mark, a zero-width joiner
        ("Лиса\x07\x1b", ["Лиса"]),  # controls
        ("\tЛиса\n", ["Лиса"]),
        # SQL's LIKE wildcards are characters like any other.
        ("%", []),
        ("%ис%", []),
        ("Л_са", []),
        ("_", ["Кот_Бегемот"]),
        ("Кот_", ["Кот_Бегемот"]),
        ("\\", []),
        ("\\%", []),
        ("'; DROP TABLE accounts_user; --", []),
        # Spaces fold; a nickname holds no other letters.
        ("  Игрок   100 ", ["Игрок 100"]),
        ("٣", []),
        ("🙂", []),
        ("", []),
        ("\u200b\u200b", []),
    ],
)
def test_the_search_matches_a_nickname_as_it_looks(
    door: Door, query: str, found: list[str]
) -> None:
    assert door.search(query) == found


def test_the_search_leaves_out_the_suspended_and_those_on_the_list(door: Door) -> None:
    set_standing(door.members["Лисёнок"], MembershipStatus.SUSPENDED)
    lineup.lineup_add_member(
        evening_id=door.evening.pk, member_id=door.members["Лиса"].pk, actor=door.host
    )
    assert door.search("лис") == []
    assert door.search("Лисa") == []  # nor by a look-alike
    assert door.search("Алёна") == ["Алёна"]


def test_the_search_is_one_bounded_query_and_a_long_one_reads_nothing(door: Door) -> None:
    with CaptureQueriesContext(connection) as captured:
        door.search("а" * lineup.SEARCH_MAX)
    assert len(captured) == 1
    assert f"LIMIT {lineup.FOUND_LIMIT}" in captured[0]["sql"]
    for query in ("а" * (lineup.SEARCH_MAX + 1), "x" * 10_000, "Л" * 1_000_000):
        with CaptureQueriesContext(connection) as captured, pytest.raises(Refused) as refused:
            door.search(query)
        assert len(captured) == 0
        assert refused.value.details["fields"] == {"q": 1}
    # At most FOUND_LIMIT, however many match.
    for n in range(2 * lineup.FOUND_LIMIT):
        make_member(nickname=f"Лиса {n}")
    assert len(door.search("лиса")) == lineup.FOUND_LIMIT


@pytest.mark.parametrize("size", [lineup.SEARCH_MAX + 1, 10_000, 1_000_000])
def test_a_search_longer_than_a_nickname_is_refused_in_the_organiser_s_language(
    door: Door, size: int, unchanged: None
) -> None:
    query = "Лиса" * (size // 4 + 1)
    part = door.client.get(door.url(), {"q": query}, headers=FOUND)
    page = door.client.get(door.url(), {"q": query})
    for answer in (part, page):
        assert answer.status_code == 422
        assert "Никнейма длиннее 32 символов не бывает" in answer.content.decode()
    # The search box shows no more than a nickname's length of it.
    box = re.search(r'id="member-search" name="q" value="([^"]*)"', page.content.decode())
    assert box is not None and len(box.group(1)) <= lineup.SEARCH_MAX
    assert 'role="alert"' in part.content.decode()
    said = english(door.client).get(door.url(), {"q": query}, headers=FOUND).content.decode()
    assert "No nickname is longer than 32 characters: shorten the search." in said


def test_a_nul_in_the_search_is_refused_by_the_address_rule(door: Door, unchanged: None) -> None:
    for query in ("Ли\x00са", "\x00"):
        answer = door.client.get(door.url(), {"q": query}, headers=FOUND)
        assert answer.status_code == 400
        assert "В адресе есть символ NUL" in answer.content.decode()


def test_the_search_answers_its_part_with_what_it_found(door: Door) -> None:
    answer = door.client.get(door.url(), {"q": "АЛЕНА"}, headers=FOUND)
    assert answer.status_code == 200
    body = answer.content.decode()
    assert body.lstrip().startswith('<ul id="found"') and "Алёна" in body
    empty = door.client.get(door.url(), {"q": "%"}, headers=FOUND).content.decode()
    assert "Не нашлось участников, которых ещё нет в списке." in empty


@hypothesis_settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_any_piece_of_a_nickname_finds_it_however_it_is_typed(
    door: Door, data: st.DataObject
) -> None:
    """A piece of a member's nickname, typed in any letter case, with «е» for «ё» or the
    other way round, and invisible characters anywhere, finds the member."""
    nickname = data.draw(st.sampled_from(NICKNAMES))
    start = data.draw(st.integers(0, len(nickname) - 1))
    end = data.draw(st.integers(start + 1, len(nickname)))
    piece = ""
    for letter in nickname[start:end]:
        letter = data.draw(st.sampled_from([letter.lower(), letter.upper()]))
        letter = {"ё": "е", "Ё": "Е"}.get(letter, letter) if data.draw(st.booleans()) else letter
        piece += letter + data.draw(st.sampled_from(["", "", "", "\u200b", "\u2066", "\x01"]))
    if not lineup.search_text(piece):
        return  # spaces and invisible characters only: nothing to search
    found = lineup.members_to_add(evening=door.evening, query=piece)
    assert door.members[nickname] in found or len(found) == lineup.FOUND_LIMIT, (piece, found)


# --- the guest's form ---------------------------------------------------------------------

NAME = "Имя гостя — от 1 до 32 символов."
INVISIBLE = "В имени гостя не может быть управляющих и невидимых символов."
PHONE = "Телефон — это цифры; можно с + ( ) - и пробелами."
PHONE_LONG = "Номер телефона — не более 20 символов."
TELEGRAM = "Ник в Telegram — от 5 до 32 латинских букв, цифр и _"


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"name": ""}, NAME),
        ({"name": "   "}, NAME),
        ({"name": "Я" * 33}, NAME),
        ({"name": "x" * 10_000}, NAME),
        ({"name": "Ва\x00ся"}, INVISIBLE),
        ({"name": "Ва\u200bся"}, INVISIBLE),
        ({"name": "\u202eВася"}, INVISIBLE),
        ({"name": "Вася\u2066"}, INVISIBLE),
        ({"name": "Вася\x07"}, INVISIBLE),
        ({"name": "Вася\nПетя"}, INVISIBLE),
        ({"name": "Вася\u2028Петя"}, INVISIBLE),
        ({"name": "Вася", "phone": "+1" + "2" * 18 + "3"}, PHONE_LONG),  # 21: was a 500
        ({"name": "Вася", "phone": "8" * 21}, PHONE_LONG),
        ({"name": "Вася", "phone": "8" * 10_000}, PHONE_LONG),
        ({"name": "Вася", "phone": "call me"}, PHONE),
        ({"name": "Вася", "phone": "٣٣٣٣٣٣٣"}, PHONE),  # Arabic-Indic digits
        ({"name": "Вася", "phone": "+7 900\x00000"}, PHONE),
        ({"name": "Вася", "phone": "+7 900 %_%"}, PHONE),
        ({"name": "Вася", "telegram": "@a"}, TELEGRAM),
        ({"name": "Вася", "telegram": "a" * 33}, TELEGRAM),
        ({"name": "Вася", "telegram": "x" * 10_000}, TELEGRAM),
        ({"name": "Вася", "telegram": "@@vasya"}, TELEGRAM),
        ({"name": "Вася", "telegram": "васяпупкин"}, TELEGRAM),
        ({"name": "Вася", "telegram": "vasya\u200b"}, TELEGRAM),
        ({"name": "Вася", "telegram": "1vasya"}, TELEGRAM),
        ({"name": "Вася", "telegram": "va%ya_"}, TELEGRAM),
    ],
)
def test_a_hostile_guest_is_refused_naming_the_field_and_nothing_is_written(
    door: Door, fields: dict[str, str], said: str, unchanged: None
) -> None:
    answer = door.client.post(door.url("guest/"), {"of_age": "1", **fields}, headers=HTMX)
    assert answer.status_code == 422
    body = answer.content.decode()
    assert said in body
    assert 'class="notice error" role="alert"' in body
    plain = door.client.post(door.url("guest/"), {"of_age": "1", **fields})
    assert plain.status_code == 302


def guest_form(body: str) -> str:
    """The guest's form in the answer."""
    start = body.rindex("<form", 0, body.index('/guest/"'))
    return body[start : body.index("</form>", start)]


def test_a_refused_guest_s_form_keeps_what_was_typed_and_marks_the_wrong_field(
    door: Door, unchanged: None
) -> None:
    """A refusal re-draws the form with what the organiser typed (escaped, no longer than
    the field takes), the wrong field marked; an added guest leaves the form empty."""
    typed = {"name": '<b>"Вася"', "phone": "call me", "telegram": "@vasya_k", "of_age": "1"}
    answer = door.client.post(door.url("guest/"), typed, headers=HTMX)
    assert answer.status_code == 422
    form = guest_form(answer.content.decode())
    assert 'value="&lt;b&gt;&quot;Вася&quot;"' in form
    assert 'value="call me"' in form and 'value="@vasya_k"' in form
    assert re.search(r'name="of_age"[^>]*checked', form)
    assert re.search(r'name="phone"[^>]*aria-invalid="true"', form)
    assert not re.search(r'name="name"[^>]*aria-invalid', form)
    # Far longer than the field: echoed as far as the field goes.
    long = door.client.post(door.url("guest/"), {"name": "Я" * 5000}, headers=HTMX)
    assert long.status_code == 422
    assert f'value="{"Я" * lineup.GUEST_NAME_MAX}"' in guest_form(long.content.decode())


def test_an_added_guest_leaves_the_form_empty(door: Door) -> None:
    typed = {"name": "Вася", "phone": "+7 900 000-00-00", "of_age": "1"}
    answer = door.client.post(door.url("guest/"), typed, headers=HTMX)
    assert answer.status_code == 200
    form = guest_form(answer.content.decode())
    assert "Вася" not in form and "900" not in form and "checked" not in form


def test_a_refused_message_keeps_its_text(door: Door, unchanged: None) -> None:
    answer = door.client.post(door.url("message/"), {"text": "Я" * 1001}, headers=HTMX)
    assert answer.status_code == 422
    assert "Я" * lineup.MAX_MESSAGE + "</textarea>" in answer.content.decode()


def test_a_refusal_of_the_guest_s_form_is_in_english_for_an_english_organiser(
    door: Door, unchanged: None
) -> None:
    answer = english(door.client).post(
        door.url("guest/"), {"name": "Вася", "phone": "8" * 21, "of_age": "1"}, headers=HTMX
    )
    assert answer.status_code == 422
    assert "A phone number is at most 20 characters long." in answer.content.decode()


def test_a_guest_at_the_bounds_is_taken_as_typed_spaces_folded(door: Door) -> None:
    added = lineup.lineup_add_guest(
        evening_id=door.evening.pk,
        name="  Вася   " + "Я" * 23 + " ",
        phone="+1 (234) 567-89-0123",
        telegram="@" + "v" * 32,
        of_age=True,
        actor=door.host,
    )
    guest = added.registration.guest
    assert guest is not None
    assert guest.name == "Вася " + "Я" * 23
    assert (len(guest.phone), guest.telegram_username) == (20, "v" * 32)


@pytest.mark.parametrize("tail", ["guest/", "message/", "add/", ""])
def test_a_megabyte_body_is_refused_before_it_is_read(
    door: Door, tail: str, unchanged: None
) -> None:
    body = {"name": "Я" * 1_000_000, "text": "Я" * 1_000_000, "member": "1" * 1_000_000}
    answer = door.client.post(door.url(tail), body, headers=HTMX)
    assert answer.status_code == 413
    assert "Запрос слишком велик: не больше 16 КБ." in answer.content.decode()


def test_a_message_of_the_largest_size_still_fits_the_door(door: Door) -> None:
    answer = door.client.post(
        door.url("message/"), {"text": "Я" * lineup.MAX_MESSAGE}, headers=HTMX
    )
    assert answer.status_code == 200
    assert LineupChange.objects.filter(text="Я" * lineup.MAX_MESSAGE).exists()


@pytest.mark.parametrize(
    ("member", "said", "status"),
    [
        ("", "Выберите участника, которого добавить.", 422),
        ("²", "Выберите участника, которого добавить.", 422),
        ("-1", "Выберите участника, которого добавить.", 422),
        ("1e3", "Выберите участника, которого добавить.", 422),
        ("9" * 40, "Выберите участника, которого добавить.", 422),
        ("%", "Выберите участника, которого добавить.", 422),
        (str(10**17), "Такого участника нет.", 404),
    ],
)
def test_a_hostile_member_to_add_is_refused(
    door: Door, member: str, said: str, status: int, unchanged: None
) -> None:
    answer = door.client.post(door.url("add/"), {"member": member}, headers=HTMX)
    assert answer.status_code == status
    assert said in answer.content.decode()


def test_every_line_up_refusal_above_changes_nothing_at_the_service_too(door: Door) -> None:
    """The service itself, without the door: the refusals that used to reach the database."""
    calls: list[Callable[[], object]] = [
        lambda: lineup.lineup_add_guest(
            evening_id=door.evening.pk,
            name="Вася",
            phone="+1" + "2" * 18 + "3",
            of_age=True,
            actor=door.host,
        ),
        lambda: lineup.lineup_add_guest(
            evening_id=door.evening.pk, name="\u202eВася", of_age=True, actor=door.host
        ),
        lambda: lineup.members_to_add(evening=door.evening, query="x" * 1_000_000),
    ]
    before = rows()
    for call in calls:
        with pytest.raises(Refused):
            call()
    assert rows() == before
