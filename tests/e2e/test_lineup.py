"""The organiser's evening on a phone (360×640), in Russian and in English: the list is
filled past its capacity with members and a guest, a second table is opened, people are
checked in at the door, a refused tap is said in its row, and a message goes to the
evening. Screenshots in var/test-artifacts/e2e/lineup/."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from club.kernel.clubs import Club
from club.models import Evening, Guest, LineupAction, LineupChange, Registration
from tests.e2e.conftest import ARTIFACTS, PHONE, new_context, watch_of
from tests.e2e.test_host_screen import axe_violations
from tests.factories import make_evening, make_member, sign_up_many
from tests.games.recording import make_host

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
SHOTS = ARTIFACTS / "lineup"

WORDS = {
    "ru": {
        "add": "Добавить",
        "guest": "Добавить гостя",
        "add_guest": "Добавить гостя",
        "second": "Открыть второй стол",
        "came": "На месте",
        "message": "Сообщение вечеру",
        "send": "Отправить",
        "sent": "Отправляется",
    },
    "en": {
        "add": "Add",
        "guest": "Add a guest",
        "add_guest": "Add the guest",
        "second": "Open a second table",
        "came": "Came",
        "message": "A message to the evening",
        "send": "Send",
        "sent": "Sending to",
    },
}


def full_evening(tag: str) -> Evening:
    """An evening an hour away with one table's seats taken and a reserve: two short of
    two tables' minimum, so the organiser's member and guest make it."""
    club = Club.current()
    evening = make_evening(
        capacity=club.min_players,
        starts_at=timezone.now() + timedelta(hours=1),
        opens_at=timezone.now() - timedelta(days=1),
    )
    sign_up_many(evening, 2 * club.min_players - 2)
    make_member(nickname=f"Лиса {tag}", telegram_id=abs(hash(tag)) % 10**9)
    return evening


def fits(page: Any) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_organiser_runs_the_evening_from_a_phone(
    browser: Any, live_server: Any, language: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    words = WORDS[language]
    host = make_host()
    evening = full_evening(language)
    context = new_context(browser, live_server, user=host, language=language)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{live_server.url}/evenings/{evening.pk}/lineup/", wait_until="networkidle")
    fits(page)
    page.screenshot(path=SHOTS / f"{language}-1-full.png", full_page=True)

    # A member found by nickname, added: the evening is full, so the reserve.
    page.fill("#member-search", "Лиса")
    page.locator("#found button", has_text=words["add"]).click()
    page.wait_for_selector(".lineup-add .notice.ok")
    # A guest: a name and the organiser's word that they are of age.
    page.locator("summary", has_text=words["guest"]).click()
    page.fill("input[name=name]", "Вася")
    page.fill("input[name=phone]", "+7 900 000-00-00")
    page.locator("input[name=of_age]").check()
    page.locator("button", has_text=words["add_guest"]).click()
    page.wait_for_selector(".lineup-row .badge.info")
    assert Guest.objects.get().name == "Вася"
    page.screenshot(path=SHOTS / f"{language}-2-guest.png", full_page=True)

    # Two tables' minimum on the list and in the reserve: the second table opens.
    page.locator("button", has_text=words["second"]).click()
    page.wait_for_selector(".badge.info >> nth=0")
    page.wait_for_function("() => !document.querySelector('.lineup-second')")
    evening.refresh_from_db()
    assert (evening.tables, evening.capacity) == (2, 2 * Club.current().min_players)
    assert not Registration.objects.reserve().filter(evening=evening).exists()

    # The door: three taps, each row turns green.
    for _ in range(3):
        before = page.locator(".lineup-row.came").count()
        page.locator(".lineup-row:not(.came) button", has_text=words["came"]).first.click()
        page.wait_for_function(
            f"() => document.querySelectorAll('.lineup-row.came').length > {before}"
        )
    assert Registration.objects.filter(evening=evening, checked_in_at__isnull=False).count() == 3
    page.screenshot(path=SHOTS / f"{language}-3-door.png", full_page=True)

    # A message to the evening, with the count of who was reached.
    page.locator("summary", has_text=words["message"]).click()
    page.fill("textarea[name=text]", "Начинаем в 18:30")
    page.locator("button", has_text=words["send"]).click()
    said = page.wait_for_selector(".lineup-add .notice.ok")
    assert said is not None and words["sent"] in said.inner_text()
    said.scroll_into_view_if_needed()
    fits(page)
    page.screenshot(path=SHOTS / f"{language}-4-message.png")
    page.screenshot(path=SHOTS / f"{language}-5-all.png", full_page=True)
    # The evening is closed meanwhile (from the admin, say): the next tap is refused, and
    # the refusal is said in the row where it was made.
    row = page.locator(".lineup-row:not(.came)").first
    row_id = row.get_attribute("id") or ""
    Evening.objects.filter(pk=evening.pk).update(status="finished")
    row.locator("button", has_text=words["came"]).click()
    page.wait_for_selector(f"#{row_id} .notice.error")
    page.locator(f"#{row_id}").scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / f"{language}-6-refused.png")
    assert not Registration.objects.get(pk=int(row_id.removeprefix("r"))).checked_in_at

    change = LineupChange.objects.get(action=LineupAction.MESSAGE)
    # Лиса has the bot, the others an email: the 23 members on the list (the guest is none).
    assert change.reached == 2 * Club.current().min_players - 1

    assert axe_violations(page, live_server) == []
    # The refused tap answered 409 by design; nothing else failed.
    assert [f for f in watch_of(context).failed if "/came/" not in f] == []
    print("CSP", watch_of(context).csp_violations(page))
    assert watch_of(context).csp_violations(page) == []
    assert all("409 (Conflict)" in error for error in watch_of(context).console_errors)
    context.close()
