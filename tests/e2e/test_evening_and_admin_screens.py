"""Issue #27's screens at 360×640 in both languages, as a member and a club admin would
see them: «Не смогу» asking first, a started evening telling who played (or, before its
first game, who is there), the new-evening form from the club settings, and the cancel
action's question. Screenshots are kept in var/test-artifacts/e2e/issue27/; no page scrolls
sideways."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from club import lineup
from club.models import Evening
from tests.e2e.conftest import ARTIFACTS, PHONE, new_context, watch_of
from tests.factories import make_evening, make_member, set_consent, sign_up_many
from tests.games.recording import evening_with_players, make_host, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
SHOTS = ARTIFACTS / "issue27"


def shot(page: Any, name: str, problems: list[str]) -> None:
    # The page whole (a form's element is found while the rest still loads: the width read
    # then was once Chromium's 980 px default, before the page's viewport applied).
    page.wait_for_load_state("load")
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    if wide > PHONE["width"]:
        problems.append(f"{name}: {wide} px wide")
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)


def test_the_evening_and_admin_screens_on_a_phone(browser: Any, live_server: LiveServer) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    upcoming = make_evening(capacity=12)
    member: User = sign_up_many(upcoming, 1)[0].member
    played, players = evening_with_players()
    set_consent(players[0].pk, consent=False)
    start_game(make_host(), played, players)
    Evening.objects.filter(pk=played.pk).update(starts_at=timezone.now() - timedelta(hours=4))
    # Started, no game recorded yet: who is on the list, a hidden member and a guest counted.
    begun, waiting = evening_with_players()
    set_consent(waiting[1].pk, consent=False)
    lineup.lineup_add_guest(evening_id=begun.pk, name="Гость Петя", of_age=True, actor=make_host())
    Evening.objects.filter(pk=begun.pk).update(starts_at=timezone.now() - timedelta(minutes=10))
    admin = make_member(nickname="Админка", is_staff=True, is_superuser=True)
    problems: list[str] = []
    for language in ("ru", "en"):
        context = new_context(browser, live_server, user=member, language=language)
        page = context.new_page()
        page.goto(f"{live_server.url}/evenings/{upcoming.pk}/")
        page.locator("#panel a[href*='leave=1']").click()
        page.locator("#leave-question").wait_for()
        shot(page, f"{language}-evening-asks-first", problems)
        page.locator("#leave-question button[type=submit]").click()
        page.locator(".undo").wait_for()
        shot(page, f"{language}-evening-undo", problems)
        page.locator(".undo button").click()
        page.locator("#panel a[href*='leave=1']").wait_for()
        page.goto(f"{live_server.url}/evenings/{played.pk}/")
        shot(page, f"{language}-evening-after-the-games", problems)
        page.goto(f"{live_server.url}/evenings/{begun.pk}/")
        shot(page, f"{language}-evening-started-before-the-games", problems)
        if page.locator("#panel form, #panel a[role=button]").count():
            problems.append(f"{language}: a started evening offers a sign-up action")
        context.close()
        context = new_context(browser, live_server, user=admin, language=language)
        page = context.new_page()
        page.goto(f"{live_server.url}/admin/club/evening/add/")
        shot(page, f"{language}-admin-add-evening", problems)
        page.goto(f"{live_server.url}/admin/club/club/")
        shot(page, f"{language}-admin-club-settings", problems)
        page.goto(f"{live_server.url}/admin/club/evening/")
        page.locator(f"input[name=_selected_action][value='{upcoming.pk}']").check()
        page.select_option("select[name=action]", "cancel_evenings")
        page.locator("button[name=index]").click()
        page.locator("input[name=confirmed]").wait_for(state="attached")
        shot(page, f"{language}-admin-cancel-asks", problems)
        # The walk's admin: counts after their names, a guest named «… (гость)», a member's
        # deletion asked in grammar, and the site's icon on every page (no /favicon.ico).
        page.goto(f"{live_server.url}/admin/club/guest/")
        shot(page, f"{language}-admin-guests", problems)
        page.goto(f"{live_server.url}/admin/club/registration/?evening__id__exact={begun.pk}")
        shot(page, f"{language}-admin-sign-ups", problems)
        page.goto(f"{live_server.url}/admin/accounts/user/{member.pk}/delete/")
        shot(page, f"{language}-admin-member-delete", problems)
        if watch_of(context).failed:
            problems.append(f"{language}: {watch_of(context).failed}")
        context.close()
    assert Evening.objects.get(pk=upcoming.pk).status == "scheduled"  # asked, not done
    assert problems == [], "\n".join(problems)
