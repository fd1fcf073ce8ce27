"""The stored form of a recording: what a phone's browser plays, and small.

A recording in a lossy codec that every browser plays (AAC in m4a, MP3, Opus or Vorbis in
Ogg or WebM), with no video and at a phone's bit rate, is stored as it came. Anything
else — uncompressed or lossless sound (WAV, AIFF, CAF, FLAC, ALAC: an hour of 48 kHz
stereo WAV is 691 MB), what browsers do not play (AMR, 3gp, WMA), a video's sound track, a
bit rate past any phone's setting — is transcoded once, in the worker before its analysis,
to AAC in m4a: mono, 24 kHz (speech ends well below its 12 kHz; the analysis reads
16 kHz), 48 kbit/s, 22 MB an hour, played by every browser, Safari's too. The file is read
and written frame by frame, so memory stays flat whatever its length.
"""

from __future__ import annotations

from fractions import Fraction
from typing import IO

import av

from games.recordings.audio.decode import OPEN_OPTIONS, Header, TooLong, UnreadableAudio

EXTENSION = ".m4a"
RATE = 24_000
BIT_RATE = 48_000
# Past this (bytes a second of sound: 320 kbit/s, an MP3's highest rate) a lossy file is
# no phone's recording of a voice: it is compacted as well.
MOST_BYTES_PER_SECOND = 40_000
# The containers and codecs a browser's <audio> plays (with the containers' names as
# decode.Header gives them; "mov" covers m4a and mp4, told from 3gp by its extension).
PLAYED = {
    ".m4a": {"aac"},
    ".mp4": {"aac", "mp3"},
    ".aac": {"aac"},
    ".mp3": {"mp3", "mp3float"},
    ".ogg": {"opus", "vorbis"},
    ".webm": {"opus", "vorbis"},
}


def stored_as_uploaded(header: Header, size: int) -> bool:
    """Whether a recording of `size` bytes with this header is kept as it came."""
    if not header.lossy or header.video or header.codec not in PLAYED.get(header.extension, ()):
        return False
    return header.seconds <= 0 or size / header.seconds <= MOST_BYTES_PER_SECOND


def transcode(
    source: str | IO[bytes], target: str | IO[bytes], *, longest: float | None = None
) -> float:
    """Write the sound of `source` in the stored form to `target`, a path or a file open
    for writing and reading (the muxer seeks back to finish it; its index is at the end,
    and the host's player asks for that range first); the seconds written. TooLong once
    more than `longest` seconds are written (a header may lie: the sound is what counts),
    UnreadableAudio if it does not decode."""
    most = None if longest is None else int(longest * RATE)
    written = 0
    try:
        with (
            av.open(source, mode="r", options=OPEN_OPTIONS) as recording,
            av.open(target, mode="w", format="mp4") as out,
        ):
            stream = out.add_stream("aac", rate=RATE, layout="mono")
            assert isinstance(stream, av.AudioStream)  # for mypy: an audio codec's stream
            stream.bit_rate = BIT_RATE
            resampler = av.AudioResampler(format=stream.format.name, layout="mono", rate=RATE)
            sound = recording.streams.audio[0]
            for frame in recording.decode(sound):
                frame.pts = None  # the sound's own count times it (a phone's may jump back)
                for piece in resampler.resample(frame):
                    written = _encode(out, stream, piece, written)
                    if most is not None and written > most:
                        raise TooLong(f"more than {longest:.0f} s of sound")
            for piece in resampler.resample(None):
                written = _encode(out, stream, piece, written)
            out.mux(stream.encode(None))
    except (av.error.FFmpegError, ValueError, OSError, IndexError) as error:
        raise UnreadableAudio(str(error)) from error
    return written / RATE


def _encode(
    out: av.container.OutputContainer, stream: av.AudioStream, piece: av.AudioFrame, written: int
) -> int:
    """Encode one resampled frame, timed by the samples written before it; the count
    after it."""
    piece.pts, piece.time_base = written, Fraction(1, RATE)
    out.mux(stream.encode(piece))
    return written + piece.samples
