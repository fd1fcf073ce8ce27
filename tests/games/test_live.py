"""The live table (games/live.py, docs/live.md): its public snapshot tells no more than the
people at the table know, it is served from the cache with its ETag, and each game's
spectators setting decides who may read it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from games import live
from games.models import Game, Role, Spectators
from games.ratings.publication import published_analysis
from games.ratings.tasks import game_analyse
from tests.factories import make_member, set_consent
from tests.games.recording import LINEUP, TOWN_WINS, Table, make_host, record, start_game, view_of

pytestmark = pytest.mark.django_db(transaction=True)
# Night-only fields of the host's table: never a key of the public snapshot.
NIGHT_KEYS = {"checks", "kills", "heals", "healed", "shots", "targeted", "night", "morning",
              "night_waiting", "legal", "wake", "team", "best_move"}  # fmt: skip


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


def _live(client: Client, game: Game, **headers: str) -> Any:
    return client.get(f"/games/{game.pk}/live.json", headers=headers)


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for inner in value.values() for key in _keys(inner)}
    if isinstance(value, list):
        return {key for inner in value for key in _keys(inner)}
    return set()


def _strings(value: Any, *, skip: str = "reason") -> list[str]:
    """Every string value, but a leaving's reason (a reason's code may be a role's)."""
    if isinstance(value, dict):
        return [s for key, inner in value.items() if key != skip for s in _strings(inner)]
    if isinstance(value, list):
        return [s for inner in value for s in _strings(inner)]
    return [value] if isinstance(value, str) else []


def test_a_whole_game_tells_the_spectators_no_more_than_the_table_knows(table: Table) -> None:
    host, evening, players = table
    shy = players[5]  # seat 6: killed on night 1
    shy.nickname = "Скрытный"
    shy.save(update_fields=["nickname"])
    set_consent(shy, consent=False)
    game = start_game(host, evening, players)
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    codes = set(Role.objects.values_list("code", flat=True)) | set(LINEUP)
    client = Client()
    night_start: dict[str, Any] | None = None
    seen = []
    for event in TOWN_WINS:
        record(game, host, event)
        answer = _live(client, game)
        assert answer.status_code == 200
        text = answer.content.decode()
        snapshot = json.loads(text)
        seen.append(snapshot)
        assert "Скрытный" not in text
        assert snapshot["seats"][5]["nick"] is None
        assert not _keys(snapshot) & NIGHT_KEYS
        if snapshot["over"]:
            break
        assert all(seat["role"] is None for seat in snapshot["seats"])
        assert not set(_strings(snapshot)) & codes, snapshot
        if snapshot["phase"] == "night":
            # The night's taps (checks, the kill, the heal) change nothing a spectator sees,
            # not even the ETag, until the morning.
            if event["type"] == "night":
                night_start, night_etag = snapshot, answer["ETag"]
            else:
                assert snapshot == night_start
                assert answer["ETag"] == night_etag
        else:
            night_start = None
    # The morning of day 2 names the night's victim, not the check or the heal.
    day_two = seen[TOWN_WINS.index({"type": "day", "n": 2})]
    assert day_two["left"] == [{"seat": 6, "phase": "night", "n": 1, "reason": "killed"}]
    assert day_two["seats"][6]["alive"] is True  # seat 7, healed, is just alive
    final = seen[-1]
    assert final["over"] and final["winner"] == "red"
    assert [seat["role"] for seat in final["seats"]] == LINEUP
    assert "Скрытный" not in json.dumps(final, ensure_ascii=False)


def test_the_finished_game_shows_its_scores_once_analysed(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    ended = json.loads(live.snapshot_read(game.pk)["body"])
    assert ended["over"] and ended["scores"] is None  # the analysis is the worker's
    game_analyse(game.pk)  # the worker's task, as it runs once the end commits
    scored = json.loads(live.snapshot_read(game.pk)["body"])
    view = view_of(game.pk)
    expected = published_analysis(view, None)
    assert expected is not None
    assert scored["scores"] == [
        {"seat": row["seat"], "points": row["points"]} for row in expected["rows"]
    ]
    assert len(scored["scores"]) == len(LINEUP)


def test_the_day_shows_speaker_nominees_vote_and_result(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS[:7])  # the morning of day 2
    snapshot = live.snapshot_write(game.pk)
    assert snapshot is not None
    day = json.loads(snapshot["body"])
    assert (day["phase"], day["n"], day["step"]) == ("day", 2, "round")
    assert day["clock"] == {"kind": "last_word", "seat": 6, "seconds": 60, "turn": 0}
    assert day["opener"] is not None
    assert day["seats"][0]["nick"] == players[0].nickname
    record(game, host, {"type": "last_word", "seat": 6}, {"type": "nominate", "by": 4, "target": 2})
    after = json.loads(live.snapshot_read(game.pk)["body"])
    assert after["nominees"] == [2] and after["seats"][1]["nominated"]
    assert after["speaker"] is not None and after["clock"]["kind"] == "speech"
    record(game, host, {"type": "votes", "counts": {"2": 7}})
    voted = json.loads(live.snapshot_read(game.pk)["body"])
    assert voted["tally"]["expelled"] == [2]
    assert voted["left"][-1] == {"seat": 2, "phase": "day", "n": 2, "reason": "voted"}


def test_a_poller_with_the_etag_gets_304_without_touching_postgresql(
    table: Table, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    record(game, host, {"type": "day", "n": 1})  # the commit writes the snapshot
    client = Client()
    with django_assert_num_queries(0):
        first = _live(client, game)
        again = _live(client, game, if_none_match=first["ETag"])
    assert first.status_code == 200 and json.loads(first.content)["phase"] == "day"
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    assert again.content == b""
    # The next tap changes the ETag: the poller gets the new table.
    record(game, host, {"type": "foul", "seat": 3})
    with django_assert_num_queries(0):
        changed = _live(client, game, if_none_match=first["ETag"])
    assert changed.status_code == 200
    assert json.loads(changed.content)["seats"][2]["fouls"] == 1


def test_a_miss_builds_the_snapshot_once(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    game.spectators = Spectators.PUBLIC
    game.save(update_fields=["spectators"])
    client = Client()
    assert _live(client, game).status_code == 200  # built from the database
    cached = live.snapshot_read(game.pk)
    assert json.loads(cached["body"])["phase"] == "setup"


def test_members_only_is_refused_to_a_visitor_and_shown_to_a_member(
    table: Table, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    assert game.spectators == Spectators.MEMBERS  # the default
    visitor = _live(Client(), game)
    assert visitor.status_code == 403
    assert visitor.json()["code"] == "forbidden"
    assert "войдите" in visitor.json()["detail"]  # Russian: the site's language
    page = Client().get(f"/games/{game.pk}/live/")
    assert page.status_code == 403
    member = Client()
    member.force_login(players[0])
    _live(member, game)  # the snapshot is kept
    # A members-only poll looks the session up, its member and their membership of the
    # club (a ban there logs them out of its pages): that is all it reads.
    with django_assert_max_num_queries(3):
        answer = _live(member, game)
    assert answer.status_code == 200
    assert answer["Cache-Control"] == "private, no-cache"


def test_off_is_shown_to_nobody(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    game.spectators = Spectators.OFF
    game.save(update_fields=["spectators"])
    member = Client()
    member.force_login(players[0])
    answer = _live(member, game)
    assert answer.status_code == 403 and "не показывается" in answer.json()["detail"]


def test_a_game_with_no_live_table_is_said_so(db: None) -> None:
    answer = Client().get("/games/987654/live.json")
    assert answer.status_code == 404
    assert answer.json() == {"detail": "У этой игры нет стола в прямом эфире.", "code": "not_found"}
    page = Client().get("/games/987654/live/")
    assert page.status_code == 404


def test_the_host_chooses_who_follows_and_a_player_cannot(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    player = Client()
    player.force_login(players[0])
    refused = player.post(f"/games/{game.pk}/spectators/", {"spectators": "public"})
    assert refused.status_code in (302, 403)
    game.refresh_from_db()
    assert game.spectators == Spectators.MEMBERS
    hosting = Client()
    hosting.force_login(host)
    bad = hosting.post(f"/games/{game.pk}/spectators/", {"spectators": "everyone"})
    assert bad.status_code in (302, 422)
    hosting.post(f"/games/{game.pk}/spectators/", {"spectators": "public"})
    game.refresh_from_db()
    assert game.spectators == Spectators.PUBLIC
    # The kept snapshot follows the choice: a visitor reads it now.
    assert _live(Client(), game).status_code == 200


def test_an_admin_not_at_the_table_may_choose_too(table: Table) -> None:
    _host, evening, players = table
    other = make_host()
    game = start_game(other, evening, players)
    admin = make_member()
    admin.is_staff = admin.is_superuser = True
    admin.save(update_fields=["is_staff", "is_superuser"])
    client = Client()
    client.force_login(admin)
    client.post(f"/games/{game.pk}/spectators/", {"spectators": "off"})
    game.refresh_from_db()
    assert game.spectators == Spectators.OFF


def test_an_admin_opens_the_game_to_everyone_in_the_admin(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    assert _live(Client(), game).status_code == 403  # members only, kept so
    admin = make_member()
    admin.is_staff = admin.is_superuser = True
    admin.save(update_fields=["is_staff", "is_superuser"])
    client = Client()
    client.force_login(admin)
    form = client.get(f"/admin/games/game/{game.pk}/change/")
    assert b'name="spectators"' in form.content
    saved = client.post(
        f"/admin/games/game/{game.pk}/change/",
        {**_inline_management(form.context), "spectators": "public"},
    )
    assert saved.status_code == 302, saved.content.decode()[:2000]
    assert _live(Client(), game).status_code == 200


def _inline_management(context: Any) -> dict[str, Any]:
    """Every field of the admin's change form (the game's and its inlines') as the page
    filled it in, management forms included."""
    data: dict[str, Any] = {}
    forms = [context["adminform"].form]
    for inline in context["inline_admin_formsets"]:
        forms += [inline.formset.management_form, *inline.formset.forms]
    for form in forms:
        for name in form.fields:
            value = form[name].value()
            if value is not None and value is not False:
                data[form.add_prefix(name)] = value
    return data
