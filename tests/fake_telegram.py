"""A local fake Telegram Bot API server over real HTTP, for tests and benchmarks.

Point the bots at it with TELEGRAM_API_BASE_URL. It serves several bots, one per token
(`token`, and more with `add_bot`: each club's own), records every call with the token it
came through, answers like the Bot API does, and can be told to fail: the next calls with
given errors (429 with retry_after, 403, 400, 500), a share of calls with 500, a rate limit
per bot answered with 429, and a flood: a stretch of time in which every message is
answered 429. A call with a token it does not serve is answered 404, as Telegram does.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    at: float
    status: int = 200
    token: str = ""  # the bot it was made through


@dataclass
class FakeTelegram:
    token: str = "123456:TEST"
    fail_share: float = 0.0  # this share of sendMessage calls answers 500
    rate_limit_per_s: float | None = None  # above it, sendMessage answers 429
    seed: int = 1
    calls: list[Call] = field(default_factory=list)
    refused: list[Call] = field(default_factory=list)  # sendMessage calls answered an error
    _forced: deque[tuple[int, dict[str, Any]]] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _sent_at: dict[str, deque[float]] = field(default_factory=dict)  # per bot
    usernames: dict[str, str] = field(default_factory=dict)  # token → the bot's @username
    _message_id: int = 0
    updates: list[dict[str, Any]] = field(default_factory=list)  # until an offset confirms them
    migrated: dict[int, int] = field(default_factory=dict)  # group → the supergroup it became
    _flood: tuple[float, float, int] | None = None

    def __post_init__(self) -> None:
        self.usernames.setdefault(self.token, "club_bot")
        self._random = random.Random(self.seed)
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                fake._handle(self)

            do_GET = do_POST

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> FakeTelegram:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def add_bot(self, token: str, username: str) -> str:
        """Serve another bot (another club's) beside the first; its token."""
        with self._lock:
            self.usernames[token] = username
        return token

    def migrate_chat(self, old: int, new: int) -> None:
        """The group `old` became the supergroup `new`: Telegram answers as it does."""
        self.migrated[old] = new

    def fail_next(self, status: int, **extra: Any) -> None:
        """The next call answers with this error (429 takes retry_after=...; any status a
        description=... other than its usual one)."""
        self._forced.append((status, extra))

    def flood(self, start: float, seconds: float, retry_after: int) -> None:
        """From `start` (time.monotonic()) for `seconds`, every sendMessage answers 429 with
        this retry_after, as Telegram does to a bot that sent too much."""
        self._flood = (start, start + seconds, retry_after)

    def send_calls(self, token: str | None = None) -> list[Call]:
        """Every sendMessage call that reached the server, answered or refused, in order
        (through one bot, when its token is given)."""
        with self._lock:
            calls = [call for call in self.calls if call.method == "sendMessage"]
            every = sorted([*calls, *self.refused], key=lambda call: call.at)
        return [call for call in every if token is None or call.token == token]

    def sent(self, token: str | None = None) -> list[Call]:
        """The messages sent (through one bot, when its token is given), in order."""
        return self._made("sendMessage", token)

    def edited(self, token: str | None = None) -> list[Call]:
        return self._made("editMessageText", token)

    def _made(self, method: str, token: str | None) -> list[Call]:
        with self._lock:
            return [
                call
                for call in self.calls
                if call.method == method and (token is None or call.token == token)
            ]

    def _handle(self, request: BaseHTTPRequestHandler) -> None:
        token, _slash, method = request.path.removeprefix("/bot").partition("/")
        if not request.path.startswith("/bot") or token not in self.usernames:
            self._answer(request, 404, {"ok": False, "error_code": 404, "description": "Not Found"})
            return
        length = int(request.headers.get("Content-Length") or 0)
        body = request.rfile.read(length).decode() if length else ""
        params = self._params(request.headers.get("Content-Type", ""), body)
        with self._lock:
            status, payload = self._respond(token, method, params)
            if method == "sendMessage" and status != 200:
                self.refused.append(Call(method, params, time.monotonic(), status, token))
        self._answer(request, status, payload)

    @staticmethod
    def _params(content_type: str, body: str) -> dict[str, Any]:
        if not body:
            return {}
        if "json" in content_type:
            decoded: dict[str, Any] = json.loads(body)
            return decoded
        params: dict[str, Any] = {}
        for key, value in parse_qsl(body):
            try:
                params[key] = json.loads(value)
            except ValueError:
                params[key] = value
        return params

    def _respond(
        self, token: str, method: str, params: dict[str, Any]
    ) -> tuple[int, dict[str, Any]]:
        now = time.monotonic()
        if self._forced:
            status, extra = self._forced.popleft()
            return status, self._error(status, **extra)
        moved = self.migrated.get(int(params.get("chat_id", 0) or 0))
        if moved is not None and method in ("sendMessage", "editMessageText"):
            return 400, {
                "ok": False,
                "error_code": 400,
                "description": "Bad Request: group chat was upgraded to a supergroup chat",
                "parameters": {"migrate_to_chat_id": moved},
            }
        if method == "sendMessage":
            if self._flood is not None and self._flood[0] <= now < self._flood[1]:
                return 429, self._error(429, retry_after=self._flood[2])
            sent_at = self._sent_at.setdefault(token, deque())
            if self.rate_limit_per_s is not None:  # Telegram's limit is each bot's own
                while sent_at and now - sent_at[0] > 1:
                    sent_at.popleft()
                if len(sent_at) >= self.rate_limit_per_s:
                    return 429, self._error(429, retry_after=1)
            if self.fail_share and self._random.random() < self.fail_share:
                return 500, self._error(500)
            sent_at.append(now)
            self.calls.append(Call(method, params, now, token=token))
            self._message_id += 1
            return 200, {"ok": True, "result": self._message(params)}
        self.calls.append(Call(method, params, now, token=token))
        if method == "getMe":
            return 200, {
                "ok": True,
                "result": {
                    "id": int(token.partition(":")[0]),
                    "is_bot": True,
                    "first_name": "Club",
                    "username": self.usernames[token],
                },
            }
        if method == "editMessageText":
            message = self._message(params) | {"message_id": int(params.get("message_id", 0))}
            return 200, {"ok": True, "result": message}
        if method == "getUpdates":
            # As Telegram does: an offset confirms every update before it; the rest is
            # served again until it is confirmed.
            offset = int(params.get("offset") or 0)
            self.updates = [u for u in self.updates if u["update_id"] >= offset]
            return 200, {"ok": True, "result": list(self.updates)}
        return 200, {"ok": True, "result": True}

    def _message(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(params.get("chat_id", 0))
        return {
            "message_id": self._message_id,
            "date": int(time.time()),
            "chat": {"id": chat_id, "type": "private" if chat_id > 0 else "group"},
            "text": params.get("text", ""),
        }

    @staticmethod
    def _error(status: int, **extra: Any) -> dict[str, Any]:
        descriptions = {
            400: "Bad Request: chat not found",
            403: "Forbidden: bot was blocked by the user",
            429: f"Too Many Requests: retry after {extra.get('retry_after', 1)}",
            500: "Internal Server Error",
        }
        payload: dict[str, Any] = {
            "ok": False,
            "error_code": status,
            "description": extra.get("description") or descriptions.get(status, "Error"),
        }
        if status == 429:
            payload["parameters"] = {"retry_after": extra.get("retry_after", 1)}
        return payload

    @staticmethod
    def _answer(request: BaseHTTPRequestHandler, status: int, payload: dict[str, Any]) -> None:
        body = json.dumps(payload).encode()
        request.send_response(status)
        request.send_header("Content-Type", "application/json")
        request.send_header("Content-Length", str(len(body)))
        request.end_headers()
        request.wfile.write(body)
