"""Any phone recording (m4a/AAC, ogg/opus, mp3, wav, webm) as 16 kHz mono float32 blocks.

PyAV's wheels carry ffmpeg, so every format the phones make decodes without a system
package. The file is read and resampled frame by frame and handed on in blocks of a fixed
size, so memory stays flat whatever the recording's length.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO

import av
import numpy as np

RATE = 16_000


class UnreadableAudio(Exception):
    """The file is not a recording PyAV can decode."""


def probe(source: str | IO[bytes]) -> float:
    """The recording's length in seconds (0 when the container does not say); raises
    UnreadableAudio for a file without a decodable audio stream."""
    try:
        with av.open(source, mode="r") as container:
            if not container.streams.audio:
                raise UnreadableAudio("no audio stream")
            stream = container.streams.audio[0]
            if stream.duration is not None and stream.time_base is not None:
                return float(stream.duration * stream.time_base)
            return float(container.duration or 0) / av.time_base
    except (av.error.FFmpegError, ValueError, OSError) as error:
        raise UnreadableAudio(str(error)) from error


def blocks(source: str | IO[bytes], block_samples: int) -> Iterator[np.ndarray]:
    """The sound as consecutive float32 arrays of `block_samples` (the last one shorter)."""
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
