"""The live table's secret links (live/links.py, docs/live.md «Links»): made and revoked only
by whoever runs what they show, opened without a database query while kept, refused alike
when revoked, of another kind, malformed or guessed, and their uses logged once a minute."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from accounts.models import User
from club.kernel.cache import cache_set
from club.kernel.errors import RefusalCode, Refused
from games.models import Game, Ruleset
from live import links
from live.links import LinkTarget, link_make, link_open, link_revoke, link_used
from live.models import LinkKind, LiveLink, LiveLinkUse
from tests.factories import make_member
from tests.games.recording import Table, start_game
from tournaments.services import TournamentPlan, tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


def _refused(code: RefusalCode, call: object, *args: object, **kwargs: object) -> Refused:
    assert callable(call)
    with pytest.raises(Refused) as refused:
        call(*args, **kwargs)
    assert refused.value.code == code
    return refused.value


def test_a_game_s_host_makes_a_producer_s_link_that_opens_to_its_game(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    link, key = link_make(author=host, kind=LinkKind.PRODUCER, game_id=game.pk, delay_seconds=30)
    assert key.startswith("lv_") and LiveLink.hash_key(key) == link.key_hash
    assert key not in str(LiveLink.objects.values_list().get())  # only its hash is kept
    target = link_open(key, LinkKind.PRODUCER)
    assert (target.game_id, target.delay_seconds, target.link_id) == (game.pk, 30, link.pk)


def test_an_opened_link_is_read_from_the_cache_without_a_query(
    table: Table, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    _, key = link_make(author=host, kind=LinkKind.OVERLAY, game_id=game.pk)
    link_open(key, LinkKind.OVERLAY)
    with django_assert_num_queries(0):
        assert link_open(key, LinkKind.OVERLAY).game_id == game.pk


def test_a_revoked_link_is_refused_at_once_as_a_guessed_one_is(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    link, key = link_make(author=host, kind=LinkKind.PRODUCER, game_id=game.pk)
    link_open(key, LinkKind.PRODUCER)  # kept in the cache
    link_revoke(author=host, link_id=link.pk)
    revoked = _refused(RefusalCode.NOT_FOUND, link_open, key, LinkKind.PRODUCER)
    guessed = _refused(RefusalCode.NOT_FOUND, link_open, LiveLink.new_key(), LinkKind.PRODUCER)
    assert revoked.message == guessed.message
    link.refresh_from_db()
    assert link.revoked_by == host and link.revoked_at is not None
    link_revoke(author=host, link_id=link.pk)  # again: nothing changes
    assert LiveLink.objects.get().revoked_at == link.revoked_at


@pytest.mark.parametrize(
    "key",
    ["", "lv_", "lv_short", "lv_" + "A" * 42, "lv_" + "A" * 44, "xx_" + "A" * 43,
     "lv_" + "A" * 42 + "/", "lv_" + "A" * 42 + "\x00", "lv_" + "é" * 43, "lv_" + "A" * 10_000],
)  # fmt: skip
def test_a_malformed_key_is_refused_without_a_lookup(
    key: str, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_num_queries(0):
        _refused(RefusalCode.NOT_FOUND, link_open, key, LinkKind.OVERLAY)


def test_an_overlay_s_key_does_not_open_the_producer_s_view(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    _, key = link_make(author=host, kind=LinkKind.OVERLAY, game_id=game.pk)
    _refused(RefusalCode.NOT_FOUND, link_open, key, LinkKind.PRODUCER)


def test_only_whoever_runs_the_game_makes_or_revokes_its_links(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    for stranger in (players[0], make_member(), make_host_other()):
        _refused(
            RefusalCode.FORBIDDEN, link_make, author=stranger, kind="producer", game_id=game.pk
        )
    link, _ = link_make(author=host, kind=LinkKind.PRODUCER, game_id=game.pk)
    _refused(RefusalCode.FORBIDDEN, link_revoke, author=players[0], link_id=link.pk)
    assert LiveLink.objects.get().revoked_at is None


def make_host_other() -> User:
    from tests.games.recording import make_host

    return make_host()  # a host, but not this game's


def test_an_evening_s_table_and_a_tournament_have_overlay_links_of_their_own(
    table: Table, admin_member: User
) -> None:
    host, evening, _ = table
    _, key = link_make(author=host, kind=LinkKind.OVERLAY, evening_id=evening.pk, table=2)
    target = link_open(key, LinkKind.OVERLAY)
    assert (target.evening_id, target.table, target.game_id) == (evening.pk, 2, None)
    plan = TournamentPlan(
        name="Кубок",
        starts_at=evening.starts_at + timedelta(days=7),
        ends_on=timezone.localtime(evening.starts_at + timedelta(days=7)).date(),
        venue="GrandDaddy",
        preset="fiim",
        tables=1,
        rounds=2,
    )
    tournament = tournament_create(plan=plan, actor=admin_member)
    _refused(
        RefusalCode.FORBIDDEN,
        link_make,
        author=host,
        kind=LinkKind.OVERLAY,
        tournament_id=tournament.pk,
    )
    _, key = link_make(author=admin_member, kind=LinkKind.OVERLAY, tournament_id=tournament.pk)
    assert link_open(key, LinkKind.OVERLAY).tournament_id == tournament.pk


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"kind": "spy"}, RefusalCode.INVALID),
        ({"game": False}, RefusalCode.INVALID),  # no scope
        ({"evening": True}, RefusalCode.INVALID),  # a game and an evening
        ({"kind": LinkKind.PRODUCER, "game": False, "evening": True}, RefusalCode.INVALID),
        ({"evening": True, "game": False, "table": 3}, RefusalCode.INVALID),
        ({"evening": True, "game": False, "table": None}, RefusalCode.INVALID),
        ({"delay_seconds": 601, "kind": LinkKind.PRODUCER}, RefusalCode.INVALID),
        ({"delay_seconds": -1, "kind": LinkKind.PRODUCER}, RefusalCode.INVALID),
        ({"delay_seconds": 10}, RefusalCode.INVALID),  # an overlay is never delayed
        ({"label": "x" * 65}, RefusalCode.INVALID),
        ({"label": "a\x00b"}, RefusalCode.INVALID),  # PostgreSQL stores no NUL
        ({"label": "a\ud800b"}, RefusalCode.INVALID),  # nor a lone surrogate
        ({"game_id": 10**9}, RefusalCode.NOT_FOUND),
    ],
)
def test_bad_requests_make_no_link(
    table: Table, fields: dict[str, object], code: RefusalCode
) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    arguments: dict[str, object] = {"author": host, "kind": fields.get("kind", LinkKind.OVERLAY)}
    if fields.get("game", True):
        arguments["game_id"] = fields.get("game_id", game.pk)
    if fields.get("evening"):
        arguments["evening_id"] = evening.pk
        arguments["table"] = fields.get("table", 1)
    for name in ("delay_seconds", "label"):
        if name in fields:
            arguments[name] = fields[name]
    _refused(code, link_make, **arguments)
    assert not LiveLink.objects.exists()


def test_the_database_refuses_a_link_of_two_scopes_or_a_delayed_overlay(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    for fields in (
        {"game": game, "evening": evening, "table": 1},
        {"evening": evening},  # no table
        {"kind": LinkKind.PRODUCER, "evening": evening, "table": 1},
        {"game": game, "delay_seconds": 5},
    ):
        link = LiveLink(**{"kind": LinkKind.OVERLAY, **fields})
        link.set_key(LiveLink.new_key())
        with pytest.raises(IntegrityError), transaction.atomic():
            link.save()


def test_uses_are_logged_once_a_minute_per_address(table: Table) -> None:
    host, evening, players = table
    game = start_game(host, evening, players)
    _, key = link_make(author=host, kind=LinkKind.PRODUCER, game_id=game.pk)
    target = link_open(key, LinkKind.PRODUCER)
    for _ in range(5):
        link_used(target, what="poll", ip="203.0.113.7", user_agent="OBS")
    link_used(target, what="page", ip="203.0.113.7", user_agent="OBS")
    link_used(target, what="poll", ip="198.51.100.1", user_agent="x" * 500)
    uses = list(LiveLinkUse.objects.order_by("pk").values_list("what", "ip"))
    assert uses == [("poll", "203.0.113.7"), ("page", "203.0.113.7"), ("poll", "198.51.100.1")]
    assert len(LiveLinkUse.objects.order_by("pk").last().user_agent) == 200  # type: ignore[union-attr]


def test_the_overlay_form_refuses_a_label_with_a_nul_instead_of_a_server_error(
    table: Table,
) -> None:
    """The form's label reaches the service as posted (no Django form's NUL check): it was
    a 500 from PostgreSQL."""
    host, evening, players = table
    game = start_game(host, evening, players)
    client = Client()
    client.force_login(host)
    back = f"/games/{game.pk}/?public=1"
    answer = client.post(
        "/live/overlay-links/", {"game": game.pk, "label": "a\x00b", "back": back}, follow=True
    )
    assert answer.status_code == 200
    assert "NUL" in answer.content.decode()
    assert not LiveLink.objects.exists()


def test_an_online_game_gets_no_producer_s_link(table: Table) -> None:
    """The producer's view draws a club table only: a link to an online game was made (201
    through the API) and then answered «not found» to every poll."""
    host, evening, players = table
    game = start_game(host, evening, players)
    Game.objects.filter(pk=game.pk).update(ruleset=Ruleset.ONLINE)
    _refused(RefusalCode.INVALID, link_make, author=host, kind=LinkKind.PRODUCER, game_id=game.pk)
    assert not LiveLink.objects.exists()


def test_a_link_opened_as_it_is_revoked_is_not_kept_by_that_open(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The open reads the link (not yet revoked), the revocation commits and drops the kept
    link, then the open keeps what it read: the revocation still wins."""
    host, evening, players = table
    game = start_game(host, evening, players)
    link, key = link_make(author=host, kind=LinkKind.PRODUCER, game_id=game.pk)
    keep = cache_set

    def revoked_meanwhile(cache_key: str, value: object, timeout: int) -> None:
        if isinstance(value, LinkTarget):
            link_revoke(author=host, link_id=link.pk)
        keep(cache_key, value, timeout)

    monkeypatch.setattr(links, "cache_set", revoked_meanwhile)
    _refused(RefusalCode.NOT_FOUND, link_open, key, LinkKind.PRODUCER)
    monkeypatch.setattr(links, "cache_set", keep)
    _refused(RefusalCode.NOT_FOUND, link_open, key, LinkKind.PRODUCER)
