"""Every page type at 360×640 and 1280×800, in Russian and English: screenshots kept in
var/test-artifacts/e2e/pages/, no page scrolls sideways on the phone, no `<title>` holds
markup, and axe-core finds no serious or critical violation on the club's own pages (the
admin's markup is Django's). The page types and the club are test_csp's."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import ARTIFACTS, DESKTOP, PHONE, new_context
from tests.e2e.test_csp import club, pages  # noqa: F401 (the fixture)
from tests.e2e.test_host_screen import axe_violations

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("migration_rows")]
SHOTS = ARTIFACTS / "pages"
# django-ninja's Swagger UI is the API's reference for developers, drawn by its own code for
# a desktop; it is not a page of the club's.
NOT_FOR_PHONES = {"/api/v1/docs"}


def slug(path: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-") or "home"


def test_every_page_type_fits_the_phone_in_both_languages(browser, live_server, club) -> None:  # noqa: F811
    SHOTS.mkdir(parents=True, exist_ok=True)
    who = {
        "visitor": None,
        "member": club["online"].seats.first().member,
        "host": club["host"],
        "admin": club["admin"],
    }
    problems: list[str] = []
    for language in ("ru", "en"):
        for viewport, size in (("phone", PHONE), ("desktop", DESKTOP)):
            for role, paths in pages(club).items():
                context = new_context(
                    browser, live_server, user=who[role], viewport=size, language=language
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
                    if own and viewport == "phone" and language == "ru":
                        found = axe_violations(page, live_server)
                        problems += [f"{role} {path}: axe {finding}" for finding in found]
                    name = f"{language}-{viewport}-{role}-{slug(path)}.png"
                    page.screenshot(path=SHOTS / name, full_page=True)
                context.close()
    assert problems == [], "\n".join(problems)
