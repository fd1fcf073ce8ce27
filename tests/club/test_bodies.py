"""No body can stall a worker: the JSON nesting bound reads a body once, in time linear in
its length, and each door refuses a body over its size before reading it (club/kernel/bodies.py).

The bound it replaced stripped strings with a regular expression that restarted at every
quote of an unterminated string: `"` followed by `\\"` 24,000 times took 30 s."""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import Callable
from itertools import accumulate

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st
from pytest_django import Settings

from club.kernel import bodies, parsing
from games.models import Game, GameEvent
from tests.examples import examples
from tests.games.recording import Table, start_game

# The bound as it was (the quadratic one), for the property below: it must agree with
# the new one on every JSON document.
_OLD_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')
_OLD_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def old_nesting(data: bytes) -> int:
    brackets = _OLD_STRINGS.sub(b"", data).translate(None, _OLD_NOT_BRACKETS)
    return max(accumulate(1 if byte in b"[{" else -1 for byte in brackets), default=0)


json_documents = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=40,
)


@settings(max_examples=examples(400), deadline=None)
@given(json_documents, st.booleans())
def test_the_bound_equals_the_old_one_on_any_json(document: object, ascii_only: bool) -> None:
    data = json.dumps(document, ensure_ascii=ascii_only).encode()
    assert parsing.json_nesting(data) == old_nesting(data)


@pytest.mark.parametrize(
    "text, depth",
    [("[]", 1), ('{"a": [[1], {"b": "]]]"}]}', 3), ('"[[[["', 0), ('["\\\\", "\\"["]', 1),
     ('"unterminated [[[', 0), ("]]][[", 0), ("", 0)],
)  # fmt: skip
def test_brackets_inside_strings_do_not_count(text: str, depth: int) -> None:
    assert parsing.json_nesting(text) == depth


def limit_of(path: str) -> int:
    """The cap of the door `path` comes in by."""
    door = bodies.door_of(path)
    assert door is not None, path
    return door.limit


def unterminated_escapes(size: int) -> bytes:
    return (b'"' + b'\\"' * size)[:size]


def quotes_and_brackets(size: int) -> bytes:
    return (b'"[' * size)[:size]


def escaped_backslashes(size: int) -> bytes:
    return (b'["' + b"\\\\\\" * size)[:size]


def open_brackets(size: int) -> bytes:
    return b"[" * size


def _cost(work: Callable[[], object]) -> float:
    """The fastest of a few runs in this thread's CPU time: the time the other processes of a
    loaded machine take (a second pytest process, a browser) is not counted."""
    best = float("inf")
    for _ in range(7):
        started = time.thread_time()
        work()
        best = min(best, time.thread_time() - started)
    return best


@pytest.mark.parametrize(
    "adversary", [unterminated_escapes, quotes_and_brackets, escaped_backslashes, open_brackets]
)
def test_the_bound_grows_linearly_with_adversarial_input(
    adversary: Callable[[int], bytes],
) -> None:
    # No timing is asserted: the ratio of the work for 64 KB to the work for 16 KB in the
    # same run. Linear work gives 4; the old bound gave 16. (Against 1 KB, whose work takes
    # microseconds, the ratio followed the machine's load more than the bound: 212 once.)
    sizes = (1024, 16 * 1024, 64 * 1024)
    bodies_ = [adversary(size) for size in sizes[1:]]
    costs = [_cost(functools.partial(parsing.json_nesting, data)) for data in bodies_]
    assert costs[1] / costs[0] < 4 * 2
    # And the tokens read grow no faster than the bytes.
    steps = [parsing._nesting_scan(adversary(size))[1] for size in sizes]
    assert steps[2] <= 64 * max(steps[0], 1)


def test_the_old_bound_fails_that_measure() -> None:
    # The measure above can fail: the quadratic bound does.
    small, large = unterminated_escapes(1024), unterminated_escapes(8 * 1024)
    assert _cost(lambda: old_nesting(large)) / _cost(lambda: old_nesting(small)) > 8 * 2


def test_a_deep_body_stops_the_scan_at_the_bound() -> None:
    with pytest.raises(parsing.JSONTooDeep):
        parsing.loads(b"[" * 60_000)
    assert parsing._nesting_scan(b"[" * 60_000, stop_above=32) == (33, 33)


# --- the doors' caps ---------------------------------------------------------------------


@pytest.mark.django_db
def test_an_api_body_over_its_cap_is_refused_before_it_is_read(hosting: Hosting) -> None:
    game, client = hosting
    body = b'{"type": "day", "n": 1, "pad": "' + b"x" * limit_of("/api/v1/games/1/events") + b'"}'
    answer = client.post(f"/api/v1/games/{game.pk}/events", body, content_type="application/json")
    assert answer.status_code == 413
    assert "64 КБ" in answer.json()["detail"] and answer.json()["code"] == "too_large"
    assert not GameEvent.objects.filter(game=game).exists()
    # Under the cap, the same event is recorded.
    small = client.post(
        f"/api/v1/games/{game.pk}/events", {"type": "day", "n": 1}, content_type="application/json"
    )
    assert small.status_code == 201


@pytest.mark.django_db
def test_an_adversarial_api_body_under_the_cap_is_a_clear_refusal(hosting: Hosting) -> None:
    game, client = hosting
    body = unterminated_escapes(48 * 1024)
    answer = client.post(f"/api/v1/games/{game.pk}/events", body, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["detail"]
    assert answer.json()["code"] == "unreadable"


@pytest.mark.django_db
def test_a_tap_over_its_cap_is_refused(hosting: Hosting) -> None:
    game, client = hosting
    event = {"type": "day", "n": 1, "pad": "x" * limit_of("/games/1/tap/")}
    answer = client.post(
        f"/games/{game.pk}/tap/", {"seq": 1, "event": event}, content_type="application/json"
    )
    assert answer.status_code == 413 and answer.json()["code"] == "too_large"
    assert game.events.count() == 0


@pytest.mark.django_db
def test_a_tap_from_someone_else_is_refused_before_its_body_is_parsed(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    parsed: list[object] = []
    monkeypatch.setattr(parsing, "loads", lambda body, **kw: parsed.append(body))
    client = Client()
    client.force_login(players[0])
    answer = client.post(f"/games/{game.pk}/tap/", b'{"seq": 1}', content_type="application/json")
    assert answer.status_code == 403 and parsed == []


# A live game and its host's logged-in client.
type Hosting = tuple[Game, Client]


@pytest.fixture
def table(db: None) -> Table:
    from tests.games.recording import evening_with_players, make_host

    return make_host(), *evening_with_players()


@pytest.fixture
def hosting(table: Table) -> Hosting:
    """A game and its host's logged-in client."""
    host, evening, players = table
    client = Client()
    client.force_login(host)
    return start_game(host, evening, players), client


@pytest.mark.django_db
def test_a_webhook_update_over_its_cap_is_acknowledged_and_not_handled(
    settings: Settings,
) -> None:
    from notifications.models import TelegramUpdate

    settings.TELEGRAM_WEBHOOK_SECRET = "secret"
    update = {"update_id": 5, "message": {"text": "x" * limit_of("/telegram/webhook/")}}
    answer = Client().post(
        "/telegram/webhook/", update, content_type="application/json",
        headers={"x-telegram-bot-api-secret-token": "secret"},
    )  # fmt: skip
    assert answer.status_code == 200
    assert not TelegramUpdate.objects.exists()


@pytest.mark.django_db
def test_a_form_body_at_a_json_door_is_refused_not_a_500(hosting: Hosting) -> None:
    """A multipart body was parsed as a form by CSRF's check (a session's POST), and reading
    it again as JSON raised RawPostDataException: 500 on the API and the tap."""
    game, client = hosting
    client.handler.enforce_csrf_checks = True
    client.get("/")  # the CSRF cookie
    token = {"X-CSRFToken": client.cookies["csrftoken"].value}
    api = client.post(f"/api/v1/games/{game.pk}/events", {"type": "day"}, headers=token)
    assert api.status_code == 400 and "JSON" in api.json()["detail"]
    assert api.json()["code"] == "unreadable"
    tapped = client.post(f"/games/{game.pk}/tap/", {"seq": "1"}, headers=token)
    assert (tapped.status_code, tapped.json()["code"]) == (400, "unreadable")
    assert tapped.json()["detail"] == tapped.json()["error"] == api.json()["detail"]
    assert not GameEvent.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_utf16_cannot_hide_brackets_from_the_bound(hosting: Hosting, settings: Settings) -> None:
    """U+5C00 in UTF-16 is the bytes 00 5C: read as bytes, a backslash that hid the
    brackets after it, and json.loads (which guesses UTF-16) recursed: a 500."""
    game, client = hosting
    body = ('["\u5c00",' + "[" * 30000).encode("utf-16-le")[:60000]
    api = client.post(f"/api/v1/games/{game.pk}/events", body, content_type="application/json")
    assert api.status_code == 400 and api.json()["detail"] and api.json()["code"] == "unreadable"
    settings.TELEGRAM_WEBHOOK_SECRET = "secret"
    hook = Client().post(
        "/telegram/webhook/", body, content_type="application/json",
        headers={"x-telegram-bot-api-secret-token": "secret"},
    )  # fmt: skip
    assert hook.status_code == 200
    with pytest.raises(ValueError):  # read as the UTF-8 it is not: never a recursion
        parsing.loads(body)
    with pytest.raises(parsing.Unreadable):
        parsing.loads(b"[\xff\xfe]")


@pytest.mark.django_db
def test_a_protocol_file_over_its_cap_is_refused_before_it_is_read(admin_client_: Client) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("p.json", b" " * 2_100_000)
    answer = admin_client_.post("/admin/games/game/import/", {"protocol": upload})
    assert answer.status_code == 413 and "КБ" in answer.content.decode()


# --- the docs say the caps the table holds -----------------------------------------------

UNITS = {"KB": bodies.KB, "MB": bodies.MB, "bytes": 1}


def documented_caps() -> list[tuple[list[str], int | None]]:
    """docs/deploy.md's table of body caps: each row's paths (an `<id>` read as 1, a `…` as
    nothing) and its cap in bytes (None: Django's own bound)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs/deploy.md").read_text()
    table = text[text.index("| door | cap | over it |") :].split("\n\n")[0]
    rows = []
    for line in table.splitlines()[2:]:
        door, cap, _answer = (cell.strip() for cell in line.strip().strip("|").split("|"))
        paths = [
            path.replace("<id>", "1").replace("…", "") for path in re.findall(r"`(/[^`]*)`", door)
        ]
        figure = re.match(r"([0-9,]+) (KB|MB|bytes)\b", cap)
        size = int(figure[1].replace(",", "")) * UNITS[figure[2]] if figure else None
        rows.append((paths, size))
    return rows


def test_the_docs_state_each_doors_cap_as_the_table_holds_it() -> None:
    rows = documented_caps()
    documented = [path for paths, _size in rows for path in paths]
    for paths, size in rows:
        for path in paths:
            door = bodies.door_of(path)
            assert (door.limit if door else None) == size, path
    # Every door of the table is in the docs.
    for door in bodies.DOORS:
        assert any(door.path.match(path) for path in documented), door.path.pattern
