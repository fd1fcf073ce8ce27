"""Who may see a member's name is decided once (games/access.may_see_name) and the pages,
the API and the links agree.

The hole it closes (#14): the game page named a non-consenting member to themselves, to
those who consented and to the game's host, while the stats linked their scores for
themselves and for staff: a staff member who was not the host saw a link beside
«Игрок N».
"""

import re
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.test import Client

from accounts.models import User
from accounts.services import api_token_create
from games.models import Game
from games.ratings import analysis
from tests.factories import make_member, set_consent
from tests.games.recording import TOWN_WINS, Table, record, start_game
from tests.games.test_consent import finished_online_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def shy_game(table: Table) -> tuple[Game, User, User]:
    host, evening, players = table
    shy = players[0]
    set_consent(shy, consent=False)
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    analysis.game_analysis_build(game_id=game.pk)
    analysis.ratings_replay()
    return game, host, shy


def row_of_seat_one(viewer: User | None, game: Game) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {api_token_create(member=viewer).key}"} if viewer else {}
    answer = Client(headers=headers).get(f"/api/v1/games/{game.pk}/analysis")
    row: dict[str, Any] = next(r for r in answer.json()["scores"] if r["seat"] == 1)
    return row


def test_each_viewer_sees_the_name_and_the_link_by_one_rule(
    shy_game: tuple[Game, User, User],
) -> None:
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


def test_a_host_who_refused_publication_is_named_by_the_same_rule(table: Table) -> None:
    host, evening, players = table
    type(host).objects.filter(pk=host.pk).update(nickname="Тихий")
    set_consent(host.pk, consent=False)
    host.refresh_from_db()
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    online = finished_online_game(host, players[2:])
    staff = make_member(nickname="Сотрудник", is_staff=True)
    stranger = make_member(nickname="Прохожий")
    for page in (f"/games/{game.pk}/?public", f"/games/{online.pk}/"):
        named = {
            who: "Тихий" in web(viewer).get(page).content.decode()
            for who, viewer in (
                ("visitor", None), ("member", stranger), ("staff", staff), ("themselves", host)
            )
        }  # fmt: skip
        assert named == {"visitor": False, "member": False, "staff": True, "themselves": True}
    set_consent(host.pk, consent=True)
    assert "Тихий" in Client().get(f"/games/{game.pk}/").content.decode()


def test_the_lists_for_members_keep_every_name(table: Table) -> None:
    """An evening's sign-up list and the host's seating screens are not publications
    (RULES.md §C): they name a member who refused publication to members, and the member
    sees their own name in the menu."""
    host, evening, players = table
    shy = players[0]
    type(shy).objects.filter(pk=shy.pk).update(nickname="Скромный")
    set_consent(shy.pk, consent=False)
    assert "Скромный" in web(make_member()).get(f"/evenings/{evening.pk}/").content.decode()
    assert "Скромный" not in Client().get(f"/evenings/{evening.pk}/").content.decode()
    seating = web(host).get(f"/evenings/{evening.pk}/games/new/").content.decode()
    assert "Скромный" in seating
    assert "Скромный" in web(host).get("/online/new/").content.decode()
    assert "Скромный" in web(shy).get("/accounts/profile/").content.decode()


def web(viewer: User | None) -> Client:
    client = Client()
    if viewer is not None:
        client.force_login(viewer)
    return client


# --- templates name members through {% member_name %} only ------------------------------

# What prints a member's name in a template: the attribute, the model's own name methods,
# and a member printed whole (User.__str__ is the nickname) under the names members go by.
NAME_ATTRIBUTE = re.compile(r"\.(nickname|get_username|get_full_name|get_short_name)\b")
MEMBER_VALUED = {"user", "member", "host", "author", "uploaded_by", "created_by"}
PRINTED = re.compile(r"{{\s*(.*?)\s*}}", re.S)
TAG = re.compile(r"{%\s*(\w+)(.*?)%}", re.S)
ASSIGNED = re.compile(r"\b\w+=([\w.]+)")  # `with nick=user` in blocktranslate, with, include


def club_templates() -> list[Path]:
    """Every template of the club's own: the project's folder and its apps' (not Django's
    admin, which is staff's and names everyone to staff)."""
    root = Path(settings.BASE_DIR)
    dirs = settings.TEMPLATES[0]["DIRS"]
    assert isinstance(dirs, list)
    folders = [Path(folder) for folder in dirs]
    folders += [
        Path(app.path) / "templates"
        for app in apps.get_app_configs()
        if Path(app.path).is_relative_to(root) and ".venv" not in Path(app.path).parts
    ]
    return sorted(path for folder in folders if folder.is_dir() for path in folder.rglob("*.*"))


def names_printed_outside_the_tag(text: str) -> list[str]:
    found = [match.group(0) for match in NAME_ATTRIBUTE.finditer(text)]
    assigned = [
        value
        for tag, arguments in TAG.findall(text)
        if tag != "member_name"
        for value in ASSIGNED.findall(arguments)
    ]
    for expression in [*PRINTED.findall(text), *assigned]:
        variable = expression.split("|")[0].strip()
        if variable.split(".")[-1] in MEMBER_VALUED:
            found.append(expression)
    return found


def test_the_scan_finds_a_name_printed_outside_the_tag() -> None:
    """The scan below is only as good as what it finds: every way of printing a name."""
    printed = [
        "{{ game.host.nickname }}",
        "{{ game.host }}",
        "{{ registration.member|default:'' }}",
        "{% blocktranslate with nick=user.nickname %}{{ nick }}{% endblocktranslate %}",
        "{% blocktranslate with who=seat.member %}{{ who }}{% endblocktranslate %}",
        "{{ user.get_username }}",
    ]
    assert all(names_printed_outside_the_tag(text) for text in printed)
    allowed = [
        "{% member_name game.host game=game as host_name %}{{ host_name }}",
        "{% member_name registration.member among_members=True %}",
        "{% member_name user viewer=user as nick %}",
        "{{ row.nick }} {{ user.pk }} {% if user.is_authenticated %}{% endif %}",
        "{% translate 'With your nickname or email' %}",
    ]
    assert not [text for text in allowed if names_printed_outside_the_tag(text)]


def test_no_template_prints_a_members_name_but_through_member_name() -> None:
    """RULES.md §C is asked in one place (games/access.may_see_name), and templates reach
    it through one tag: a template printing `.nickname` (or a member whole) could name a
    member who refused publication to anyone, as the game page named its host (#24)."""
    templates = club_templates()
    assert any(path.name == "game.html" for path in templates)
    found = {
        str(path.relative_to(settings.BASE_DIR)): names
        for path in templates
        if (names := names_printed_outside_the_tag(path.read_text()))
    }
    assert found == {}
