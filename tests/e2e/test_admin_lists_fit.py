"""Issue 37 (15d): the admin's lists of sign-ups and of line-up changes fit a 1280 px
screen without sideways scrolling, in Russian (the default, the longer words) and in
English, with every column filled and the longest nicknames the club allows. Screenshots
are kept in var/test-artifacts/e2e/admin-lists/."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from pytest_django.live_server_helper import LiveServer

from club import lineup
from club.models import (
    Evening,
    LineupAction,
    LineupChange,
    Registration,
    RegistrationSource,
    RegistrationStatus,
    RemovalReason,
)
from club.services import registration_create, registration_withdraw
from tests.e2e.conftest import ARTIFACTS, DESKTOP, new_context, watch_of
from tests.factories import make_evening, make_member
from tests.games.recording import make_host

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
SHOTS = ARTIFACTS / "admin-lists"
# The widths the page and its table take beyond what the window shows (0 when they fit).
OVERFLOW = """() => {
  const page = document.documentElement;
  const results = document.querySelector('#changelist .results');
  const table = document.querySelector('#result_list');
  return {
    page: page.scrollWidth - page.clientWidth,
    results: results.scrollWidth - results.clientWidth,
    table: table.getBoundingClientRect().right - page.clientWidth,
    rows: table.tBodies[0].rows.length,
    empty: [...table.tBodies[0].querySelectorAll('td, th')].filter(
      (cell) => !cell.classList.contains('action-checkbox') && !cell.textContent.trim()
    ).length,
  };
}"""
# Nicknames at the limit (32 characters), one word each: nothing to wrap them at.
LONG_NICKS = [
    "Константинопольский_Властелин_01",
    "Достопочтеннейшая_Шахерезада_002",
    "ВеличайшийДетективВсехВремён_003",
]
VENUE = "Антикафе «Гранд Дэдди» на Большой Никитской, зал на втором этаже"


def evening_in_full() -> Evening:
    """An evening with its seats and its reserve taken, by members with the longest
    nicknames and by guests of one name (told apart by their phones), signed up by every
    door, some of them held back, confirmed, promoted and cancelled; and the organiser's log
    of every kind of change, each with its reason, its text and who made it."""
    evening = make_evening(capacity=12, venue=VENUE, starts_at=timezone.now() + timedelta(hours=3))
    host = make_host(nickname="Организатор_Вечера_Длинноеимя_09")
    sources = list(RegistrationSource)
    members = [make_member(nickname=f"{LONG_NICKS[n % 3][:28]}_{n:03d}") for n in range(16)]
    for n, member in enumerate(members):
        registration_create(member=member, evening_id=evening.pk, source=sources[n % 4])
    # Guests of one name on two evenings: the list tells them apart by their phones.
    other = make_evening(capacity=12, venue=VENUE, starts_at=timezone.now() + timedelta(days=7))
    for on, phone in ((evening, "+7 916 123-45-67"), (other, "+7 903 765-43-21")):
        lineup.lineup_add_guest(
            evening_id=on.pk, name="Марина Александровна", of_age=True, actor=host, phone=phone
        )
    now = timezone.now()
    Registration.objects.filter(evening=evening).update(
        attendance_confirmed_at=now, promoted_at=now
    )
    Registration.objects.filter(evening=evening, member__in=members[::5]).update(held_back=True)
    registration_withdraw(registration_id=Registration.objects.get(member=members[1]).pk)
    seated = Registration.objects.filter(evening=evening, status=RegistrationStatus.CONFIRMED)
    first = seated.order_by("arrival").first()
    assert first is not None
    for action in LineupAction:
        for reason in RemovalReason if action == LineupAction.REMOVED else [""]:
            LineupChange.objects.create(
                evening=evening,
                registration=first,
                action=action,
                reason=reason,
                text="Начинаем ровно в шесть, опоздавших ждём до четверти седьмого, не позже."
                if action == LineupAction.MESSAGE
                else "",
                reached=14 if action == LineupAction.MESSAGE else None,
                actor=host,
            )
    return evening


def test_the_sign_ups_and_line_up_changes_fit_1280_px(
    browser: Any, live_server: LiveServer
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    evening = evening_in_full()
    admin = make_member(
        nickname="Администратор_Клуба_Длинноеимя_1", is_staff=True, is_superuser=True
    )
    problems: list[str] = []
    for language in ("ru", "en"):
        context = new_context(browser, live_server, user=admin, language=language, viewport=DESKTOP)
        page = context.new_page()
        for name, path in (
            ("sign-ups", "/admin/club/registration/"),
            (
                "sign-ups-of-the-evening",
                f"/admin/club/registration/?evening__id__exact={evening.pk}",
            ),
            ("line-up-changes", "/admin/club/lineupchange/"),
        ):
            page.goto(live_server.url + path)
            page.wait_for_load_state("load")
            overflow = page.evaluate(OVERFLOW)
            page.screenshot(path=SHOTS / f"{language}-{name}.png", full_page=True)
            # Nothing scrolls sideways: the page, the table's box, the table itself.
            if overflow["page"] > 0 or overflow["results"] > 0 or overflow["table"] > 0:
                problems.append(f"{language} {name}: {overflow} px too wide")
            if overflow["rows"] < 12 or overflow["empty"]:  # the rows are there, filled
                problems.append(f"{language} {name}: {overflow}")
            problems += watch_of(context).csp_violations(page)  # the lists' stylesheet too
        watch = watch_of(context)
        problems += [f"{language}: {message}" for message in watch.console_errors + watch.failed]
        context.close()
    assert problems == [], "\n".join(problems)
