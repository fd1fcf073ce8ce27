import pytest
from pytest_django import Settings

from club.announcements import evening_announce_signup, evening_lineup_sync
from club.kernel.clubs import Club
from notifications.models import Notification
from tests.factories import make_evening, sign_up_many

pytestmark = pytest.mark.django_db


@pytest.fixture
def group(settings: Settings) -> int:
    settings.TELEGRAM_BOT_USERNAME = "club_bot"
    club = Club.current()
    club.telegram_group_chat_id = -100123
    club.save()
    return club.telegram_group_chat_id


def test_sign_up_open_is_announced_once_with_a_button_into_the_bot(group: int) -> None:
    evening = make_evening(capacity=15)
    first = evening_announce_signup(evening_id=evening.pk)
    again = evening_announce_signup(evening_id=evening.pk)
    assert first == again
    note = Notification.objects.get()
    assert note.chat_id == group and note.text.startswith("Запись открыта!")
    assert note.buttons == [
        [{"text": "Ок, играем", "url": f"https://t.me/club_bot?start=e{evening.pk}"}],
        [
            {
                "text": "Открыть в приложении клуба",
                "url": f"https://t.me/club_bot?startapp=evening-{evening.pk}",
            }
        ],
    ]


def test_the_line_up_lists_players_and_the_reserve(group: int) -> None:
    evening = make_evening(capacity=2)
    names = [r.member.nickname for r in sign_up_many(evening, 3)]
    evening_lineup_sync(evening_id=evening.pk)
    text = Notification.objects.get(chat_id=group).text
    assert f"1. {names[0]}" in text and f"2. {names[1]}" in text
    assert f"Резерв: {names[2]}" in text


def test_without_a_group_nothing_is_announced() -> None:
    evening = make_evening()
    assert evening_announce_signup(evening_id=evening.pk) is None
    assert not Notification.objects.exists()
