"""The group's line-up is one living message per evening (#20): a burst of a hundred
sign-ups posts it once and then edits it in place, at most one edit every few seconds and
within the group's twenty messages a minute, through a real worker on Redis and the fake
Bot API over HTTP; it ends with the whole line-up and the reserve."""

from __future__ import annotations

import itertools

import pytest
from pytest_django import Settings

from accounts.models import User
from club import services
from club.announcements import LINEUP_PAUSE
from club.kernel.clubs import Club
from club.models import RegistrationSource
from notifications.models import Notification, NotificationStatus
from tests.factories import make_evening, make_member
from tests.fake_telegram import Call, FakeTelegram
from tests.waiting import wait_for

pytestmark = pytest.mark.django_db(transaction=True)
GROUP = -1001234


@pytest.mark.usefixtures("celery_worker_on_redis", "migration_rows")
def test_a_burst_of_sign_ups_edits_one_message_within_the_group_limit(
    fake_telegram: FakeTelegram, settings: Settings
) -> None:
    settings.TELEGRAM_BOT_USERNAME = "club_bot"
    club = Club.current()  # made afresh: a transactional test's flush took the row
    club.telegram_group_chat_id = GROUP
    club.save()
    evening = make_evening(capacity=15)
    members = [make_member() for _ in range(100)]
    last = members[-1].nickname

    def sign_up(batch: list[User]) -> None:
        for member in batch:
            services.registration_create(
                member=member, evening_id=evening.pk, source=RegistrationSource.WEB
            )

    def to_group(method: str) -> list[Call]:
        return [
            c
            for c in fake_telegram.calls
            if c.params.get("chat_id") == GROUP and c.method == method
        ]

    def settled() -> bool:
        """The group's message reads the whole line-up and nothing waits to go."""
        group = [c for c in fake_telegram.calls if c.params.get("chat_id") == GROUP]
        waiting = Notification.objects.filter(
            chat_id=GROUP, status__in=[NotificationStatus.PENDING, NotificationStatus.SENDING]
        )
        return bool(group) and last in group[-1].params["text"] and not waiting.exists()

    # The burst when sign-up opens, in waves that meet the message at each stage: the
    # first sign-up posts it; the next wave arrives while it is out, and is an edit; the
    # rest arrive while that edit waits its turn, and make one more.
    sign_up(members[:1])
    assert wait_for(lambda: bool(to_group("sendMessage")), timeout=30)
    sign_up(members[1:50])
    assert wait_for(lambda: bool(to_group("editMessageText")), timeout=30)
    sign_up(members[50:])
    assert wait_for(settled, timeout=60), [c.method for c in fake_telegram.calls]

    group = [c for c in fake_telegram.calls if c.params.get("chat_id") == GROUP]
    posts = [c for c in group if c.method == "sendMessage"]
    edits = [c for c in group if c.method == "editMessageText"]
    assert len(posts) == 1  # posted once...
    assert edits and {c.params["message_id"] for c in edits} == {1}  # ...then edited in place
    moments = [c.at for c in group]
    gaps = [later - earlier for earlier, later in itertools.pairwise(moments)]
    assert min(gaps) >= LINEUP_PAUSE.total_seconds() - 0.2  # one edit every few seconds
    for start in moments:  # never more than twenty in a minute
        assert sum(1 for at in moments if start <= at < start + 60) <= 20
    final = group[-1].params["text"]
    assert all(f"{n}. {m.nickname}" in final for n, m in enumerate(members[:15], start=1))
    assert f"Резерв: {members[15].nickname}" in final and last in final
    # The group's link opens the club's app on this evening.
    (row,) = group[-1].params["reply_markup"]["inline_keyboard"]
    assert row[0]["url"] == f"https://t.me/club_bot?startapp=evening-{evening.pk}"
