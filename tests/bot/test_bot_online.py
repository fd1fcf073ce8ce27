"""The online game in the bot: /online shows the game with the buttons of one's turn, the
buttons act through the same services, /say posts in the day's thread."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone
from pytest_django import Settings

from accounts.models import User
from games.models import Game, Seat
from games.online import services as online_play
from games.online.sweep import online_sweep
from notifications.models import Notification
from tests.bot.test_webhook import SECRET, button, message, post
from tests.factories import make_member
from tests.games.online.tables import table_of
from tests.games.recording import make_host

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _webhook_secret(settings: Settings) -> None:
    settings.TELEGRAM_WEBHOOK_SECRET = SECRET


# A running online game on day 1 and its seats by role.
type Running = tuple[Game, dict[str, Seat]]


@pytest.fixture
def running() -> Running:
    members = [make_member(telegram_id=50_000 + n) for n in range(10)]
    starts = timezone.now() + timedelta(minutes=1)
    game = online_play.online_game_create(
        host=make_host(), member_ids=[m.pk for m in members], starts_at=starts
    )
    with time_machine.travel(starts + timedelta(seconds=1)):
        online_sweep()
    seats = {s.role: s for s in Seat.objects.filter(game=game).select_related("member")}
    return game, seats


def telegram_id(member: User) -> int:
    """The member's Telegram id: every member of the game has one."""
    assert member.telegram_id is not None
    return member.telegram_id


def last_reply(telegram_id: int) -> Notification:
    reply = Notification.objects.filter(chat_id=telegram_id).order_by("-pk").first()
    assert reply is not None, f"nothing was sent to {telegram_id}"
    return reply


def test_online_shows_the_day_with_vote_pass_and_fast_buttons(running: Running) -> None:
    game, seats = running
    civilian = seats["civilian"].player
    post(message("/online", user_id=telegram_id(civilian)))
    card = last_reply(telegram_id(civilian))
    assert "Онлайн-игра" in card.text and "День 1" in card.text
    data = [b["callback_data"] for row in card.buttons for b in row]
    assert f"ov:{game.pk}:pass" in data and f"of:{game.pk}:1" in data
    assert len([d for d in data if d.startswith("ov:")]) == 11  # ten seats and PASS


def test_a_vote_button_votes_for_the_members_own_seat(running: Running) -> None:
    game, seats = running
    voter = seats["commissar"]
    don = seats["don"]
    answer = post(button(f"ov:{game.pk}:{don.number}", user_id=telegram_id(voter.player)))
    assert answer.json()["text"] == (
        f"Ваш голос: {don.number}. {don.player.nickname}. Сменить его можно один раз за день."
    )
    state = table_of(game.pk).state
    assert state.votes == {voter.number: don.number}
    # The second vote spends the one change, and says so.
    answer = post(button(f"ov:{game.pk}:pass", user_id=telegram_id(voter.player)))
    assert answer.json()["text"] == (
        "Ваш голос теперь: ПАС. Смена голоса использована — этот голос окончательный."
    )


def test_a_refused_action_answers_with_the_engines_reason(running: Running) -> None:
    game, seats = running
    civilian = seats["civilian"].player
    answer = post(button(f"oc:{game.pk}:1", user_id=telegram_id(civilian)))
    assert answer.json()["text"] == "Эта проверка — не ваша."


def test_say_posts_in_the_days_thread(running: Running) -> None:
    game, seats = running
    civilian = seats["civilian"]
    post(message("/say Я мирный, честно", user_id=telegram_id(civilian.player)))
    found = table_of(game.pk)
    assert [(e["seat"], e["text"]) for e in found.events if e["type"] == "post"] == [
        (civilian.number, "Я мирный, честно")
    ]
