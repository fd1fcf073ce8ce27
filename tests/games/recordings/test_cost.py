"""What an analysis costs (games/recordings/audio/cost.py): wall and CPU seconds per second
of sound, the CPU time counting the process's threads and its waited-for children."""

import subprocess
import sys
import threading
import time

import pytest

from games.recordings.audio.cost import Clock, Spent, cpu_seconds

# A child that works and says how much CPU it used, by its own count.
WORK = "import time; sum(i * i for i in range(3_000_000)); print(time.process_time())"


def busy(used: list[float]) -> None:
    sum(i * i for i in range(1_000_000))
    used.append(time.thread_time())  # this thread's own CPU seconds


def test_per_second_of_sound() -> None:
    spent = Spent(wall=36.0, cpu=9.0)
    assert spent.rtf(3600) == pytest.approx(0.01)
    assert spent.cpu_rtf(3600) == pytest.approx(0.0025)
    assert spent.described(3600) == (
        "3600 s of sound, wall 36.0 s (rtf 0.0100), CPU 9.0 s (cpu_rtf 0.0025)"
    )


def test_no_sound_has_no_rate() -> None:
    spent = Spent(wall=0.4, cpu=0.2)
    with pytest.raises(ValueError, match="no sound"):
        spent.cpu_rtf(0)
    with pytest.raises(ValueError, match="no sound"):
        spent.rtf(-1)
    assert spent.described(0) == "wall 0.4 s, CPU 0.2 s, no sound"


def test_a_child_process_cpu_is_counted() -> None:
    """The parent waits (using next to no CPU itself) while the child works: the clock still
    counts at least what the child says it used."""
    clock = Clock()
    run = subprocess.run([sys.executable, "-c", WORK], capture_output=True, text=True, check=True)
    child_cpu = float(run.stdout)
    assert child_cpu > 0
    assert clock.spent().cpu >= child_cpu


def test_a_thread_cpu_is_counted() -> None:
    """onnxruntime's and OpenBLAS's threads work while the analysing thread waits."""
    used: list[float] = []
    before = cpu_seconds()
    in_thread = threading.Thread(target=busy, args=(used,))
    in_thread.start()
    in_thread.join()
    assert used[0] > 0
    assert cpu_seconds() - before >= used[0]
