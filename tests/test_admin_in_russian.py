"""The admin in Russian: on the changelist and the change page of every model, the
admin's own words (titles, column heads, labels, help texts, filters, buttons and links
of the page's tools) hold no English. Data (nicknames, venues, role codes, JSON) is not
checked; Django's own strings that its catalogue lacks are in club/admin_texts.py."""

from __future__ import annotations

import re

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.test import Client, RequestFactory

from accounts.models import User
from tests.factories import make_member
from tests.games.recording import TOWN_WINS, evening_with_players, make_host, record, start_game

pytestmark = pytest.mark.django_db
# The admin's chrome: where the page speaks, not where it shows data.
CHROME = re.compile(
    r"(?s)<(h1|h3|th|label|button)\b[^>]*>(.*?)</\1>"
    r"|<(?:div|p|span) class=\"(?:help|datetimeshortcuts)\"[^>]*>(.*?)</(?:div|p|span)>"
    r'|<option value=""[^>]*>(.*?)</option>'
    r'|<span id="date-hierarchy-label">(.*?)</span>'
    r'|<input type="submit"[^>]*value="([^"]*)"'
    r'|<a [^>]*class="(?:addlink|historylink|viewsitelink|deletelink)"[^>]*>(.*?)</a>'
)
ENGLISH = re.compile(r"\b[A-Za-z]{3,}\b")
# Names, and the keys of Django's own «Hold down “Control”, or “Command” on a Mac».
NAMES = {"Django", "Telegram", "API", "JSON", "CSV", "Elo", "GrandDaddy"}
NAMES |= {"PNG", "JPEG", "WebP"}  # the logo's picture formats
NAMES |= {"Control", "Command", "Mac"}


def chrome_words(html: str) -> set[str]:
    # The rows of a list are data; a code the admin types is quoted «like this».
    html = re.sub(r"(?s)<tbody>.*?</tbody>", "", html)
    html = re.sub(r"«[^»]*»", "", html)
    words: set[str] = set()
    for match in CHROME.finditer(html):
        text = next(group for group in match.groups()[1:] if group is not None)
        text = re.sub(r"<[^>]+>", " ", text)
        words |= set(ENGLISH.findall(text)) - NAMES
    return words


def test_every_admin_page_speaks_russian() -> None:
    call_command("demo_data", stdout=open("/dev/null", "w"))  # noqa: SIM115
    client = Client()
    client.force_login(User.objects.get(nickname="admin"))
    problems = []
    request = RequestFactory().get("/admin/")
    request.user = User.objects.get(nickname="admin")
    for model, model_admin in admin.site._registry.items():
        meta = model._meta
        base = f"/admin/{meta.app_label}/{meta.model_name}/"
        urls = [base]
        if model_admin.has_add_permission(request):
            urls.append(f"{base}add/")
        if (first := model._default_manager.first()) is not None:
            urls.append(f"{base}{first.pk}/change/")
        for url in urls:
            answer = client.get(url, follow=True)  # the club settings' list opens its row
            assert answer.status_code == 200, url
            if words := chrome_words(answer.content.decode()):
                problems.append(f"{url}: {sorted(words)}")
    assert problems == [], "\n".join(problems)


def test_the_admin_edits_the_season_length_and_reads_the_outbox(admin_client_: Client) -> None:
    from club.kernel.club_settings import ClubSettings
    from notifications.services import notification_enqueue

    settings_row = ClubSettings.load()
    page = admin_client_.get(f"/admin/club/clubsettings/{settings_row.pk}/change/").content
    assert b'name="season_length"' in page
    notification_enqueue(
        dedupe_key="t", text="Ваше место за столом подтверждено.", chat_id=5, member=make_member()
    )
    outbox = admin_client_.get("/admin/notifications/notification/").content.decode()
    assert "Ваше место за столом подтверждено." in outbox


def test_the_admin_reads_in_russian_grammar(admin_client_: Client) -> None:
    changelist = admin_client_.get("/admin/games/game/").content.decode()
    assert "Выбор для изменения: игра" in changelist and "Выберите игра" not in changelist
    assert "Паджинация" not in changelist
    add = admin_client_.get("/admin/club/evening/add/").content.decode()
    assert "Добавить: вечер" in add and "Select an option" not in add


def test_the_admin_names_teams_actions_and_winners_in_russian(admin_client_: Client) -> None:
    host = make_host()
    evening, players = evening_with_players()
    record(start_game(host, evening, players), host, *TOWN_WINS)
    roles = admin_client_.get("/admin/games/role/").content.decode()
    assert "убивает" in roles and "одиночка" in roles and ">kill<" not in roles
    games = admin_client_.get("/admin/games/game/").content.decode()
    assert "красные (город)" in games and ">red<" not in games
