"""Every page type at 360×640 and 1280×800, in Russian and English, light and dark:
screenshots kept in var/test-artifacts/e2e/pages/, no page scrolls sideways on the phone, no
`<title>` holds markup, no console error and no failed request (a 404 included), no visible
string of the club's own pages left in the other language, and axe-core finds no serious or
critical violation on them (the admin's markup is Django's) in either colour scheme. The
page types and the club are test_csp's."""

from __future__ import annotations

import re
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from club.models import Evening
from games.models import GameEvent
from games.online.models import MafiaMessage
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PHONE, new_context, untranslated, watch_of
from tests.e2e.test_csp import club  # noqa: F401 (the fixture)
from tests.e2e.test_host_screen import axe_violations
from tests.pages import pages
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
SHOTS = ARTIFACTS / "pages"
# django-ninja's Swagger UI is the API's reference for developers, drawn by its own code for
# a desktop; it is not a page of the club's.
NOT_FOR_PHONES = {"/api/v1/docs"}


def slug(path: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-") or "home"


# A case per language (each in its own colour scheme): the two processes of the suite can
# walk them side by side (the walk of both took three minutes in one test).
@pytest.mark.parametrize(("language", "scheme"), [("ru", "light"), ("en", "dark")])
def test_every_page_type_fits_the_phone_in_each_language(
    browser: Browser,
    live_server: LiveServer,
    club: dict[str, Any],  # noqa: F811
    language: str,
    scheme: Literal["light", "dark"],
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for old in SHOTS.glob(f"{language}-*.png"):  # this run's pictures only
        old.unlink(missing_ok=True)
    who = {
        "visitor": None,
        "member": club["online"].seats.first().member,
        "host": club["host"],
        "admin": club["admin"],
    }
    # The members' own words, shown as written whatever the page's language.
    data = sorted(
        {*User.objects.values_list("nickname", flat=True)}
        | {*User.objects.values_list("email", flat=True)}
        | {*Evening.objects.values_list("venue", flat=True)}
        | {*Tournament.objects.values_list("name", flat=True)}
        | {e.payload.get("text", "") for e in GameEvent.objects.filter(type="post")}
        | {e.payload.get("reason", "") for e in GameEvent.objects.filter(type="bonus")}
        | {*MafiaMessage.objects.values_list("text", flat=True)},
        key=len,
        reverse=True,
    )
    problems: list[str] = []
    for viewport, size in (("phone", PHONE), ("desktop", DESKTOP)):
        for role, paths in pages(club).items():
            context = new_context(
                browser,
                live_server,
                user=who[role],
                viewport=size,
                language=language,
                color_scheme=scheme,
            )
            page = context.new_page()
            for path in paths:
                page.goto(live_server.url + path, wait_until="networkidle")
                title = page.title()
                if "<" in title or ">" in title or not title.strip():
                    problems.append(f"{language} {role} {path}: title {title!r}")
                wide = page.evaluate("() => document.documentElement.scrollWidth")
                if viewport == "phone" and wide > PHONE["width"] and path not in NOT_FOR_PHONES:
                    problems.append(f"{language} {role} {path}: {wide} px wide")
                own = not path.startswith(("/admin/", "/api/"))
                if own and viewport == "phone":
                    found = axe_violations(page, live_server)
                    problems += [f"{language} {role} {path}: axe {f}" for f in found]
                if own:
                    for text in untranslated(page, language, data):
                        problems.append(f"{language} {role} {path}: untranslated {text!r}")
                name = f"{language}-{viewport}-{role}-{slug(path)}.png"
                page.screenshot(path=SHOTS / name, full_page=True)
            errors = watch_of(context).console_errors
            problems += [f"{language} {role}: console {error}" for error in errors]
            problems += [f"{language} {role}: {failed}" for failed in watch_of(context).failed]
            context.close()
    assert problems == [], "\n".join(problems)


# Every control inside the page's content (the header and footer have their own sizes).
HOST_TARGETS = (
    "main a, main button:not([disabled]), main summary, main input:not([type=hidden]),"
    " main select, dialog[open] button"
)
# A box or a radio is touched through its label.
SMALL_JS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((node) => node.getClientRects().length && getComputedStyle(node).visibility !== 'hidden')
  .map((node) => [node.tagName + ' ' + (node.textContent || node.name || '').trim().slice(0, 30),
                  (node.matches('[type=checkbox], [type=radio]') && node.closest('label')
                   || node).getBoundingClientRect()])
  .filter(([, box]) => box.width > 0 && box.height < 48)
  .map(([label, box]) => `${label} ${Math.round(box.width)}x${Math.round(box.height)}`)"""


def test_every_control_a_host_touches_is_a_thumbs_size(
    browser: Browser,
    live_server: LiveServer,
    club: dict[str, Any],  # noqa: F811
) -> None:
    """#25: «К столу» was 67×14 px, «Скачать» 69×19, «Игра N» 56×24: on every page of the
    host's, at 360×640, every control is at least 48 px tall."""
    context = new_context(browser, live_server, user=club["host"], viewport=PHONE, language="ru")
    page = context.new_page()
    problems = []
    # The table screen itself is checked by its own test (tests/e2e/host_driver.py).
    table_screen = f"/games/{club['running'].pk}/"
    # A finished game's page: the analysis (names, «За что»), and the host's extra points.
    finished = f"/games/{club['finished'].pk}/?public=1"
    paths = [
        *(path for path in pages(club)["host"] if path not in (table_screen, finished)),
        f"/evenings/{club['evening'].pk}/",
        f"/games/{club['running'].pk}/?public=1",
        finished,
    ]
    for path in paths:
        page.goto(live_server.url + path, wait_until="networkidle")
        if path.endswith("/recording/"):
            page.locator("main").wait_for()
        problems += [f"{path}: {small}" for small in page.evaluate(SMALL_JS, HOST_TARGETS)]
    assert page.locator("#bonuses form").count() == 1, "the extra points' form"
    assert page.locator("#analysis details.why").count() > 1, "the analysis with its scores"
    context.close()
    assert problems == [], "\n".join(problems)
