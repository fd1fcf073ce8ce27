"""The club's Mini App as #27 found it: Telegram's «Reload» posts the same launch again and
was refused although the session was that member's; an English Telegram got Russian; a
member of the site whose Telegram was not linked could not get in from the app. The reload
goes on in the session that launch opened (and only there), the app speaks the launch's
`language_code` until the member chooses, and the site's member links there with their
password once (throttled, CSRF, the Telegram account from the verified launch only)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
import time_machine
from django.test import Client
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.models import MembershipStatus, User
from tests.accounts.test_mini_app import TELEGRAM_ID, TOKEN, launch, open_app
from tests.factories import make_member, set_standing

pytestmark = pytest.mark.django_db
PASSWORD = "site-pass-1234"


@pytest.fixture(autouse=True)
def _bot(settings: SettingsWrapper) -> None:
    settings.TELEGRAM_BOT_TOKEN = TOKEN
    settings.TELEGRAM_BOT_USERNAME = "club_bot"
    settings.TELEGRAM_MINI_APP_MAX_AGE_SECONDS = 3600


def english(user_fields: dict[str, Any] | None = None, **extra: Any) -> str:
    return launch(user_fields={"language_code": "en", **(user_fields or {})}, **extra)


def site_member(**fields: Any) -> User:
    member = make_member(**fields)
    member.set_password(PASSWORD)
    member.save(update_fields=["password"])
    return member


# --- Telegram's «Reload» -----------------------------------------------------------------


def test_reload_goes_on_in_the_session_the_launch_opened() -> None:
    member = make_member(telegram_id=TELEGRAM_ID)
    data = launch()
    app = Client()
    assert open_app(app, data) == (200, {"next": "/"})
    assert open_app(app, data) == (200, {"next": "/"})  # «Reload»: the same launch again
    assert app.get("/").wsgi_request.user == member
    # Anyone else replaying it is still refused: another browser …
    status, answer = open_app(Client(), data)
    assert status == 422 and "уже использован" in answer["error"]
    # … and the same browser once it has logged out.
    app.post("/accounts/logout/")
    assert open_app(app, data)[0] == 422


def test_reload_is_refused_in_a_session_another_launch_opened() -> None:
    make_member(telegram_id=TELEGRAM_ID)
    make_member(telegram_id=TELEGRAM_ID + 1)
    first, second = launch(), launch(telegram_id=TELEGRAM_ID + 1)
    app = Client()
    assert open_app(app, first)[0] == 200
    assert open_app(Client(), second)[0] == 200
    assert open_app(app, second)[0] == 422  # used by another session: not this one's


def test_reload_on_the_way_to_joining_goes_on_to_joining() -> None:
    data = launch()
    app = Client()
    assert open_app(app, data) == (200, {"next": "/tg/join/"})
    assert open_app(app, data) == (200, {"next": "/tg/join/"})
    assert open_app(Client(), data)[0] == 422


def test_a_reload_of_a_member_banned_since_is_refused() -> None:
    member = make_member(telegram_id=TELEGRAM_ID)
    data = launch()
    app = Client()
    assert open_app(app, data)[0] == 200
    set_standing(member, MembershipStatus.BANNED)
    # The session is no longer a member's (a banned account is logged out): a replay.
    status, answer = open_app(app, data)
    assert status == 422 and "уже использован" in answer["error"]
    assert app.get("/").wsgi_request.user.is_anonymous


def later(hours: float) -> time_machine.travel:
    """The clock past the launch's hour (TELEGRAM_MINI_APP_MAX_AGE_SECONDS, 3600 here)."""
    return time_machine.travel(time.time() + hours * 3600, tick=False)


def test_reload_after_the_launchs_hour_goes_on_in_the_session_it_opened() -> None:
    member = make_member(telegram_id=TELEGRAM_ID)
    data = launch()
    app = Client()
    assert open_app(app, data) == (200, {"next": "/"})
    with later(2):
        assert open_app(app, data) == (200, {"next": "/"})  # «Reload» two hours on
        assert app.get("/").wsgi_request.user == member
    with later(30):
        assert open_app(app, data) == (200, {"next": "/"})  # and the next day
        # Anyone else's use of the old launch stays refused, as too old: another browser …
        status, answer = open_app(Client(), data)
        assert status == 422 and "слишком давно" in answer["error"]
        # … and the same browser once it has logged out.
        app.post("/accounts/logout/")
        status, answer = open_app(app, data)
        assert status == 422 and "слишком давно" in answer["error"]


def test_reload_after_the_hour_on_the_way_to_joining_goes_on_to_joining() -> None:
    data = launch()
    app = Client()
    assert open_app(app, data) == (200, {"next": "/tg/join/"})
    with later(2):
        assert open_app(app, data) == (200, {"next": "/tg/join/"})
        assert open_app(Client(), data)[0] == 422


def test_an_old_launch_the_session_did_not_open_is_refused_there() -> None:
    """The member's own session, but another (older, never used) launch of theirs: that is
    not a reload, so its age counts."""
    member = make_member(telegram_id=TELEGRAM_ID)
    app = Client()
    older = launch(auth_date=int(time.time()) - 3601)
    assert open_app(app, launch())[0] == 200
    status, answer = open_app(app, older)
    assert status == 422 and "слишком давно" in answer["error"]
    assert app.get("/").wsgi_request.user == member  # the session as it was


def test_an_old_reload_is_still_checked_for_its_signature() -> None:
    make_member(telegram_id=TELEGRAM_ID)
    data = launch()
    app = Client()
    assert open_app(app, data)[0] == 200
    forged = re.sub(r"hash=([0-9a-f])", lambda m: "hash=" + "0123"[m[1] == "0"], data)
    with later(2):
        status, answer = open_app(app, forged)
        assert status == 422 and "не от Telegram" in answer["error"]
        # A launch for someone else signed with another token, in this session: refused.
        other = launch(telegram_id=TELEGRAM_ID + 1, token="1:another-token")
        status, answer = open_app(app, other)
        assert status == 422 and "не от Telegram" in answer["error"]


# --- The app in the Telegram's language ----------------------------------------------------


def test_an_english_telegram_gets_the_app_in_english_until_the_member_chooses() -> None:
    make_member(telegram_id=TELEGRAM_ID)
    app = Client()
    assert open_app(app, english())[0] == 200
    page = app.get("/accounts/settings/").content.decode()
    assert '<html lang="en">' in page and "Settings" in page
    # The app has no footer: its language switch is on the settings tab.
    assert 'action="/i18n/setlang/"' in page and 'value="ru"' in page
    chosen = app.post("/i18n/setlang/", {"language": "ru", "next": "/accounts/settings/"})
    assert chosen.status_code == 302
    assert '<html lang="ru">' in app.get("/accounts/settings/").content.decode()
    # A new launch in English does not undo the member's choice.
    assert open_app(app, english())[0] == 200
    assert '<html lang="ru">' in app.get("/").content.decode()


def test_the_start_page_carries_its_words_in_each_language_and_the_members_choice() -> None:
    """/tg/ speaks before the launch is read: its script picks the launch's language from
    these (tests/e2e/test_mini_app_themes.py watches it do so), unless one was chosen."""
    page = Client().get("/tg/").content.decode()
    assert 'data-opening-ru="Открываем клуб…"' in page
    assert 'data-opening-en="Opening the club…"' in page
    assert 'data-offline-en="No connection to the club. Close the app and open it again."' in page
    assert 'data-chosen=""' in page and 'data-default="ru"' in page
    chosen = Client()
    chosen.cookies["django_language"] = "en"
    assert 'data-chosen="en"' in chosen.get("/tg/").content.decode()


def test_an_old_launch_is_refused_in_its_telegrams_language() -> None:
    make_member(telegram_id=TELEGRAM_ID)
    status, answer = open_app(Client(), english(auth_date=int(time.time()) - 3601))
    assert status == 422 and answer["error"] == (
        "The club's app was opened too long ago: open it from Telegram again."
    )


@pytest.mark.parametrize(
    ("code", "language"), [("en", "en"), ("en-US", "en"), ("ru", "ru"), ("de", "ru"), ("", "ru")]
)
def test_telegrams_language_code_picks_a_language_the_site_has(code: str, language: str) -> None:
    make_member(telegram_id=TELEGRAM_ID)
    app = Client()
    assert open_app(app, launch(user_fields={"language_code": code}))[0] == 200
    assert f'<html lang="{language}">' in app.get("/").content.decode()


def test_a_newcomer_joins_in_their_telegrams_language_and_a_refusal_speaks_it() -> None:
    app = Client()
    data = english()
    assert open_app(app, data)[1] == {"next": "/tg/join/"}
    page = app.get("/tg/join/").content.decode()
    assert '<html lang="en">' in page and "Join the club" in page
    status, answer = open_app(Client(), data)  # a replay elsewhere, refused in English
    assert status == 422 and answer["error"] == (
        "This Telegram sign-in was already used. Please sign in again."
    )


def test_the_site_outside_the_app_keeps_russian() -> None:
    make_member(telegram_id=TELEGRAM_ID)
    open_app(Client(), english())
    assert '<html lang="ru">' in Client().get("/").content.decode()


# --- A member of the site links Telegram in the app ----------------------------------------


def pending_app(language: str = "ru") -> Client:
    """A browser the app opened for a Telegram user who is not linked to anyone."""
    app = Client(enforce_csrf_checks=True)
    app.get("/tg/")  # the start page sets the CSRF cookie, as in Telegram
    data = english() if language == "en" else launch()
    answer = app.post(
        "/tg/auth/", {"init_data": data}, headers={"X-CSRFToken": app.cookies["csrftoken"].value}
    )
    assert answer.json() == {"next": "/tg/join/"}
    return app


def link(app: Client, login: str, password: str, **extra: str) -> Any:
    token = app.cookies["csrftoken"].value
    return app.post(
        "/tg/link/",
        {"username": login, "password": password, "csrfmiddlewaretoken": token, **extra},
    )


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_site_member_links_telegram_in_the_app_with_their_password(language: str) -> None:
    member = site_member(nickname="Сайтовый")
    app = pending_app(language)
    page = app.get("/tg/join/").content.decode()
    title = {"ru": "Уже в клубе на сайте?", "en": "Already a member on the site?"}[language]
    assert title in page and "@vera_tg" in page and 'action="/tg/link/"' in page
    # The Telegram account is the launch's: a field naming another one is ignored.
    linked = link(app, "сайтовый", PASSWORD, telegram_id="42")
    assert linked.status_code == 302 and linked["Location"] == "/"
    member.refresh_from_db()
    assert (member.telegram_id, member.telegram_username) == (TELEGRAM_ID, "vera_tg")
    home = app.get("/")
    assert home.wsgi_request.user == member and 'class="app-tabs"' in home.content.decode()
    said = {
        "ru": "Telegram привязан к вашему аккаунту",
        "en": "Telegram is linked to your account",
    }[language]
    assert said in home.content.decode()
    # From now on the app opens as the member at once.
    assert open_app(Client(), launch())[1] == {"next": "/"}


def test_a_wrong_password_links_nothing_and_is_counted_as_a_failed_login(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from club.kernel import throttle

    monkeypatch.setattr(throttle, "LOGIN_PER_ACCOUNT", throttle.Limit("mini-app-link-t", "3/15m"))
    member = site_member()
    app = pending_app()
    for _ in range(3):
        wrong = link(app, member.nickname, "not-the-password")
        assert wrong.status_code == 422 and "пароль" in wrong.content.decode().lower()
    # The account is locked now, even with the right password.
    locked = link(app, member.nickname, PASSWORD)
    assert locked.status_code == 422 and "Слишком много попыток" in locked.content.decode()
    member.refresh_from_db()
    assert member.telegram_id is None
    assert app.get("/").wsgi_request.user.is_anonymous


def test_a_link_is_never_moved_or_replaced() -> None:
    member = site_member(telegram_id=999_111)
    app = pending_app()
    refused = link(app, member.nickname, PASSWORD)
    assert refused.status_code == 422
    assert "привязана к другому Telegram" in refused.content.decode()
    member.refresh_from_db()
    assert member.telegram_id == 999_111
    assert app.get("/").wsgi_request.user.is_anonymous


def test_a_banned_member_cannot_link() -> None:
    member = site_member(status=MembershipStatus.BANNED)
    app = pending_app()
    assert link(app, member.nickname, PASSWORD).status_code == 422
    member.refresh_from_db()
    assert member.telegram_id is None


def test_linking_needs_a_verified_launch_and_the_csrf_token() -> None:
    member = site_member()
    stranger = Client()
    answer = stranger.post("/tg/link/", {"username": member.nickname, "password": PASSWORD})
    assert answer.status_code == 302 and answer["Location"] == "/tg/"
    app = pending_app()
    forged = app.post("/tg/link/", {"username": member.nickname, "password": PASSWORD})
    assert forged.status_code == 403  # no CSRF token
    member.refresh_from_db()
    assert member.telegram_id is None


def test_the_join_page_still_joins_beside_the_link_form() -> None:
    app = pending_app()
    assert len(re.findall(r"<form ", app.get("/tg/join/").content.decode())) == 2
    token = app.cookies["csrftoken"].value
    joined = app.post(
        "/tg/join/",
        {"nickname": "Новичок", "birth_date": "1990-05-05", "csrfmiddlewaretoken": token},
    )
    assert joined.status_code == 302
    assert User.objects.get(nickname="Новичок").telegram_id == TELEGRAM_ID
