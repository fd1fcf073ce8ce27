"""The outbox with a bot per club (#41, item 5): each club's messages go through its own
bot, from a worker in the club's scope; a 429 pauses only the bot it was answered to; and a
hundred clubs' messages queued at once go out side by side, each bot within its own pace.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from bot.process import process_update
from club.kernel.clubs import Club
from club.kernel.tenancy import club_scope, first_club_id, scoped_club_id
from club.models import Registration
from games.ratings import analysis, publication
from notifications import ratelimit, tasks
from notifications.models import Notification, NotificationStatus, TelegramBlock
from notifications.sender import notification_deliver
from notifications.telegram import process_bot
from tests.factories import make_evening, make_member
from tests.fake_telegram import FakeTelegram
from tests.games.recording import TOWN_WINS, evening_with_players, make_host, record, start_game
from tests.waiting import TaskDone

B_TOKEN, B_SECRET = "654321:club-b-token", "b-webhook-secret"


def club_b(server: FakeTelegram, **fields: Any) -> Club:
    server.add_bot(B_TOKEN, "b_club_bot")
    return Club.objects.create(
        slug="b",
        name="B",
        telegram_bot_token=B_TOKEN,
        telegram_bot_username="b_club_bot",
        telegram_webhook_secret=B_SECRET,
        **fields,
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("celery_worker_on_redis")
def test_a_sign_up_in_club_bs_bot_is_answered_by_club_bs_bot_from_the_worker(
    fake_telegram: FakeTelegram, task_done: TaskDone
) -> None:
    """The webhook queues the message inside club B's scope; the task carries the club,
    and the worker sends it through club B's bot."""
    b = club_b(fake_telegram)
    member = make_member(telegram_id=4242)
    with club_scope(b):
        evening = make_evening(capacity=15)
    delivered = task_done("notifications.tasks.notification_send")
    response = Client().post(
        "/c/b/telegram/webhook/",
        {
            "update_id": 99001,
            "callback_query": {
                "id": "cb-e2e",
                "chat_instance": "1",
                "data": f"su:{evening.pk}",
                "from": {"id": 4242, "is_bot": False, "first_name": "Лиса"},
            },
        },
        content_type="application/json",
        headers={"x-telegram-bot-api-secret-token": B_SECRET},
    )
    assert response.json()["text"] == "Вы в игре: № 1 в списке из 15."
    assert delivered.wait(timeout=30), "the worker delivered nothing"
    assert Registration.all_clubs.get(member=member).club_id == b.pk
    note = Notification.all_clubs.get(member=member)
    assert (note.club_id, note.status, note.chat_id) == (b.pk, "sent", 4242)
    (call,) = fake_telegram.sent()
    assert call.token == B_TOKEN and call.params["chat_id"] == 4242
    assert not fake_telegram.sent(fake_telegram.token)


@pytest.mark.django_db
def test_the_analysis_of_club_bs_game_goes_to_club_bs_group_through_club_bs_bot(
    fake_telegram: FakeTelegram,
) -> None:
    a = Club.objects.get(pk=first_club_id())
    a.telegram_group_chat_id = -100111
    a.save()
    b = club_b(fake_telegram, telegram_group_chat_id=-100222)
    with club_scope(b):
        host = make_host()
        evening, players = evening_with_players()
        game = start_game(host, evening, players)
        record(game, host, *TOWN_WINS)
        analysis.game_analysis_build(game_id=game.pk)
        post_id = publication.game_post_sync(game_id=game.pk)
        assert post_id is not None
        assert notification_deliver(post_id).status == "sent"
    (post,) = fake_telegram.sent()
    assert (post.token, post.params["chat_id"]) == (B_TOKEN, -100222)
    assert not Notification.all_clubs.filter(chat_id=-100111).exists()


@pytest.mark.django_db
def test_a_429_pauses_only_the_bot_it_was_answered_to(fake_telegram: FakeTelegram) -> None:
    b = club_b(fake_telegram)
    with club_scope(b):
        b_first = Notification.objects.create(dedupe_key="b1", chat_id=7001, text="B")
        b_second = Notification.objects.create(dedupe_key="b2", chat_id=7002, text="B")
    a = Club.objects.get(pk=first_club_id())
    with club_scope(a):
        a_row = Notification.objects.create(dedupe_key="a1", chat_id=7003, text="A")
    fake_telegram.fail_next(429, retry_after=30)
    with club_scope(b):
        assert notification_deliver(b_first.pk).status == "pending"
    # Club A's bot was not told to wait: its message goes at once.
    with club_scope(a):
        assert notification_deliver(a_row.pk).status == "sent"
    with club_scope(b):
        outcome = notification_deliver(b_second.pk)
    assert outcome.status == "pending" and outcome.retry_in is not None and outcome.retry_in > 29
    calls = fake_telegram.send_calls()
    assert [(c.token, c.status) for c in calls] == [(B_TOKEN, 429), (fake_telegram.token, 200)]


@pytest.mark.django_db
def test_the_catch_up_visits_every_club_and_queues_in_its_scope(
    fake_telegram: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    b = club_b(fake_telegram)
    with club_scope(first_club_id()):
        Notification.objects.create(dedupe_key="a", chat_id=7101, text="A")
    with club_scope(b):
        Notification.objects.create(dedupe_key="b", chat_id=7102, text="B")
    Notification.all_clubs.update(created_at=timezone.now() - timedelta(minutes=5))
    queued: list[tuple[int, int | None]] = []
    monkeypatch.setattr(
        tasks.notification_send, "delay", lambda pk: queued.append((pk, scoped_club_id()))
    )
    tasks.notifications_catch_up()
    clubs = {pk: club for pk, club in Notification.all_clubs.values_list("pk", "club_id")}
    assert sorted(queued) == sorted(clubs.items())


# A hundred clubs' announcements at one hour. The pace is lowered to 2 messages a second a
# bot (any five of a bot's messages then span 1.5 s at least, its six 2.5 s), and the fake
# Bot API refuses a bot's fifth message within any second, as Telegram refuses a bot past
# its limit: paced per bot, not one message is refused (unpaced, each bot's six would go
# at once); one pace for all would take five minutes, and serialise the bots.
CLUBS, PER_CLUB, RATE, WORKERS = 100, 6, 2.0, 8  # the pool holds 10 connections


@pytest.mark.django_db(transaction=True)
def test_a_hundred_clubs_messages_go_out_side_by_side_each_bot_within_its_pace(
    fake_telegram: FakeTelegram, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ratelimit, "RATE", RATE)
    fake_telegram.rate_limit_per_s = RATE + 2
    clubs: list[Club] = []
    for n in range(CLUBS):
        token = fake_telegram.add_bot(f"{900000 + n}:bot-{n}", f"club{n}_bot")
        clubs.append(
            Club.objects.create(
                slug=f"club-{n}",
                name=f"Club {n}",
                telegram_bot_token=token,
                telegram_bot_username=f"club{n}_bot",
                telegram_webhook_secret=f"secret-{n}",
            )
        )
    # Queued club after club, as each club's beat task writes its announcements.
    queue: list[tuple[float, int, int, int]] = []
    order = itertools.count()
    for n, club in enumerate(clubs):
        with club_scope(club):
            for i in range(PER_CLUB):
                note = Notification.objects.create(
                    dedupe_key=f"sunday:{i}", chat_id=10_000 + n * 10 + i, text=f"Club {n}"
                )
                queue.append((0.0, next(order), club.pk, note.pk))
    heapq.heapify(queue)
    # Held to read or change the queue; a change wakes the workers that wait for one.
    changed = threading.Condition()
    outcomes: Counter[str] = Counter()
    deadline = time.monotonic() + 180

    errors: list[BaseException] = []
    busy = [0]  # messages being delivered now

    def worker() -> None:
        """A Celery worker's loop: take the next due message, deliver it in its club's
        scope, queue it again when it comes back for later (notification_send)."""
        try:
            while time.monotonic() < deadline:
                with changed:
                    if not queue and not busy[0]:
                        changed.notify_all()  # the others see the end too
                        return
                    now = time.monotonic()
                    if not queue or queue[0][0] > now:
                        # Until the next message is due, or another worker changes the queue.
                        changed.wait(timeout=queue[0][0] - now if queue else None)
                        continue
                    _due, _n, club_id, pk = heapq.heappop(queue)
                    busy[0] += 1
                with club_scope(club_id):
                    outcome = notification_deliver(pk)
                with changed:
                    busy[0] -= 1
                    outcomes[outcome.status] += 1
                    if outcome.retry_in is not None:
                        again = time.monotonic() + outcome.retry_in
                        heapq.heappush(queue, (again, next(order), club_id, pk))
                    changed.notify_all()
        except BaseException as error:
            errors.append(error)
            raise
        finally:
            process_bot.reset()
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert Notification.all_clubs.filter(status=NotificationStatus.SENT).count() == CLUBS * PER_CLUB
    assert outcomes["sent"] == CLUBS * PER_CLUB, outcomes
    assert not fake_telegram.refused  # no bot went past its limit
    sends = fake_telegram.sent()
    for n, club in enumerate(clubs):
        own = [call for call in sends if call.token == club.telegram_bot_token]
        # Through its own bot, to its own chats, and nobody else's.
        assert sorted(call.params["chat_id"] for call in own) == [
            10_000 + n * 10 + i for i in range(PER_CLUB)
        ]
    # Side by side: while the first club's bot sent its six (paced over 2.5 s at least),
    # many other clubs' bots sent theirs: the bots did not wait for each other.
    first = [call.at for call in sends if call.token == clubs[0].telegram_bot_token]
    meanwhile = {call.token for call in sends if first[0] < call.at < first[-1]} - {
        clubs[0].telegram_bot_token
    }
    assert len(meanwhile) >= 10, len(meanwhile)


@pytest.mark.django_db
def test_blocking_one_clubs_bot_leaves_the_other_clubs_bot_free_to_write(
    fake_telegram: FakeTelegram,
) -> None:
    """Telegram's 403 is one bot's: the member blocked club A's bot (or never started it),
    not club B's; and writing to club A's bot again lifts the block."""
    b = club_b(fake_telegram)
    with club_scope(first_club_id()):
        member = make_member(telegram_id=5151)
        note = Notification.objects.create(member=member, dedupe_key="a:1", text="Клуб А")
        fake_telegram.fail_next(403)
        assert notification_deliver(note.pk).status == "failed"
        later = Notification.objects.create(member=member, dedupe_key="a:2", text="Клуб А снова")
        assert notification_deliver(later.pk).status == "skipped"
    with club_scope(b):
        assert not TelegramBlock.objects.exists()
        theirs = Notification.objects.create(member=member, dedupe_key="b:1", text="Клуб Б")
        assert notification_deliver(theirs.pk).status == "sent"
    (sent,) = fake_telegram.sent()
    assert (sent.token, sent.params["text"]) == (B_TOKEN, "Клуб Б")

    with club_scope(first_club_id()):
        process_update(
            {
                "update_id": 9001,
                "message": {
                    "message_id": 1,
                    "date": 0,
                    "chat": {"id": 5151, "type": "private"},
                    "from": {"id": 5151, "is_bot": False, "first_name": "Лиса"},
                    "text": "/help",
                },
            }
        )
        assert not TelegramBlock.objects.exists()
        again = Notification.objects.create(
            member=member, dedupe_key="a:3", text="Клуб А, вы снова с нами"
        )
        assert notification_deliver(again.pk).status == "sent"
