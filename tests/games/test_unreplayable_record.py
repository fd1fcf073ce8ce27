"""A game whose stored record no longer replays (its table changed after it was played):
admin refuses the change that would cause it, and every door of such a game says so, in
the reader's language, rather than failing."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.test import Client

from accounts.services import api_token_create
from games.models import Game, Seat
from tests.factories import make_member
from tests.games.recording import TOWN_WINS, Table, record, start_game

pytestmark = pytest.mark.django_db

SAYS = {
    "ru": "Сохранённая запись этой игры больше не воспроизводится",
    "en": "The stored record of this game no longer replays",
}


class _FormFields(HTMLParser):
    """The fields a browser would post from the page's form `form_id`: inputs (a checkbox
    only when checked), selects (the selected option) and textareas."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id, self.inside = form_id, False
        self.fields: list[tuple[str, str]] = []
        self._select: str | None = None
        self._first_option: str | None = None
        self._chosen = False
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.inside = attr.get("id") == self.form_id
        if not self.inside:
            return
        name = attr.get("name")
        if tag == "input" and name and attr.get("type") not in ("submit", "button", "file"):
            if attr.get("type") not in ("checkbox", "radio") or "checked" in attr:
                self.fields.append((name, attr.get("value", "on")))
        elif tag == "select" and name:
            self._select, self._first_option, self._chosen = name, None, False
        elif tag == "option" and self._select is not None:
            value = attr.get("value", "")
            self._first_option = value if self._first_option is None else self._first_option
            if "selected" in attr:
                self.fields.append((self._select, value))
                self._chosen = True
        elif tag == "textarea" and name:
            self._textarea = name
            self.fields.append((name, ""))

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            name, text = self.fields.pop()
            self.fields.append((name, text + data))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select" and self._select is not None:
            if not self._chosen and self._first_option is not None:
                self.fields.append((self._select, self._first_option))
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def admin_form(page: str, form_id: str) -> dict[str, str]:
    parser = _FormFields(form_id)
    parser.feed(page)
    return dict(parser.fields)


def finished_game(table: Table) -> Game:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    assert game.finished
    return game


def test_admin_neither_adds_nor_deletes_a_seat_of_a_game_with_events(table: Table) -> None:
    game = finished_game(table)
    admin = make_member(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    url = f"/admin/games/game/{game.pk}/change/"
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "seats-0-DELETE" not in text  # no box to tick
    assert "фиксированы" in text  # the table's heading says why
    form = admin_form(text, "game_form")
    assert form["seats-INITIAL_FORMS"] == "12"
    # As a crafted post would: seat 6 ticked for deletion, and a thirteenth seat added.
    newcomer = make_member()
    form |= {
        "seats-5-DELETE": "on",
        "seats-TOTAL_FORMS": "13",
        "seats-12-number": "13",
        "seats-12-member": str(newcomer.pk),
        "seats-12-role": "civilian",
        "seats-12-game": str(game.pk),
        "_continue": "1",
    }
    client.post(url, form)
    numbers = list(Seat.objects.filter(game=game).values_list("number", flat=True))
    assert numbers == list(range(1, 13))
    assert client.get(f"/games/{game.pk}/?public=1").status_code == 200


def test_admin_still_corrects_the_seats_of_a_game_before_its_first_event(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    admin = make_member(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    text = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "seats-0-DELETE" in text and "фиксированы" not in text


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_door_of_a_game_whose_record_no_longer_replays_says_so(
    table: Table, language: str
) -> None:
    host = table[0]
    game = finished_game(table)
    Seat.objects.filter(game=game, number=6).delete()  # as a change behind admin's back
    admin = make_member(is_staff=True, is_superuser=True)
    anonymous, hosting, admin_client = Client(), Client(), Client()
    hosting.force_login(host)
    admin_client.force_login(admin)
    for client in (anonymous, hosting, admin_client):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    says = SAYS[language]

    for client in (anonymous, hosting, admin_client):
        for url in (f"/games/{game.pk}/", f"/games/{game.pk}/?public=1"):
            page = client.get(url)
            assert page.status_code == 409, url
            assert says in page.content.decode()
    # Whoever runs the game is told the engine's reason; the public is not.
    assert "12" in hosting.get(f"/games/{game.pk}/").content.decode().split(says)[1]
    assert "<q>" not in anonymous.get(f"/games/{game.pk}/").content.decode()

    auth = {"Authorization": f"Bearer {api_token_create(member=host).key}"}
    api = Client()
    api.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    answers = [
        api.get(f"/api/v1/games/{game.pk}", headers=auth),
        api.get(f"/api/v1/games/{game.pk}/protocol", headers=auth),
        api.get(f"/api/v1/games/{game.pk}/analysis"),
        api.post(
            f"/api/v1/games/{game.pk}/events",
            {"type": "bonus", "seat": 1, "points": 0.1, "reason": "x", "seq": game.last_seq + 1},
            content_type="application/json",
            headers=auth,
        ),
        hosting.post(
            f"/games/{game.pk}/tap/",
            {
                "seq": game.last_seq + 1,
                "event": {"type": "undo"},
                "client_id": "u",
                "confirmed": True,
            },
            content_type="application/json",
        ),
        hosting.get(f"/games/{game.pk}/head/?seq=0"),
    ]
    for answer in answers:
        assert answer.status_code == 409, answer.content.decode()
        assert answer.json()["code"] == "unreplayable"
        assert answer.json()["detail"].startswith(says)

    bonus = hosting.post(
        f"/games/{game.pk}/bonus/", {"seat": "1", "points": "0.1", "reason": "x"}, follow=True
    )
    assert bonus.status_code == 409 and says in bonus.content.decode()
    assert admin_client.get(f"/admin/games/game/{game.pk}/change/").status_code == 200
    exported = admin_client.post(
        "/admin/games/game/",
        {"action": "export_protocols", "_selected_action": [game.pk]},
        follow=True,
    )
    assert exported.status_code == 200 and says in exported.content.decode()
    game.refresh_from_db()
    assert game.last_seq == len(TOWN_WINS)  # nothing was recorded on it


def test_a_rescore_goes_on_past_a_game_that_no_longer_replays(table: Table) -> None:
    from games.ratings.analysis import analyses_rebuild, game_analysis_build
    from games.ratings.models import GameAnalysis

    game = finished_game(table)
    assert game_analysis_build(game_id=game.pk)
    Seat.objects.filter(game=game, number=6).delete()
    GameAnalysis.objects.filter(game=game).update(digest="")  # as if the scheme had changed
    assert analyses_rebuild() == []  # no exception: the game keeps the analysis it had
    assert GameAnalysis.objects.filter(game=game).exists()
