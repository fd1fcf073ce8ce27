"""What analysing a recording costs: wall time and CPU time, each per second of sound.

The wall time follows the machine's load (the same hour analysed on the shared 2-core
machine took an rtf of 0.0056–0.0072 when it was quiet and 0.022–0.042 beside a test
run); the CPU time is the work the analysis itself did, and the benches' targets
(docs/benchmarks.md) are on it. CPU time counts every thread of the process
(onnxruntime's, OpenBLAS's, the decoder's) and the children it has waited for.
"""

from __future__ import annotations

import resource
import time
from dataclasses import dataclass


def cpu_seconds() -> float:
    """The CPU seconds (user and system) this process and its waited-for children have
    used so far."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@dataclass(frozen=True)
class Spent:
    """Seconds of wall time and of CPU time spent on some sound."""

    wall: float
    cpu: float

    def rtf(self, sound_seconds: float) -> float:
        """Wall seconds per second of sound (the real-time factor)."""
        return self.wall / _positive(sound_seconds)

    def cpu_rtf(self, sound_seconds: float) -> float:
        """CPU seconds per second of sound."""
        return self.cpu / _positive(sound_seconds)

    def described(self, sound_seconds: float) -> str:
        """For a log line: both times, and per second of sound when there is sound."""
        if sound_seconds <= 0:
            return f"wall {self.wall:.1f} s, CPU {self.cpu:.1f} s, no sound"
        return (
            f"{sound_seconds:.0f} s of sound, wall {self.wall:.1f} s "
            f"(rtf {self.rtf(sound_seconds):.4f}), CPU {self.cpu:.1f} s "
            f"(cpu_rtf {self.cpu_rtf(sound_seconds):.4f})"
        )


class Clock:
    """Started when made; `spent()` is the wall and CPU time since then."""

    def __init__(self) -> None:
        self._wall = time.perf_counter()
        self._cpu = cpu_seconds()

    def spent(self) -> Spent:
        return Spent(wall=time.perf_counter() - self._wall, cpu=cpu_seconds() - self._cpu)


def _positive(sound_seconds: float) -> float:
    if sound_seconds <= 0:
        raise ValueError(f"no sound to divide by: {sound_seconds} s")
    return sound_seconds
