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
from pytest_django import DjangoCaptureOnCommitCallbacks

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
NAMES |= {"BotFather"}  # Telegram's bot that gives a bot its token


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
    from club.kernel.clubs import Club
    from notifications.services import notification_enqueue

    settings_row = Club.current()
    page = admin_client_.get(f"/admin/club/club/{settings_row.pk}/change/").content
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


def test_the_admin_says_the_rest_in_russian_too(admin_client_: Client) -> None:
    """Issue #27: the date fields' time-zone note, the hosts' group, permission names, the
    API token's label, and «… был изменен» that agreed with no feminine or plural name."""
    import io
    import json

    from django.contrib.auth.models import Group

    from club.kernel.clubs import Club

    script = admin_client_.get("/admin/jsi18n/").content.decode()  # its JSON escapes Cyrillic
    assert json.dumps("Время вводится по часовому поясу")[1:-1] in script
    groups = admin_client_.get("/admin/auth/group/").content.decode()
    assert "Ведущие" in groups and "Hosts" not in groups
    hosts = Group.objects.get(name="Ведущие")
    group = admin_client_.get(f"/admin/auth/group/{hosts.pk}/change/").content.decode()
    assert "может добавлять" in group and "Может вести и записывать игры" in group
    assert "Can add" not in group and "Can host" not in group
    member = make_member(nickname="Лиса")
    call_command("api_token", "Лиса", stdout=io.StringIO())
    page = admin_client_.get(f"/admin/accounts/user/{member.pk}/change/").content.decode()
    assert "командная строка" in page and "command line" not in page
    row = Club.current()
    form = admin_client_.get(f"/admin/club/club/{row.pk}/change/").content.decode()
    saved = admin_client_.post(
        f"/admin/club/club/{row.pk}/change/", settings_form(form), follow=True
    ).content.decode()
    assert "Изменения сохранены: клуб" in saved and "был изменен" not in saved


def settings_form(page: str) -> dict[str, str]:
    """The club settings' form as the page filled it (inputs and selected options)."""
    data = dict(re.findall(r'<input type="(?:text|number)" name="(\w+)" value="([^"]*)"', page))
    for name, body in re.findall(r'(?s)<select name="(\w+)"[^>]*>(.*?)</select>', page):
        chosen = re.search(r'<option value="([^"]*)" selected', body)
        data[name] = chosen.group(1) if chosen else ""
    data.update(re.findall(r'name="(start_time)" value="([^"]*)"', page))
    return data


def test_a_new_evening_starts_from_the_club_settings(admin_client_: Client) -> None:
    from club.kernel.clubs import Club

    club = Club.current()
    club.venue, club.seats_per_evening = "Чердак", 14
    club.save()
    page = admin_client_.get("/admin/club/evening/add/").content.decode()
    assert 'name="venue" value="Чердак"' in page and 'name="capacity" value="14"' in page
    assert 'name="starts_at_1" value="18:00:00"' in page
    assert 'name="opens_at_0"' in page and 'value="12:00:00"' in page
    assert "scheduled_for" not in page and "Недельный слот" not in page
    assert 'name="status"' not in page  # a new evening is scheduled
    assert "За столом от 12 до 15 игроков" in page


def test_the_club_settings_are_one_form_and_the_group_is_picked_by_title(
    admin_client_: Client,
) -> None:
    from bot.process import process_update
    from club.kernel.clubs import Club

    opened = admin_client_.get("/admin/club/club/")
    assert opened.status_code == 302
    assert opened["Location"].endswith(f"/admin/club/club/{Club.current().pk}/change/")
    # The bot is added to the club's group: Telegram says so with a my_chat_member update.
    process_update(
        {
            "update_id": 900,
            "my_chat_member": {
                "chat": {"id": -1001234567890, "title": "Мафия: Воскресенье", "type": "supergroup"},
                "from": {"id": 5, "is_bot": False, "first_name": "Админ"},
                "date": 1,
                "old_chat_member": {"user": {"id": 1, "is_bot": True}, "status": "left"},
                "new_chat_member": {"user": {"id": 1, "is_bot": True}, "status": "member"},
            },
        }
    )
    row = Club.current()
    page = admin_client_.get(f"/admin/club/club/{row.pk}/change/").content.decode()
    assert '<option value="-1001234567890">Мафия: Воскресенье</option>' in page
    data = settings_form(page) | {"telegram_group_chat_id": "-1001234567890"}
    admin_client_.post(f"/admin/club/club/{row.pk}/change/", data)
    Club.objects.filter(pk=row.pk).update()  # the cached row is read again below
    assert Club.objects.get(pk=row.pk).telegram_group_chat_id == -1001234567890


def test_the_sign_ups_are_listed_by_evening(admin_client_: Client) -> None:
    from club.models import Registration
    from tests.factories import make_evening, sign_up_many

    first, second = make_evening(capacity=12), make_evening(capacity=12)
    sign_up_many(first, 2)
    sign_up_many(second, 1)
    evenings = admin_client_.get("/admin/club/evening/").content.decode()
    link = f"/admin/club/registration/?evening__id__exact={first.pk}"
    assert link in evenings and "в игре: 2, в резерве: 0" in evenings
    listed = admin_client_.get(link).content.decode()
    assert listed.count('name="_selected_action"') == 2
    assert Registration.objects.count() == 3


def test_the_admin_counts_and_deletes_in_russian_grammar(admin_client_: Client) -> None:
    """The walk: «6 гости», «38 записи на вечер», «60 изменения состава» (a count beside a
    model's plural name, which Russian declines in three forms and Django's model_ngettext
    has two of), «Не удается удалить участник», «Удаление выбранной участник…», the action
    «Удалить выбранные участники», and a guest's name under «Название». A count follows its
    name («Гости: 3»), a model's name in a sentence stands after a colon or in brackets, and
    a guest has an «Имя»."""
    from club import lineup
    from club.models import Guest, Registration, RegistrationSource
    from club.services import registration_create
    from tests.factories import make_evening

    host = make_host()
    evening = make_evening(capacity=15)
    for name in ("Марина", "Андрей", "Света"):
        lineup.lineup_add_guest(evening_id=evening.pk, name=name, of_age=True, actor=host)
    guests = admin_client_.get("/admin/club/guest/").content.decode()
    assert "Гости: 3" in guests and "3 гости" not in guests
    assert re.search(r'column-named">\s*<div class="text"><a [^>]*>Имя</a>', guests)
    assert "Название" not in guests
    guest = Guest.objects.first()
    assert guest is not None
    form = admin_client_.get(f"/admin/club/guest/{guest.pk}/change/").content.decode()
    assert "Имя:" in form and "Название" not in form
    signups = admin_client_.get("/admin/club/registration/").content.decode()
    assert "Записи на вечер: 3" in signups and "3 записи" not in signups
    changes = admin_client_.get("/admin/club/lineupchange/").content.decode()
    assert "Изменения состава: 3" in changes
    # A member holding a seat cannot be deleted (the seat is cancelled first).
    member = make_member(nickname="Лиса")
    registration_create(member=member, evening_id=evening.pk, source=RegistrationSource.WEB)
    assert Registration.objects.filter(member=member).exists()
    members = admin_client_.get("/admin/accounts/user/").content.decode()
    assert "Удалить выбранное: участники" in members and "выбранные участники" not in members
    asked = admin_client_.post(
        "/admin/accounts/user/", {"action": "delete_selected", "_selected_action": [member.pk]}
    ).content.decode()
    assert "Не удаётся удалить: участник" in asked and "удалить участник<" not in asked
    assert "Удаление выбранного (участник)" in asked and "выбранной участник" not in asked
    one = admin_client_.get(f"/admin/accounts/user/{member.pk}/delete/").content.decode()
    assert "Удаление «Лиса» (участник)" in one and "объекта типа" not in one


def test_moving_an_evening_in_the_admin_says_its_new_date(
    admin_client_: Client, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    """The walk (73-admin-evening-moved.png): the save message named the evening by its old
    start, the move being the service's after the admin's save."""
    from datetime import timedelta

    from django.utils import timezone

    from tests.club.test_admin_seats import evening_form
    from tests.factories import make_evening

    evening = make_evening(capacity=12)
    old = str(evening)
    moved = timezone.localtime(evening.starts_at + timedelta(days=1, hours=2))
    form = evening_form(
        evening, starts_at_0=moved.strftime("%d.%m.%Y"), starts_at_1=moved.strftime("%H:%M:%S")
    )
    with django_capture_on_commit_callbacks(execute=True):
        saved = admin_client_.post(f"/admin/club/evening/{evening.pk}/change/", form, follow=True)
    evening.refresh_from_db()
    assert evening.starts_at == moved.replace(microsecond=0)
    said = saved.content.decode().split('class="messagelist"')[1].split("</ul>")[0]
    assert str(evening) in said and old not in said


def test_the_admin_has_the_sites_icon(admin_client_: Client) -> None:
    """The walk: the admin's pages asked for /favicon.ico (a 404 in the console)."""
    for url in ("/admin/", "/admin/club/evening/", "/admin/login/"):
        page = Client().get(url) if url == "/admin/login/" else admin_client_.get(url)
        html = page.content.decode()
        icons = re.findall(r'<link rel="icon" href="([^"]+)" type="image/png"', html)
        assert icons, url
        assert Client().get(icons[0]).status_code == 200, icons[0]
