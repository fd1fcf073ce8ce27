"""RULES.md §C: a member who refused publication is nowhere by name in what is published.

A season is seeded and posted to the group; three members, the club games' host and an
online game's host then switch publication off. The test walks the site as a visitor
(following every link from the home page and the leaderboards) and as another member,
reads every published API answer, and reads every group post as it stands after the
edits: none names them. Every page the browser tests open (tests/pages.py) is read too,
as its reader, with everyone but the admin opted out.

The hole the hosts close (#24): the game pages printed the host's nickname to anyone."""

import re
from collections import deque
from collections.abc import Iterator
from typing import Any, cast

import pytest
from django.http import StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.test import Client

from accounts.models import User
from accounts.services import api_token_create, member_set_publication_consent
from club.kernel.clubs import Club
from club.models import Evening
from games.models import Game
from games.ratings import publication, tasks
from games.ratings.models import PlayerScore
from games.ratings.seasons import season_of
from notifications.models import Notification
from tests.factories import set_consent
from tests.games.recording import make_host
from tests.games.season import History, seed_history
from tests.pages import demo_club, pages

pytestmark = pytest.mark.django_db
GROUP = -100777
LINK = re.compile(r'href="(/[^"#]*)"')
NOT_PUBLISHED = ("/admin/", "/accounts/", "/i18n/", "/telegram/", "/static/", "/evenings/mine/")


@pytest.fixture
def season() -> tuple[History, list[str]]:
    club = Club.current()
    club.telegram_group_chat_id = GROUP
    club.save()
    history = seed_history(games=40, members=24, seed=7)
    online_host = make_host()
    history.games.append(finished_online_game(online_host, history.members))
    for game in history.games:
        publication.game_post_sync(game_id=game.pk)
    # Everyone played: take three who did, and both hosts (the club games' and the online
    # game's), and give them names no page could show by accident.
    hidden = [*history.members[:3], history.host, online_host]
    for number, member in enumerate(hidden, start=1):
        User.objects.filter(pk=member.pk).update(nickname=f"Тень{number}")
        member.refresh_from_db()
        Notification.objects.filter(dedupe_key__startswith="analysis:").update(
            status="sent", message_id=1
        )
        member_set_publication_consent(member=member, consent=False)
        tasks.member_posts_sync(member.pk)
    return history, [m.nickname for m in hidden]


def finished_online_game(host: User, members: list[User]) -> Game:
    """An online game of ten members, ended by the host's modkills of the mafia and
    analysed."""
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    from games.models import Seat
    from games.online import services as online_play
    from games.online.sweep import online_sweep
    from games.ratings import analysis

    starts = timezone.now() + timedelta(minutes=1)
    game = online_play.online_game_create(
        host=host, member_ids=[m.pk for m in members[:10]], starts_at=starts
    )
    with time_machine.travel(starts + timedelta(seconds=5)):
        online_sweep()
        for seat in Seat.objects.filter(game=game, role__in=["don", "mafia"]):
            online_play.online_act(
                game_id=game.pk, user=host, event={"type": "modkill", "seat": seat.number}
            )
    analysis.game_analysis_build(game_id=game.pk)
    analysis.ratings_replay()
    return Game.objects.get(pk=game.pk)


def assert_hidden(text: str, names: list[str], where: str) -> None:
    for name in names:
        assert name not in text, f"{name} is named in {where}"


def walk(
    client: Client, starts: list[str], names: list[str], *, skip: tuple[str, ...] = ()
) -> set[str]:
    seen: set[str] = set()
    queue = deque(starts)
    while queue:
        url = queue.popleft()
        if url in seen or url.startswith(NOT_PUBLISHED + tuple(skip)):
            continue
        seen.add(url)
        response = client.get(url)
        if response.status_code != 200:
            continue
        # An export's link gives a streamed file: its names are held to the same rule.
        answer: HttpResponseBase = response
        raw = (
            b"".join(cast(Iterator[bytes], answer.streaming_content))
            if isinstance(answer, StreamingHttpResponse)
            else response.content
        )
        body = raw.decode()
        assert_hidden(body, names, url)
        queue.extend(link.replace("&amp;", "&") for link in LINK.findall(body))
    return seen


def published_urls(history: History) -> list[str]:
    club = Club.current()
    seasons = {season_of(s.played_on, club.season_length).key for s in PlayerScore.objects.all()}
    sorts = ("points", "average", "games", "wins", "win_rate", "red", "black", "nick")
    urls = ["/", "/leaderboard/"]
    urls += [f"/leaderboard/?season={s}&sort={o}" for s in seasons for o in sorts]
    urls += [f"/games/{g.pk}/" for g in history.games]
    urls += [f"/players/{m.pk}/" for m in history.members]
    urls += [f"/evenings/{e.pk}/" for e in Evening.objects.all()]
    return urls


def api_urls(history: History) -> list[str]:
    urls = [
        f"/api/v1/games/{g.pk}/{part}" for g in history.games for part in ("analysis", "protocol")
    ]
    urls += [f"/api/v1/games/{g.pk}" for g in history.games]
    urls += [f"/api/v1/players/{m.pk}" for m in history.members]
    urls += ["/api/v1/leaderboard"]
    club = Club.current()
    for score in PlayerScore.objects.distinct("played_on").order_by("played_on")[:200]:
        urls.append(
            f"/api/v1/leaderboard?season={season_of(score.played_on, club.season_length).key}"
        )
    return urls


def test_no_page_names_a_member_who_refused_publication(season: tuple[History, list[str]]) -> None:
    history, names = season
    visited = walk(Client(), published_urls(history), names)
    assert {f"/games/{g.pk}/" for g in history.games} <= visited
    assert {f"/players/{m.pk}/" for m in history.members[3:]} <= visited
    # Another member sees the same published pages (the evenings' sign-up lists, which keep
    # nicknames for logged-in members, are not publications).
    other = Client()
    other.force_login(history.members[-1])
    walk(other, published_urls(history), names, skip=("/evenings/",))


def test_no_api_answer_names_them(season: tuple[History, list[str]]) -> None:
    history, names = season
    token = api_token_create(member=history.members[-1]).key
    answered = 0
    for headers in ({}, {"Authorization": f"Bearer {token}"}):
        client = Client(headers=headers)
        for url in api_urls(history):
            response = client.get(url)
            assert response.status_code in (200, 401, 404), url
            answered += response.status_code == 200
            assert_hidden(response.content.decode("unicode_escape"), names, url)
    assert answered > 100


def test_no_group_post_names_them_after_the_edits(season: tuple[History, list[str]]) -> None:
    _history, names = season
    posts = Notification.objects.filter(chat_id=GROUP, edit_of=None)
    assert posts.count() == Game.objects.count()
    for post in posts:
        latest = post.edits.order_by("-pk").first() or post
        assert_hidden(latest.text, names, post.dedupe_key)


def test_they_still_see_their_own_scores(season: tuple[History, list[str]]) -> None:
    _history, names = season
    own = Client()
    own.force_login(User.objects.get(nickname=names[0]))
    member = User.objects.get(nickname=names[0])
    page = own.get(f"/players/{member.pk}/").content.decode()
    assert names[0] in page
    assert Client().get(f"/players/{member.pk}/").status_code == 404


# --- every page the browser tests open (tests/pages.py), read with Django's client ------

LETTERS = "АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЭЮЯ"


@pytest.fixture
def crawl() -> dict[str, Any]:
    """The browser tests' club in which every member but the admin, the hosts included,
    refused publication, under names no page could show by accident (all of one length,
    so none is inside another)."""
    club = demo_club()
    for index, pk in enumerate(User.objects.filter(is_staff=False).values_list("pk", flat=True)):
        nickname = f"Тень{LETTERS[index // len(LETTERS)]}{LETTERS[index % len(LETTERS)]}"
        User.objects.filter(pk=pk).update(nickname=nickname)
        set_consent(pk, consent=False)
    for member in (club["host"], club["member"]):
        member.refresh_from_db()
    return club


def may_name(role: str, path: str, club: dict[str, Any], viewer: User | None) -> set[int]:
    """Whom a page may name although they refused publication (RULES.md §C): the reader
    themselves; a table to its players (the online table) and its host (the running
    game's pages); everyone on the lists for members (the host's seating screens)."""
    if viewer is None:
        return set()
    named = {viewer.pk}
    online, running = club["online"], club["running"]
    if path == f"/online/{online.pk}/":
        named |= set(online.seats.values_list("member_id", flat=True))
    # The host ran both the running game and the demo's finished one (its page, where they
    # give extra points, is theirs too).
    for game in (running, club["finished"]):
        if path.startswith(f"/games/{game.pk}/") and role == "host":
            named |= set(game.seats.values_list("member_id", flat=True))
    if path in (f"/evenings/{club['evening'].pk}/games/new/", "/online/new/"):
        named |= set(User.objects.values_list("pk", flat=True))
    return named


def test_no_page_of_the_browser_crawl_names_a_member_who_refused_publication(
    crawl: dict[str, Any],
) -> None:
    who = {"visitor": None, "member": crawl["online"].seats.first().member, "host": crawl["host"]}
    hidden = dict(
        User.objects.filter(memberships__publication_consent=False).values_list("pk", "nickname")
    )
    read = 0
    for role, paths in pages(crawl).items():
        if role == "admin":
            continue  # staff see every name (RULES.md §C)
        client = Client()
        if who[role] is not None:
            client.force_login(who[role])
        for path in paths:
            response = client.get(path)
            assert response.status_code in (200, 404), f"{role} {path}"
            read += response.status_code == 200
            named = may_name(role, path, crawl, who[role])
            names = [name for pk, name in hidden.items() if pk not in named]
            assert_hidden(response.content.decode(), names, f"{role} {path}")
    assert read == 22  # all but the opted-out member's player page, 404 to a visitor
