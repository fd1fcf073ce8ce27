"""Who sees and does what (games/access.py), as an attacker and a careless admin would try it.

The holes it closes (#14): a superuser seated as a player saw every card and had the host's
powers; a host who seated themselves in their own online game saw all the roles, the checks
and the mafia's chat; suspended and banned members still acted in an online game. (#24):
the same seated admin read every card, the log and the protocols in Django admin, and an
admin playing an online game read the other players' dealt cards in the outbox.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from accounts.models import MembershipStatus, User
from accounts.services import api_token_create, member_set_status
from club.kernel.errors import RefusalCode, Refused
from club.models import RegistrationSource
from club.services import registration_create
from games.models import Game, GameEvent, Seat
from games.online import services as online_play
from games.online.sweep import online_sweep
from games.recordings.models import Recording
from games.rules.simulate import SAMPLE_LINEUP, SAMPLE_OPENING, SAMPLE_TOWN_WINS
from games.starting import game_create
from notifications.models import Notification
from tests.bot.test_webhook import SECRET, button, post
from tests.checks import present
from tests.factories import make_member
from tests.games.recording import evening_with_players, make_host, record, start_game

pytestmark = pytest.mark.django_db


def web(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def api(user: User) -> Client:
    return Client(headers={"Authorization": f"Bearer {api_token_create(member=user).key}"})


@pytest.fixture
def admin_at_the_table() -> tuple[Game, User, User]:
    """A live game whose seat 1 is an admin playing, hosted by someone else."""
    host = make_host(nickname="Ведущий")
    evening, players = evening_with_players(11)
    admin = make_member(nickname="Админ", is_staff=True, is_superuser=True)
    registration_create(member=admin, evening_id=evening.pk, source=RegistrationSource.WEB)
    game = start_game(host, evening, [admin, *players])
    record(game, host, {"type": "day", "n": 1})
    return game, host, admin


def test_a_seated_admin_sees_no_card_and_gets_no_host_powers(
    admin_at_the_table: tuple[Game, User, User],
) -> None:
    game, _host, admin = admin_at_the_table
    answer = api(admin).get(f"/api/v1/games/{game.pk}").json()
    assert all(seat["role"] is None for seat in answer["seats"])
    assert answer["next"]["wake"] is None
    page = web(admin).get(f"/games/{game.pk}/").content.decode()
    assert "Комиссар" not in page and "Доктор" not in page
    assert api(admin).get(f"/api/v1/games/{game.pk}/protocol").status_code == 403
    tap = api(admin).post(
        f"/api/v1/games/{game.pk}/events",
        {"type": "foul", "seat": 3, "seq": 2},
        content_type="application/json",
    )
    assert tap.status_code == 403
    upload = api(admin).post(
        f"/api/v1/games/{game.pk}/recording",
        {"name": "game.m4a", "size": 100},
        content_type="application/json",
    )
    assert upload.status_code == 403
    assert GameEvent.objects.filter(game=game).count() == 1


def test_an_admin_who_is_not_seated_keeps_the_hosts_view(
    admin_at_the_table: tuple[Game, User, User],
) -> None:
    game, _host, _admin = admin_at_the_table
    other_admin = make_member(nickname="Второй админ", is_staff=True, is_superuser=True)
    answer = api(other_admin).get(f"/api/v1/games/{game.pk}").json()
    assert [seat["role"] for seat in answer["seats"]] == list(SAMPLE_LINEUP)


def admin_cells(page: str, field: str) -> list[str]:
    """The values of one column of an admin inline, as the change page shows them."""
    return re.findall(rf'<td class="field-{field}">\s*<p>(.*?)</p>', page, re.S)


def test_a_seated_admin_sees_in_django_admin_only_what_their_seat_sees(
    admin_at_the_table: tuple[Game, User, User],
) -> None:
    game, host, admin = admin_at_the_table
    record(game, host, *SAMPLE_OPENING[1:])  # a night: checks, a shot, a heal
    page = web(admin).get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert admin_cells(page, "role") == [] and admin_cells(page, "payload") == []
    assert admin_cells(page, "card") == ["скрыта"] * 12
    assert "Вы играете в этой игре" in page and 'name="_save"' not in page
    exported = web(admin).post(
        "/admin/games/game/",
        {"action": "export_protocols", "_selected_action": [game.pk]},
        follow=True,
    )
    assert exported["Content-Type"].startswith("text/html")
    assert "ничего не выгружено" in exported.content.decode()
    assert web(admin).get(f"/admin/games/game/{game.pk}/delete/").status_code == 403
    # Nor what the recording heard, and filtering the games by a card is no way round.
    recording = Recording.objects.create(
        game=game, original_name="game.m4a", size=1, started_at=timezone.now(),
        speakers={"night": {"2": 12.5}}, transcript=[{"text": "доктор, проснись"}],
    )  # fmt: skip
    page = web(admin).get(f"/admin/recordings/recording/{recording.pk}/change/").content.decode()
    assert "field-original_name" in page and "проснись" not in page and "12.5" not in page
    assert web(admin).get("/admin/games/game/", {"seats__role": "commissar"}).status_code == 400
    # Another admin, not seated, sees it all; and so does the player once the game ends.
    other = web(make_member(nickname="Второй админ", is_staff=True, is_superuser=True))
    page = other.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert admin_cells(page, "role") == list(SAMPLE_LINEUP)
    assert len(admin_cells(page, "payload")) == len(SAMPLE_OPENING)
    heard = other.get(f"/admin/recordings/recording/{recording.pk}/change/").content.decode()
    assert "проснись" in heard
    record(game, host, *SAMPLE_TOWN_WINS[len(SAMPLE_OPENING) :])
    page = web(admin).get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert admin_cells(page, "role") == list(SAMPLE_LINEUP)
    exported = web(admin).post(
        "/admin/games/game/", {"action": "export_protocols", "_selected_action": [game.pk]}
    )
    assert [seat["role"] for seat in exported.json()["seats"]] == list(SAMPLE_LINEUP)


def test_an_admin_playing_an_online_game_sees_in_admin_only_their_seats_cards() -> None:
    admin = make_member(nickname="Админ", is_staff=True, is_superuser=True)
    members = [admin, *(make_member() for _ in range(9))]
    game = online_play.online_game_create(
        host=make_host(), member_ids=[m.pk for m in members], starts_at=timezone.now()
    )
    # Deal the admin a mafia card: the partners' cards are theirs to see, no other.
    mine = Seat.objects.get(game=game, member=admin)
    if mine.role not in ("mafia", "don"):
        partner = Seat.objects.filter(game=game, role="mafia").first()
        assert partner is not None
        Seat.objects.filter(pk=partner.pk).update(role=mine.role)
        Seat.objects.filter(pk=mine.pk).update(role="mafia")
    seats = {seat.number: seat.role for seat in Seat.objects.filter(game=game)}
    page = web(admin).get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert admin_cells(page, "role") == []
    expected = [
        role if role in ("don", "mafia") else "скрыта" for _n, role in sorted(seats.items())
    ]
    assert admin_cells(page, "card") == expected
    # The outbox: their own messages of this game, no one else's card.
    listed = web(admin).get("/admin/notifications/notification/").content.decode()
    others = Seat.objects.filter(game=game).exclude(member=admin)
    assert f"online:{game.pk}:deal:{mine.number}:{admin.pk}" in listed
    assert not [s for s in others if f"online:{game.pk}:deal:{s.number}:" in listed]
    other_admin = web(make_member(is_staff=True, is_superuser=True))
    listed = other_admin.get("/admin/notifications/notification/").content.decode()
    assert all(f"online:{game.pk}:deal:{s.number}:" in listed for s in others)
    # The bot's answer to another player's /online names their card: keyed by the update,
    # to their chat, with no member (the attack review found it listed).
    player = present(others.first()).player
    User.objects.filter(pk=player.pk).update(telegram_id=424242)
    Notification.objects.create(
        dedupe_key="reply:91:1", chat_id=424242, text="Онлайн-игра · место 2 · Комиссар"
    )
    assert "reply:91:1" not in web(admin).get("/admin/notifications/notification/").content.decode()
    assert "reply:91:1" in other_admin.get("/admin/notifications/notification/").content.decode()


def test_a_host_cannot_seat_themselves_through_any_door() -> None:
    host = make_host(nickname="Хитрый")
    evening, players = evening_with_players(11)
    registration_create(member=host, evening_id=evening.pk, source=RegistrationSource.WEB)
    table = [host, *players]
    pairs = zip(table, SAMPLE_LINEUP, strict=True)
    seats = {n: (m.pk, role) for n, (m, role) in enumerate(pairs, 1)}
    # The service…
    with pytest.raises(Refused) as refused:
        game_create(host=host, evening_id=evening.pk, seats=seats)
    assert refused.value.code == RefusalCode.INVALID
    assert refused.value.message.startswith("Ведущий игры не может в ней играть")
    # …the API…
    body = {
        "evening_id": evening.pk,
        "seats": [{"seat": n, "member_id": m, "role": r} for n, (m, r) in seats.items()],
    }
    answer = api(host).post("/api/v1/games", body, content_type="application/json")
    assert answer.status_code == 422 and answer.json()["code"] == "invalid"
    assert "Ведущий игры не может в ней играть" in answer.json()["detail"]
    # …and the seating screen.
    form = {"start": "1"} | {f"member_{n}": str(m) for n, (m, _r) in seats.items()}
    form |= {f"role_at_{n}": r for n, (_m, r) in seats.items()}
    page = web(host).post(f"/evenings/{evening.pk}/games/new/", form)
    assert page.status_code == 422
    assert not Game.objects.filter(evening=evening).exists()


def test_a_host_cannot_seat_themselves_in_an_online_game() -> None:
    host = make_host()
    others = [make_member() for _ in range(9)]
    starts = timezone.now() + timedelta(hours=1)
    body = {"member_ids": [host.pk, *(m.pk for m in others)], "starts_at": starts.isoformat()}
    answer = api(host).post("/api/v1/online-games", body, content_type="application/json")
    assert answer.status_code == 422
    page = web(host).post(
        "/online/new/",
        {"members": [str(host.pk), *(str(m.pk) for m in others)], "starts_at": "2030-01-01T19:00"},
    )
    assert page.status_code == 422
    assert not Game.objects.filter(ruleset="online").exists()


def test_a_host_seated_in_their_own_online_game_sees_only_their_seat() -> None:
    """Data from before the rule: the host sits at their own table."""
    host = make_host()
    members = [make_member() for _ in range(10)]
    game = online_play.online_game_create(
        host=host, member_ids=[m.pk for m in members], starts_at=timezone.now()
    )
    Seat.objects.filter(game=game, number=1).update(member=host)
    view = api(host).get(f"/api/v1/online-games/{game.pk}").json()
    own = Seat.objects.get(game=game, number=1).role
    shown = {seat["seat"]: seat["role"] for seat in view["seats"] if seat["role"]}
    assert shown[1] == own
    if own == "civilian":
        assert shown == {1: "civilian"}
        assert view["mafia_chat"] is None
    assert view["host"] is False
    warn = api(host).post(
        f"/api/v1/online-games/{game.pk}/actions",
        {"type": "warning", "seat": 2},
        content_type="application/json",
    )
    assert warn.status_code == 403


@pytest.fixture
def online_day() -> tuple[Game, list[Seat]]:
    members = [make_member(telegram_id=60_000 + n) for n in range(10)]
    starts = timezone.now() + timedelta(minutes=1)
    game = online_play.online_game_create(
        host=make_host(), member_ids=[m.pk for m in members], starts_at=starts
    )
    with time_machine.travel(starts + timedelta(seconds=1)):
        online_sweep()
    return game, list(Seat.objects.filter(game=game).select_related("member"))


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (MembershipStatus.SUSPENDED, "Ваше членство приостановлено"),
        (MembershipStatus.BANNED, "Этот аккаунт заблокирован."),
    ],
)
def test_suspended_and_banned_players_do_not_act_through_any_door(
    online_day: tuple[Game, list[Seat]], settings: Settings, status: MembershipStatus, message: str
) -> None:
    settings.TELEGRAM_WEBHOOK_SECRET = SECRET
    game, seats = online_day
    player = seats[0].player
    token = api_token_create(member=player).key
    member_set_status(member=player, status=status)
    before = GameEvent.objects.filter(game=game).count()
    # The bot…
    toast = post(button(f"ov:{game.pk}:pass", user_id=present(player.telegram_id))).json()
    assert message in toast["text"]
    # …the API…
    answer = Client().post(
        f"/api/v1/online-games/{game.pk}/actions",
        json.dumps({"type": "vote", "target": "pass"}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 403 and message in answer.json()["detail"]
    assert answer.json()["code"] == status  # the refusal's code names the membership's state
    # …and the page (a banned member's session no longer logs them in).
    page = web(player).post(f"/online/{game.pk}/act/", {"type": "vote", "target": "pass"})
    assert page.status_code in (302, 403)
    assert GameEvent.objects.filter(game=game).count() == before
