"""The live table's poll under hostile input (issue 40, «Bad input»; docs/live.md): 10,000
pollers send stale, garbled, huge, many-valued and weak If-None-Match headers and
hostile query strings to /games/<id>/live.json. Each gets the right answer, a 200 with the
body or a 304 only when its header truly matches under RFC 9110's rules (the weak
comparison, `*`, lists), never a 5xx; and a public game's poll reads no PostgreSQL and the
cache once, whatever it sends (the work is counted, not timed)."""

from __future__ import annotations

import random
import string
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from club.kernel import tenancy
from club.kernel.cache import cache_get
from club.kernel.clubs import Club
from club.kernel.tenancy import club_cache_key
from games import live
from games.models import Game, Spectators
from tests.games.recording import TOWN_WINS, Table, record, start_game

pytestmark = pytest.mark.django_db(transaction=True)

POLLERS = 10_000
HEX = "0123456789abcdef"
# Query strings a hostile or broken client adds: the poll reads none of them...
IGNORED = [
    "",
    "?v=1",
    "?etag=*",
    "?If-None-Match=%2A",
    "?%ff%fe=%c0",
    "?callback=alert(1)//",
    "?game=1%27%20OR%201=1--",
    "?" + "x" * 6000,
    "?seq=-1&seq=99999999999999999999",
]
# ...but the site refuses these on every path, a poll's too, with 400 and a message: a NUL
# (club.doors.middleware.StorableInputMiddleware) and more fields than Django parses
# (DATA_UPLOAD_MAX_NUMBER_FIELDS).
REFUSED = ["?%00", "?a=%00", "?" + "a=1&" * 3000]
QUERIES = IGNORED * 3 + REFUSED


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


def _stale(rng: random.Random) -> str:
    return '"' + "".join(rng.choices(HEX, k=24)) + '"'


def _garbage(rng: random.Random, size: int) -> str:
    alphabet = string.ascii_letters + string.digits + ' ,;"/=\\W-_.:()[]{}<>?' + "жёЯ€"
    return "".join(rng.choices(alphabet, k=size))


def _headers(
    rng: random.Random, etag: str, previous: str | None, huge: tuple[str, str]
) -> Iterator[tuple[str, bool]]:
    """(If-None-Match, whether it matches `etag`) for one poller of each kind, the kinds in
    a shuffled order; `previous` is an ETag the table had before the last tap; `huge` a
    list of a thousand stale tags (26 KB) and 20 KB of garbage (made once: making them
    for every poller would be most of the test's time)."""
    bare = etag.strip('"')
    stale_list = ", ".join(_stale(rng) for _ in range(rng.randint(2, 60)))
    huge_list, huge_garbage = huge
    cases = [
        ("", False),
        (etag, True),
        (f"W/{etag}", True),  # weakened by a compressing proxy
        (f"  {etag}\t", True),
        (f"{stale_list}, {etag}", True),
        (f"{etag},{stale_list}", True),
        (f"{stale_list}, W/{etag}", True),
        (f"{huge_list},{etag}", True),
        ("*", True),  # «any current representation»: the table has one
        (" * ", True),
        (_stale(rng), False),
        (f"W/{_stale(rng)}", False),
        (stale_list, False),
        (huge_list, False),
        (_garbage(rng, rng.randint(1, 200)), False),
        (huge_garbage, False),
        (bare, False),  # not an entity-tag: unquoted
        (f'"{bare}', False),
        (f'{bare}"', False),
        (f'w/"{bare}"', False),  # the weak prefix is case-sensitive
        (f'"{bare[:-1]}"', False),
        (f'"{bare}0"', False),
        (f'"{bare.upper()}"', False),  # opaque-tags compare octet by octet
        (f'""{etag}', False),
        (f'*, "{bare}x"', False),  # a star inside a list is no tag
        ("**", False),
        ('""', False),
        ("W/", False),
        (",,,,", False),
        ('"', False),
        ("\x00", False),
    ]
    if previous is not None:
        cases += [(previous, False), (f"W/{previous}", False)]
    rng.shuffle(cases)
    yield from cases


def _huge(rng: random.Random) -> tuple[str, str]:
    return ",".join(_stale(rng) for _ in range(1000)), _garbage(rng, 20_000)


def _poll(client: Client, game: Game, query: str, if_none_match: str) -> Any:
    headers = {"If-None-Match": if_none_match} if if_none_match else {}
    return client.get(f"/games/{game.pk}/live.json{query}", headers=headers)


def test_ten_thousand_hostile_pollers_get_right_answers_without_postgresql(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    record(game, host, {"type": "day", "n": 1})  # the commit writes the snapshot
    # The time-zone middleware reads the club's settings row once per process every 5 s:
    # that is the process's, not the poll's, and would land inside a count this long.
    Club.current()
    monkeypatch.setattr(Club, "CACHE_SECONDS", 24 * 3600)
    reads = Counter[str]()

    def counted_get(key: str) -> Any:
        reads[key] += 1
        return cache_get(key)

    monkeypatch.setattr("games.live.cache_get", counted_get)
    rng = random.Random(40)
    client = Client()
    answers = Counter[tuple[int, bool]]()
    previous: str | None = None
    huge = _huge(rng)
    polls = 0
    for round_ in range(2):
        kept = live.snapshot_read(game.pk)
        etag, body = kept["etag"], kept["body"].encode()
        reads.clear()
        refused_before = answers.copy()
        started = time.monotonic()
        with CaptureQueriesContext(connection) as queries:
            round_polls = 0
            while round_polls < POLLERS // 2:
                for header, matches in _headers(rng, etag, previous, huge):
                    query = rng.choice(QUERIES)
                    answer = _poll(client, game, query, header)
                    where = f"If-None-Match {header[:80]!r} (+{len(header)}), query {query[:40]!r}"
                    answers[answer.status_code, matches] += 1
                    round_polls += 1
                    if query in REFUSED:
                        assert answer.status_code == 400, where
                        continue
                    assert answer.status_code == (304 if matches else 200), where
                    assert answer["ETag"] == etag, where
                    assert answer["Cache-Control"] == "no-cache", where
                    if matches:
                        assert answer.content == b"", where
                    else:
                        assert answer.content == body, where
                        assert answer["Content-Type"] == "application/json", where
        polls += round_polls
        # The clubs' list, which every request's ClubMiddleware needs, is read once per
        # tenancy._CLUBS_SECONDS per process, however many polls come: no poll's own query.
        clubs_list = [q for q in queries.captured_queries if 'FROM "club_club"' in q["sql"]]
        others = [q["sql"] for q in queries.captured_queries if q not in clubs_list]
        assert others == [], others[:5]
        assert len(clubs_list) <= (time.monotonic() - started) / tenancy._CLUBS_SECONDS + 1
        # One read of the kept snapshot per poll the site does not refuse first, whatever
        # the poller sent.
        refused = (
            answers[400, True]
            + answers[400, False]
            - sum(count for (status, _), count in refused_before.items() if status == 400)
        )
        assert reads == {club_cache_key(f"live:game:{game.pk}"): round_polls - refused}
        if round_ == 0:
            previous = etag
            record(game, host, {"type": "foul", "seat": 3})  # the ETag changes
            assert live.snapshot_read(game.pk)["etag"] != previous
    assert polls >= POLLERS
    assert {status for status, _ in answers} == {200, 304, 400}
    assert answers[304, True] > POLLERS // 5 and answers[200, False] > POLLERS // 2


def test_hostile_polls_of_a_game_with_no_live_table_or_not_shown_are_refused_cheaply(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, evening, players = table
    hidden = start_game(host, evening, players)
    hidden.spectators = Spectators.OFF
    hidden.save(update_fields=["spectators"])
    live.snapshot_write(hidden.pk)
    Club.current()
    monkeypatch.setattr(Club, "CACHE_SECONDS", 24 * 3600)
    rng = random.Random(41)
    client = Client()
    etag = live.snapshot_read(hidden.pk)["etag"]
    headers = [header for header, _matches in _headers(rng, etag, None, _huge(rng))]
    # A game not shown: refused from the cache, its ETag never confirmed by a 304.
    with CaptureQueriesContext(connection) as queries:
        for header in headers:
            answer = _poll(client, hidden, rng.choice(IGNORED), header)
            assert answer.status_code == 403 and answer.json()["code"] == "forbidden"
            assert "ETag" not in answer
    assert len(queries) == 0
    # No such game: the first poll looks for it (the game, as a club game and as an online
    # one), two queries; the answer is kept a moment, so the next polls cost none.
    missing = Game(pk=987654)
    with CaptureQueriesContext(connection) as queries:
        for header in headers:
            answer = _poll(client, missing, rng.choice(IGNORED), header)
            assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert len(queries) <= 2


def test_every_answer_of_a_whole_game_is_short_and_small(table: Table) -> None:
    """A poll is answered at once and in full (no stream, no waiting for a change), so a
    gunicorn sync worker is held for the poll's few milliseconds and never per viewer; a
    twelve-seat table's body stays small all game long (docs/live.md)."""
    host, evening, players = table
    game = start_game(host, evening, players)
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    client = Client()
    etag, sizes = "", []
    for event in TOWN_WINS:
        record(game, host, event)
        answer = _poll(client, game, "", etag)
        assert not answer.streaming
        if answer.status_code == 200:
            etag = answer["ETag"]
            sizes.append(len(answer.content))
        unchanged = _poll(client, game, "", etag)  # nothing new: a 304 at once, no wait
        assert unchanged.status_code == 304 and not unchanged.streaming
    assert max(sizes) <= 2_600, sizes  # bench/live.py http: 2,080 median, 2,342 at most
