"""A club's settings refused when they contradict the rules, the clocks or another club
(Club.clean), and a new club in minutes (#41, item 8): a platform admin founds it with its
first admin, who sets it up — the bot's token asked of Telegram's getMe (the fake Bot API
server here), nothing saved on a refusal — and makes its first evening."""

from __future__ import annotations

import re
import zoneinfo
from datetime import date, time

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from accounts import roles
from accounts.models import User
from club.kernel.clubs import Club, missing_start
from club.kernel.tenancy import club_scope
from club.models import Evening
from tests.factories import make_member
from tests.fake_telegram import FakeTelegram

pytestmark = pytest.mark.django_db

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")


def refused(club: Club) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as error:
        club.full_clean()
    return error.value.message_dict


def test_a_table_smaller_than_the_rules_allow_is_refused() -> None:
    club = Club.current()
    club.min_players = 10
    assert "12" in refused(club)["min_players"][0]
    club.min_players = 13
    club.full_clean()


def test_fewer_seats_than_a_table_and_a_sender_that_is_no_address_are_refused() -> None:
    club = Club.current()
    club.seats_per_evening = 8
    club.email_sender = "not an email"
    errors = refused(club)
    assert "8" in errors["seats_per_evening"][0] and "email_sender" in errors
    club.seats_per_evening = 12
    for sender in ("club@example.org", "Клуб «Мафия» <club@example.org>"):
        club.email_sender = sender
        club.full_clean()


def test_an_age_below_18_is_refused_and_18_is_allowed() -> None:
    club = Club.current()
    club.min_age = 17
    assert "min_age" in refused(club)
    club.min_age = 18
    club.full_clean()


def test_a_start_the_clocks_skip_is_refused_and_a_doubled_one_is_allowed() -> None:
    # 02:30 on the last Sunday of March does not exist in Berlin.
    assert missing_start(6, time(2, 30), BERLIN, date(2027, 1, 1)) == date(2027, 3, 28)
    assert missing_start(5, time(2, 30), BERLIN, date(2027, 1, 1)) is None
    club = Club.current()
    club.timezone, club.weekday, club.start_time = "Europe/Berlin", 6, time(2, 30)
    message = refused(club)["start_time"][0]
    assert "02:30" in message and "Europe/Berlin" in message
    # 01:30 on a Sunday in New York happens twice in November and exists in March.
    club.timezone, club.start_time = "America/New_York", time(1, 30)
    club.full_clean()
    club.timezone, club.start_time = "Europe/Moscow", time(2, 30)  # no switches
    club.full_clean()


def test_a_bot_another_club_uses_is_refused_beside_its_field(admin_client_: Client) -> None:
    club = Club.current()
    Club.objects.create(slug="b", name="B", telegram_bot_token="123:TAKEN")
    club.telegram_bot_token = "123:TAKEN"
    assert "telegram_bot_token" in refused(club)


def test_the_settings_form_says_the_refusal_in_russian(admin_client_: Client) -> None:
    club = Club.current()
    page = admin_client_.get(f"/admin/club/club/{club.pk}/change/").content.decode()
    data = dict(re.findall(r'<input type="(?:text|number)" name="(\w+)" value="([^"]*)"', page))
    for name, body in re.findall(r'(?s)<select name="(\w+)"[^>]*>(.*?)</select>', page):
        chosen = re.search(r'<option value="([^"]*)" selected', body)
        data[name] = chosen.group(1) if chosen else ""
    data.update(re.findall(r'name="(start_time)" value="([^"]*)"', page))
    data["min_players"] = "9"
    answer = admin_client_.post(f"/admin/club/club/{club.pk}/change/", data).content.decode()
    assert "Правила сажают за стол от 12 до 15 игроков" in answer
    assert Club.objects.get(pk=club.pk).min_players == 12


def test_a_platform_admin_founds_a_club_with_a_new_admin_who_gets_an_invitation(
    admin_client_: Client,
) -> None:
    first = Club.current()
    answer = admin_client_.post(
        "/admin/club/club/add/",
        {
            "slug": "nord",
            "name": "Север",
            "city": "Мурманск",
            "timezone": "Europe/Moscow",
            "admin_nickname": "Северянин",
            "admin_email": "nord@example.org",
            "admin_birth_date": "01.02.1990",
        },
        follow=True,
    )
    assert answer.status_code == 200
    club = Club.objects.get(slug="nord")
    admin = User.objects.get(nickname="Северянин")
    assert not admin.has_usable_password()
    text = answer.content.decode()
    assert "/c/nord/setup/" in text and "/c/nord/accounts/password/reset/" in text
    # The link opens the new club's page to set the password.
    link = re.search(r"http://testserver(/c/nord/accounts/password/reset/[^/\s]+/[^/\s]+/)", text)
    assert link is not None
    opened = Client().get(link.group(1), follow=True)
    assert opened.status_code == 200 and "Север" in opened.content.decode()
    assert club.city == "Мурманск"
    assert roles.can(admin, "administer", club) and not roles.can(admin, "organise", first)
    # An existing account is made the next club's admin by its nickname.
    admin_client_.post(
        "/admin/club/club/add/",
        {"slug": "sud", "name": "Юг", "timezone": "Europe/Moscow", "admin_nickname": "Северянин"},
    )
    assert roles.can(admin, "administer", Club.objects.get(slug="sud"))


def test_founding_refuses_a_new_admin_below_the_clubs_age(admin_client_: Client) -> None:
    answer = admin_client_.post(
        "/admin/club/club/add/",
        {
            "slug": "nord",
            "name": "Север",
            "timezone": "Europe/Moscow",
            "min_age": "18",
            "admin_nickname": "Юнец",
            "admin_email": "young@example.org",
            "admin_birth_date": "01.01.2015",
        },
    )
    assert answer.status_code == 200
    assert not Club.objects.filter(slug="nord").exists()
    assert not User.objects.filter(nickname="Юнец").exists()


def test_founding_with_an_unknown_nickname_and_no_email_makes_nothing(
    admin_client_: Client,
) -> None:
    answer = admin_client_.post(
        "/admin/club/club/add/",
        {"slug": "nord", "name": "Север", "timezone": "Europe/Moscow", "admin_nickname": "Никто"},
    )
    assert answer.status_code == 200  # the form again, with the error beside the email
    assert not Club.objects.filter(slug="nord").exists()
    assert not User.objects.filter(nickname="Никто").exists()


def setup_form(**changes: str) -> dict[str, str]:
    form = {
        "name": "Клуб Б",
        "city": "Казань",
        "venue": "Бар «Дон»",
        "timezone": "Europe/Moscow",
        "weekday": "4",
        "start_time": "19:00",
        "seats_per_evening": "13",
        "min_players": "12",
        "min_age": "18",
        "telegram_bot_token": "",
        "email_sender": "Клуб Б <b@example.org>",
    }
    return {**form, **changes}


def test_the_setup_form_checks_the_token_with_telegram_and_makes_the_first_evening(
    admin_client_: Client, fake_telegram: FakeTelegram
) -> None:
    b = Club.objects.create(slug="b", name="B")
    assert admin_client_.get("/c/b/setup/").status_code == 200
    wrong = admin_client_.post("/c/b/setup/", setup_form(telegram_bot_token="999:WRONG"))
    assert wrong.status_code == 200
    assert "Telegram не знает этот токен" in wrong.content.decode()
    unchanged = Club.objects.get(pk=b.pk)
    assert (unchanged.name, unchanged.telegram_bot_token, unchanged.city) == ("B", "", "")
    token = fake_telegram.add_bot("777:CLUB-B", "club_b_bot")
    saved = admin_client_.post("/c/b/setup/", setup_form(telegram_bot_token=token))
    assert saved.status_code == 302
    b.refresh_from_db()
    assert (b.telegram_bot_username, b.min_age, b.venue) == ("club_b_bot", 18, "Бар «Дон»")
    assert len(b.telegram_webhook_secret) >= 32
    assert [call.method for call in fake_telegram.calls].count("getMe") == 1
    made = admin_client_.post("/c/b/setup/", {"step": "evening"})
    assert made.status_code == 302
    with club_scope(b):
        evening = Evening.objects.get()
    assert evening.venue == "Бар «Дон»" and evening.capacity == 13
    assert evening.starts_at.astimezone(b.zone).weekday() == 4
    assert not Evening.all_clubs.exclude(club=b).exists()


def test_the_setup_form_is_the_club_admins_only() -> None:
    member = Client()
    member.force_login(make_member())
    staff_of_the_first = Client()
    staff_of_the_first.force_login(make_member(is_staff=True))
    b = Club.objects.create(slug="b", name="B")
    assert Client().get("/c/b/setup/").status_code == 302  # to the login
    assert member.get("/c/b/setup/").status_code == 403
    assert staff_of_the_first.get("/c/b/setup/").status_code == 403
    assert staff_of_the_first.get("/setup/").status_code == 200  # their own club's
    with club_scope(b):
        from accounts.models import Role

        organiser = make_member(nickname="Организатор", role=Role.ORGANISER)
    runs_its_evenings = Client()
    runs_its_evenings.force_login(organiser)
    assert runs_its_evenings.get("/c/b/admin/").status_code == 200  # the club's admin
    assert runs_its_evenings.get("/c/b/setup/").status_code == 403  # not its settings
