"""Where a member's language comes from (accounts/languages.py, #37 item 10): the page's at
sign-up on the site, the Mini App's launch, Telegram's `language_code` at linking — each
learnt only until the member chooses one on the site (the settings page, the language
switch while logged in) or the admin sets it; a language the site does not speak counts as
the club's (Russian)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.test import Client
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts import services
from accounts.models import User
from club.kernel.errors import Refused
from tests.accounts.test_mini_app import TELEGRAM_ID, TOKEN, launch, open_app
from tests.factories import make_member

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _bot(settings: SettingsWrapper) -> None:
    settings.TELEGRAM_BOT_TOKEN = TOKEN
    settings.TELEGRAM_BOT_USERNAME = "club_bot"
    settings.TELEGRAM_MINI_APP_MAX_AGE_SECONDS = 3600


def language_of(member: User) -> tuple[str, bool]:
    member.refresh_from_db()
    return member.language, member.language_chosen


def in_telegram(code: str, **extra: Any) -> str:
    return launch(user_fields={"language_code": code}, **extra)


def test_a_sign_up_on_the_english_site_is_an_english_member() -> None:
    browser = Client()
    browser.cookies["django_language"] = "en"
    response = browser.post(
        "/accounts/signup/",
        {
            "nickname": "Kestrel",
            "email": "kestrel@example.org",
            "birth_date": "1990-05-01",
            "password1": "long-enough-password-1",
            "password2": "long-enough-password-1",
            "consent": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert language_of(User.objects.get(nickname="Kestrel")) == ("en", False)


def test_joining_in_the_english_mini_app_makes_an_english_member() -> None:
    """The member of the issue: joined through the English Mini App, then told «Вы в
    игре!» in Russian."""
    app = Client()
    assert open_app(app, in_telegram("en"))[1] == {"next": "/tg/join/"}
    joined = app.post("/tg/join/", {"nickname": "Heron", "birth_date": "1990-05-01"})
    assert joined.status_code == 302
    assert language_of(User.objects.get(nickname="Heron")) == ("en", False)


def test_the_mini_app_learns_its_telegrams_language_until_the_member_chooses() -> None:
    member = make_member(telegram_id=TELEGRAM_ID)
    assert open_app(Client(), in_telegram("en"))[0] == 200
    assert language_of(member) == ("en", False)
    assert open_app(Client(), in_telegram("de", telegram_id=TELEGRAM_ID))[0] == 200
    assert language_of(member) == ("ru", False)  # not spoken here: the club's
    services.member_choose_language(member=member, language="en")
    assert open_app(Client(), in_telegram("ru"))[0] == 200
    assert language_of(member) == ("en", True)  # the member's choice stands


def test_linking_telegram_learns_its_language_unless_the_member_chose() -> None:
    learnt = make_member()
    services.member_telegram_link(member=learnt, telegram_id=8801, language="en-US")
    assert language_of(learnt) == ("en", False)
    chose = make_member(language="ru", language_chosen=True)
    services.member_telegram_link(member=chose, telegram_id=8802, language="en")
    assert language_of(chose) == ("ru", True)


def test_the_language_switch_is_a_logged_in_members_choice(member_client: Client) -> None:
    response = member_client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302 and response.cookies["django_language"].value == "en"
    member = User.objects.get(pk=member_client.session["_auth_user_id"])
    assert language_of(member) == ("en", True)
    # Telegram's language at a later link does not undo it.
    services.member_telegram_link(member=member, telegram_id=8803, language="ru")
    assert language_of(member) == ("en", True)


def test_the_language_switch_of_a_visitor_changes_the_page_only() -> None:
    before = User.objects.count()
    response = Client().post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302 and response.cookies["django_language"].value == "en"
    assert User.objects.count() == before


def test_the_settings_page_chooses_the_language_and_the_pages_follow(
    member_client: Client, member: User
) -> None:
    page = member_client.get("/accounts/settings/").content.decode()
    assert 'name="language"' in page and "Писать мне на языке" in page
    assert '<option value="ru" lang="ru" selected>' in page
    response = member_client.post("/accounts/settings/", {"language": "en"})
    assert response.status_code == 302 and response.cookies["django_language"].value == "en"
    assert language_of(member) == ("en", True)
    page = member_client.get("/accounts/settings/").content.decode()
    assert "Write to me in" in page and '<option value="en" lang="en" selected>' in page
    # A page without the field (an older one still open) keeps the choice.
    member_client.post("/accounts/settings/", {"publication_consent": "on"})
    assert language_of(member) == ("en", True)


def test_a_language_the_site_does_not_speak_is_refused_and_changes_nothing(
    member_client: Client, member: User
) -> None:
    response = member_client.post("/accounts/settings/", {"language": "de"})
    assert response.status_code == 200 and "de" not in dict(
        response.context["form"].fields["language"].choices
    )
    assert response.context["form"].errors["language"]
    assert language_of(member) == ("ru", False)
    with pytest.raises(Refused):
        services.member_choose_language(member=member, language="xx")
    assert language_of(member) == ("ru", False)


def test_the_admin_shows_and_sets_the_language(admin_client_: Client) -> None:
    member = make_member(nickname="Otter", birth_date=date(1990, 1, 1))
    listing = admin_client_.get("/admin/accounts/user/?language__exact=ru").content.decode()
    assert "Otter" in listing and "column-language" in listing
    form = admin_client_.get(f"/admin/accounts/user/{member.pk}/change/").content.decode()
    assert 'name="language"' in form and 'name="language_chosen"' in form
    fields = {
        "nickname": "Otter",
        "email": member.email,
        "birth_date": "1990-01-01",
        "club_role": "member",
        "club_status": "active",
        "club_consent": "on",
        "status": "active",
        "language": "en",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "10:00:00",
        "api_tokens-TOTAL_FORMS": "0",
        "api_tokens-INITIAL_FORMS": "0",
    }
    saved = admin_client_.post(f"/admin/accounts/user/{member.pk}/change/", fields)
    assert saved.status_code == 302, saved.content.decode()[:3000]
    # Set by the admin: Telegram's language no longer changes it.
    assert language_of(member) == ("en", True)
