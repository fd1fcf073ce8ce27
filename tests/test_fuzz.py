"""Every form and API body of the site, fed hostile input by Hypothesis: NUL, right-to-left
marks and emoji in texts, digits of every script, huge numbers, offsets beyond ±15:59,
deep nesting. Nothing answers with a 5xx, and a refused request changes nothing.

The holes it closes (#14): NUL in an event string, «²» in a count or a minute, offsets
beyond ±15:59 and deep JSON all answered 500. (#24): a hash that is not ASCII at the
Telegram sign-in doors (the login widget's post, the Mini App's launch) answered 500.
(#27): a guest's phone of 21 characters at the line-up's guest form answered 500 (the
line-up's own cases: tests/club/test_lineup_input.py).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol
from urllib.parse import urlencode

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_django import Settings

from accounts.models import User
from accounts.services import api_token_create
from club.lineup import FOUND_LIMIT
from club.models import Evening, Guest, LineupChange, Registration
from games.models import Game, GameEvent, Seat
from games.online import services as online_play
from games.online.models import MafiaMessage
from games.online.sweep import online_sweep
from games.recordings.models import Recording
from notifications.models import Notification
from tests.accounts.test_mini_app import TOKEN as MINI_APP_TOKEN
from tests.accounts.test_mini_app import launch
from tests.examples import examples
from tests.factories import make_member
from tests.games.recording import evening_with_players, make_host, record, start_game

pytestmark = pytest.mark.django_db

# --- hostile values -------------------------------------------------------------------

NASTY_TEXTS = [
    "\x00",
    "a\x00b",
    "\u202eпеременная",  # right-to-left override
    "🙂🂡",
    "²",
    "٣",  # Arabic-Indic three
    "१२",  # Devanagari twelve
    "1_000",
    "9" * 40,
    "-1",
    " 7 ",
    "NaN",
    "1e309",
    "",
    " ",
    "pass",
    "hang_all",
    "2026-12-06T18:00:00+16:00",
    "9999-12-31T23:59:59-23:59",
    "0001-01-01T00:00:00+00:00",
    "2026-02-30T25:61:00",
]
texts = st.one_of(st.sampled_from(NASTY_TEXTS), st.text(max_size=30))
numbers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, 2, 3, 12, 15, 16, 30]),
)
# A lone surrogate: JSON's "\ud800" decodes to one, which no UTF-8 can carry (forms
# cannot send one: a browser encodes the form as UTF-8).
json_texts = st.one_of(texts, st.sampled_from(["\ud800", "a\udfffb"]))
scalars = st.one_of(json_texts, numbers, st.booleans(), st.none())
nested = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(json_texts, children, max_size=3)
    ),
    max_leaves=12,
)


def deep(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


json_values = st.one_of(nested, st.integers(min_value=30, max_value=3000).map(deep))
form_values = st.one_of(texts, numbers.map(str), st.sampled_from(["1", "2", "12", "0"]))


def form(fields: list[str]) -> st.SearchStrategy[dict[str, str | list[str]]]:
    """A form post over these field names, each left out or set (a list for repeats)."""
    return st.fixed_dictionaries(
        {},
        optional={
            name: st.one_of(form_values, st.lists(form_values, max_size=3)) for name in fields
        },
    )


def json_body(
    fields: dict[str, st.SearchStrategy[object]],
) -> st.SearchStrategy[dict[str, object]]:
    return st.fixed_dictionaries({}, optional={**fields, "extra": json_values})


# --- the club under test --------------------------------------------------------------


@dataclass(frozen=True)
class FuzzClub:
    """The club under test: its members by part, an evening and a live game at it, and a
    running online game."""

    host: User
    admin: User
    player: User
    online_player: User
    evening: Evening
    game: Game
    online: Game
    registrations: list[int]  # the evening's, and one that is not: the line-up's rows

    def member(self, who: str) -> User:
        members = {"host": self.host, "admin": self.admin, "player": self.player}
        return {**members, "online_player": self.online_player}[who]


@pytest.fixture
def club(settings: Settings) -> FuzzClub:
    settings.RATELIMIT_ENABLE = False  # the throttles would answer 429 before the checks
    settings.TELEGRAM_WEBHOOK_SECRET = "fuzz-secret"
    host = make_host(nickname="Ведущий фаззинга")
    admin = make_member(nickname="Админ фаззинга", is_staff=True, is_superuser=True)
    evening, players = evening_with_players(12)
    game = start_game(host, evening, players)
    record(game, host, {"type": "day", "n": 1})
    members = [make_member(telegram_id=70_000 + n) for n in range(10)]
    starts = timezone.now() + timedelta(minutes=1)
    online = online_play.online_game_create(
        host=host, member_ids=[m.pk for m in members], starts_at=starts
    )
    with time_machine.travel(starts + timedelta(seconds=1)):
        online_sweep()
    online_seat = Seat.objects.filter(game=online).first()
    assert online_seat is not None
    return FuzzClub(
        host=host,
        admin=admin,
        player=players[0],
        evening=evening,
        game=game,
        online=online,
        online_player=online_seat.player,
        registrations=[
            *Registration.objects.filter(evening=evening).values_list("pk", flat=True),
            2**40,
        ],
    )


def web(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def snapshot() -> tuple[int, ...]:
    """The rows a refused request must leave as they were."""
    return (
        User.objects.count(),
        Evening.objects.count(),
        Registration.objects.count(),
        Game.objects.count(),
        GameEvent.objects.count(),
        Seat.objects.count(),
        MafiaMessage.objects.count(),
        Recording.objects.count(),
        Guest.objects.count(),
        LineupChange.objects.count(),
    )


class Answer(Protocol):
    """What `check` reads of a test client's response."""

    status_code: int
    content: bytes


def check(send: Callable[[], Answer]) -> None:
    before = snapshot()
    response = send()
    assert response.status_code < 500, response.content[:500]
    if response.status_code >= 400:
        assert snapshot() == before, f"a refused request ({response.status_code}) changed data"


FUZZ = settings(
    max_examples=examples(80),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# --- the forms ------------------------------------------------------------------------

SEATING_FIELDS = [
    "players", "seating", "deal", "start", "role_boss", "role_mafia", "role_civilian",
    "role_commissar", "role_doctor", *(f"member_{n}" for n in range(1, 16)),
    *(f"role_at_{n}" for n in range(1, 16)),
]  # fmt: skip


@FUZZ
@given(data=st.data())
def test_the_forms_take_anything_without_a_5xx(club: FuzzClub, data: st.DataObject) -> None:
    lineup = f"/evenings/{club.evening.pk}/lineup"
    row = f"{lineup}/{data.draw(st.sampled_from(club.registrations))}"
    posts = [
        (None, "/accounts/signup/", ["nickname", "email", "birth_date", "password1", "password2"]),
        (None, "/accounts/login/", ["username", "password"]),
        (None, "/accounts/password/reset/", ["email"]),
        ("player", "/accounts/settings/", ["publication_consent"]),
        ("player", "/accounts/tokens/", ["name"]),
        ("player", f"/evenings/{club.evening.pk}/signup/", []),
        ("player", f"/evenings/{club.evening.pk}/cancel/", []),
        ("player", f"/evenings/{club.evening.pk}/confirm/", []),
        ("host", f"/evenings/{club.evening.pk}/games/new/", SEATING_FIELDS),
        ("host", "/online/new/", ["members", "starts_at", "day_minutes", "night_minutes"]),
        (
            "online_player",
            f"/online/{club.online.pk}/act/",
            ["type", "target", "seat", "minutes", "text", "reason"],
        ),
        ("host", f"/online/{club.online.pk}/act/", ["type", "seat", "minutes", "reason"]),
        ("online_player", f"/online/{club.online.pk}/chat/", ["text"]),
        # The organiser's line-up (and a member who is not one, at its doors).
        ("host", f"{lineup}/add/", ["member"]),
        ("host", f"{lineup}/guest/", ["name", "phone", "telegram", "of_age"]),
        ("host", f"{lineup}/message/", ["text", "reserve"]),
        ("host", f"{lineup}/second-table/", []),
        ("host", f"{row}/came/", ["came"]),
        ("host", f"{row}/move/", []),
        ("host", f"{row}/remove/", ["reason", "list"]),
        ("host", f"{row}/undo/", ["change", "list"]),
        ("player", f"{lineup}/guest/", ["name", "phone", "telegram", "of_age"]),
        # Who may follow the game live (games/live.py): its host, and a player refused.
        ("host", f"/games/{club.game.pk}/spectators/", ["spectators"]),
        ("player", f"/games/{club.game.pk}/spectators/", ["spectators"]),
    ]
    who, url, fields = data.draw(st.sampled_from(posts))
    body = data.draw(form(fields))
    client = web(club.member(who) if who else None)
    headers = {"HX-Request": "true"} if data.draw(st.booleans()) else {}
    check(lambda: client.post(url, body, headers=headers))


@FUZZ
@given(data=st.data())
def test_the_recording_form_and_the_protocol_import_take_anything(
    club: FuzzClub, data: st.DataObject
) -> None:
    host, admin, game = club.host, club.admin, club.game
    if data.draw(st.booleans()):
        started = data.draw(form_values)
        upload = SimpleUploadedFile(data.draw(texts) + ".wav", b"RIFF" + b"\x00" * 40)
        check(
            lambda: web(host).post(
                f"/games/{game.pk}/recording/", {"file": upload, "started_at": started}
            )
        )
        return
    document = data.draw(
        st.one_of(
            json_values,
            st.fixed_dictionaries(
                {"format": st.just("mafia-protocol/1")},
                optional={
                    "ruleset": st.sampled_from(["club", "online", "x"]),
                    "seats": json_values,
                    "events": st.lists(json_values, max_size=4),
                    "options": json_values,
                    "immune": json_values,
                },
            ),
        )
    )
    upload = SimpleUploadedFile("protocol.json", json.dumps(document).encode())
    evening = data.draw(st.sampled_from([str(club.evening.pk), "", "²", "99999999999"]))
    check(
        lambda: web(admin).post(
            "/admin/games/game/import/",
            {"protocol": upload, "evening": evening, "host": str(host.pk)},
        )
    )


# --- the Telegram sign-in doors -------------------------------------------------------

# Signatures no HMAC made: not hex, not ASCII (hmac.compare_digest refuses a str that is
# not ASCII: `hash=é` answered 500, #24), percent-escapes, the right length of the wrong.
NASTY_HASHES = ["é", "%C3%A9", "ÿ" * 64, "٣" * 64, "0" * 64, "A" * 64, "\x00"]
hashes = st.one_of(texts, st.sampled_from(NASTY_HASHES))
WIDGET_FIELDS = ["id", "first_name", "last_name", "username", "photo_url", "auth_date"]
widget_posts = st.fixed_dictionaries(
    {}, optional={"hash": hashes, **{name: form_values for name in WIDGET_FIELDS}}
)
launch_fields = st.dictionaries(
    st.one_of(st.sampled_from(["query_id", "user", "auth_date", "start_param", "hash"]), texts),
    st.one_of(hashes, json_values.map(json.dumps)),
    max_size=5,
)
# initData as a query string of any fields, a genuine launch with its hash replaced, or text.
init_data = st.one_of(
    launch_fields.map(urlencode),
    st.tuples(st.builds(launch), hashes).map(
        lambda pair: pair[0][: pair[0].index("hash=")] + "hash=" + pair[1]
    ),
    texts,
)


@FUZZ
@given(data=st.data())
def test_the_telegram_sign_in_doors_take_anything_without_a_5xx(
    club: FuzzClub, data: st.DataObject, settings: Settings
) -> None:
    """The login widget's post, the Mini App's launch and its joining form."""
    settings.TELEGRAM_BOT_TOKEN = MINI_APP_TOKEN
    client = Client()
    door = data.draw(st.sampled_from(["widget", "launch", "join", "link", "demo"]))
    body: Mapping[str, object]
    if door == "widget":
        body = data.draw(widget_posts)
        check(lambda: client.post("/accounts/telegram/login/", body))
    elif door == "launch":
        body = {"init_data": data.draw(init_data), "start": data.draw(texts)}
        check(lambda: client.post("/tg/auth/", body))
    elif door == "demo":  # the embedded site's developer page (DEBUG, no bot)
        settings.DEBUG, settings.TELEGRAM_BOT_TOKEN = True, ""
        query = data.draw(form(["member", "theme", "language"]))
        check(lambda: client.get("/dev/tg/", query))
    else:
        genuine = launch(telegram_id=data.draw(st.integers(min_value=900_000, max_value=2**40)))
        assert client.post("/tg/auth/", {"init_data": genuine}).status_code == 200
        if door == "link":  # a site member linking Telegram in the app
            body = data.draw(form(["username", "password"]))
            check(lambda: client.post("/tg/link/", body))
        else:
            body = data.draw(form(["nickname", "birth_date"]))
            check(lambda: client.post("/tg/join/", body))


# --- the API --------------------------------------------------------------------------


def api(user: User) -> Client:
    return Client(headers={"Authorization": f"Bearer {api_token_create(member=user).key}"})


EVENT = {
    "type": st.one_of(
        st.sampled_from(["day", "night", "nominate", "votes", "foul", "speech", "undo", "kill"]),
        texts,
    ),
    "seq": numbers,
    "client_id": texts,
    "n": scalars,
    "seat": scalars,
    "by": scalars,
    "target": scalars,
    "counts": json_values,
    "voters": json_values,
    "start": texts,
    "end": texts,
    "limit": numbers,
    "reason": texts,
    "note": texts,
}
ONLINE_ACTION = {
    "type": st.one_of(
        st.sampled_from(["vote", "fast", "post", "revote", "shot", "warning", "extend"]), texts
    ),
    "target": scalars,
    "text": texts,
    "seat": scalars,
    "minutes": numbers,
    "reason": texts,
}


@FUZZ
@given(data=st.data())
def test_the_api_bodies_take_anything_without_a_5xx(club: FuzzClub, data: st.DataObject) -> None:
    game, online, evening = club.game, club.online, club.evening
    calls = [
        ("admin", "/api/v1/evenings", {
            "starts_at": texts, "capacity": numbers, "venue": texts, "opens_at": texts,
        }),
        ("host", "/api/v1/games", {
            "evening_id": numbers, "ruleset": texts, "seats": json_values,
        }),
        ("host", f"/api/v1/games/{game.pk}/events", EVENT),
        ("host", f"/api/v1/games/{game.pk}/recording", {
            "name": texts, "size": numbers, "started_at": texts,
        }),
        ("host", "/api/v1/online-games", {
            "member_ids": json_values, "starts_at": texts, "day_minutes": numbers,
            "night_minutes": numbers,
        }),
        ("online_player", f"/api/v1/online-games/{online.pk}/actions", ONLINE_ACTION),
        ("host", f"/api/v1/online-games/{online.pk}/actions", ONLINE_ACTION),
        ("online_player", f"/api/v1/online-games/{online.pk}/mafia-chat", {"text": texts}),
        ("player", f"/api/v1/evenings/{evening.pk}/registration", {}),
    ]  # fmt: skip
    who, url, fields = data.draw(st.sampled_from(calls))
    body = data.draw(st.one_of(json_body(fields), json_values))
    client = api(club.member(who))
    check(lambda: client.post(url, json.dumps(body), content_type="application/json"))


@FUZZ
@given(data=st.data())
def test_the_host_screens_taps_take_anything_without_a_5xx(
    club: FuzzClub, data: st.DataObject
) -> None:
    tap = {
        "seq": st.one_of(numbers, st.integers(min_value=0, max_value=5)),
        "client_id": scalars,
        "event": st.one_of(json_body(EVENT), json_values),
        "confirmed": scalars,
    }
    body = data.draw(st.one_of(json_body(tap), json_values))
    client = web(club.host)
    url = f"/games/{club.game.pk}/tap/"
    check(lambda: client.post(url, json.dumps(body), content_type="application/json"))


@FUZZ
@given(update=st.one_of(json_values, st.fixed_dictionaries({
    "update_id": numbers,
    "message": st.fixed_dictionaries({}, optional={
        "text": st.one_of(texts, st.sampled_from(["/start e²", "/say \x00", "/online", "/start"])),
        "from": st.fixed_dictionaries({"id": numbers}, optional={"username": texts}),
        "chat": st.fixed_dictionaries({"id": numbers, "type": st.just("private")}),
    }),
    "callback_query": st.fixed_dictionaries({}, optional={
        "id": texts,
        "data": st.one_of(texts, st.sampled_from(["su:²", "ov:1:²", "cf:٣", "lk:\x00"])),
        "from": st.fixed_dictionaries({"id": numbers}),
    }),
})))  # fmt: skip
def test_the_webhook_takes_any_update(
    club: FuzzClub, update: object, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.clear()
    with caplog.at_level(logging.ERROR):
        response = Client().post(
            "/telegram/webhook/",
            json.dumps(update),
            content_type="application/json",
            headers={"X-Telegram-Bot-Api-Secret-Token": "fuzz-secret"},
        )
    assert response.status_code == 200
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


def test_a_nul_in_an_event_is_refused_at_every_door(club: FuzzClub) -> None:
    """The cases the issue names, one by one."""
    game, online = club.game, club.online
    host = api(club.host)
    before = snapshot()
    foul = {"type": "foul", "seat": 3, "reason": "a\x00b", "seq": 2}
    answer = host.post(f"/api/v1/games/{game.pk}/events", foul, content_type="application/json")
    assert answer.status_code == 422 and "NUL" in answer.json()["detail"]
    assert answer.json()["code"] == "invalid"
    post = {"type": "post", "text": "привет\x00"}
    player = api(club.online_player)
    answer = player.post(
        f"/api/v1/online-games/{online.pk}/actions", post, content_type="application/json"
    )
    assert answer.status_code == 422
    page = web(club.online_player).post(f"/online/{online.pk}/act/", post)
    assert page.status_code < 500
    for minutes in ("²", "٣٠"):
        page = web(club.host).post("/online/new/", {"day_minutes": minutes})
        assert page.status_code == 422
    for offset in ("+16:00", "-23:59"):
        answer = api(club.admin).post(
            "/api/v1/evenings",
            {"starts_at": f"2030-01-06T18:00:00{offset}", "capacity": 15},
            content_type="application/json",
        )
        assert answer.status_code == 422
    answer = api(club.admin).post(
        "/api/v1/evenings",
        {"starts_at": "9999-12-31T23:59:59-23:59", "capacity": 15},
        content_type="application/json",
    )
    assert answer.status_code == 422
    webhook = Client().post(
        "/telegram/webhook/",
        "[" * 5000 + "]" * 5000,
        content_type="application/json",
        headers={"X-Telegram-Bot-Api-Secret-Token": "fuzz-secret"},
    )
    assert webhook.status_code == 200
    assert snapshot() == before


@FUZZ
@given(data=st.data())
def test_every_query_takes_anything_without_a_5xx(club: FuzzClub, data: st.DataObject) -> None:
    """The path and query of pages, the API and the admin's lists with their filters."""
    game, evening = club.game, club.evening
    pages = [
        (None, "/"), (None, "/leaderboard/"), (None, f"/games/{game.pk}/"),
        ("player", f"/evenings/{evening.pk}/"), ("player", "/evenings/mine/"),
        ("admin", "/admin/accounts/user/"), ("admin", "/admin/games/game/"),
        ("admin", "/admin/club/evening/"), ("admin", "/admin/club/registration/"),
        ("admin", "/admin/notifications/notification/"), ("player", "/api/v1/evenings"),
        ("host", f"/evenings/{evening.pk}/lineup/"),
        (None, f"/games/{game.pk}/live.json"), ("player", f"/games/{game.pk}/live/"),
        (None, f"/evenings/{evening.pk}/screen.json"),
        ("player", f"/evenings/{evening.pk}/screen/"),
        (None, "/tournaments/1/live.json"), (None, "/tournaments/1/live/"),
    ]  # fmt: skip
    who, url = data.draw(st.sampled_from(pages))
    keys = st.one_of(
        texts, st.sampled_from(["q", "nickname", "status", "role", "season", "evening__id__exact"])
    )
    query = data.draw(st.dictionaries(keys, form_values, max_size=3))
    if who is None:
        client = web(None)
    elif url.startswith("/api/"):
        client = api(club.member(who))
    else:
        client = web(club.member(who))
    check(lambda: client.get(url, query))


# What an organiser may type or paste into the line-up's search of members, and what no one
# types: look-alike letters, «ё», LIKE's wildcards, invisible characters, NUL, and lengths
# up to far past a nickname's.
SEARCH_LETTERS = "ЛлИиСсАаЁёЕеВвОоРрНн aocepxBOPHKM0_%\\'\u200b\u200d\u202e\u2066\ufeff\x00\x07\t"
search_texts = st.one_of(
    texts,
    st.text(max_size=40),
    st.text(alphabet=st.sampled_from(SEARCH_LETTERS), max_size=40),
    st.integers(min_value=33, max_value=20_000).map(lambda n: "я" * n),
)


@FUZZ
@given(query=search_texts)
def test_the_line_up_search_takes_any_text(club: FuzzClub, query: str) -> None:
    """The organiser's search of members: any text answers a list of at most FOUND_LIMIT
    members, or a refusal said in the search (422) or by the address rule (400, a NUL);
    never a 5xx."""
    before = snapshot()
    answer = web(club.host).get(
        f"/evenings/{club.evening.pk}/lineup/",
        {"q": query},
        headers={"HX-Request": "true", "HX-Target": "found"},
    )
    assert answer.status_code in (200, 400, 422), answer.content[:500]
    body = answer.content.decode()
    if answer.status_code == 200:
        assert body.count("<li>") <= FOUND_LIMIT
    elif answer.status_code == 422:
        assert 'role="alert"' in body
    assert snapshot() == before


def test_a_nul_is_refused_at_every_door_the_probe_named(club: FuzzClub) -> None:
    """#24: NUL in `seats[].nick` of POST /api/v1/games and in the admin import's seat
    nicknames answered 500; `/start ab\u0000cd` in the bot was a database error answered
    200 with silence; an admin list's filter with a NUL answered 500."""
    host, evening, players = (
        club.host,
        club.evening,
        User.objects.filter(registrations__isnull=False).distinct()[:12],
    )
    before = snapshot()
    seats = [{"seat": n, "nick": "a\x00b" if n == 3 else p.nickname, "role": "civilian"}
             for n, p in enumerate(players, 1)]  # fmt: skip
    answer = api(host).post(
        "/api/v1/games", {"evening_id": evening.pk, "seats": seats},
        content_type="application/json",
    )  # fmt: skip
    assert answer.status_code == 422 and "seats.2.nick" in answer.json()["detail"]
    assert answer.json()["code"] == "invalid"
    surrogate = b'{"type": "foul", "seat": 3, "reason": "\\ud800"}'
    answer = api(host).post(
        f"/api/v1/games/{club.game.pk}/events", surrogate, content_type="application/json"
    )
    assert answer.status_code == 422 and "reason" in answer.json()["detail"]
    assert answer.json()["code"] == "invalid"
    document = {"format": "mafia-protocol/1", "ruleset": "club", "seats": seats, "events": []}
    upload = SimpleUploadedFile("protocol.json", json.dumps(document).encode())
    page = web(club.admin).post(
        "/admin/games/game/import/",
        {"protocol": upload, "evening": str(evening.pk), "host": str(host.pk)},
    )
    assert page.status_code == 200 and "NUL" in page.content.decode()
    listing = web(club.admin).get("/admin/accounts/user/", {"nickname": "a\x00b"})
    assert listing.status_code == 400 and "NUL" in listing.content.decode()
    assert snapshot() == before
    member = club.online_player
    update = {
        "update_id": 9_000_001,
        "message": {
            "message_id": 1, "date": 1765000000, "text": "/start ab\x00cd",
            "from": {"id": member.telegram_id, "is_bot": False, "first_name": "Ян"},
            "chat": {"id": member.telegram_id, "type": "private"},
        },
    }  # fmt: skip
    answered = Client().post(
        "/telegram/webhook/", json.dumps(update), content_type="application/json",
        headers={"X-Telegram-Bot-Api-Secret-Token": "fuzz-secret"},
    )  # fmt: skip
    assert answered.status_code == 200
    assert Notification.objects.filter(chat_id=member.telegram_id).exists()
