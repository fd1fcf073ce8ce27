from collections.abc import Iterator

import pytest

from notifications.telegram import process_bot
from tests.fake_telegram import FakeTelegram


@pytest.fixture
def fake_telegram(settings) -> Iterator[FakeTelegram]:
    """The bot pointed at a fake Bot API server on this machine, for the test's length."""
    server = FakeTelegram().start()
    settings.TELEGRAM_BOT_TOKEN = server.token
    settings.TELEGRAM_API_BASE_URL = server.url
    settings.TELEGRAM_CONSOLE_MODE = False
    process_bot.reset()
    yield server
    process_bot.reset()
    server.stop()
