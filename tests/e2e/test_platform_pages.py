"""The platform's pages on a phone (#41): the clubs, a league with its series' standings (and
its admin's desk, to its admin), the rating across clubs and a player's games in each club
fit 360 px in both languages, with no word of the other language and no console error; a
member who refused publication is «игрок» on the rating. Screenshots in
var/test-artifacts/e2e/platform/."""

from __future__ import annotations

import shutil

import pytest
from django.utils import timezone
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from accounts.models import Membership, User
from club.kernel.clubs import Club
from leagues import standings
from leagues.models import JoinStatus, League, LeagueMembership, Series
from leagues.rating import platform_rating_rebuild
from tests.e2e.conftest import ARTIFACTS, PHONE, new_context, untranslated, watch_of
from tests.factories import make_member
from tests.leagues.test_leagues import finished_game, tournament_here
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
SHOTS = ARTIFACTS / "platform"


def test_the_platforms_pages_fit_a_phone_in_both_languages(
    browser: Browser, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)
    first = Club.objects.get()
    Club.objects.filter(pk=first.pk).update(name="GrandDaddy", city="Москва")
    second = Club.objects.create(slug="kazan", name="Мафия Казань", city="Казань")
    league = League.objects.create(name="Лига Поволжья", slug="volga")
    for club in (first, second):
        LeagueMembership.objects.create(league=league, club=club, status=JoinStatus.ACCEPTED)
    game = finished_game(second)
    platform_rating_rebuild()
    players = list(User.objects.filter(game_seats__game=game).order_by("game_seats__number"))
    shy = players[1]
    Membership.objects.filter(user=shy, club=second).update(publication_consent=False)
    series = Series.objects.create(
        league=league, name="Кубок Поволжья 2026", points_by_place=[25, 18, 15, 12, 10]
    )
    from club.kernel.tenancy import club_scope

    with club_scope(second):
        cup = tournament_here()
    Tournament.all_clubs.filter(pk=cup.pk).update(finished_at=timezone.now())
    series.stages.create(tournament=cup)
    places = {player.pk: n for n, player in enumerate(players[:6], 1)}
    monkeypatch.setattr(standings, "tournament_places", lambda tournament: places)
    data = [p.nickname for p in players] + ["GrandDaddy", "Мафия Казань", "Казань", "Москва"]
    third = Club.objects.create(slug="ufa", name="Мафия Уфа", city="Уфа")
    runner = make_member(nickname="Лигист")
    league.admins.add(runner)
    data += ["Лига Поволжья", "Кубок Поволжья 2026", "Кубок Б", "Мафия Уфа", "Уфа", "Лигист"]
    pages = {
        "clubs": "/clubs/",
        "league": "/leagues/volga/",
        "rating": "/rating/",
        "player": f"/players/{players[0].pk}/",
    }
    for language in ("ru", "en"):
        context = new_context(browser, live_server, language=language)
        page = context.new_page()
        for name, path in pages.items():
            page.goto(live_server.url + path, wait_until="networkidle")
            page.screenshot(path=SHOTS / f"{language}-{name}.png", full_page=True)
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= PHONE["width"], (path, width)
            assert untranslated(page, language, data) == [], (path, language)
            if name == "rating":
                assert shy.nickname not in page.inner_text("main")
                assert players[0].nickname in page.inner_text("main")
            if name == "clubs":
                assert page.locator('a[href="/c/kazan/"]').count() == 1
        assert watch_of(context).console_errors == []
        assert watch_of(context).failed == []
        context.close()
        # The league's admin sees the desk: invite a club, add a tournament to a series.
        context = new_context(browser, live_server, language=language, user=runner)
        page = context.new_page()
        page.goto(live_server.url + "/leagues/volga/", wait_until="networkidle")
        page.screenshot(path=SHOTS / f"{language}-league-admin.png", full_page=True)
        assert page.locator("#league-desk").is_visible()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        assert untranslated(page, language, data) == [], ("league-admin", language)
        assert page.locator("#invite-club option").all_inner_texts() == ["Мафия Уфа, Уфа"]
        page.locator("#league-desk").get_by_role("button").first.click()
        page.wait_for_load_state("networkidle")
        assert LeagueMembership.objects.filter(club=third).exists()
        LeagueMembership.objects.filter(club=third).delete()
        assert watch_of(context).console_errors == []
        context.close()
