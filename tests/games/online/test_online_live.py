"""The online game as a live table (#18): the page's live parts, every action answered,
the schedule the rules name, the club's time zone, and a ten-player game through the site,
the API and the sweep with a catastrophe whose revote ties three leaders twice."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from accounts.models import User
from club.kernel.clubs import Club
from club.kernel.errors import Refused
from games.models import Game
from games.online import services as online_play
from games.online.sweep import online_sweep
from tests.factories import make_member
from tests.games.online.tables import catastrophe_of, deadline_of, table_of
from tests.games.online.test_online_play import Online, Player, by_role, online  # noqa: F401 (the fixture)
from tests.games.recording import make_host

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def site(member: User) -> Client:
    client = Client()
    client.force_login(member)
    return client


# A running online game on day 1: it, its host, its seats' members and roles by number.
type DayOne = tuple[Game, User, dict[int, User], dict[int, str]]


@pytest.fixture
def day_one() -> Iterator[DayOne]:
    """A running online game on day 1, its host and its seats' members by number."""
    host = make_host()
    members = [make_member() for _ in range(10)]
    starts = timezone.now() + timedelta(minutes=1)
    game = online_play.online_game_create(
        host=host, member_ids=[m.pk for m in members], starts_at=starts
    )
    traveller = time_machine.travel(starts + timedelta(seconds=5), tick=False)
    traveller.start()
    online_sweep()
    found = table_of(game.pk)
    yield (
        game,
        host,
        {s.number: s.player for s in found.seats},
        {s.number: s.role for s in found.seats},
    )
    traveller.stop()


def live(client: Client, game_id: int, page: str) -> tuple[int, str]:
    """Ask /live as the page would, with the knowledge the page's poller carries."""
    found = re.search(r'hx-get="(/online/\d+/live/[^"]+)"', page)
    assert found is not None, "the page polls nothing"
    url = found.group(1).replace("&amp;", "&")
    answer = client.get(url, headers=HTMX)
    return answer.status_code, answer.content.decode()


def test_live_answers_nothing_until_something_changes_then_only_the_parts(day_one: DayOne) -> None:
    game, _host, members, _roles = day_one
    me = site(members[1])
    page = me.get(f"/online/{game.pk}/").content.decode()
    assert 'id="post-text"' in page and "hx-preserve" in page
    assert live(me, game.pk, page)[0] == 204  # nothing new: no body, nothing swapped

    online_play.online_act(
        game_id=game.pk, user=members[2], event={"type": "post", "text": "Я мирный"}
    )
    online_play.online_act(game_id=game.pk, user=members[3], event={"type": "vote", "target": 2})
    status, parts = live(me, game.pk, page)
    assert status == 200
    assert (
        'id="online-head" class="card online-head" aria-live="polite" hx-swap-oob="true"' in parts
    )
    assert 'hx-swap-oob="beforeend:#online-story"' in parts and "Я мирный" in parts
    assert 'id="online-tally"' in parts and "← 3" in parts  # who votes whom
    assert 'id="post-text"' not in parts  # the post box is never swapped
    assert 'id="online-actions"' not in parts  # my forms did not change: left alone
    # The page now knows these lines: the next look brings nothing again.
    assert live(me, game.pk, parts)[0] == 204


def test_live_is_the_tables_own_and_the_mafias_chat_does_not_wake_the_others(
    day_one: DayOne,
) -> None:
    from games.online.models import MafiaMessage

    game, _host, members, roles = day_one
    civilian = next(n for n, role in roles.items() if role == "civilian")
    me = site(members[civilian])
    page = me.get(f"/online/{game.pk}/").content.decode()
    MafiaMessage.objects.create(game=game, seat=1, text="Стреляем в 7")  # theirs alone
    assert live(me, game.pk, page)[0] == 204
    outsider = site(make_member())
    assert live(outsider, game.pk, page)[0] == 403  # not even "nothing new"


def test_the_forms_come_again_only_when_the_players_choices_change(day_one: DayOne) -> None:
    game, host, members, _roles = day_one
    me = site(members[1])
    page = me.get(f"/online/{game.pk}/").content.decode()
    online_play.online_act(
        game_id=game.pk, user=host, event={"type": "modkill", "seat": 9, "reason": "тест"}
    )
    status, parts = live(me, game.pk, page)
    assert status == 200 and 'id="online-actions"' in parts  # seat 9 is no longer a choice


def test_a_vote_is_answered_with_what_remains_and_the_change_with_its_finality(
    day_one: DayOne,
) -> None:
    game, _host, members, _roles = day_one
    me = site(members[1])
    first = me.post(
        f"/online/{game.pk}/act/", {"type": "vote", "target": "5", "seen": "1"}, headers=HTMX
    )
    body = first.content.decode()
    assert first.status_code == 200
    assert f"Ваш голос: 5. {members[5].nickname}. Сменить его можно один раз за день." in body
    assert "Смена голоса — одна за день: следующий голос будет окончательным." in body
    # The vote is said in words; the list starts on no one again, so «Сменить голос»
    # pressed at once refuses instead of spending the change on the same name (#27).
    assert '<option value="" selected>' in body and 'option value="5" selected' not in body
    second = me.post(f"/online/{game.pk}/act/", {"type": "vote", "target": "pass"}, headers=HTMX)
    assert "Смена голоса использована — этот голос окончательный." in second.content.decode()
    third = me.post(f"/online/{game.pk}/act/", {"type": "vote", "target": "6"}, headers=HTMX)
    assert third.status_code == 422 and "окончательный" in third.content.decode()


def test_a_post_and_a_shot_are_answered(day_one: DayOne) -> None:
    game, _host, members, roles = day_one
    poster = site(members[1])
    answer = poster.post(
        f"/online/{game.pk}/act/", {"type": "post", "text": "Привет"}, headers=HTMX
    )
    assert "Пост опубликован в обсуждении." in answer.content.decode()
    mafioso = next(n for n, r in roles.items() if r == "mafia")
    shot = site(members[mafioso]).post(
        f"/online/{game.pk}/act/", {"type": "shot", "target": "1"}, headers=HTMX
    )
    body = shot.content.decode()
    assert "Выстрел на ближайшую ночь оставлен заранее: 1." in body
    assert "Выстрел на ближайшую ночь, оставленный заранее:" in body  # kept on the page


def test_a_modkill_for_inactivity_late_in_the_day_needs_a_reason(day_one: DayOne) -> None:
    game, host, _members, _roles = day_one
    late = deadline_of(game.pk) - timedelta(minutes=20)
    with time_machine.travel(late, tick=False):
        with pytest.raises(Refused) as refused:
            online_play.online_act(
                game_id=game.pk, user=host, event={"type": "modkill", "seat": 4, "inactivity": True}
            )
        assert refused.value.code == "late_modkill"
        assert 4 in table_of(game.pk).state.alive
        online_play.online_act(
            game_id=game.pk,
            user=host,
            event={"type": "modkill", "seat": 4, "inactivity": True, "override": "ушёл надолго"},
        )
        assert 4 not in table_of(game.pk).state.alive
    # Early in the day no reason is needed.
    online_play.online_act(
        game_id=game.pk, user=host, event={"type": "modkill", "seat": 5, "inactivity": True}
    )


def test_the_fast_night_comes_ten_minutes_after_the_fast_when_so_chosen() -> None:
    host = Player(make_host())
    players = [make_member() for _ in range(10)]
    starts = timezone.now() + timedelta(minutes=1)
    created = host.api.post(
        "/api/v1/online-games",
        {
            "member_ids": [m.pk for m in players],
            "starts_at": starts.isoformat(),
            "fast_night_minutes": 10,
            "options": {"catastrophe_silence": "warning", "revote_tie_limit": 3},
        },
        content_type="application/json",
    )
    assert created.status_code == 201, created.content
    game_id = created.json()["game_id"]
    found = table_of(game_id)
    assert found.game.options["revote_tie_limit"] == 3 and found.table.fast_night_minutes == 10
    with time_machine.travel(starts + timedelta(seconds=5), tick=False):
        online_sweep()
        for member in players:
            online_play.online_act(game_id=game_id, user=member, event={"type": "fast"})
        table = table_of(game_id)
        assert not table.state.open and table.state.ended_by_fast
        assert table.table.deadline_at == timezone.now() + timedelta(minutes=10)
        page = site(players[0]).get(f"/online/{game_id}/").content.decode()
        fast_at = timezone.localtime(table.table.deadline_at).strftime("%H:%M")
        assert f"все зафастили: фаст-ночь в {fast_at}" in page
    bad = host.api.post(
        "/api/v1/online-games",
        {"member_ids": [m.pk for m in players], "starts_at": starts.isoformat(),
         "options": {"catastrophe_silence": "shout"}},
        content_type="application/json",
    )  # fmt: skip
    assert bad.status_code == 422 and "catastrophe_silence" in bad.content.decode()


def test_the_hosts_form_offers_the_readings_with_their_defaults() -> None:
    host = make_host()
    members = [make_member() for _ in range(10)]
    form = site(host).get("/online/new/").content.decode()
    assert 'name="revote_tie_limit" value="0"' in form
    assert 'name="check_departed" value="1" checked' in form
    starts = timezone.localtime(timezone.now() + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M")
    made = site(host).post(
        "/online/new/",
        {"members": [m.pk for m in members], "starts_at": starts, "fast_night_minutes": "10",
         "check_departed": "0", "two_leave_limit": "day"},
    )  # fmt: skip
    assert made.status_code == 302
    game = table_of(int(made["Location"].strip("/").split("/")[-1])).game
    assert game.options["check_departed"] is False and game.options["two_leave_limit"] == "day"
    assert game.options["revote_tie_limit"] == 0


def test_a_members_age_is_counted_on_the_clubs_date() -> None:
    """The start is a moment; the club's date of it decides the 21st birthday, not the
    server's."""
    Club.objects.update(timezone="Asia/Vladivostok")  # UTC+10
    Club.forget_cached()
    host = make_host()
    members = [make_member() for _ in range(9)]
    starts = timezone.now().replace(hour=20, minute=0, second=0, microsecond=0) + timedelta(days=1)
    # 20:00 UTC is already the next day in Vladivostok: the member turns 21 that day.
    birthday = (starts + timedelta(hours=10)).date()
    young = make_member(birth_date=date(birthday.year - 21, birthday.month, birthday.day))
    game = online_play.online_game_create(
        host=host, member_ids=[*(m.pk for m in members), young.pk], starts_at=starts
    )
    assert game.seats.count() == 10


def test_the_bots_online_card_shows_who_votes_whom(day_one: DayOne) -> None:
    from bot.cards import online_card

    game, _host, members, _roles = day_one
    online_play.online_act(game_id=game.pk, user=members[3], event={"type": "vote", "target": 2})
    online_play.online_act(game_id=game.pk, user=members[4], event={"type": "vote", "target": 2})
    online_play.online_act(
        game_id=game.pk, user=members[1], event={"type": "vote", "target": "pass"}
    )
    text, _buttons = online_card(game.pk, members[1])
    assert f"🗳 2. {members[2].nickname}: 2 ← 3, 4" in text
    assert "🗳 ПАС: 1 ← 1" in text
    assert "Ваш следующий голос — окончательный: это ваша единственная смена за день." in text


def test_ten_players_through_the_site_the_api_and_the_sweep_tie_three_twice(online: Online) -> None:  # noqa: F811
    """«Если лидеров 3 то заново»: a tie of three at ten alive is revoted; the revote ties
    the three again twice (once closed by the host, once by the round's deadline), then the
    third revote, complete, closes itself and hangs one; the night follows."""
    host, _players, seats, game_id, starts = online
    by_site = {n: site(p.member) for n, (_r, p) in seats.items() if n % 2}  # odd seats: the site

    def act(seat: int, **event: object) -> None:
        if seat in by_site:
            answer = by_site[seat].post(f"/online/{game_id}/act/", event, headers=HTMX)
            assert answer.status_code == 200, answer.content.decode()[:400]
        else:
            seats[seat][1].act(game_id, 200, **event)

    civilians = [n for n, _p in by_role(seats, "civilian")]
    x, y, z = civilians[:3]
    others = [n for n in seats if n not in (x, y, z)]  # seven voters in the rounds
    with time_machine.travel(starts + timedelta(seconds=1), tick=False):
        assert online_sweep() == 1
        for index, voter in enumerate(sorted(seats)):
            act(voter, type="vote", target=(x, y, z)[index % 3] if index < 9 else "pass")
        view = host.view(game_id)
        assert view["tally"][str(x)] == view["tally"][str(y)] == view["tally"][str(z)]
        host_site = site(host.member)
        closed = host_site.post(f"/online/{game_id}/act/", {"type": "day_end"}, headers=HTMX)
        assert closed.status_code == 200
        assert catastrophe_of(table_of(game_id).state).tied == [x, y, z]

        def split_round() -> None:
            """The tied post; six voters split two, two, two; the seventh is silent."""
            act(x, type="post", text="Не я")
            act(y, type="post", text="И не я")
            for voter, target in zip(others[:6], (x, x, y, y, z, z), strict=True):
                act(voter, type="revote", target=str(target) if voter in by_site else target)

        split_round()
        assert host.act(game_id, type="day_end")["catastrophe"] == {
            "tied": [x, y, z],
            "question": False,
        }

    round_deadline = deadline_of(game_id)
    with time_machine.travel(round_deadline - timedelta(minutes=1), tick=False):
        split_round()
    with time_machine.travel(round_deadline + timedelta(seconds=1), tick=False):
        assert online_sweep() == 1  # the round's deadline: tied again, a third round
        state = table_of(game_id).state
        assert catastrophe_of(state).tied == [x, y, z] and not state.eliminated
        act(x, type="post", text="Последний шанс")
        act(y, type="post", text="…")
        act(z, type="post", text="…")
        for voter, target in zip(others, (y, y, y, y, x, z, x), strict=True):
            act(voter, type="revote", target=str(target) if voter in by_site else target)
        # Everyone posted and voted: the round closed itself, y left, the night began.
        view = host.view(game_id)
        assert [e["seat"] for e in view["eliminated"]] == [y]
        assert (view["phase"], view["n"], view["open"]) == ("night", 1, True)
        page = site(seats[x][1].member).get(f"/online/{game_id}/").content.decode()
        assert page.count("Катастрофа: переголосование между") == 3
        nick = seats[y][1].member.nickname
        assert f'Уходит по голосованию: <strong translate="no">{y}. {nick}</strong>' in page


def test_the_hosts_form_does_not_offer_the_host_a_seat() -> None:
    host, member = make_host(), make_member()
    form = site(host).get("/online/new/").content.decode()
    assert f'name="members" value="{host.pk}"' not in form
    assert f'name="members" value="{member.pk}"' in form
