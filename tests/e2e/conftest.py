"""The browser tests' Chromium (Debian's, driven by Playwright) and their helpers.

Every page a test opens is watched: a console error, a failed request to the site, or a
Content-Security-Policy violation fails the test unless the test expects it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from weakref import WeakKeyDictionary

import pytest
from django.conf import settings
from django.test import Client
from pytest_django.live_server_helper import LiveServer

from accounts.models import User

if TYPE_CHECKING:  # Playwright is imported when the browser starts (the fixture below)
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Page,
        Response,
        ViewportSize,
    )

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(settings.BASE_DIR) / "var" / "test-artifacts" / "e2e"
PHONE: ViewportSize = {"width": 360, "height": 640}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Records what the page reports about the policy, from before any script of its own runs.
WATCH_CSP = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${where}`);
});
"""
# Telegram's login script, as the pages load it from telegram.org (which this machine cannot
# reach): enough for the page to run, and the policy is still checked against its origin.
FAKE_TELEGRAM_WIDGET = "window.Telegram = {Login: {auth(options, callback) {}}};"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium per test module: Playwright's sync API keeps an event loop running in
    this thread while it lives, which later (non-browser) tests need free."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run installs it)")
    # Playwright's sync API runs an event loop in this thread; the tests' own ORM calls are
    # still plain synchronous code between their steps.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@dataclass
class Watch:
    """What went wrong on the pages of one browser context."""

    console_errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def csp_violations(self, page: Page) -> list[str]:
        violations: list[str] = page.evaluate("window.__cspViolations || []")
        return violations


def new_context(
    browser: Browser,
    live_server: LiveServer,
    *,
    user: User | None = None,
    viewport: ViewportSize = PHONE,
    language: str = "ru",
    color_scheme: Literal["dark", "light", "no-preference"] = "light",
) -> BrowserContext:
    """A browser context (a phone by default), logged in as `user`, watched by a Watch."""
    mobile = viewport == PHONE
    context = browser.new_context(
        viewport=viewport,
        has_touch=mobile,
        is_mobile=mobile,
        device_scale_factor=2 if mobile else 1,
        color_scheme=color_scheme,
    )
    context.add_init_script(WATCH_CSP)
    context.route(
        "https://telegram.org/**",
        lambda route: route.fulfill(body=FAKE_TELEGRAM_WIDGET, content_type="text/javascript"),
    )
    language_cookie = settings.LANGUAGE_COOKIE_NAME
    context.add_cookies([{"name": language_cookie, "value": language, "url": live_server.url}])
    if user is not None:
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
        )
    watch = Watch()

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            watch.console_errors.append(message.text)

    def on_response(response: Response) -> None:
        if response.url.startswith(live_server.url) and response.status >= 400:
            watch.failed.append(f"{response.status} {response.url}")

    context.on("console", on_console)
    context.on("response", on_response)
    WATCHES[context] = watch
    return context


# Each context's Watch (new_context), for as long as the context lives.
WATCHES: WeakKeyDictionary[BrowserContext, Watch] = WeakKeyDictionary()


def watch_of(context: BrowserContext) -> Watch:
    return WATCHES[context]


@pytest.fixture
def browser_page(browser: Browser, live_server: LiveServer) -> Iterator[BrowserContext]:
    """A phone-sized context for the older tests, which log in with `logged_in`."""
    for old in ARTIFACTS.glob("*.png"):
        old.unlink(missing_ok=True)  # another worker may have taken it first
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    yield context
    context.close()


def logged_in(context: BrowserContext, live_server: LiveServer, user: User) -> BrowserContext:
    """The browser context with the user's session cookie."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    return context


# What a reader of the page sees or hears: the text of every visible element, and the words
# of labels, placeholders, titles and buttons' values; not what is marked translate="no"
# (nicknames, the venue: data, not the site's words), nor what says it is in another
# language (the language switch names each language in itself).
VISIBLE_WORDS = """() => {
  const out = [document.title];
  const page = document.documentElement.lang;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const parent = walker.currentNode.parentElement;
    if (!parent || parent.closest('[translate="no"], script, style, noscript, template')) continue;
    if (parent.closest('[lang]').lang !== page) continue;
    if (!parent.checkVisibility({visibilityProperty: true})) continue;
    const text = walker.currentNode.textContent.trim();
    if (text) out.push(text);
  }
  const labelled = '[aria-label], [placeholder], [title], input[type=submit][value]';
  for (const el of document.querySelectorAll(labelled)) {
    if (el.closest('[translate="no"]')) continue;
    for (const name of ['aria-label', 'placeholder', 'title', 'value']) {
      if (name === 'value' && el.type !== 'submit') continue;
      const text = (el.getAttribute(name) || '').trim();
      if (text) out.push(text);
    }
  }
  return out;
}"""
CYRILLIC = re.compile(r"[А-Яа-яЁё]+")
LATIN_WORD = re.compile(r"\b[A-Za-z]{3,}\b")
ADDRESS = re.compile(r"(?:https?://|/)\S+")  # a path or a link is not a word
# A seat's reference in a reason, as the host may type it (games/reasons.py): a format.
SEAT_REFERENCE = re.compile(r"\{seat:\d+\}")
# Names the Russian pages keep in Latin letters.
LATIN_NAMES = {"GrandDaddy", "Telegram", "iCalendar", "API", "PNG", "JPEG", "WebP", "Elo", "OBS"}
LATIN_NAMES |= {"ogg", "opus", "wav", "webm", "flac", "amr", "aiff", "caf", "wma"}  # formats
LATIN_NAMES |= {"CSV", "JSON"}  # the files a club downloads (history/exports/)


def polls_answered(page: Page, path: str, count: int = 2) -> None:
    """Wait until the page's poll of `path` has been answered `count` more times: a page
    that shows nothing new after that has asked the server and been told nothing changed
    (a fixed wait would pass whether the page polled or not)."""
    for _ in range(count):
        with page.expect_response(lambda response: path in response.url):
            pass


def untranslated(page: Page, language: str, data: list[str]) -> list[str]:
    """The visible strings of the page that are in the other language: Cyrillic on an
    English page, English words on a Russian one. `data` (nicknames, venues, posts) is taken
    out first: it is the members' words, shown as they wrote them."""
    found: list[str] = []
    texts: list[str] = page.evaluate(VISIBLE_WORDS)
    for text in texts:
        for value in data:
            text = text.replace(value, " ")
        text = SEAT_REFERENCE.sub(" ", ADDRESS.sub(" ", text))
        if language == "en":
            found += [text] if CYRILLIC.search(text) else []
        else:
            words = set(LATIN_WORD.findall(text)) - LATIN_NAMES
            found += [text] if words else []
    return sorted(set(found))
