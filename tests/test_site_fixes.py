"""Fixes of the site issue found on the pages as members and hosts read them: each test
fails on the code before its fix."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from club.kernel.errors import RefusalCode, Refused
from tests.factories import make_evening, make_member, sign_up_many
from tests.games.recording import TOWN_WINS, evening_with_players, make_host, record, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def analysed():
    """A game the town won, analysed: (game, evening, players)."""
    from games.ratings.tasks import game_analyse

    host = make_host()
    evening, players = evening_with_players()
    game = start_game(host, evening, players)
    record(game, host, *TOWN_WINS)
    game_analyse(game.pk)
    return game, evening, players


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


def test_the_player_pages_title_is_the_nickname_only() -> None:
    host = make_host()
    evening, players = evening_with_players()
    record(start_game(host, evening, players), host, *TOWN_WINS)
    page = Client().get(f"/players/{players[0].pk}/").content.decode()
    title = page.split("<title>")[1].split("</title>")[0]
    assert title == players[0].nickname


def test_the_under_age_refusal_ends_with_one_full_stop() -> None:
    too_young = (timezone.localdate() - timedelta(days=365 * 20)).isoformat()
    answer = Client().post(
        "/accounts/signup/",
        {
            "nickname": "Юный",
            "email": "young@example.com",
            "birth_date": too_young,
            "password1": "a-long-passphrase-9",
            "password2": "a-long-passphrase-9",
        },
    )
    text = answer.content.decode()
    assert "Будем рады вам с" in text and "г.." not in text


def test_a_game_cannot_start_days_before_its_evening() -> None:
    host = make_host()
    evening = make_evening(starts_at=timezone.now() + timedelta(days=3))
    players = [r.registration.member for r in sign_up_many(evening, 12)]
    with pytest.raises(Refused) as refused:
        start_game(host, evening, players)
    assert refused.value.code == RefusalCode.INVALID
    assert refused.value.message.startswith("Игры этого вечера начинаются в его день")
    client = Client()
    client.force_login(host)
    assert "Новая игра" not in client.get(f"/evenings/{evening.pk}/").content.decode()
    evening.starts_at = timezone.now() + timedelta(hours=2)
    evening.save()
    assert start_game(host, evening, players).number == 1


def test_a_team_win_names_the_team_and_the_season_has_a_human_name(analysed) -> None:
    game, _evening, _players = analysed
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "победа красных (города)" in page and "победа команды (" not in page
    board = Client().get("/leaderboard/").content.decode()
    names = re.findall(r"<option [^>]*>([^<]*)</option>", board)
    assert names and all("-Q" not in name for name in names), names


def test_points_and_ratings_read_the_same_way_on_every_page(analysed) -> None:
    game, _evening, _players = analysed
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert re.search(r"\+1,00", page) and not re.search(r"[+−]\d+\.\d\d", page)
    board = Client().get("/leaderboard/").content.decode()
    ratings = re.findall(r"<td[^>]*>(1[45]\d\d[.,]?\d*)</td>", board)
    assert ratings and all(rating.isdigit() for rating in ratings), ratings


def test_my_evenings_shows_the_reserve_position_the_evening_page_counts() -> None:
    from club.models import Registration
    from club.queries import evening_lineup, member_evenings

    evening = make_evening(capacity=1)
    results = sign_up_many(evening, 4)  # one seat, three in the reserve
    first_reserve = results[1].registration
    Registration.objects.filter(pk=first_reserve.pk).update(held_back=True)  # now last
    lineup = evening_lineup(evening)
    for result in results[1:]:
        member = result.registration.member
        mine = next(p for r, p in member_evenings(member) if r.evening_id == evening.pk)
        assert mine == lineup.position_of(lineup.by_member[member.pk])
        client = Client()
        client.force_login(member)
        page = client.get("/evenings/mine/").content.decode()
        assert f"резерв, позиция {mine}" in page
    assert member_evenings(first_reserve.member)[0][1] == 3


def test_the_admin_edits_the_season_length_and_reads_the_outbox(admin_client_) -> None:
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


def test_i_cant_make_it_asks_before_it_gives_the_seat_away() -> None:
    evening = make_evening(capacity=5)
    member = sign_up_many(evening, 1)[0].registration.member
    client = Client()
    client.force_login(member)
    page = client.get(f"/evenings/{evening.pk}/").content.decode()
    assert (
        'hx-confirm="Отказаться от места? 30 секунд его можно вернуть, потом оно перейдёт '
        'первому из резерва."'
    ) in page


def test_joining_the_reserve_says_so_once() -> None:
    evening = make_evening(capacity=1)
    sign_up_many(evening, 1)
    client = Client()
    client.force_login(make_member())
    answer = client.post(f"/evenings/{evening.pk}/signup/", headers={"HX-Request": "true"})
    text = answer.content.decode()
    assert text.count("позиция 1") == 1, text


def test_the_embedded_stack_links_to_the_port_it_runs_on(monkeypatch) -> None:
    from club.management.commands.run_stack import site_environment

    monkeypatch.delenv("SITE_URL", raising=False)
    assert site_environment(8080) == {"SITE_URL": "http://127.0.0.1:8080"}
    monkeypatch.setenv("SITE_URL", "https://club.example")
    assert site_environment(8080) == {"SITE_URL": "https://club.example"}


def test_the_password_reset_mail_reads_as_plain_text_in_the_console() -> None:
    import io

    from django.core import mail

    from club.kernel.mail import ReadableConsoleBackend

    make_member(nickname="Ворон", email="raven@example.com")
    Client().post("/accounts/password/reset/", {"email": "raven@example.com"})
    (letter,) = mail.outbox
    printed = io.StringIO()
    ReadableConsoleBackend(stream=printed).send_messages([letter])
    assert "/accounts/password/reset/" in printed.getvalue() and "Ворон" in printed.getvalue()


def test_the_admin_reads_in_russian_grammar(admin_client_) -> None:
    changelist = admin_client_.get("/admin/games/game/").content.decode()
    assert "Выбор для изменения: игра" in changelist and "Выберите игра" not in changelist
    assert "Паджинация" not in changelist
    add = admin_client_.get("/admin/club/evening/add/").content.decode()
    assert "Добавить: вечер" in add and "Select an option" not in add


def test_the_players_charts_say_what_they_add_up_with_axes_and_dates(analysed) -> None:
    from django.utils.formats import date_format

    _game, evening, players = analysed
    page = Client().get(f"/players/{players[3].pk}/").content.decode()
    assert "Очки нарастающим итогом, игра за игрой" in page
    day = date_format(timezone.localtime(evening.starts_at), "j E Y")
    chart = page.split('<figure class="chart">')[1].split("</figure>")[0]
    assert 'class="axis"' in chart and day in chart and "за 1 игру" in chart


def test_my_evenings_tells_a_member_their_no_shows_and_the_clubs_rule() -> None:
    from club.kernel.club_settings import ClubSettings
    from club.models import Evening, Registration, RegistrationStatus

    club = ClubSettings.load()
    club.noshow_penalty_count, club.noshow_penalty_window = 2, 5
    club.save()
    member = make_member()
    for days in (14, 7):
        starts_at = timezone.now() - timedelta(days=days)
        past = make_evening(starts_at=starts_at, opens_at=starts_at - timedelta(days=5))
        Registration.objects.create(
            member=member, evening=past, status=RegistrationStatus.NO_SHOW, source="web", arrival=1
        )
    assert Evening.objects.count() == 2
    client = Client()
    client.force_login(member)
    page = client.get("/evenings/mine/").content.decode()
    assert "Неявок за ваши последние вечера (5): 2." in page
    assert "после 2 неявок" in page


def test_the_leaderboard_filters_by_team_role_and_games_and_states_its_sort(analysed) -> None:
    _game, _evening, players = analysed
    everyone = Client().get("/leaderboard/").content.decode()
    assert "Сортировка: Очки." in everyone
    black = Client().get("/leaderboard/?team=black").content.decode()
    rows = lambda page: re.findall(r'<a href="/players/(\d+)/"', page)  # noqa: E731
    assert len(rows(black)) == 3 and len(rows(everyone)) == 12
    doctors = Client().get("/leaderboard/?role=doctor").content.decode()
    assert rows(doctors) == [str(players[4].pk)]
    assert rows(Client().get("/leaderboard/?min_games=2").content.decode()) == []
    # What the page did not offer reads as "all".
    odd = Client().get("/leaderboard/?team=green&role=x&min_games=-5")
    assert odd.status_code == 200 and len(rows(odd.content.decode())) == 12
    # A NUL is never a choice: the rule for texts refuses it with a message (#24).
    nul = Client().get("/leaderboard/?role=%00")
    assert nul.status_code == 400 and "NUL" in nul.content.decode()


def test_a_player_page_shows_streaks_and_the_seasons_played(analysed) -> None:
    _game, _evening, players = analysed
    winner = Client().get(f"/players/{players[3].pk}/").content.decode()  # the commissar
    assert "Лучшая серия</dt><dd>1 <small>сейчас 1</small>" in winner
    loser = Client().get(f"/players/{players[0].pk}/").content.decode()  # the boss
    assert "Лучшая серия</dt><dd>0 <small>сейчас 0</small>" in loser
    assert re.search(r'Сезоны: <a href="/leaderboard/\?season=\d{4}(-Q\d)?">', winner)


def test_the_admin_names_teams_actions_and_winners_in_russian(admin_client_) -> None:
    host = make_host()
    evening, players = evening_with_players()
    record(start_game(host, evening, players), host, *TOWN_WINS)
    roles = admin_client_.get("/admin/games/role/").content.decode()
    assert "убивает" in roles and "одиночка" in roles and ">kill<" not in roles
    games = admin_client_.get("/admin/games/game/").content.decode()
    assert "красные (город)" in games and ">red<" not in games


def test_the_online_page_says_its_don_is_the_live_games_boss() -> None:
    from django.core.management import call_command

    from games.models import Game

    call_command("demo_data", stdout=open("/dev/null", "w"))  # noqa: SIM115
    online = Game.objects.get(ruleset="online")
    client = Client()
    client.force_login(online.seats.first().member)
    page = client.get(f"/online/{online.pk}/").content.decode()
    assert "главарь мафии здесь — Дон, в живой игре эта карта зовётся Босс" in page
