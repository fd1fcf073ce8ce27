"""A lean closed-loop HTTP/1.1 load generator: N requests with exactly `in_flight` outstanding.

Each of `in_flight` workers keeps one keep-alive connection and sends its next request as
soon as the previous answer is in. Written on asyncio streams rather than an HTTP client
library because the client shares the machine's two cores with the server: a full client
spends several milliseconds of CPU per request and would measure itself, not the server.
"""

import asyncio
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit


@dataclass
class Result:
    latencies_ms: list[float] = field(default_factory=list)
    responses: list[tuple[int, dict[str, Any] | None]] = field(default_factory=list)
    errors: int = 0
    seconds: float = 0.0

    @property
    def throughput_rps(self) -> float:
        return len(self.latencies_ms) / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        return percentile(self.latencies_ms, p)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def _exchange(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
) -> tuple[int, bytes, bool]:
    """Send one request; return the status, the body and whether the server keeps the
    connection open (a sync server closes it after every answer)."""
    writer.write(request)
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    length, keep_alive = 0, True
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.lower() == "content-length":
            length = int(value)
        elif name.lower() == "connection" and value.strip().lower() == "close":
            keep_alive = False
    body = await reader.readexactly(length) if length else b""
    return status, body, keep_alive


# (method, path, bearer token) or (method, path, {headers}, body bytes).
type Request = tuple[str, str, str] | tuple[str, str, dict[str, str], bytes]


def _encode(host: str, request: Request) -> bytes:
    """(method, path, bearer token) or (method, path, {headers}, body bytes)."""
    if len(request) == 3:
        method, path, token = request
        headers, body = {"Authorization": f"Bearer {token}"}, b""
    else:
        method, path, headers, body = request
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", f"Content-Length: {len(body)}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


async def _run(base_url: str, requests: Sequence[Request], in_flight: int) -> Result:
    host, port = urlsplit(base_url).hostname, urlsplit(base_url).port
    assert host is not None, base_url
    result = Result(responses=[(0, None)] * len(requests))
    next_index = iter(range(len(requests)))

    async def worker() -> None:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            for index in next_index:
                request = _encode(host, requests[index])
                started = time.perf_counter()
                try:
                    status, body, keep_alive = await _exchange(reader, writer, request)
                except (OSError, asyncio.IncompleteReadError, ValueError):
                    result.errors += 1
                    writer.close()
                    reader, writer = await asyncio.open_connection(host, port)
                    continue
                if not keep_alive:
                    writer.close()
                    reader, writer = await asyncio.open_connection(host, port)
                result.latencies_ms.append((time.perf_counter() - started) * 1000)
                result.responses[index] = (status, json.loads(body) if body else None)
                if status >= 400:
                    result.errors += 1
        finally:
            writer.close()

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(in_flight)))
    result.seconds = time.perf_counter() - started
    return result


def run(base_url: str, requests: Sequence[Request], *, in_flight: int) -> Result:
    return asyncio.run(_run(base_url, requests, in_flight))
