"""Any phone recording (m4a/AAC, ogg/opus, mp3, wav, webm) as 16 kHz mono float32 blocks.

PyAV's wheels carry ffmpeg, so every format the phones make decodes without a system
package. The file is read and resampled frame by frame and handed on in blocks of a fixed
size, so memory stays flat whatever the recording's length.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import IO, Any

import av
import numpy as np

RATE = 16_000


class UnreadableAudio(Exception):
    """The file is not a recording PyAV can decode."""


class TooLong(Exception):
    """The sound goes on past the length it may have."""


def probe(source: str | IO[bytes], *, longest: float | None = None) -> float:
    """The recording's length in seconds, as the container's header says; raises
    UnreadableAudio for a file without an audio stream. A header that does not say (a
    browser's webm) is answered by the packets' time stamps, read without decoding (~0.4 s
    an hour of opus) and only until they pass `longest` (then: infinity); 0 when nothing
    says."""
    try:
        with av.open(source, mode="r") as container:
            if not container.streams.audio:
                raise UnreadableAudio("no audio stream")
            stream = container.streams.audio[0]
            if stream.duration is not None and stream.time_base is not None:
                return float(stream.duration * stream.time_base)
            if container.duration:
                return float(container.duration) / av.time_base
            return _packets_end(container, stream, longest)
    except (av.error.FFmpegError, ValueError, OSError) as error:
        raise UnreadableAudio(str(error)) from error


def _packets_end(container: Any, stream: Any, longest: float | None) -> float:
    """Where the stream's last packet ends, in seconds; infinity once one ends past
    `longest` (the rest is not read)."""
    if stream.time_base is None:
        return 0.0
    end = 0.0
    for packet in container.demux(stream):
        if packet.pts is not None and packet.duration:
            end = max(end, float((packet.pts + packet.duration) * stream.time_base))
            if longest is not None and end > longest:
                return math.inf
    return end


def blocks(
    source: str | IO[bytes], block_samples: int, *, longest: float | None = None
) -> Iterator[np.ndarray]:
    """The sound as consecutive float32 arrays of `block_samples` (the last one shorter).
    With `longest` (seconds), TooLong is raised once more sound than that is decoded: a
    header may be missing or wrong, the sound itself is what counts."""
    most = None if longest is None else int(longest * RATE)
    given = 0
    for block in _blocks(source, block_samples):
        given += block.size
        if most is not None and given > most:
            raise TooLong(f"more than {longest:.0f} s of sound")
        yield block


def _blocks(source: str | IO[bytes], block_samples: int) -> Iterator[np.ndarray]:
    resampler = av.AudioResampler(format="flt", layout="mono", rate=RATE)
    pending: list[np.ndarray] = []
    held = 0
    try:
        with av.open(source, mode="r") as container:
            stream = container.streams.audio[0]
            for frame in container.decode(stream):
                for out in resampler.resample(frame):
                    pending.append(out.to_ndarray().reshape(-1))
                    held += pending[-1].size
                while held >= block_samples:
                    joined = np.concatenate(pending)
                    yield joined[:block_samples]
                    pending, held = [joined[block_samples:]], joined.size - block_samples
            for out in resampler.resample(None):
                pending.append(out.to_ndarray().reshape(-1))
    except (av.error.FFmpegError, ValueError, OSError) as error:
        raise UnreadableAudio(str(error)) from error
    rest = np.concatenate(pending) if pending else np.zeros(0, np.float32)
    for start in range(0, rest.size, block_samples):
        yield rest[start : start + block_samples]
