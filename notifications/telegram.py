"""The Bot API client: python-telegram-bot makes every call, and `failure_of` says what
each of its errors means for a message (the one place that reads them).

A `Bot` holds an httpx client bound to the event loop it was first used on, so each process
keeps its own loop and its own Bot per token (a Celery prefork worker forks after import:
the pid check makes every child build its own). Nothing is shared across loops or processes.

Each club speaks through its own bot (club/kernel/bots.py): a call is made with the token of
the club in scope unless a command names another.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum
from typing import Any, TypeVar

from django.conf import settings
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram import error as tg
from telegram.request import HTTPXRequest

from club.kernel.bots import club_bot

T = TypeVar("T")


class FailureKind(StrEnum):
    RETRY_AFTER = "retry_after"  # 429: the bot's flood limit; everything waits `retry_after`
    CHAT_MIGRATED = "chat_migrated"  # the group became a supergroup: `new_chat_id`
    BLOCKED = "blocked"  # 403: the member blocked the bot (or never started it)
    PERMANENT = "permanent"  # chat not found, a malformed message, a wrong token
    TRANSIENT = "transient"  # network errors, timeouts and 5xx answers: try again


@dataclass(frozen=True)
class Failure:
    kind: FailureKind
    message: str  # the error as Telegram (or the network) put it
    retry_after: float = 0.0  # seconds, for RETRY_AFTER
    new_chat_id: int = 0  # for CHAT_MIGRATED


def failure_of(error: tg.TelegramError) -> Failure:
    """What an error of python-telegram-bot means for a message. BadRequest is a
    NetworkError in its hierarchy, so the permanent ones are named before the rest."""
    message = str(error)
    if isinstance(error, tg.RetryAfter):
        retry_after = error.retry_after
        seconds = retry_after.total_seconds() if isinstance(retry_after, timedelta) else retry_after
        return Failure(FailureKind.RETRY_AFTER, message, retry_after=float(seconds))
    if isinstance(error, tg.ChatMigrated):
        return Failure(FailureKind.CHAT_MIGRATED, message, new_chat_id=error.new_chat_id)
    if isinstance(error, tg.Forbidden):
        return Failure(FailureKind.BLOCKED, message)
    if isinstance(error, tg.BadRequest | tg.InvalidToken | tg.EndPointNotFound):
        return Failure(FailureKind.PERMANENT, message)
    return Failure(FailureKind.TRANSIENT, message)


def api_base_url() -> str:
    """The Bot API root; TELEGRAM_API_BASE_URL points the bot at another server (tests)."""
    root = (settings.TELEGRAM_API_BASE_URL or "https://api.telegram.org").rstrip("/")
    return f"{root}/bot"


def keyboard(rows: list[list[dict[str, str]]]) -> InlineKeyboardMarkup | None:
    if not rows:
        return None
    return InlineKeyboardMarkup([[_button(button) for button in row] for row in rows])


def _button(button: dict[str, str]) -> InlineKeyboardButton:
    """A stored button: its text and one of callback_data, url or web_app (the address of
    a Mini App page, opened inside Telegram; private chats only)."""
    web_app = WebAppInfo(button["web_app"]) if button.get("web_app") else None
    return InlineKeyboardButton(
        button["text"],
        callback_data=button.get("callback_data"),
        url=button.get("url"),
        web_app=web_app,
    )


class _ProcessBot(threading.local):
    """One event loop per process (per thread, for a worker pool of threads) and one Bot
    per token on it, made at first use: a loop runs one call at a time."""

    def __init__(self) -> None:
        self._pid: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._bots: dict[str, Bot] = {}
        # One connection pool for every club's bot (each would otherwise make its own, and
        # its TLS context, a hundred times over): all speak to the same Bot API.
        self._requests: tuple[HTTPXRequest, HTTPXRequest] | None = None

    def run(self, call: Callable[[Bot], Awaitable[T]], *, token: str | None = None) -> T:
        """Make `call` with the bot of `token`; by default the bot of the club in scope."""
        token = token if token is not None else club_bot().token
        if self._pid != os.getpid() or self._loop is None or self._loop.is_closed():
            self._pid = os.getpid()
            self._loop = asyncio.new_event_loop()
            self._bots = {}
            self._requests = (
                HTTPXRequest(connection_pool_size=8, connect_timeout=5, read_timeout=15),
                HTTPXRequest(connection_pool_size=1, connect_timeout=5, read_timeout=60),
            )
        bot = self._bots.get(token)
        if bot is None:
            assert self._requests is not None
            calls, updates = self._requests
            bot = self._bots[token] = Bot(
                token, base_url=api_base_url(), request=calls, get_updates_request=updates
            )
        return self._loop.run_until_complete(call(bot))

    def reset(self) -> None:
        """Forget this thread's Bots (tests point them at a new server); the next call
        builds afresh."""
        if self._loop is not None and not self._loop.is_closed():
            for bot in self._bots.values():
                self._loop.run_until_complete(bot.shutdown())
            self._loop.close()
        self._pid = self._loop = None
        self._bots = {}
        self._requests = None


process_bot = _ProcessBot()


def send_message(chat_id: int, text: str, buttons: list[list[dict[str, str]]]) -> int:
    """Send a message; return Telegram's message id. Raises telegram.error.* on failure."""

    async def call(bot: Bot) -> Any:
        return await bot.send_message(chat_id=chat_id, text=text, reply_markup=keyboard(buttons))

    message_id: int = process_bot.run(call).message_id
    return message_id


def edit_message(
    chat_id: int, message_id: int, text: str, buttons: list[list[dict[str, str]]] | None = None
) -> None:
    """Replace the text of a message the bot sent, keeping its buttons (an edit without
    them would remove them). An edit the message already reads as (one sent twice) is
    done. Raises telegram.error.* on failure."""

    async def call(bot: Bot) -> Any:
        return await bot.edit_message_text(
            text=text, chat_id=chat_id, message_id=message_id, reply_markup=keyboard(buttons or [])
        )

    try:
        process_bot.run(call)
    except tg.BadRequest as error:
        if "not modified" not in str(error).lower():
            raise
