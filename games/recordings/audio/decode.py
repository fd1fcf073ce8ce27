"""Any phone recording as 16 kHz mono float32 blocks, and what its header says.

PyAV's wheels carry ffmpeg, so every format the phones make decodes without a system
package: m4a/mp4/3gp/3ga (AAC, ALAC, AMR), ogg/oga/opus (Opus, Vorbis), webm, mp3, wav,
aiff, caf, flac, wma and amr. Only those containers are opened (ffmpeg's
`format_whitelist`): ffmpeg knows hundreds, some of which follow links to other files or
addresses (playlists, concatenation lists), and an upload is never one of those. Whether a
file is a recording is decided by its bytes, never by its name: it must open as one of
them, hold an audio stream, and decode that stream's first frame. The file is read and
resampled frame by frame and handed on in blocks of a fixed size, so memory stays flat
whatever the recording's length.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

import av
import numpy as np

RATE = 16_000
# ffmpeg's demuxers for the phones' containers, by the names ffmpeg gives them ("mov"
# reads m4a/mp4/3gp/3ga, "matroska" webm, "asf" wma, "aac" a bare AAC stream).
CONTAINERS = (
    "mov", "ogg", "matroska", "mp3", "wav", "w64", "aiff", "caf", "flac", "asf", "amr", "aac",
)  # fmt: skip
OPEN_OPTIONS = {"format_whitelist": ",".join(CONTAINERS)}
# Packets that may come before the first decoded frame (an encoder's priming packets are a
# handful, a damaged start a few more): a stream that gives no frame by then does not decode.
FIRST_FRAME_PACKETS = 200
# The name a stored file takes, by its container (mov and matroska: see _extension).
EXTENSIONS = {
    "ogg": ".ogg", "mp3": ".mp3", "wav": ".wav", "w64": ".w64", "aiff": ".aiff",
    "caf": ".caf", "flac": ".flac", "asf": ".wma", "amr": ".amr", "aac": ".aac",
}  # fmt: skip


class Problem(enum.Enum):
    """Why a file is not a recording the club can read."""

    NOT_SOUND = "not_sound"  # no container the club opens takes it (text, a photo, cut short)
    NO_AUDIO = "no_audio"  # it opens, but holds no sound (a video without an audio track)
    UNDECODABLE = "undecodable"  # it has an audio stream whose frames do not decode


class UnreadableAudio(Exception):
    """The file is not a recording PyAV can decode."""

    def __init__(self, detail: str, problem: Problem = Problem.NOT_SOUND) -> None:
        super().__init__(detail)
        self.problem = problem


class TooLong(Exception):
    """The sound goes on past the length it may have."""


@dataclass(frozen=True)
class Header:
    """What a recording's header says, checked by decoding its first frame."""

    seconds: float  # the length (see `inspect`)
    container: str  # ffmpeg's first name for the container: "mov", "ogg", "wav", …
    codec: str  # the audio stream's: "aac", "opus", "pcm_s16le", "amr_nb", …
    extension: str  # what a file of it is called: ".m4a", ".3gp", ".ogg", ".wav", …
    lossy: bool  # a lossy codec (PCM, FLAC and ALAC are not)
    video: bool  # a moving picture beside the sound (a cover picture is not one)


def inspect(source: str | IO[bytes], *, longest: float | None = None) -> Header:
    """Open the recording, find its audio stream and decode its first frame; raises
    UnreadableAudio (with its `problem`) when any of that fails. The length is the
    container's header's; a header that does not say (a browser's webm) is answered by the
    packets' time stamps, read without decoding (~0.4 s an hour of opus) and only until
    they pass `longest` (then: infinity); 0 when nothing says."""
    try:
        with av.open(source, mode="r", options=OPEN_OPTIONS) as container:
            if not container.streams.audio:
                raise UnreadableAudio("no audio stream", Problem.NO_AUDIO)
            stream = container.streams.audio[0]
            seen = _first_frame(container, stream)
            return Header(
                seconds=_length(container, stream, longest, seen),
                container=container.format.name.split(",")[0],
                codec=stream.codec_context.name,
                extension=_extension(container, stream),
                lossy=bool(stream.codec_context.codec.lossy),
                video=any(
                    av.stream.Disposition.attached_pic not in picture.disposition
                    for picture in container.streams.video
                ),
            )
    except (av.error.FFmpegError, ValueError, OSError) as error:
        raise UnreadableAudio(str(error)) from error


def probe(source: str | IO[bytes], *, longest: float | None = None) -> float:
    """The recording's length in seconds (`inspect`'s)."""
    return inspect(source, longest=longest).seconds


def _first_frame(container: Any, stream: Any) -> float:
    """Decode packets until a frame comes out; where the packets read so far end, in
    seconds. A packet that does not decode is passed over: a few at the start may be
    damaged while the rest of the sound is whole."""
    end = 0.0
    for count, packet in enumerate(container.demux(stream)):
        end = max(end, _packet_end(packet, stream))
        try:
            if packet.decode():
                return end
        except (av.error.FFmpegError, ValueError):
            pass
        if count >= FIRST_FRAME_PACKETS:
            break
    raise UnreadableAudio("no frame of its sound decodes", Problem.UNDECODABLE)


def _length(container: Any, stream: Any, longest: float | None, seen: float) -> float:
    if stream.duration is not None and stream.time_base is not None:
        return float(stream.duration * stream.time_base)
    if container.duration:
        return float(container.duration) / av.time_base
    return _packets_end(container, stream, longest, seen)


def _extension(container: Any, stream: Any) -> str:
    """The stored file's extension, from what the header says (never the upload's name)."""
    names = container.format.name.split(",")
    if "mov" in names:  # one demuxer for all of ISO's family: the brand tells them apart
        if str(container.metadata.get("major_brand", "")).startswith("3g"):
            return ".3gp"
        return ".m4a" if stream.codec_context.name in ("aac", "alac") else ".mp4"
    if "matroska" in names:
        return ".webm" if stream.codec_context.name in ("opus", "vorbis") else ".mka"
    return EXTENSIONS.get(names[0], ".audio")


def _packet_end(packet: Any, stream: Any) -> float:
    if packet.pts is None or not packet.duration or stream.time_base is None:
        return 0.0
    return float((packet.pts + packet.duration) * stream.time_base)


def _packets_end(container: Any, stream: Any, longest: float | None, seen: float) -> float:
    """Where the stream's last packet ends, in seconds (`seen`: where the ones already read
    end); infinity once one ends past `longest` (the rest is not read)."""
    end = seen
    for packet in container.demux(stream):
        end = max(end, _packet_end(packet, stream))
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
        with av.open(source, mode="r", options=OPEN_OPTIONS) as container:
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
    except (av.error.FFmpegError, ValueError, OSError, IndexError) as error:
        raise UnreadableAudio(str(error)) from error
    rest = np.concatenate(pending) if pending else np.zeros(0, np.float32)
    for start in range(0, rest.size, block_samples):
        yield rest[start : start + block_samples]
