import threading
import time
from collections.abc import Callable
from typing import Protocol


class TaskDone(Protocol):
    """The `task_done` fixture (tests/conftest.py): task_done(name, first_arg) → an Event
    set when that task finishes (with that first argument, if one is given)."""

    def __call__(self, name: str, first_arg: object = None) -> threading.Event: ...


def wait_for(condition: Callable[[], bool], *, timeout: float, interval: float = 0.2) -> bool:
    """Poll `condition` until it holds or `timeout` seconds pass: for conditions that live in
    another process (a server starting, a worker's write), which cannot signal us."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return condition()
