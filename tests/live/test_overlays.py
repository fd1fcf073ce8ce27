"""The stream overlays (live/overlays.py, live/views.py, docs/live.md «Stream overlays"):
their feed is the public snapshot and nothing more, a poller with the ETag costs no
PostgreSQL, a revoked or guessed key is refused alike, an evening table's link follows the
game at its table, and the links are made and revoked only where their makers may."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from accounts.models import User
from club.models import Evening
from games import live
from games.models import Game, Spectators
from live.links import link_make, link_revoke
from live.models import LinkKind, LiveLink, LiveLinkUse
from tests.factories import set_consent
from tests.games.recording import TOWN_WINS, Table, make_host, record, start_game
from tests.tournaments.test_tournaments import EFFORT, record_game, small
from tests.tournaments.test_tournaments import admin as tournament_admin
from tournaments import live as tournaments_live
from tournaments import services as tournament_services
from tournaments.models import Table as TournamentTable
from tournaments.models import TableJudge, Tournament
from tournaments.services import TournamentPlan, tournament_create

pytestmark = pytest.mark.django_db(transaction=True)
GUESSED = "lv_" + "A" * 43


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


def _public(game: Game) -> Game:
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    return game


def _feed(client: Client, key: str, **headers: str) -> Any:
    return client.get(f"/live/overlay/{key}.json", headers=headers)


def _game_link(game: Game) -> str:
    _, key = link_make(author=game.host, kind=LinkKind.OVERLAY, game_id=game.pk)
    return key


def test_a_game_s_feed_is_its_public_snapshot_exactly(table: Table) -> None:
    host, evening, players = table
    game = _public(start_game(host, evening, players))
    record(game, host, {"type": "day", "n": 1}, {"type": "foul", "seat": 3})
    key = _game_link(game)
    answer = _feed(Client(), key)
    assert answer.status_code == 200
    feed = answer.json()
    assert feed["scope"] == "game" and feed["state"] == "shown"
    assert feed["game"] == json.loads(live.snapshot_read(game.pk)["body"])
    assert feed["game"]["seats"][2]["fouls"] == 1
    assert all(seat["role"] is None for seat in feed["game"]["seats"])  # no card while it runs
    assert (feed["next"], feed["standings"], feed["table"]) == (None, None, None)
    # Its use is logged, once a minute per address.
    _feed(Client(), key)
    assert list(LiveLinkUse.objects.values_list("what", flat=True)) == ["feed"]


def test_a_game_not_shown_to_everyone_is_on_no_overlay(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    assert game.spectators == Spectators.MEMBERS  # the default: a stream is public
    record(game, host, {"type": "day", "n": 1})
    feed = _feed(Client(), _game_link(game)).json()
    assert (feed["state"], feed["game"]) == ("hidden", None)


def test_a_poller_with_the_etag_gets_304_without_touching_postgresql(
    table: Table, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    host, evening, players = table
    game = _public(start_game(host, evening, players))
    record(game, host, {"type": "day", "n": 1})
    key = _game_link(game)
    client = Client()
    first = _feed(client, key)  # opens the link and logs the use: kept for 30 s
    with django_assert_num_queries(0):
        again = _feed(client, key, if_none_match=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    record(game, host, {"type": "foul", "seat": 5})
    with django_assert_num_queries(0):
        changed = _feed(client, key, if_none_match=first["ETag"])
    assert changed.status_code == 200 and changed.json()["game"]["seats"][4]["fouls"] == 1


def test_a_revoked_key_and_a_guessed_one_are_refused_alike(table: Table) -> None:
    host, evening, players = table
    game = _public(start_game(host, evening, players))
    link, key = link_make(author=host, kind=LinkKind.OVERLAY, game_id=game.pk)
    keyed = [_feed(Client(), key), Client().get(f"/live/overlay/{key}/strip/")]
    assert [answer.status_code for answer in keyed] == [200, 200]
    link_revoke(author=host, link_id=link.pk)
    keyed += [_feed(Client(), key), Client().get(f"/live/overlay/{key}/strip/")]
    for answer in keyed:  # the key never leaves in a Referer, no search engine keeps it
        assert answer["Referrer-Policy"] == "no-referrer", answer
        assert answer["X-Robots-Tag"] == "noindex, nofollow", answer
    revoked, guessed = _feed(Client(), key), _feed(Client(), GUESSED)
    assert revoked.status_code == guessed.status_code == 404
    assert revoked.json() == guessed.json()
    assert revoked.json()["code"] == "not_found" and revoked.json()["detail"]
    assert _feed(Client(), "garbage").status_code == 404
    for size in ("strip", "bar", "full"):
        assert Client().get(f"/live/overlay/{key}/{size}/").status_code == 404
    # A producer's link is no overlay's.
    _, producer = link_make(author=host, kind=LinkKind.PRODUCER, game_id=game.pk)
    assert _feed(Client(), producer).json() == guessed.json()


@pytest.mark.parametrize(
    ("size", "lang", "word"),
    [("strip", "", "Игрок"), ("bar", "en", "Player"), ("full", "ru", "Игрок")],
)
def test_the_pages_are_transparent_in_the_asked_language(
    table: Table, size: str, lang: str, word: str
) -> None:
    host, evening, players = table
    game = _public(start_game(host, evening, players))
    key = _game_link(game)
    page = Client().get(f"/live/overlay/{key}/{size}/" + (f"?lang={lang}" if lang else ""))
    assert page.status_code == 200
    text = page.content.decode()
    assert f'data-url="/live/overlay/{key}.json"' in text
    words = text.split('id="overlay-words" type="application/json">')[1].split("</script>")[0]
    assert json.loads(words)["player"].startswith(word)  # the words the script draws with
    assert f'lang="{lang or "ru"}"' in text
    assert LiveLinkUse.objects.filter(what="page").count() == 1


# --- making and revoking where the organiser works (templates/live/_links.html) ---------


def _client(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _a_tournament(evening: Evening, admin: User) -> Tournament:
    plan = TournamentPlan(
        name="Кубок",
        starts_at=evening.starts_at + timedelta(days=7),
        ends_on=timezone.localtime(evening.starts_at + timedelta(days=7)).date(),
        venue="GrandDaddy",
        preset="fiim",
        tables=1,
        rounds=2,
    )
    return tournament_create(plan=plan, actor=admin)


FORM = "Ссылки для трансляции (OBS)"


def test_each_place_offers_the_form_to_whoever_may_make_its_links_only(
    table: Table, admin_member: User
) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    tournament = _a_tournament(evening, admin_member)
    other_host = make_host()
    places: dict[str, dict[User | None, bool]] = {
        f"/games/{game.pk}/?public=1": {host: True, admin_member: True, players[0]: False},
        f"/evenings/{evening.pk}/": {other_host: True, admin_member: True, players[0]: False},
        f"/tournaments/{tournament.pk}/": {admin_member: True, host: False, None: False},
    }
    for url, readers in places.items():
        for reader, offered in readers.items():
            page = _client(reader).get(url)
            assert page.status_code == 200, (url, reader)
            assert (FORM in page.content.decode()) is offered, (url, reader)


def test_a_link_made_is_shown_once_with_each_overlay_s_address_and_listed_with_its_uses(
    table: Table,
) -> None:
    host, evening, players = table
    game = _public(start_game(host, evening, players))
    back = f"/games/{game.pk}/?public=1"
    client = _client(host)
    made = client.post("/live/overlay-links/", {"game": game.pk, "label": "YouTube", "back": back})
    assert made.status_code == 200 and made["Cache-Control"] == "no-store"
    text = made.content.decode()
    keys = set(re.findall(r"/live/overlay/(lv_[\w-]{43})/(full|strip|bar)/", text))
    assert {size for _, size in keys} == {"full", "strip", "bar"}
    (key,) = {key for key, _ in keys}
    assert "1920×260" in text and "1920×100" in text and "1920×1080" in text
    link = LiveLink.objects.get()
    assert (link.game_id, link.label, link.kind, link.created_by) == (
        game.pk,
        "YouTube",
        "overlay",
        host,
    )
    _feed(Client(), key)
    listed = client.get(back).content.decode()
    assert link.key_start in listed and "YouTube" in listed and key not in listed
    assert "1 использование" in listed
    # Revoked from the list: the overlay's feed is gone at once.
    revoked = client.post(f"/live/overlay-links/{link.pk}/revoke/", {"back": back})
    assert revoked.status_code == 302 and revoked["Location"] == back
    assert _feed(Client(), key).status_code == 404
    assert link.key_start not in client.get(back).content.decode()


def test_whoever_may_not_is_refused_in_their_language_and_nothing_is_made(
    table: Table, admin_member: User
) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    tournament = _a_tournament(evening, admin_member)
    player = players[0]
    tries = [
        ({"game": game.pk}, "только её ведущий"),
        ({"evening": evening.pk, "table": 1}, "только ведущие и администраторы"),
        ({"tournament": tournament.pk}, "только администраторы"),
    ]
    for form, refusal in tries:
        answer = _client(player).post("/live/overlay-links/", {**form, "back": "/"}, follow=True)
        assert refusal in answer.content.decode(), form
    host_answer = _client(host).post(
        "/live/overlay-links/", {"tournament": tournament.pk, "back": "/"}, follow=True
    )
    assert "только администраторы" in host_answer.content.decode()
    english = _client(player)
    english.cookies["django_language"] = "en"
    answer = english.post("/live/overlay-links/", {"game": game.pk, "back": "/"}, follow=True)
    assert "or an admin makes and revokes its live links" in answer.content.decode()
    assert not LiveLink.objects.exists()
    # A revoke by someone else is refused; the maker's link stays.
    link, _ = link_make(author=host, kind=LinkKind.OVERLAY, evening_id=evening.pk, table=2)
    _client(player).post(f"/live/overlay-links/{link.pk}/revoke/", {"back": "/"})
    link.refresh_from_db()
    assert link.revoked_at is None
    _client(make_host()).post(f"/live/overlay-links/{link.pk}/revoke/", {"back": "/"})
    # Any host runs the evening's tables.
    assert LiveLink.objects.get(pk=link.pk).revoked_at is not None
    # A garbled form, and a back address elsewhere, change nothing.
    answer = _client(host).post(
        "/live/overlay-links/", {"game": "x1", "back": "https://evil.example/"}
    )
    assert answer.status_code == 302 and answer["Location"] == "/"


# --- an evening's table and a tournament ---------------------------------------------


def test_an_evening_table_s_link_follows_the_game_at_its_table(table: Table) -> None:
    host, evening, players = table
    _, key = link_make(author=host, kind=LinkKind.OVERLAY, evening_id=evening.pk, table=1)
    _, other = link_make(author=host, kind=LinkKind.OVERLAY, evening_id=evening.pk, table=2)
    client = Client()
    assert _feed(client, key).json()["state"] == "none"  # nothing seated yet
    first = _public(start_game(host, evening, players))
    seated = _feed(client, key).json()  # seated, not begun: its line-up before day 1
    assert (seated["scope"], seated["table"], seated["state"]) == ("table", 1, "shown")
    assert seated["game"]["game"] == first.pk and seated["game"]["phase"] == "setup"
    record(first, host, {"type": "day", "n": 1}, {"type": "foul", "seat": 2})
    feed = _feed(client, key).json()
    assert feed["game"] == json.loads(live.snapshot_read(first.pk)["body"])
    assert feed["game"]["seats"][1]["fouls"] == 1
    assert _feed(client, other).json()["state"] == "none"  # table 2 plays nothing
    record(first, host, *TOWN_WINS[1:])
    over = _feed(client, key).json()
    assert over["game"]["game"] == first.pk and over["game"]["over"]
    # The host seats the next game at the table: the overlay turns to it.
    second = _public(start_game(host, evening, players))
    turned = _feed(client, key).json()
    assert turned["game"]["game"] == second.pk and turned["game"]["phase"] == "setup"
    assert turned["next"] is None


def test_an_evening_table_s_304_reads_no_postgresql(
    table: Table, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    host, evening, players = table
    game = _public(start_game(host, evening, players))
    record(game, host, {"type": "day", "n": 1})
    _, key = link_make(author=host, kind=LinkKind.OVERLAY, evening_id=evening.pk, table=1)
    client = Client()
    first = _feed(client, key)
    with django_assert_num_queries(0):
        again = _feed(client, key, if_none_match=first["ETag"])
    assert again.status_code == 304
    record(game, host, {"type": "foul", "seat": 4})
    with django_assert_num_queries(0):
        changed = _feed(client, key, if_none_match=first["ETag"])
    assert changed.status_code == 200 and changed.json()["game"]["seats"][3]["fouls"] == 1


def test_a_tournament_s_link_shows_its_game_its_next_table_and_its_standings() -> None:
    organiser = tournament_admin()
    tournament, members = small(organiser, players=10)
    set_consent(*[m.pk for m in members], consent=False)
    set_consent(members[0].pk, consent=True)
    judge = make_host()
    TableJudge.objects.create(tournament=tournament, table=1, judge=judge)
    _, key = link_make(author=organiser, kind=LinkKind.OVERLAY, tournament_id=tournament.pk)
    client = Client()
    unseated = _feed(client, key).json()
    assert (unseated["state"], unseated["next"], unseated["standings"]) == ("none", None, None)
    tournament_services.tournament_seat(tournament_id=tournament.pk, actor=organiser, effort=EFFORT)
    before = _feed(client, key).json()  # seating the rounds draws a new stamp: at once
    assert (before["scope"], before["state"], before["standings"]) == ("tournament", "none", None)
    assert before["next"]["round"] == 1 and len(before["next"]["seats"]) == 10
    first = TournamentTable.objects.get(round__tournament=tournament, round__number=1)
    game = _public(tournament_services.table_game_start(table_id=first.pk, host=judge))
    started = _feed(client, key).json()  # started, not begun: still who plays next
    assert (started["state"], started["next"]["game"]) == ("none", game.pk)
    record_game(game, judge, seed=3, by_api=False)
    done = _feed(client, key).json()
    assert done["state"] == "shown" and done["game"]["game"] == game.pk
    assert done["game"] == json.loads(live.snapshot_read(game.pk)["body"])
    assert done["game"]["over"] and len(done["standings"]) == 10
    assert done["standings"][0]["place"] == 1
    # The standings are the tournament's live standings' (tournaments/live.py), a visitor's.
    shown = json.loads(tournaments_live.standings_read(tournament.pk)["public"]["body"])
    assert done["standings"] == shown["standings"]
    assert done["next"]["round"] == 2  # the next table not begun
    # Names as a visitor reads them: only the member who agreed to be published is named.
    names = {row["nick"] for row in done["standings"]}
    assert names == {None, members[0].nickname}
    assert {row["player"] for row in done["standings"]} == set(range(1, 11))
