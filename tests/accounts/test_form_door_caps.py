"""The doors anyone may post a form to (logging in, signing up, a password's reset and its
new password, the Telegram Login Widget's return, the Mini App's launch check and its join
and link forms, the language switch) refuse a body over their cap (club/kernel/bodies.py)
by its declared length, before a byte of it is read: at once, in the reader's language,
changing nothing. Django's own bound, 2.5 MB, let each parse megabytes first."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import User
from club.kernel import bodies
from tests.factories import PASSWORD, make_member

pytestmark = pytest.mark.django_db

# What each door reads, with a padding field: well over the cap, well under Django's 2.5 MB,
# so the code before the cap parsed it all and went on.
PAD = "x" * 2_000_000
FIELDS = {
    "/accounts/login/": {"username": "Ворон", "password": PASSWORD},
    "/accounts/signup/": {
        "nickname": "Новичок",
        "email": "new@example.org",
        "birth_date": "1990-01-01",
        "password1": "another-horse-battery",
        "password2": "another-horse-battery",
    },
    "/accounts/password/reset/": {"email": "raven@example.org"},
    "/accounts/telegram/login/": {"id": "5", "auth_date": "1", "hash": "0" * 64},
    "/tg/join/": {"nickname": "Новичок", "birth_date": "1990-01-01"},
    "/tg/link/": {"username": "Ворон", "password": PASSWORD},
    "/i18n/setlang/": {"language": "en", "next": "/"},
}
TOLD = {
    "ru": "Запрос слишком велик: не больше 16 КБ.",
    "en": "The request is too large: at most 16 KB.",
}


def post_large(client: Client, path: str, fields: dict[str, str]) -> tuple[int, str]:
    body = urlencode({**fields, "pad": PAD})
    assert len(body) > bodies.door_of(path).limit  # type: ignore[union-attr]
    answer = client.post(path, body, content_type="application/x-www-form-urlencoded")
    return answer.status_code, answer.content.decode()


def client_in(language: str) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("path", list(FIELDS))
def test_an_anonymous_form_over_its_cap_is_refused_at_once(path: str, language: str) -> None:
    member = make_member(nickname="Ворон", email="raven@example.org")
    members = User.objects.count()
    client = client_in(language)
    # 413 is the body cap's answer (club/doors/middleware.py), given by the declared length
    # before the body is read; no timing is asserted (it follows the machine's load).
    status, page = post_large(client, path, FIELDS[path])
    assert status == 413, page[:300]
    assert TOLD[language] in page
    # Nothing changed: nobody made, logged in or mailed, no language chosen.
    assert User.objects.count() == members and mail.outbox == []
    assert "_auth_user_id" not in client.session
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies or (
        client.cookies[settings.LANGUAGE_COOKIE_NAME].value == language
    )
    member.refresh_from_db()
    assert member.check_password(PASSWORD)


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_mini_app_launch_over_its_cap_is_refused_as_its_script_reads(language: str) -> None:
    client = client_in(language)
    body = urlencode({"init_data": "user=" + PAD})
    answer = client.post("/tg/auth/", body, content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 413
    assert answer.json()["error"] == TOLD[language]  # static/club/miniapp.js shows `error`
    assert answer.json()["code"] == "too_large"
    assert dict(client.session) == {}


def test_a_new_password_over_its_cap_is_refused_and_the_old_one_stays() -> None:
    member = make_member(nickname="Ворон", email="raven@example.org")
    client = client_in("ru")
    uid = urlsafe_base64_encode(force_bytes(member.pk))
    token = default_token_generator.make_token(member)
    form = client.get(f"/accounts/password/reset/{uid}/{token}/")
    assert form.status_code == 302  # to the form, the token kept in the session
    fields = {"new_password1": "another-horse-9", "new_password2": "another-horse-9"}
    status, page = post_large(client, form["Location"], fields)
    assert status == 413 and TOLD["ru"] in page
    member.refresh_from_db()
    assert member.check_password(PASSWORD)


def test_the_same_forms_under_their_cap_still_work() -> None:
    make_member(nickname="Ворон", email="raven@example.org")
    client = Client()
    answer = client.post("/accounts/login/", FIELDS["/accounts/login/"])
    assert answer.status_code == 302 and "_auth_user_id" in client.session
    reset = Client().post("/accounts/password/reset/", FIELDS["/accounts/password/reset/"])
    assert reset.status_code == 302 and len(mail.outbox) == 1
