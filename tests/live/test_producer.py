"""The producer's view (live/producer.py, live/views.py, docs/live.md «The producer's view»):
every card and the night as the host taps it, as old as the link's delay, behind a secret
link only, refused alike when revoked, guessed or an overlay's, served from the cache, its
uses logged; made and revoked on the game's page by whoever runs the game, nobody else."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from club.kernel.tenancy import club_cache_key
from games.models import Game, Spectators
from live.links import link_make, link_revoke
from live.models import LinkKind, LiveLink, LiveLinkUse
from live.producer import ProducerSnapshot
from tests.factories import make_member
from tests.games.recording import (
    LINEUP,
    TOWN_WINS,
    Table,
    evening_with_players,
    make_host,
    record,
    start_game,
)

pytestmark = pytest.mark.django_db(transaction=True)

# What only the producer's snapshot says: never a key of the public one.
PRODUCER_KEYS = set(ProducerSnapshot.__annotations__) - {"game"} | {"actions", "targeted"}


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for inner in value.values() for key in _keys(inner)}
    if isinstance(value, list):
        return {key for inner in value for key in _keys(inner)}
    return set()


def _poll(client: Client, key: str, **headers: str) -> Any:
    return client.get(f"/live/producer/{key}.json", headers=headers)


def _producer(host: Any, game: Game, delay: int = 0) -> str:
    _link, key = link_make(
        author=host, kind=LinkKind.PRODUCER, game_id=game.pk, delay_seconds=delay
    )
    return key


def test_the_producer_sees_every_card_and_the_night_as_it_is_tapped(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    key = _producer(host, game)
    client = Client()
    record(game, host, {"type": "day", "n": 1}, {"type": "night", "n": 1})
    night = _poll(client, key).json()
    assert [card["role"] for card in night["cards"]] == LINEUP
    assert [card["team"] for card in night["cards"][:5]] == ["black"] * 3 + ["red"] * 2
    assert night["night"] == {
        "n": 1,
        "now": True,
        "actions": [],
        "waiting": night["night"]["waiting"],
    }
    assert night["night"]["waiting"][0]["role"] == "boss"
    # Each tap shows at once: the don's check with its answer, the shot, the check, the heal.
    record(game, host, {"type": "check", "by": 1, "target": 4})
    actions = _poll(client, key).json()["night"]["actions"]
    assert actions == [
        {"kind": "check", "slot": "check:boss", "role": "boss", "actor": 1, "target": 4,
         "result": "commissar"},
    ]  # fmt: skip
    record(game, host, {"type": "kill", "by": "mafia", "target": 6})
    shot = _poll(client, key).json()
    assert shot["night"]["actions"][-1] == {
        "kind": "kill", "slot": "kill:mafia", "role": "mafia", "actor": None, "target": 6,
        "result": None,
    }  # fmt: skip
    assert shot["cards"][5]["targeted"] == ["kill:mafia"]
    record(game, host, {"type": "check", "by": 4, "target": 2}, {"type": "heal", "target": 7})
    tapped = _poll(client, key).json()
    assert [(a["kind"], a["target"], a["result"]) for a in tapped["night"]["actions"]] == [
        ("check", 4, "commissar"),
        ("kill", 6, None),
        ("check", 2, "black"),
        ("heal", 7, None),
    ]
    assert tapped["night"]["actions"][-1]["actor"] == 5  # the doctor's seat
    assert tapped["checks"] == [
        {"by": 1, "target": 4, "result": "commissar"},
        {"by": 4, "target": 2, "result": "black"},
    ]
    # The public table inside it is the spectators' own, which shows none of it.
    public = client.get(f"/games/{game.pk}/live.json")
    if public.status_code == 200:
        assert tapped["table"] == public.json()
    assert tapped["table"]["phase"] == "night" and tapped["table"]["left"] == []
    # The morning: last night's actions stay, the table says who left.
    record(game, host, {"type": "day", "n": 2})
    morning = _poll(client, key).json()
    assert morning["night"]["now"] is False and len(morning["night"]["actions"]) == 4
    assert [out["seat"] for out in morning["morning"]["left"]] == [6]
    assert morning["table"]["left"][0]["seat"] == 6


def test_a_delayed_link_gets_the_newest_snapshot_at_least_its_delay_old(table: Table) -> None:
    host, evening, players = table
    start = datetime.now(UTC)  # frozen: the evening's games may start
    client = Client()
    with time_machine.travel(start, tick=False) as clock:
        game = start_game(host, evening, players)
        late, now = _producer(host, game, delay=60), _producer(host, game)
        record(game, host, {"type": "day", "n": 1})
        # Nothing is a minute old yet: the delayed link waits, never shows a newer table.
        assert _poll(client, late).json() == {"pending": True, "delay": 60}
        assert _poll(client, now).json()["table"]["phase"] == "day"
        clock.shift(timedelta(seconds=61))
        assert _poll(client, late).json()["table"]["phase"] == "day"
        record(game, host, {"type": "night", "n": 1})
        clock.shift(timedelta(seconds=9))
        record(game, host, {"type": "check", "by": 1, "target": 4})
        assert _poll(client, now).json()["night"]["actions"][0]["target"] == 4
        assert _poll(client, late).json()["table"]["phase"] == "day"  # a minute ago
        clock.shift(timedelta(seconds=55))  # the night's start is a minute old, its check not
        delayed = _poll(client, late).json()
        assert delayed["table"]["phase"] == "night" and delayed["night"]["actions"] == []
        clock.shift(timedelta(seconds=6))
        assert _poll(client, late).json()["night"]["actions"][0]["result"] == "commissar"


def test_a_restarted_cache_shows_a_delayed_link_only_what_is_older_than_its_delay(
    table: Table,
) -> None:
    host, evening, players = table
    start = datetime.now(UTC)  # frozen: the evening's games may start
    client = Client()
    with time_machine.travel(start, tick=False) as clock:
        game = start_game(host, evening, players)
        late = _producer(host, game, delay=30)
        record(game, host, {"type": "day", "n": 1}, {"type": "night", "n": 1})
        cache.clear()  # the history is gone: built again, dated by the last event
        assert _poll(client, late).json() == {"pending": True, "delay": 30}
        clock.shift(timedelta(seconds=31))
        assert _poll(client, late).json()["table"]["phase"] == "night"


def test_revoked_guessed_malformed_and_overlay_keys_are_refused_alike(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    working = _producer(host, game)
    revoked_key = _producer(host, game)
    revoked = LiveLink.objects.get(key_hash=LiveLink.hash_key(revoked_key))
    link_revoke(author=host, link_id=revoked.pk)
    _overlay, overlay_key = link_make(author=host, kind=LinkKind.OVERLAY, game_id=game.pk)
    guessed = LiveLink.new_key()
    client = Client()
    bodies = set()
    for key in (revoked_key, overlay_key, guessed, "lv_short", "nonsense"):
        answer = _poll(client, key)
        assert answer.status_code == 404
        assert answer["Cache-Control"] == "private, no-store"
        assert answer["Referrer-Policy"] == "no-referrer"
        assert answer.json()["code"] == "not_found"
        bodies.add(answer.content)
        page = client.get(f"/live/producer/{key}/")
        assert page.status_code == 404 and page["Cache-Control"] == "private, no-store"
    assert len(bodies) == 1  # no hint which it was
    assert not LiveLinkUse.objects.exists()
    assert _poll(client, working).status_code == 200  # the game's other link still works


def test_a_poller_holding_the_snapshot_gets_304_without_a_query(
    table: Table, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    key = _producer(host, game, delay=0)
    record(game, host, {"type": "day", "n": 1})
    client = Client()
    first = _poll(client, key)
    assert first.status_code == 200
    assert first["Cache-Control"] == "private, no-store"
    assert first["Referrer-Policy"] == "no-referrer"
    assert "noindex" in first["X-Robots-Tag"]
    with django_assert_num_queries(0):
        held = _poll(client, key, **{"If-None-Match": first["ETag"]})
        assert held.status_code == 304
        assert _poll(client, key, **{"If-None-Match": '"stale"'}).status_code == 200
    record(game, host, {"type": "night", "n": 1})
    assert _poll(client, key, **{"If-None-Match": first["ETag"]}).status_code == 200


def test_the_page_and_the_poll_are_logged_once_a_minute(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    key = _producer(host, game, delay=15)
    client = Client(headers={"User-Agent": "OBS/30"})
    page = client.get(f"/live/producer/{key}/")
    assert page.status_code == 200
    assert page["Cache-Control"] == "private, no-store"
    assert page["Referrer-Policy"] == "no-referrer"
    html = page.content.decode()
    assert '<meta name="robots" content="noindex, nofollow">' in html
    assert "15" in html
    for _ in range(3):
        assert _poll(client, key).status_code == 200
    uses = list(LiveLinkUse.objects.values_list("what", "user_agent", "ip"))
    assert sorted(uses) == [("page", "OBS/30", "127.0.0.1"), ("poll", "OBS/30", "127.0.0.1")]


def test_the_public_doors_never_carry_the_producer_s_view(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    key = _producer(host, game)
    client, anonymous = Client(), Client()
    for event in TOWN_WINS:
        record(game, host, event)
        producer = _poll(client, key).json()
        assert producer["cards"]
        public = anonymous.get(f"/games/{game.pk}/live.json")
        assert public.status_code == 200
        assert not _keys(public.json()) & PRODUCER_KEYS, event
        for door in (f"/games/{game.pk}/live/", f"/games/{game.pk}/?public=1"):
            text = anonymous.get(door).content.decode()
            assert "/live/producer/" not in text and key not in text
            assert "producer-links" not in text


def test_whoever_runs_the_game_makes_and_revokes_links_on_its_page(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    client = Client()
    client.force_login(host)
    page = client.get(f"/games/{game.pk}/?public=1").content.decode()
    assert 'id="producer-links"' in page and 'name="delay"' in page
    made = client.post(f"/games/{game.pk}/producer-links/", {"delay": "45"})
    assert made.status_code == 200 and made["Cache-Control"] == "private, no-store"
    link = LiveLink.objects.get()
    assert (link.kind, link.game_id, link.delay_seconds, link.created_by) == (
        LinkKind.PRODUCER, game.pk, 45, host,
    )  # fmt: skip
    address = made.content.decode().split('value="http://testserver/live/producer/')[1]
    key = address.split("/")[0]
    assert LiveLink.hash_key(key) == link.key_hash
    assert Client().get(f"/live/producer/{key}/").status_code == 200
    # Shown once: the game's page lists the link by its start only, with its uses.
    listed = client.get(f"/games/{game.pk}/?public=1").content.decode()
    assert link.key_start in listed and key not in listed
    assert host.nickname in listed  # who made it, by the publication rules (member_name)
    assert "1 use" in listed or "1 исп" in listed
    for delay in ("601", "-1", "soon"):
        refused = client.post(f"/games/{game.pk}/producer-links/", {"delay": delay})
        assert refused.status_code == 302 and LiveLink.objects.count() == 1
    revoked = client.post(f"/games/{game.pk}/producer-links/{link.pk}/revoke/")
    assert revoked.status_code == 302
    link.refresh_from_db()
    assert link.revoked_at is not None
    assert Client().get(f"/live/producer/{key}.json").status_code == 404


def test_players_other_hosts_and_visitors_neither_see_nor_make_nor_revoke_links(
    table: Table,
) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    link, _key = link_make(author=host, kind=LinkKind.PRODUCER, game_id=game.pk)
    player, other_host = Client(), Client()
    player.force_login(players[0])
    other_host.force_login(make_host())
    visitor = Client()
    stranger = Client()
    stranger.force_login(make_member())
    for client in (player, other_host, visitor, stranger):
        page = client.get(f"/games/{game.pk}/?public=1").content.decode()
        assert "producer-links" not in page and link.key_start not in page
        made = client.post(f"/games/{game.pk}/producer-links/", {"delay": "0"})
        revoke = client.post(f"/games/{game.pk}/producer-links/{link.pk}/revoke/")
        assert made.status_code == revoke.status_code == 302
    assert LiveLink.objects.count() == 1
    link.refresh_from_db()
    assert link.revoked_at is None


def test_the_api_makes_lists_and_revokes_a_game_s_producer_links(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    client = Client()
    client.force_login(host)
    url = f"/api/v1/games/{game.pk}/producer-links"
    made = client.post(url, {"delay_seconds": 20}, content_type="application/json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["key"].startswith("lv_") and body["delay_seconds"] == 20
    assert body["url"].endswith(f"/live/producer/{body['key']}/")
    assert Client().get(f"/live/producer/{body['key']}/").status_code == 200
    listed = client.get(url).json()
    assert [(row["id"], row["uses"]) for row in listed] == [(body["id"], 1)]
    assert "key" not in listed[0]  # the key is shown once
    too_long = client.post(url, {"delay_seconds": 601}, content_type="application/json")
    assert too_long.status_code == 422 and too_long.json()["code"] == "invalid"
    revoked = client.delete(f"{url}/{body['id']}")
    assert revoked.status_code == 200 and revoked.json()["revoked_at"] is not None
    assert Client().get(f"/live/producer/{body['key']}.json").status_code == 404
    # Another game's address is no way to this link.
    other = start_game(host, *evening_with_players())
    assert client.delete(f"/api/v1/games/{other.pk}/producer-links/{body['id']}").status_code == 404


def test_the_api_refuses_whoever_does_not_run_the_game(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    link, _key = link_make(author=host, kind=LinkKind.PRODUCER, game_id=game.pk)
    url = f"/api/v1/games/{game.pk}/producer-links"
    for member in (players[0], make_host()):
        client = Client()
        client.force_login(member)
        assert client.get(url).status_code == 403
        made = client.post(url, {"delay_seconds": 0}, content_type="application/json")
        assert made.status_code == 403 and made.json()["code"] == "forbidden"
        assert client.delete(f"{url}/{link.pk}").status_code == 403
    assert Client().get(url).status_code == 401
    assert LiveLink.objects.count() == 1
    link.refresh_from_db()
    assert link.revoked_at is None


def test_the_history_keeps_what_the_longest_delay_may_still_be_due(table: Table) -> None:
    host, evening, players = table
    client = Client()
    with time_machine.travel(datetime.now(UTC), tick=False) as clock:
        game = start_game(host, evening, players)
        now = _producer(host, game)
        record(game, host, {"type": "day", "n": 1})
        first = _poll(client, now)["ETag"]
        clock.shift(timedelta(seconds=40))
        record(game, host, {"type": "night", "n": 1})
        clock.shift(timedelta(seconds=40))
        record(game, host, {"type": "check", "by": 1, "target": 4})
        # No link is delayed: 30 s are kept, and the newest table before them.
        index = cache.get(club_cache_key(f"live:producer:{game.pk}:index"))
        assert len(index) == 2 and index[0][0] == index[1][0] - 40
        assert (
            cache.get(club_cache_key(f"live:producer:{game.pk}:body:{first.strip(chr(34))}"))
            is None
        )
        # A link delayed by 90 s keeps 120 s from the next write on.
        late = _producer(host, game, delay=90)
        clock.shift(timedelta(seconds=10))
        record(game, host, {"type": "kill", "by": "mafia", "target": 6})
        clock.shift(timedelta(seconds=70))
        record(game, host, {"type": "check", "by": 4, "target": 2})
        assert len(cache.get(club_cache_key(f"live:producer:{game.pk}:index"))) == 4
        # 165 s in, the link is due what stood 90 s ago: the night's start, before its taps
        # (without the longer keep, the last write would have dropped it).
        clock.shift(timedelta(seconds=5))
        due = _poll(client, late).json()
        assert due["table"]["phase"] == "night" and due["night"]["actions"] == []


def test_the_page_revokes_only_a_producer_s_link_of_its_own_game(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    other = start_game(host, *evening_with_players())
    others, _key = link_make(author=host, kind=LinkKind.PRODUCER, game_id=other.pk)
    overlay, _key = link_make(author=host, kind=LinkKind.OVERLAY, game_id=game.pk)
    client = Client()
    client.force_login(host)
    for link in (others, overlay):
        # A refused form post returns to the game's page with the refusal (answers_refusals).
        answer = client.post(f"/games/{game.pk}/producer-links/{link.pk}/revoke/", follow=True)
        said = [str(message) for message in answer.context["messages"]]
        assert said in (["There is no such link."], ["Такой ссылки нет."]), said
        link.refresh_from_db()
        assert link.revoked_at is None


def test_the_api_refuses_a_body_that_is_not_a_link_s_fields(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    client = Client()
    client.force_login(host)
    url = f"/api/v1/games/{game.pk}/producer-links"
    bodies: list[Any] = [[], "x", 5, None, {"delay_seconds": True}, {"delay_seconds": "20"},
                         {"delay_seconds": 1.0}, {"label": 7}]  # fmt: skip
    for body in bodies:
        answer = client.post(url, json.dumps(body), content_type="application/json")
        assert answer.status_code == 422, (body, answer.content)
        assert answer.json()["code"] == "invalid", body
    assert not LiveLink.objects.exists()
    # An empty object is the defaults: no delay, no label.
    made = client.post(url, {}, content_type="application/json")
    assert made.status_code == 201 and made.json()["delay_seconds"] == 0


def test_a_link_s_label_is_listed_on_the_game_s_page_as_text(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    client = Client()
    client.force_login(host)
    url = f"/api/v1/games/{game.pk}/producer-links"
    label = "<b>OBS</b> & co"
    made = client.post(url, {"label": label}, content_type="application/json")
    assert made.status_code == 201 and made.json()["label"] == label
    client.post(f"/games/{game.pk}/producer-links/", {"delay": "5", "label": " Studio B "})
    assert LiveLink.objects.get(delay_seconds=5).label == "Studio B"
    listed = client.get(f"/games/{game.pk}/?public=1").content.decode()
    links = listed.split('id="producer-links"')[1]
    assert "&lt;b&gt;OBS&lt;/b&gt; &amp; co" in links and label not in links
    assert "Studio B" in links
