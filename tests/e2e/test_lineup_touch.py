"""The door of an evening on a phone's glass (#27): the organiser checks people in on the
line-up screen at 360×640 (scale 2, touch) with one tap each, every tap sent through the
DevTools protocol as a finger makes it (`Input.dispatchTouchEvent`: touchStart, touchEnd;
Chromium makes the click), in Russian and in English.

After every tap the test reads what the server holds: exactly one check-in (and one line
of the evening's log) per row tapped, the count on the screen equal to the rows checked in.
A double tap, quick (both taps before the answer) or slow (the second lands on the row the
first tap's answer drew, «✓ на месте», which takes a check-in back), checks in once. A tap
the server refuses, because another organiser took the row off the list after the page
was loaded or because the evening was cancelled meanwhile, says so where the finger is:
the refusal inside the viewport at the tapped row, the page not scrolled away from it, and
nothing changed. Screenshots in var/test-artifacts/e2e/lineup-touch/.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Locator, Route
from pytest_django.live_server_helper import LiveServer

from club import lineup, services
from club.kernel.clubs import Club
from club.models import (
    Evening,
    EveningStatus,
    LineupAction,
    LineupChange,
    Registration,
    RegistrationStatus,
)
from tests.e2e.conftest import ARTIFACTS, PHONE, new_context, untranslated, watch_of
from tests.e2e.test_host_screen import axe_violations
from tests.e2e.test_host_touch import TAP_MS, Finger
from tests.factories import make_evening, sign_up_many
from tests.games.recording import make_host

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]

SHOTS = ARTIFACTS / "lineup-touch"
# A finger's double tap: the second touch this long after the first one ends.
QUICK_GAP_MS = 40
# Time for a tap's answer, or a second one, to arrive and be drawn.
SETTLE_MS = 600

WORDS = {
    "ru": {
        "came": "На месте",
        "came_count": "На месте {n}",
        "gone": "Уже не в списке.",
        "cancelled": "Этот вечер отменён.",
    },
    "en": {
        "came": "Came",
        "came_count": "Came {n}",
        "gone": "Not on the list any more.",
        "cancelled": "This evening is cancelled.",
    },
}

# The row's «came» button, in whichever state the row is.
CAME_BUTTON = "form[action$='/came/'] button"


def door_evening() -> tuple[Evening, list[Registration]]:
    """An evening an hour away (the door is open): one table's seats taken and a reserve
    of three, so the list is longer than the phone's screen."""
    seats = Club.current().min_players
    evening = make_evening(
        capacity=seats,
        starts_at=timezone.now() + timedelta(hours=1),
        opens_at=timezone.now() - timedelta(days=1),
    )
    signed = sign_up_many(evening, seats + 3)
    return evening, [s.registration for s in signed]


def checked_in(evening: Evening) -> set[int]:
    return set(
        Registration.objects.filter(evening=evening, checked_in_at__isnull=False).values_list(
            "pk", flat=True
        )
    )


def door_log(registration: Registration) -> list[str]:
    """The evening's log of the row's door taps: "+" a check-in, "-" one taken back."""
    return [
        "-" if text == "-" else "+"
        for text in LineupChange.objects.filter(
            registration=registration, action=LineupAction.CHECKED_IN
        )
        .order_by("pk")
        .values_list("text", flat=True)
    ]


class Door:
    """The organiser's thumb on the line-up screen."""

    def __init__(self, page: Any, finger: Finger, evening: Evening, language: str) -> None:
        self.page, self.finger, self.evening, self.language = page, finger, evening, language
        self.words = WORDS[language]
        self.shots = 0

    def row(self, registration: Registration) -> Locator:
        locator: Locator = self.page.locator(f"#r{registration.pk}")
        return locator

    def button(self, registration: Registration) -> Locator:
        return self.row(registration).locator(CAME_BUTTON)

    def bring_to_the_thumb(self, registration: Registration) -> None:
        """The organiser scrolls the row to the middle of the screen, as a thumb does."""
        self.row(registration).evaluate("(row) => row.scrollIntoView({block: 'center'})")
        self.page.wait_for_timeout(50)

    def point(self, registration: Registration) -> dict[str, float]:
        """Where the finger lands on the row's «came» button: inside the viewport, and the
        button is what is under it (not the sticky header)."""
        button = self.button(registration)
        point = self.finger.point(button)
        assert 0 <= point["x"] <= PHONE["width"] and 0 <= point["y"] <= PHONE["height"], point
        hit = self.page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.closest('#board form')?.action || ''",
            [point["x"], point["y"]],
        )
        assert hit.endswith(f"/{registration.pk}/came/"), f"the finger would land on {hit!r}"
        return point

    def touch(self, point: dict[str, float]) -> None:
        self.finger.cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]}
        )
        self.page.wait_for_timeout(TAP_MS)
        self.finger.up()

    def settle(self) -> None:
        self.page.wait_for_load_state("networkidle")
        self.page.wait_for_timeout(SETTLE_MS)
        self.page.wait_for_load_state("networkidle")

    def came_badge(self) -> str:
        return str(self.page.locator(".lineup-counts .badge.ok").inner_text()).strip()

    def consistent(self) -> None:
        """The screen says what the server holds: the rows drawn as come are the rows
        checked in, and the count says how many."""
        held = checked_in(self.evening)
        drawn = {
            int(str(node).removeprefix("r"))
            for node in self.page.locator(".lineup-row.came").evaluate_all(
                "(rows) => rows.map((row) => row.id)"
            )
        }
        assert drawn == held, f"drawn as come {sorted(drawn)}, checked in {sorted(held)}"
        assert self.came_badge() == self.words["came_count"].format(n=len(held))

    def thumb_sized(self) -> None:
        """Every row's «came» is a thumb's whole target: 48 × 48 px or more."""
        small = self.page.locator("#board .lineup-door").evaluate_all(
            """(buttons) => buttons.map((b) => b.getBoundingClientRect())
                .filter((box) => box.width < 47.5 || box.height < 47.5)
                .map((box) => `${Math.round(box.width)}x${Math.round(box.height)}`)"""
        )
        assert small == [], f"door buttons under 48 px: {small}"

    def shot(self, name: str) -> None:
        self.shots += 1
        self.page.screenshot(path=SHOTS / f"{self.language}-{self.shots}-{name}.png")

    def said_at(self, registration: Registration, point: dict[str, float]) -> str:
        """The refusal of the tap at `point`: in the tapped row, inside the viewport and
        close to the finger, the page not moved away. Its text."""
        notice = self.row(registration).locator(".notice.error")
        notice.wait_for(state="visible")
        self.page.wait_for_timeout(SETTLE_MS)
        box = notice.bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (
            f"the refusal is outside the screen: {box}"
        )
        # Under the sticky header would be out of sight too.
        header = self.page.locator(".site-header").bounding_box()
        assert header is not None and box["y"] >= header["y"] + header["height"] - 0.5, box
        distance = min(abs(box["y"] - point["y"]), abs(box["y"] + box["height"] - point["y"]))
        assert distance < PHONE["height"] / 3, f"the refusal is {distance:.0f} px from the tap"
        return str(notice.inner_text()).strip()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_door_by_touch_one_tap_one_check_in_and_refusals_where_the_finger_is(
    browser: Browser, live_server: LiveServer, language: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for old in SHOTS.glob(f"{language}-*.png"):
        old.unlink(missing_ok=True)  # another worker may have taken it first
    host, other_host = make_host(nickname="Организатор"), make_host(nickname="Второй")
    evening, regs = door_evening()
    seats = Club.current().min_players
    context = new_context(browser, live_server, user=host, language=language)
    page = context.new_page()
    page.goto(f"{live_server.url}/evenings/{evening.pk}/lineup/", wait_until="networkidle")
    finger = Finger(page, context.new_cdp_session(page))
    door = Door(page, finger, evening, language)
    assert page.evaluate("() => matchMedia('(pointer: coarse)').matches"), "not a touch screen"
    door.consistent()
    door.thumb_sized()
    door.shot("loaded")

    # One tap each, rows at the top, the middle and the bottom of the list: one check-in
    # each, one line of the log each.
    for registration in (regs[0], regs[5], regs[seats - 1]):
        door.bring_to_the_thumb(registration)
        door.touch(door.point(registration))
        door.row(registration).and_(page.locator(".came")).wait_for()
        door.settle()
        assert door_log(registration) == ["+"]
        door.consistent()
    assert checked_in(evening) == {regs[0].pk, regs[5].pk, regs[seats - 1].pk}
    door.thumb_sized()
    door.shot("three-in")

    # A double tap on a slow network: both touches land before the first one's answer
    # (held back here until the second touch is made), on the same «на месте».
    quick = regs[1]
    door.bring_to_the_thumb(quick)
    point = door.point(quick)
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route(f"**/lineup/{quick.pk}/came/", hold)
    door.touch(point)
    page.wait_for_timeout(QUICK_GAP_MS)
    door.touch(point)
    page.wait_for_timeout(SETTLE_MS)
    assert len(held) == 1, "the second touch sent a second request while the first was out"
    held[0].continue_()
    door.row(quick).and_(page.locator(".came")).wait_for()
    door.settle()
    page.unroute(f"**/lineup/{quick.pk}/came/")
    assert len(held) == 1
    assert door_log(quick) == ["+"], "a double tap on a slow network"
    door.consistent()

    # A double tap on a fast network: the first touch's answer is drawn before the second
    # touch lands, on the row's new «✓ на месте» (which takes a mistaken check-in back).
    # Both times, the taps QUICK_GAP_MS apart, and as late as the answer allows.
    for fast, gap in ((regs[2], QUICK_GAP_MS), (regs[3], 0)):
        door.bring_to_the_thumb(fast)
        point = door.point(fast)
        door.touch(point)
        if gap:
            page.wait_for_timeout(gap)
        else:
            door.row(fast).and_(page.locator(".came")).wait_for()
        door.touch(point)
        door.settle()
        assert door_log(fast) == ["+"], f"a double tap {gap} ms apart on a fast network"
        door.consistent()
    assert len(checked_in(evening)) == 6
    door.shot("double-taps")

    # Another organiser takes a row in the middle of the list off it after this page was
    # loaded; the tap on it is refused where it was made, and changes nothing.
    gone = regs[7]
    lineup.lineup_remove(registration_id=gone.pk, reason="no_show", actor=other_host)
    before = checked_in(evening)
    door.bring_to_the_thumb(gone)
    point = door.point(gone)
    door.touch(point)
    assert door.said_at(gone, point) == door.words["gone"]
    door.settle()
    assert checked_in(evening) == before
    assert Registration.objects.get(pk=gone.pk).status == RegistrationStatus.NO_SHOW
    assert door_log(gone) == []
    door.consistent()
    door.shot("removed-meanwhile")

    # The evening is cancelled meanwhile (by an admin): the next tap is refused in its row.
    late = regs[9]
    services.evening_cancel(evening_id=evening.pk)
    door.bring_to_the_thumb(late)
    point = door.point(late)
    door.touch(point)
    assert door.said_at(late, point) == door.words["cancelled"]
    door.settle()
    assert Evening.objects.get(pk=evening.pk).status == EveningStatus.CANCELLED
    assert door_log(late) == []
    door.shot("cancelled-meanwhile")

    assert untranslated(page, language, [host.nickname, other_host.nickname]) == []
    assert axe_violations(page, live_server) == []
    # The two refused taps answered 409 by design; nothing else failed.
    assert [f for f in watch_of(context).failed if not f.startswith("409 ")] == []
    assert watch_of(context).csp_violations(page) == []
    assert all("409 (Conflict)" in error for error in watch_of(context).console_errors)
    context.close()
