"""An online game of ten players driven through the API and the phase sweep, from the deal
to the town's win: a catastrophe on day 1, a misfire night, a fast night, a kill, and the
host's moderation; then the same analysis as a live game."""

from datetime import datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from accounts.models import NotifyBy, User
from accounts.services import api_token_create
from games.models import Game, Seat
from games.online.sweep import online_sweep
from games.ratings import analysis
from games.ratings.models import GameAnalysis
from notifications.models import Notification, NotificationChannel
from notifications.services import email_fallback
from tests.factories import make_member
from tests.games.recording import make_host
from tests.responses import Response

pytestmark = pytest.mark.django_db


class Player:
    def __init__(self, member: User) -> None:
        self.member = member
        self.api = Client(
            headers={"Authorization": f"Bearer {api_token_create(member=member).key}"}
        )

    def act(self, game_id: int, expect: int = 200, **event: object) -> Any:
        answer = self.api.post(
            f"/api/v1/online-games/{game_id}/actions", event, content_type="application/json"
        )
        assert answer.status_code == expect, answer.content
        return answer.json()

    def view(self, game_id: int) -> dict[str, Any]:
        seen: dict[str, Any] = self.api.get(f"/api/v1/online-games/{game_id}").json()
        return seen


# The host, the ten players, the seats (number: role and player), the game's id and start.
type Online = tuple[Player, list[Player], dict[int, tuple[str, Player]], int, datetime]


@pytest.fixture
def online() -> Online:
    """A game of ten players who play it in Telegram (each told every step there)."""
    return online_game([Player(make_member(telegram_id=7000 + n)) for n in range(10)])


def online_game(players: list[Player]) -> Online:
    host = Player(make_host())
    starts = timezone.now() + timedelta(minutes=40)
    created = host.api.post(
        "/api/v1/online-games",
        {
            "member_ids": [p.member.pk for p in players],
            "starts_at": starts.isoformat(),
            "day_minutes": 60,
            "night_minutes": 30,
        },
        content_type="application/json",
    )
    assert created.status_code == 201, created.content
    game_id = created.json()["game_id"]
    by_member = {p.member.pk: p for p in players}
    seats = {
        s.number: (s.role, by_member[s.player.pk])
        for s in Seat.objects.filter(game_id=game_id).select_related("member")
    }
    return host, players, seats, game_id, starts


def by_role(seats: dict[int, tuple[str, Player]], role: str) -> list[tuple[int, Player]]:
    return [(n, p) for n, (r, p) in sorted(seats.items()) if r == role]


def test_an_online_game_from_the_deal_to_the_towns_win(online: Online) -> None:
    host, _players, seats, game_id, starts = online
    ((don_seat, don),) = by_role(seats, "don")
    mafia = by_role(seats, "mafia")
    ((com_seat, commissar),) = by_role(seats, "commissar")
    civilians = by_role(seats, "civilian")

    # The deal: each player knows their own role only; the mafia know each other.
    assert (
        Notification.objects.filter(dedupe_key__startswith=f"online:{game_id}:deal:").count() == 10
    )
    civilian_view = civilians[0][1].view(game_id)
    assert [s["role"] for s in civilian_view["seats"] if s["role"]] == ["civilian"]
    assert civilian_view["my_role"] == "civilian" and civilian_view["mafia_chat"] is None
    mafia_roles = {s["seat"]: s["role"] for s in don.view(game_id)["seats"] if s["role"]}
    assert set(mafia_roles) == {don_seat, *(n for n, _p in mafia)}
    assert Client().get(f"/api/v1/online-games/{game_id}").status_code == 401
    assert Player(make_member()).api.get(f"/api/v1/online-games/{game_id}").status_code == 403

    # The mafia's chat opens 30 minutes before the start.
    def chat(who: Player) -> Response:
        return who.api.post(
            f"/api/v1/online-games/{game_id}/mafia-chat",
            {"text": "Стреляем в 7"},
            content_type="application/json",
        )

    assert chat(don).status_code == 409  # 40 minutes before: not yet (`conflict`)
    with time_machine.travel(starts - timedelta(minutes=10)):
        assert chat(don).status_code == 200
        assert chat(civilians[0][1]).status_code == 403
    assert mafia[0][1].view(game_id)["mafia_chat"][0]["text"] == "Стреляем в 7"

    with time_machine.travel(starts + timedelta(seconds=1), tick=False):
        assert online_sweep() == 1
        view = host.view(game_id)
        assert (view["phase"], view["n"], view["open"]) == ("day", 1, True)

        # Day 1: a tie of two at ten alive → «hang all / pardon all».
        a, b = civilians[0][0], civilians[1][0]
        voters = [n for n in seats if n not in (a, b)]
        for index, voter in enumerate(voters):
            seats[voter][1].act(game_id, type="vote", target=a if index % 2 else b)
        seats[a][1].act(game_id, type="vote", target="pass")
        seats[b][1].act(game_id, type="vote", voter=a, target="pass")  # the voter is b, always
        assert host.view(game_id)["votes"][str(b)] == "pass"
        seats[voters[0]][1].act(game_id, type="vote", target=a)  # the change
        seats[voters[0]][1].act(game_id, 422, type="vote", target=b)  # final already
        seats[voters[0]][1].act(game_id, 403, type="day_end")  # the host's
        # Back to a tie: voters[0] moved from b to a, so one more moves from a to b.
        seats[voters[1]][1].act(game_id, type="vote", target=b)
        tally = host.view(game_id)["tally"]
        assert tally[str(a)] == tally[str(b)]
        state = host.act(game_id, type="day_end")
        assert state["catastrophe"] == {"tied": [a, b], "question": True}
        seats[a][1].act(game_id, type="post", text="Я мирный")
        seats[a][1].act(game_id, 422, type="post", text="ещё раз")
        for voter in voters:
            seats[voter][1].act(game_id, type="revote", target="pardon_all")
        after = host.act(game_id, type="day_end")
        assert (after["phase"], after["n"], after["open"]) == ("night", 1, True)
        assert after["eliminated"] == []

        # Night 1: the mafia disagree → a misfire; the checks answer privately.
        don.act(game_id, type="shot", target=civilians[2][0])
        for _n, mafioso in mafia:
            mafioso.act(game_id, type="shot", target=civilians[3][0])
        civilians[0][1].act(game_id, 403, type="com_check", target=don_seat)
        checked = commissar.act(game_id, type="com_check", target=don_seat)
        assert checked["my_checks"] == [
            {"by": com_seat, "target": don_seat, "result": "black", "answer": "чёрный"}
        ]
        assert (
            don.act(game_id, type="don_check", target=com_seat)["my_checks"][0]["result"]
            == "commissar"
        )
        assert (
            "my_checks" in civilians[0][1].view(game_id)
            and not civilians[0][1].view(game_id)["my_checks"]
        )
        answer = Notification.objects.get(
            dedupe_key=f"online:{game_id}:check:1:com_check:{commissar.member.pk}"
        )
        assert "чёрный" in answer.text

    with time_machine.travel(starts + timedelta(minutes=31), tick=False):
        assert online_sweep() == 1  # the night's deadline: closed, day 2 begins
        view = host.view(game_id)
        assert (view["phase"], view["n"], view["eliminated"]) == ("day", 2, [])
        assert Notification.objects.filter(text__contains="промахнулась").exists()

        # Day 2: everyone fasts but the one under the vote → the fast night comes in 5 min.
        target = civilians[2][0]
        for n in seats:
            if n != target:
                seats[n][1].act(game_id, type="vote", target=target)
        for n in seats:
            if n != target:
                view = seats[n][1].act(game_id, type="fast")
        assert view["outcome"] == "fast" and not view["open"]
        assert [e["seat"] for e in view["eliminated"]] == [target]
        assert view["eliminated"][0]["revealed"] is False  # roles closed until the end
        assert online_sweep() == 0  # the night is 5 minutes away

    with time_machine.travel(starts + timedelta(minutes=37), tick=False):
        assert online_sweep() == 1
        assert host.view(game_id)["phase"] == "night"
        victim = civilians[3][0]
        for _n, mafioso in [(don_seat, don), *mafia]:
            mafioso.act(game_id, type="shot", target=victim)
        host.act(game_id, type="extend", minutes=15)
        host.act(game_id, type="night_end")
        view = host.view(game_id)
        assert (view["phase"], view["n"]) == ("day", 3)
        assert [e["seat"] for e in view["eliminated"]][-1] == victim

        # The host moderates: three warnings remove a player; modkills end the mafia.
        for _ in range(3):
            host.act(game_id, type="warning", seat=civilians[4][0], reason="«честно»")
        host.act(game_id, type="modkill", seat=don_seat, reason="inactive")
        for n, _mafioso in mafia:
            view = host.act(game_id, type="modkill", seat=n)
        assert (view["status"], view["winner"]) == ("finished", "red")
        removals = Notification.objects.filter(text__startswith="Ведущий удаляет из игры")
        assert (
            removals.filter(member=civilians[0][1].member).count() == 4
        )  # the warnings' removal and 3 modkills
        assert Notification.objects.filter(text__contains="окончена: побеждает город").count() == 10
        assert all(s["role"] for s in civilians[0][1].view(game_id)["seats"])  # revealed now

    # The same analysis as a live game; the game is published once it ends.
    analysis.game_analysis_build(game_id=game_id)
    analysis.ratings_replay()
    assert GameAnalysis.objects.filter(game_id=game_id).exists()
    published = Client().get(f"/api/v1/games/{game_id}/analysis").json()
    commissar_score = next(s for s in published["scores"] if s["seat"] == com_seat)
    assert {line["code"] for line in commissar_score["lines"]} >= {"win", "check_found_black"}
    assert Game.objects.get(pk=game_id).finished
    page = Client().get(f"/games/{game_id}/")
    assert page.status_code == 200 and 'id="analysis"' in page.content.decode()
    assert "Модкилл" in page.content.decode() and "повесить всех" not in page.content.decode()
    assert "помиловать всех" in page.content.decode()  # day 1's catastrophe, in words
    # The live game's doors do not take an online game.
    assert host.api.get(f"/api/v1/games/{game_id}").status_code == 404
    record = host.api.post(
        f"/api/v1/games/{game_id}/events",
        {"type": "vote", "voter": 1, "target": 2},
        content_type="application/json",
    )
    assert record.status_code in (404, 422)


def test_a_running_online_games_public_page_leads_to_its_table(online: Online) -> None:
    _host, _players, seats, game_id, _starts = online
    player = seats[1][1].member
    client = Client()
    client.force_login(player)
    assert client.get(f"/games/{game_id}/")["Location"] == f"/online/{game_id}/"


def test_only_hosts_create_online_games_and_for_ten_members() -> None:
    member = Player(make_member())
    host = Player(make_host())
    others = [make_member().pk for _ in range(10)]
    body = {"member_ids": others, "starts_at": timezone.now().isoformat()}
    assert (
        member.api.post("/api/v1/online-games", body, content_type="application/json").status_code
        == 403
    )
    short = {**body, "member_ids": others[:9]}
    assert (
        host.api.post("/api/v1/online-games", short, content_type="application/json").status_code
        == 422
    )
    twice = {**body, "member_ids": [*others[:9], others[0]]}
    assert (
        host.api.post("/api/v1/online-games", twice, content_type="application/json").status_code
        == 422
    )


def test_a_member_told_by_email_gets_two_letters_a_game_not_one_per_phase() -> None:
    """Email carries an online game's deal and its end, each with the game's link; every
    step between goes to Telegram only (games/online/announce.py's BY_EMAIL)."""
    by_email = [make_member() for _ in range(4)]
    in_telegram = [make_member(telegram_id=7100 + n) for n in range(5)]
    both = make_member(telegram_id=7200, notify_by=NotifyBy.BOTH)
    members = [*by_email, *in_telegram, both]
    host, _players, seats, game_id, starts = online_game([Player(m) for m in members])
    with time_machine.travel(starts + timedelta(seconds=1), tick=False):
        assert online_sweep() == 1
        for _day in range(2):  # two days and nights with nobody out, then the end
            host.act(game_id, type="day_end")
            host.act(game_id, type="night_end")
        for n, _mafioso in by_role(seats, "don") + by_role(seats, "mafia"):
            view = host.act(game_id, type="modkill", seat=n)
        assert view["status"] == "finished"
    prefix = f"online:{game_id}:"
    rows = Notification.objects.filter(dedupe_key__startswith=prefix)
    link = f"/online/{game_id}/"

    def letters(member: User) -> list[str]:
        mine = rows.filter(member=member, channel=NotificationChannel.EMAIL).order_by("pk")
        for letter in mine:
            assert any(link in button["url"] for row in letter.buttons for button in row)
        return [
            key.removeprefix(prefix).split(":")[0]
            for key in mine.values_list("dedupe_key", flat=True)
        ]

    for member in by_email:
        assert letters(member) == ["deal", "end"]
        assert rows.filter(member=member).count() == 2  # no Telegram row either
    assert letters(both) == ["deal", "end"]
    for member in [*in_telegram, both]:
        # Every step in Telegram: the deal, 3 days and 2 nights begun, 4 outcomes, three
        # removals, the end: 14 (and a night's turn each night, for a role with one).
        told = rows.filter(member=member, channel=NotificationChannel.TELEGRAM)
        assert told.count() >= 14
        assert not letters(member) or member == both
    # A Telegram row of a step never turns into a letter when Telegram cannot take it; the
    # deal's does (the member on the default choice, with an address).
    step = rows.get(dedupe_key=f"{prefix}phase:night:1:{in_telegram[0].pk}")
    assert email_fallback(step) is None
    deal = rows.filter(member=in_telegram[0], dedupe_key__contains=":deal:").get()
    assert email_fallback(deal) is not None


def test_the_hosts_reason_names_a_player_by_seat_not_by_nickname() -> None:
    """A modkill's or a warning's reason is screened as a live game's (games/reasons.py):
    a player's nickname in any form is refused, and nothing is recorded; «место 4» is fine."""
    fox = make_member(nickname="Лиса")
    host, _players, seats, game_id, starts = online_game(
        [Player(fox), *(Player(make_member()) for _ in range(9))]
    )
    fox_seat = next(n for n, (_role, p) in seats.items() if p.member == fox)
    other = next(n for n in seats if n != fox_seat)
    with time_machine.travel(starts + timedelta(seconds=1), tick=False):
        assert online_sweep() == 1
        before = Game.objects.get(pk=game_id).last_seq
        refused = host.act(game_id, expect=422, type="warning", seat=other, reason="перебивал Лису")
        assert refused["code"] == "invalid"
        assert f"{fox_seat}" in refused["detail"]
        assert Game.objects.get(pk=game_id).last_seq == before
        # A reason past the shape's 200 characters is refused for its length before any
        # name is looked for: the screening's cost is bounded whatever is sent.
        long = host.act(
            game_id, expect=422, type="warning", seat=other, reason="word " * 3_000 + "Лису"
        )
        assert "Лис" not in long["detail"]
        host.act(game_id, type="warning", seat=other, reason=f"перебивал место {fox_seat}")
        assert Game.objects.get(pk=game_id).last_seq == before + 1
