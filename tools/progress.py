"""A long step of `make run` says it is alive: `python3 tools/progress.py WHAT COMMAND...`.

It names the step, runs COMMAND with its output passed on line by line, and whenever the
command has said nothing for EVERY seconds (8, under the 10 s a newcomer waits before taking
a quiet terminal for a hang) it says «WHAT: still working, N s»; at the end it says how long
the step took. The first `make run` on a fresh machine once sat 366 s behind one silent
«Building pyicu» line; uv with UV_NO_PROGRESS, `npm ci --silent` and the engine's standard
library build are quiet while they download or compile, so the Makefile runs each of them
through this. The command's exit code is this script's; Ctrl-C reaches the command (it is in
the same process group) and this waits for it to stop.

Only the standard library: it runs before anything is installed, on the machine's python3.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time

EVERY = float(os.environ.get("PROGRESS_EVERY", "8"))


def run(what: str, command: list[str], *, every: float = EVERY) -> int:
    started = time.monotonic()
    said = [started]  # when the command last said something (a list: the pump sets it)
    out = sys.stdout.buffer
    lock = threading.Lock()

    def say(line: bytes) -> None:
        with lock:
            out.write(line)
            out.flush()
            said[0] = time.monotonic()

    say(f"==> {what}\n".encode())
    # Python children write line by line into the pipe too (their buffer would hold the
    # lines of a quiet migration back until it ended).
    process = subprocess.Popen(  # noqa: S603 (the Makefile's own commands)
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    stream = process.stdout

    def pass_on() -> None:
        for line in iter(stream.readline, b""):
            say(line)

    pump = threading.Thread(target=pass_on)
    pump.start()
    try:
        while process.poll() is None:
            quiet = time.monotonic() - said[0]
            if quiet >= every:
                say(f"{what}: still working, {time.monotonic() - started:.0f} s\n".encode())
                continue
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=every - quiet)
    except KeyboardInterrupt:
        process.wait()
    pump.join()
    took = time.monotonic() - started
    if process.returncode == 0:
        say(f"{what}: done in {took:.0f} s\n".encode())
    else:
        say(f"{what}: failed (exit {process.returncode}) after {took:.0f} s\n".encode())
    return process.returncode


def main() -> int:
    if len(sys.argv) < 3:
        sys.stderr.write("usage: python3 tools/progress.py WHAT COMMAND...\n")
        return 2
    return run(sys.argv[1], sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
