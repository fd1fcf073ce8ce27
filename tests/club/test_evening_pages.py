"""The evening page: buttons by htmx and by plain form posts, lists for members only."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from club.models import Registration, RegistrationSource
from club.services import registration_create
from tests.factories import make_evening, make_member, set_consent, sign_up_many

pytestmark = pytest.mark.django_db
HTMX = {"hx-request": "true"}


def test_a_member_signs_up_confirms_and_cancels_with_htmx(
    member_client: Client, member: User
) -> None:
    evening = make_evening(capacity=15)
    page = member_client.get(f"/evenings/{evening.pk}/").content.decode()
    assert "Ок, играем" in page and "Свободно 15 мест из 15" in page

    response = member_client.post(f"/evenings/{evening.pk}/signup/", headers=HTMX)
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="panel"') and "<html" not in body
    assert "Вы в игре: № 1 в списке." in body and "Подтверждаю" in body

    body = member_client.post(f"/evenings/{evening.pk}/confirm/", headers=HTMX).content.decode()
    assert "Спасибо: участие подтверждено." in body and "✓ участие подтверждено" in body
    assert Registration.objects.get(member=member).attendance_confirmed_at is not None

    # «Не смогу» keeps the place for the undo window, and says until when.
    body = member_client.post(f"/evenings/{evening.pk}/cancel/", headers=HTMX).content.decode()
    assert "Вы нажали «Не смогу»: место уйдёт в" in body and "Вернуть" in body
    assert Registration.objects.get(member=member).leaves_at is not None


def test_every_button_also_works_as_a_plain_form_post(member_client: Client, member: User) -> None:
    evening = make_evening(capacity=1)
    sign_up_many(evening, 1)
    response = member_client.post(f"/evenings/{evening.pk}/signup/")
    assert response.status_code == 302 and response["Location"] == f"/evenings/{evening.pk}/"
    page = member_client.get(response["Location"]).content.decode()
    assert "Мест нет: вы в резерве." in page
    assert "Вы в резерве, позиция 1." in page


def test_a_refusal_is_shown_and_changes_nothing(member_client: Client, member: User) -> None:
    evening = make_evening(status="closed")
    body = member_client.post(f"/evenings/{evening.pk}/signup/", headers=HTMX).content.decode()
    assert "Запись на этот вечер закрыта." in body
    assert not Registration.objects.exists()
    body = member_client.post(f"/evenings/{evening.pk}/cancel/", headers=HTMX).content.decode()
    assert "Вы не записаны на этот вечер." in body


def test_the_lists_show_nicknames_to_members_only(client: Client, member_client: Client) -> None:
    evening = make_evening(capacity=1)
    seated, waiting = (r.member.nickname for r in sign_up_many(evening, 2))
    assert seated not in client.get(f"/evenings/{evening.pk}/").content.decode()
    page = member_client.get(f"/evenings/{evening.pk}/").content.decode()
    assert seated in page and "Резерв" in page and waiting in page


def test_anonymous_visitors_are_sent_to_log_in(client: Client) -> None:
    evening = make_evening()
    response = client.post(f"/evenings/{evening.pk}/signup/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.get("/evenings/999999/").status_code == 404


def test_a_post_without_the_csrf_token_is_refused(member: User) -> None:
    evening = make_evening()
    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    assert client.post(f"/evenings/{evening.pk}/signup/").status_code == 403
    assert not Registration.objects.exists()


def test_my_evenings_and_the_calendar_feed(member_client: Client, member: User) -> None:
    evening = make_evening(venue="GrandDaddy")
    member_client.post(f"/evenings/{evening.pk}/signup/")
    mine = member_client.get("/evenings/mine/").content.decode()
    assert "GrandDaddy</span></span></a>" in mine and "в игре, № 1 в списке" in mine
    feed = Client().get("/evenings.ics")
    assert feed["Content-Type"] == "text/calendar; charset=utf-8"
    body = feed.content.decode()
    assert "BEGIN:VCALENDAR" in body and f"UID:evening-{evening.pk}@mafia-club" in body
    assert "LOCATION:GrandDaddy" in body


def test_the_home_page_lists_upcoming_evenings_with_seats_taken(client: Client) -> None:
    evening = make_evening(capacity=15)
    sign_up_many(evening, 3)
    body = client.get("/").content.decode()
    assert f"/evenings/{evening.pk}/" in body and "Свободно 12 мест из 15" in body


def test_a_full_evening_says_the_button_joins_the_reserve_and_where() -> None:
    evening = make_evening(capacity=2)
    sign_up_many(evening, 3)  # two seats, one in the reserve
    client = Client()
    client.force_login(make_member())
    page = client.get(f"/evenings/{evening.pk}/").content.decode()
    assert "Встать в резерв (позиция 2)" in page and "Ок, играем" not in page


def test_an_evening_with_seats_left_offers_ok_im_playing() -> None:
    evening = make_evening(capacity=5)
    client = Client()
    client.force_login(make_member())
    assert "Ок, играем" in client.get(f"/evenings/{evening.pk}/").content.decode()


def test_my_evenings_shows_the_reserve_position_the_evening_page_counts() -> None:
    from club.models import Registration
    from club.queries import evening_lineup, member_evenings

    evening = make_evening(capacity=1)
    results = sign_up_many(evening, 4)  # one seat, three in the reserve
    first_reserve = results[1].registration
    Registration.objects.filter(pk=first_reserve.pk).update(held_back=True)  # now last
    lineup = evening_lineup(evening)
    for result in results[1:]:
        member = result.member
        mine = next(p for r, p in member_evenings(member) if r.evening_id == evening.pk)
        assert mine == lineup.position_of(lineup.by_member[member.pk])
        client = Client()
        client.force_login(member)
        page = client.get("/evenings/mine/").content.decode()
        assert f"резерв, позиция {mine}" in page
    assert member_evenings(first_reserve.signed_member)[0][1] == 3


def test_i_cant_make_it_asks_before_it_gives_the_seat_away() -> None:
    """The README's promise (issue #27): «Не смогу» asks first, by htmx and without
    scripts alike; then the place is kept for the undo window."""
    evening = make_evening(capacity=5)
    member = sign_up_many(evening, 1)[0].member
    client = Client()
    client.force_login(member)
    page = client.get(f"/evenings/{evening.pk}/").content.decode()
    assert f'href="/evenings/{evening.pk}/?leave=1#panel"' in page
    assert "Отказаться от места?" not in page
    question = "Отказаться от места? 30 секунд его можно вернуть, потом оно перейдёт первому"
    for headers in ({}, {"HX-Request": "true"}):
        asked = client.get(f"/evenings/{evening.pk}/", {"leave": "1"}, headers=headers)
        body = asked.content.decode()
        assert question in body and "Да, не смогу" in body and "Нет, остаюсь" in body
        assert body.lstrip().startswith("<section") == bool(headers)  # htmx: the panel only
    assert Registration.objects.get(member=member).leaves_at is None  # asking gave nothing up
    client.post(f"/evenings/{evening.pk}/cancel/")
    assert Registration.objects.get(member=member).leaves_at is not None


def test_joining_the_reserve_says_so_once() -> None:
    evening = make_evening(capacity=1)
    sign_up_many(evening, 1)
    client = Client()
    client.force_login(make_member())
    answer = client.post(f"/evenings/{evening.pk}/signup/", headers={"HX-Request": "true"})
    text = answer.content.decode()
    assert text.count("позиция 1") == 1, text


def test_my_evenings_tells_a_member_their_no_shows_and_the_clubs_rule() -> None:
    from club.kernel.clubs import Club
    from club.models import Evening, Registration, RegistrationStatus

    club = Club.current()
    club.noshow_penalty_count, club.noshow_penalty_window = 2, 5
    club.save()
    member, other = make_member(nickname="Лиса"), make_member()
    no_show, attended = RegistrationStatus.NO_SHOW, RegistrationStatus.ATTENDED
    marks = [(21, attended), (14, no_show), (7, no_show)]
    for days, status in marks:
        starts_at = timezone.now() - timedelta(days=days)
        past = make_evening(starts_at=starts_at, opens_at=starts_at - timedelta(days=5))
        Registration.objects.create(
            member=member, evening=past, status=status, source="web", arrival=1
        )
    assert Evening.objects.count() == 3
    client = Client()
    client.force_login(member)
    page = client.get("/evenings/mine/").content.decode()
    # The walk: «Неявок за ваши последние вечера (5): 0» read oddly, and Лиса «Пришёл».
    assert "За последние 5 вечеров у вас неявок: 2." in page
    assert "после 2 неявок" in page
    assert ">Явка</span>" in page and ">Неявка</span>" in page and "Пришёл" not in page
    client.force_login(other)
    page = client.get("/evenings/mine/").content.decode()
    assert "За последние 5 вечеров у вас не было неявок." in page


def test_an_evening_after_its_start_tells_who_played_and_the_games() -> None:
    """Issue #27: after the games `/evenings/1/` read «Свободно 15 мест из 15», «Играют 0»
    and offered sign-up. Now: who played (a member who keeps their name private is
    counted, not named), the games with links, and no sign-up."""
    from club.models import Evening
    from tests.games.recording import evening_with_players, make_host, start_game

    evening, players = evening_with_players()
    set_consent(players[0].pk, consent=False)
    game = start_game(make_host(), evening, players)
    Evening.objects.filter(pk=evening.pk).update(starts_at=timezone.now() - timedelta(hours=4))
    client = Client()
    client.force_login(make_member())
    for page in [client.get(f"/evenings/{evening.pk}/").content.decode()]:
        assert 'Играли <span class="badge">12</span>' in page
        assert players[1].nickname in page and players[0].nickname not in page
        assert "И ещё 1 игрок, скрывший имя." in page
        assert f'href="/games/{game.pk}/"' in page
        assert "Свободно" not in page and "Ок, играем" not in page and "Играют" not in page
        assert "Войти, чтобы записаться" not in page
    anonymous = Client().get(f"/evenings/{evening.pk}/").content.decode()
    assert "Играли" in anonymous and "Войти, чтобы записаться" not in anonymous


def test_a_started_evening_without_games_shows_who_is_there_and_no_sign_up() -> None:
    """Issue #27, item 8, before the first game: the page said only «Игр этого вечера
    пока не записано». It shows the list (then, once the door is kept, who
    came) under the publication rules: a hidden member counted, a guest counted, never
    named; and no sign-up."""
    from club import lineup
    from club.models import Evening
    from tests.games.recording import make_host

    host = make_host()
    evening = make_evening(
        capacity=13,
        starts_at=timezone.now() + timedelta(hours=1),
        opens_at=timezone.now() - timedelta(days=1),
    )
    signed = [result.registration for result in sign_up_many(evening, 12)]
    lineup.lineup_add_guest(evening_id=evening.pk, name="Гость Петя", of_age=True, actor=host)
    signed += [result.registration for result in sign_up_many(evening, 1)]
    members = [registration.member for registration in signed if registration.member]
    assert len(members) == 13
    shy = members[1]
    set_consent(shy.pk, consent=False)
    Evening.objects.filter(pk=evening.pk).update(starts_at=timezone.now() - timedelta(minutes=10))
    client = Client()
    client.force_login(make_member())

    def page(who: Client) -> str:
        return who.get(f"/evenings/{evening.pk}/").content.decode()

    def named(member: User, seen: str) -> bool:
        return f">{member.nickname}</a>" in seen

    for seen in (page(client), page(Client())):
        # Twelve seated members and the guest; the thirteenth waited in the reserve.
        assert 'В списке <span class="badge">13</span>' in seen
        assert named(members[0], seen) and not named(shy, seen)
        assert "И ещё 1 игрок, скрывший имя." in seen
        assert "И ещё 1 гость." in seen and "Гость Петя" not in seen
        assert not named(members[12], seen)  # the reserve is not there
        assert "Игр этого вечера пока не записано." in seen
        for gone in ("Ок, играем", "Свободно", "Резерв", "Войти, чтобы записаться", "Не смогу"):
            assert gone not in seen
    # At the door: two members tapped in, the shy one among them.
    for registration in signed[:2]:
        lineup.lineup_check_in(registration_id=registration.pk, actor=host)
    seen = page(client)
    assert 'На месте <span class="badge">2</span>' in seen
    assert named(members[0], seen) and "И ещё 1 игрок, скрывший имя." in seen
    assert not named(members[2], seen) and "гость" not in seen
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    english = page(client)
    assert 'Came <span class="badge">2</span>' in english
    assert "And 1 player who keeps their name private." in english


def test_a_started_evening_counts_its_seated_guests_and_says_if_a_game_is_on() -> None:
    """The walk (E2-member-evening-after-start.png): «Играли 20» while 24 were seated, the
    guests not counted, and «идёт или уже прошёл» while the games said «Идёт». The guests
    are counted (never named); the evening «идёт» while a game runs, «прошёл» once all
    are over."""
    from club import lineup
    from club.models import Evening
    from games.starting import game_create, present_players
    from tests.games.recording import LINEUP, TOWN_WINS, evening_with_players, make_host, record

    host = make_host()
    evening, _players = evening_with_players(11)
    lineup.lineup_add_guest(evening_id=evening.pk, name="Гость Петя", of_age=True, actor=host)
    seats = {
        n: (p.player, role)
        for n, (p, role) in enumerate(zip(present_players(evening), LINEUP, strict=True), 1)
    }
    game = game_create(host=host, evening_id=evening.pk, seats=seats)
    Evening.objects.filter(pk=evening.pk).update(starts_at=timezone.now() - timedelta(hours=1))
    client = Client()
    client.force_login(make_member())
    page = client.get(f"/evenings/{evening.pk}/").content.decode()
    assert 'Играли <span class="badge">12</span>' in page
    assert "И ещё 1 гость." in page and "Гость Петя" not in page
    assert " · идёт</p>" in page and "прошёл" not in page
    record(game, host, *TOWN_WINS)
    page = client.get(f"/evenings/{evening.pk}/").content.decode()
    assert " · прошёл</p>" in page and "идёт" not in page


def test_the_page_promises_the_bot_only_to_those_the_bot_reaches() -> None:
    """A member only email reaches is told a letter comes (to which address), not that the
    bot writes; one with Telegram, the bot; one with both, both; one nothing reaches, what
    to do. Before the sign-up (a full evening) and in the reserve, in either language."""
    evening = make_evening(capacity=1)
    sign_up_many(evening, 1)
    by_mail = make_member(email="fox@example.org")
    by_bot = make_member(email="", telegram_id=7001)
    by_both = make_member(email="wolf@example.org", telegram_id=7002, notify_by="both")
    nothing = make_member(email="")

    def page(member: User, language: str = "ru") -> str:
        client = Client()
        client.cookies["django_language"] = language
        client.force_login(member)
        return client.get(f"/evenings/{evening.pk}/").content.decode()

    full = page(by_mail)
    assert "вы перейдёте в игроки сами. Об этом придёт письмо на fox@example.org." in full
    assert "бот напишет" not in full.lower()
    assert "A letter to fox@example.org tells you." in page(by_mail, "en")
    for member in (by_mail, by_bot, by_both, nothing):
        registration_create(member=member, evening_id=evening.pk, source=RegistrationSource.WEB)
    waiting = page(by_mail)
    assert "Когда место освободится, оно сразу станет вашим. Об этом придёт письмо" in waiting
    assert "Бот напишет" not in waiting
    assert "Когда место освободится, оно сразу станет вашим. Бот напишет об этом." in page(by_bot)
    assert "The bot tells you." in page(by_bot, "en")
    assert "Об этом напишет бот и придёт письмо." in page(by_both)
    assert "привяжите Telegram или добавьте почту" in page(nothing)
    assert "link Telegram or add an email" in page(nothing, "en")
