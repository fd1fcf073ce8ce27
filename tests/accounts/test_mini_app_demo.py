"""The embedded site's developer page for the club's Mini App (#27): `make run` has no bot,
so /dev/tg/ opens /tg/ as a chosen demo member with launch data signed by a demo token, in
Telegram's light or dark colours. It lives only under DEBUG without a bot token: production
settings never route it, and the app refuses demo-signed launches wherever it is off."""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings
from django.test import Client
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.miniapp import TELEGRAM_THEMES
from accounts.models import User
from tests.factories import make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def embedded(settings: SettingsWrapper) -> SettingsWrapper:
    """`make run`'s settings: DEBUG, no bot (the tests run with DEBUG off)."""
    settings.DEBUG = True
    settings.TELEGRAM_BOT_TOKEN = ""
    assert settings.TELEGRAM_MINI_APP_DEMO_TOKEN
    return settings


def launch_of(answer: Any) -> dict[str, str]:
    """The launch the developer page put in /tg/'s hash, as Telegram's script reads it."""
    assert answer.status_code == 302, answer.content
    address = urlsplit(answer["Location"])
    assert address.path == "/tg/"
    return {key: values[0] for key, values in parse_qs(address.fragment).items()}


def test_the_developer_page_opens_the_app_as_a_linked_member(embedded: SettingsWrapper) -> None:
    member = make_member(telegram_id=424242, nickname="Демо")
    client = Client()
    page = client.get("/dev/tg/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "Демо" in body and 'name="theme"' in body and 'name="language"' in body

    fields = launch_of(client.get("/dev/tg/", {"member": str(member.pk), "theme": "dark"}))
    assert json.loads(fields["tgWebAppThemeParams"]) == TELEGRAM_THEMES["dark"]
    opened = client.post("/tg/auth/", {"init_data": fields["tgWebAppData"]})
    assert opened.json() == {"next": "/"}
    home = client.get("/")
    assert home.wsgi_request.user == member
    assert "club/miniapp-demo.js" in home.content.decode()  # the stand-in for telegram.org's


def test_an_unlinked_member_and_a_newcomer_are_led_to_link_or_join(
    embedded: SettingsWrapper,
) -> None:
    member = make_member(nickname="Без Телеграма")
    client = Client()
    fields = launch_of(
        client.get("/dev/tg/", {"member": str(member.pk), "theme": "light", "language": "en"})
    )
    assert json.loads(fields["tgWebAppThemeParams"])["secondary_bg_color"] == "#efeff3"
    answer = client.post("/tg/auth/", {"init_data": fields["tgWebAppData"]})
    assert answer.json() == {"next": "/tg/join/"}
    assert '<html lang="en">' in client.get("/tg/join/").content.decode()

    newcomer = launch_of(Client().get("/dev/tg/", {"member": "new"}))
    answer = Client().post("/tg/auth/", {"init_data": newcomer["tgWebAppData"]})
    assert answer.json() == {"next": "/tg/join/"}
    assert not User.objects.exclude(pk=member.pk).exists()


@pytest.mark.parametrize(
    "query",
    [
        {"member": "x"},
        {"member": "999999"},
        {"member": "new", "theme": "sepia"},
        {"member": "new", "language": "de"},
    ],
)
def test_a_choice_off_the_lists_is_refused_in_words(
    embedded: SettingsWrapper, query: dict[str, str]
) -> None:
    answer = Client().get("/dev/tg/", query)
    assert answer.status_code == 422
    assert "Выберите участника, тему и язык из списков." in answer.content.decode()


def test_without_debug_or_with_a_bot_the_page_and_its_launches_are_off(
    embedded: SettingsWrapper,
) -> None:
    member = make_member(telegram_id=424242)
    fields = launch_of(Client().get("/dev/tg/", {"member": member.pk}))
    embedded.DEBUG = False
    assert Client().get("/dev/tg/").status_code == 404
    refused = Client().post("/tg/auth/", {"init_data": fields["tgWebAppData"]})
    assert refused.status_code == 422 and "не настроено" in refused.json()["error"]
    assert "miniapp-demo.js" not in Client().get("/tg/").content.decode()

    embedded.DEBUG = True
    embedded.TELEGRAM_BOT_TOKEN = "7777777:a-real-bot"
    assert Client().get("/dev/tg/").status_code == 404
    refused = Client().post("/tg/auth/", {"init_data": fields["tgWebAppData"]})
    assert refused.status_code == 422 and "не от Telegram" in refused.json()["error"]


ROUTES = """
import json, django
django.setup()
from django.conf import settings
from django.urls import Resolver404, resolve
try:
    resolve("/dev/tg/")
    routed = True
except Resolver404:
    routed = False
print(json.dumps({"routed": routed, "token": settings.TELEGRAM_MINI_APP_DEMO_TOKEN,
                  "debug": settings.DEBUG}))
"""


def test_production_settings_never_route_the_developer_page() -> None:
    """A fresh process on production settings (DEBUG asked for, and still off)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "club.settings",
        "DJANGO_ENV": "production",
        "DJANGO_SECRET_KEY": "a-production-secret-for-this-test-only",
        "DJANGO_ALLOWED_HOSTS": "club.example",
        "DJANGO_DEBUG": "1",
        # Required by production settings; resolving an address never connects to it.
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/never-connected",
    }
    env.pop("TELEGRAM_BOT_TOKEN", None)
    done = subprocess.run(
        [sys.executable, "-c", ROUTES],
        env=env,
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found == {"routed": False, "token": "", "debug": False}


@pytest.mark.parametrize(
    ("environment", "demo"),
    [
        ({}, True),  # `make run`
        ({"TELEGRAM_BOT_TOKEN": "7777777:a-real-bot"}, False),
        ({"DJANGO_DEBUG": "0"}, False),
        (
            {"DJANGO_ENV": "production", "DJANGO_SECRET_KEY": "s", "DJANGO_ALLOWED_HOSTS": "x"},
            False,
        ),
    ],
)
def test_only_the_embedded_sites_settings_carry_the_demo_token(
    monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], demo: bool
) -> None:
    """The settings module read afresh under each environment: the token that routes the
    page (club/urls.py) exists only with DEBUG and no bot, off production."""
    for name in ("DJANGO_ENV", "DJANGO_DEBUG", "TELEGRAM_BOT_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    module = runpy.run_path(str(Path(settings.BASE_DIR) / "club" / "settings.py"))
    assert bool(module["TELEGRAM_MINI_APP_DEMO_TOKEN"]) is demo
