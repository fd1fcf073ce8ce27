"""Viewers of the live table over HTTP, in their own process: bench/live.py's `http` mode
runs this beside a real gunicorn server so that the load's CPU is not the server's.

Each viewer does what static/games/live.js does: GET /games/<id>/live.json with the ETag it
holds (If-None-Match), then waits a second after the answer and polls again. The viewers
start spread over the first second. Each keeps its connection when the server keeps it
(HTTP/1.1 keep-alive); gunicorn's sync worker answers `Connection: close`, so there each
poll is a connection of its own, as behind a proxy that does not pool. Written on asyncio
streams, not an HTTP client library: the load shares the machine's two cores with the
server, and a full client would spend more CPU per poll than the server.

Reads its task as JSON from argv[1] ({"host", "port", "path", "viewers", "seconds"}) and
prints one JSON line: every poll's (start, latency, status, bytes), each viewer's ETag
changes with the time seen, the connections the server closed, the errors, and this
process's CPU seconds over the run (resource.getrusage).
"""

import asyncio
import json
import resource
import sys
import time
from typing import Any

POLL_SECONDS = 1.0  # static/games/live.js's POLL_MS
TIMEOUT_SECONDS = 10.0  # a poll not answered by then counts as an error


class Viewers:
    def __init__(self, host: str, port: int, path: str, viewers: int, seconds: float) -> None:
        self.host, self.port, self.path = host, port, path
        self.viewers, self.seconds = viewers, seconds
        self.polls: list[tuple[float, float, int, int]] = []  # start, ms, status, bytes
        self.seen: list[list[tuple[float, str]]] = [[] for _ in range(viewers)]
        self.closed = self.errors = 0

    def request(self, etag: str) -> bytes:
        lines = [f"GET {self.path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines += ["Accept: application/json", "Connection: keep-alive"]
        if etag:
            lines.append(f"If-None-Match: {etag}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode()

    async def viewer(self, index: int, began: float) -> None:
        end = began + self.seconds
        await asyncio.sleep(index / self.viewers * POLL_SECONDS)
        etag = ""
        streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        while time.monotonic() < end:
            start = time.monotonic()
            try:
                if streams is None:
                    streams = await asyncio.open_connection(self.host, self.port)
                reader, writer = streams
                writer.write(self.request(etag))
                status, headers, size = await asyncio.wait_for(self.answer(reader), TIMEOUT_SECONDS)
            except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError):
                self.errors += 1
                if streams is not None:
                    streams[1].close()
                streams = None
            else:
                answered = time.monotonic()
                self.polls.append((start, (answered - start) * 1000, status, size))
                if status == 200 and headers.get("etag", "") != etag:
                    etag = headers.get("etag", "")
                    self.seen[index].append((answered, etag))
                if headers.get("connection", "").lower() == "close":
                    self.closed += 1
                    streams[1].close()
                    streams = None
            await asyncio.sleep(POLL_SECONDS)
        if streams is not None:
            streams[1].close()

    @staticmethod
    async def answer(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], int]:
        """The status, the headers (lower-cased names) and the bytes on the wire."""
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name:
                headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        if length:
            await reader.readexactly(length)
        return status, headers, len(head) + length

    async def run(self) -> None:
        began = time.monotonic()
        await asyncio.gather(*(self.viewer(index, began) for index in range(self.viewers)))


def main() -> None:
    task: dict[str, Any] = json.loads(sys.argv[1])
    viewers = Viewers(task["host"], task["port"], task["path"], task["viewers"], task["seconds"])
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu_began = usage.ru_utime + usage.ru_stime
    began = time.monotonic()
    asyncio.run(viewers.run())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(
        json.dumps(
            {
                "polls": viewers.polls,
                "seen": viewers.seen,
                "closed": viewers.closed,
                "errors": viewers.errors,
                "seconds": time.monotonic() - began,
                "cpu_seconds": usage.ru_utime + usage.ru_stime - cpu_began,
            }
        )
    )


if __name__ == "__main__":
    main()
