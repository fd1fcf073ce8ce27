"""Who spoke when: the voice in a recording attributed to the seats, anchored on the host's
protocol (docs/audio.md).

Every `speech` event is a window in which one known seat speaks: those windows teach the
analysis each seat's voice, and the phases' announcements the host's. The voiced sound is
cut into half-second cells, each described by the second of voice around it: the speaker
encoder's embedding (encoder.py) joined with its MFCC's statistics (features.py), both
normalised over the recording. Each voice is a Gaussian of its cells, all sharing one
within-voice covariance (a per-game Gaussian backend: linear discriminant scoring). Then
every cell is scored against every voice: the most likely seat, with its posterior as the
confidence, or nobody — below the threshold, for the host's voice (learnt from the
announcements and the gaps between speeches), or for a voice far from the seat's, or as
near the host's, where it would be a foul. Inside a speaker's window a cell goes to another
seat only when that seat is the confident answer (an interruption); where the speaker's
voice is weakened by another's, the other is added beside it as a stretch marked `over`
(talk over the speaker), named when two descriptions agree; outside every window, by day
(the «балаган»'s asides) and at night, to whoever is.

Pure numpy, no Django: state in (the sound's descriptions, voiced intervals, windows),
figures out.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from games.recordings.audio import encoder
from games.recordings.audio.vad import FRAME_SECONDS

CHUNK_SECONDS = 1.0  # a chunk of voice: long enough to average the phonemes away
MIN_CHUNK_SECONDS = 0.2  # shorter voice is left unattributed
TEACHING_SECONDS = 0.4  # a voice is learnt from chunks described by this much of it at least
EDGE_SECONDS = 1.0  # a window's first and last second may hold the host or the last word
THRESHOLD = 0.9  # the posterior below which a chunk's speaker is "unknown"
FOUL_SECONDS = 3.0  # talk in another's speech (or at night) that is worth a suggestion
# ...as the recording holds it: the voice activity hears a remark's voice, not its quiet
# ends nor its long breaths (0.81 of its span from first word to last in the median,
# docs/audio.md), so a remark of FOUL_SECONDS is heard as this much: 0.9 of it (2.7 s), not
# the median's 2.4 s, which let a spectator's 2.6 s through as a seat's.
HEARD_FOUL_SECONDS = 0.9 * FOUL_SECONDS
# Talk heard only over the speaker's voice is worth one when it is this long (docs/audio.md:
# a fifth of the stretches named over a speaker name another seat than the one talking).
OVER_FOUL_SECONDS = 6.5
PAUSE_SECONDS = 1.3  # a breath between two phrases of one remark (docs/audio.md)
# Two voices at once (docs/audio.md): a run of a speech's chunks where the speaker's voice
# stands this much further from its own chunks' typical closeness (cosine; each chunk's
# figure averaged with its neighbours'), over at least OVERLAP_CHUNKS chunks, holds another
# voice if the run's mean embedding is fitted better, by OVERLAP_GAIN at least, as the
# speaker's voice plus one seat's than as the speaker's alone; that seat is named. The
# run reaches on over its neighbours standing OVERLAP_EXTEND further (the second voice's
# first and last words, weaker under the speaker's).
OVERLAP_DROP = 0.17
OVERLAP_EXTEND = 0.08
OVERLAP_CHUNKS = 2
OVERLAP_GAIN = 0.05
MIN_ENROLMENT_CHUNKS = 3  # a seat heard less than this in its windows is not modelled
REGULARISATION = 0.05  # added to the covariance's diagonal (in units of its mean variance)
METHOD = "fusion"  # the cells' vectors: "mfcc", "embedding" or both, "fusion" (docs/audio.md)
# A seat's voice heard outside its own speeches whose embedding stands this much further
# from the seat's voice (cosine) than the seat's own cells typically do is nobody's: the
# host, a spectator, music (docs/audio.md: strangers at -0.19…-0.22, the seats' own talk
# at -0.19 or closer, the host at -0.26 or further).
STRANGE = 0.21
# A run given to a seat where it would be a foul must stand at least this much nearer the
# seat's voice than the host's (each against its own cells' typical closeness): the host
# wakes the roles inside the night, and a host who sounds like a seat is nobody's foul
# (docs/audio.md: the seats' own talk stands 0.32 or more nearer them, the host 0.05).
HOST_MARGIN = 0.15
# A run given to a seat where it would be a foul that stands nearer the voice of the runs
# turned away as strangers (each against its own chunks' typical closeness), by more than
# this, than the seat's is nobody's: a spectator who sounds like a seat is heard again
# (docs/audio.md: the spectator's runs at -0.18…+0.02 on the table that needed it, the
# seats' own at 0.0 or more there; at 0.0 a seat's own interruption elsewhere was lost).
OUTSIDER_MARGIN = -0.05
GAP_SECONDS = 8.0  # a gap between two speeches up to this long holds the host's «Дальше»

Interval = tuple[float, float]


@dataclass(frozen=True)
class Window:
    seat: int
    start: float  # seconds from the start of the sound
    end: float


@dataclass(frozen=True)
class Stretch:
    """Voice attributed to one seat (None: unknown), with where it fell."""

    start: float
    end: float
    seat: int | None
    confidence: float
    owner: int | None  # whose speech window it fell in (None: no window)
    night: bool
    over: bool = False  # heard over the speaker's voice (the speaker's stretch runs beside it)

    @property
    def seconds(self) -> float:
        return self.end - self.start

    def as_dict(self) -> dict[str, Any]:
        return {
            "start": round(self.start, 2),
            "end": round(self.end, 2),
            "seat": self.seat,
            "confidence": round(self.confidence, 3),
            "owner": self.owner,
            "night": self.night,
            "over": self.over,
        }


@dataclass(frozen=True)
class Suggestion:
    """A foul the host may give: a seat talked in another's speech (or at night)."""

    seat: int
    during: int | None  # whose speech; None: at night
    start: float
    end: float
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "during": self.during,
            "start": round(self.start, 2),
            "end": round(self.end, 2),
            "seconds": round(self.seconds, 1),
        }


@dataclass
class SeatTalk:
    own: float = 0.0  # in its own speech windows
    others: dict[int, float] = field(default_factory=dict)  # in whose windows, how long
    night: float = 0.0
    aside: float = 0.0  # by day, outside every window
    over: dict[int, float] = field(default_factory=dict)  # of `others`, over the speaker

    def as_dict(self) -> dict[str, Any]:
        return {
            "own": round(self.own, 1),
            "others": {str(k): round(v, 1) for k, v in sorted(self.others.items())},
            "over": {str(k): round(v, 1) for k, v in sorted(self.over.items())},
            "night": round(self.night, 1),
            "aside": round(self.aside, 1),
        }


@dataclass(frozen=True)
class Attribution:
    stretches: list[Stretch]
    seats: dict[int, SeatTalk]
    suggestions: list[Suggestion]
    modelled: list[int]  # the seats whose voice was learnt
    unknown: float  # seconds of voice nobody was sure of

    def as_dict(self) -> dict[str, Any]:
        return {
            "stretches": [s.as_dict() for s in self.stretches],
            "seats": {str(k): v.as_dict() for k, v in sorted(self.seats.items())},
            "suggestions": [s.as_dict() for s in self.suggestions],
            "modelled": self.modelled,
            "unknown": round(self.unknown, 1),
        }


@dataclass(frozen=True)
class _Chunk:
    start: float
    end: float
    vector: np.ndarray
    segment: int  # the voiced segment it belongs to
    context: tuple[float, float]  # the second of voice (seconds) that describes it


@dataclass(frozen=True)
class Sound:
    """What the attribution reads of a recording: the MFCC of the VAD's frames
    (features.py) and the speaker encoder's mel frames with their loudness (encoder.py)."""

    features: np.ndarray
    mels: np.ndarray | None = None
    powers: np.ndarray | None = None


def _chunks(features: np.ndarray, voiced: Sequence[Sequence[float]]) -> list[_Chunk]:
    """Voiced sound cut into cells of half a chunk, each described by the chunk (about a
    second) centred on it, so a change of voice is placed to half a chunk; a segment's
    cells are numbered in `segment` for the smoothing."""
    span = max(2, round(CHUNK_SECONDS / FRAME_SECONDS))
    step = span // 2
    least = max(1, round(MIN_CHUNK_SECONDS / FRAME_SECONDS))
    found = []
    for number, (a, b) in enumerate(voiced):
        first, last = int(a / FRAME_SECONDS), min(len(features), int(b / FRAME_SECONDS))
        if last - first < least:
            continue
        edges = [*range(first, last, step), last]
        if len(edges) > 2 and edges[-1] - edges[-2] < step // 2:
            edges.pop(-2)
        for lo, hi in itertools.pairwise(edges):
            middle = (lo + hi) // 2
            around = (max(first, middle - span // 2), min(last, middle + span // 2))
            found.append(
                _Chunk(
                    lo * FRAME_SECONDS,
                    hi * FRAME_SECONDS,
                    _describe(features[around[0] : around[1]]),
                    number,
                    (around[0] * FRAME_SECONDS, around[1] * FRAME_SECONDS),
                )
            )
    return found


def _smoothed(posteriors: np.ndarray, chunks: list[_Chunk]) -> np.ndarray:
    """Each cell's posterior averaged with its neighbours' in the same voiced segment: a
    voice holds for more than half a second, a lone odd cell is noise."""
    smooth = posteriors.copy()
    for index in range(len(chunks)):
        near = [
            j
            for j in (index - 1, index + 1)
            if 0 <= j < len(chunks) and chunks[j].segment == chunks[index].segment
        ]
        if near:
            smooth[index] = (2 * posteriors[index] + posteriors[near].sum(axis=0)) / (2 + len(near))
    return smooth


def _describe(block: np.ndarray) -> np.ndarray:
    """A chunk's vector: its MFCC's mean and spread, and the median pitch of its periodic
    frames (the voice's own height, which the MFCC only hint at)."""
    cepstra, pitch, periodic = block[:, :-2], block[:, -2], block[:, -1]
    voiced = pitch[periodic >= 0.4]
    height = float(np.median(voiced)) if voiced.size >= 3 else float(np.median(pitch))
    return np.concatenate(
        [cepstra.mean(axis=0), cepstra.std(axis=0), [height, voiced.size / len(block)]]
    )


class _Backend:
    """Each seat a Gaussian of its chunks' vectors, sharing one covariance. The vectors
    are whitened by it once, so every distance is a plain matrix product."""

    def __init__(self, vectors: np.ndarray, labels: np.ndarray) -> None:
        self.seats = sorted(set(labels.tolist()))
        means = np.stack([vectors[labels == s].mean(axis=0) for s in self.seats])
        centred = vectors - means[np.searchsorted(self.seats, labels)]
        covariance = centred.T @ centred / max(1, len(vectors) - len(self.seats))
        covariance += (
            REGULARISATION * np.trace(covariance) / len(covariance) * np.eye(len(covariance))
        )
        self.whitening = np.linalg.cholesky(np.linalg.inv(covariance))
        self.means = means @ self.whitening

    def distances(self, vectors: np.ndarray) -> np.ndarray:
        """(chunks, seats) squared Mahalanobis distances to the seats' means."""
        white = vectors @ self.whitening
        distances: np.ndarray = (
            (white**2).sum(axis=1)[:, None] - 2 * white @ self.means.T + (self.means**2).sum(axis=1)
        )
        return distances

    def posteriors(self, vectors: np.ndarray) -> np.ndarray:
        """(chunks, seats) posteriors with equal priors."""
        scores = -0.5 * self.distances(vectors)
        scores -= scores.max(axis=1, keepdims=True)
        odds: np.ndarray = np.exp(scores)
        posteriors: np.ndarray = odds / odds.sum(axis=1, keepdims=True)
        return posteriors


def _inside(windows: Sequence[Window], start: float, end: float) -> Window | None:
    middle = (start + end) / 2
    return next((w for w in windows if w.start <= middle < w.end), None)


def _within(places: Sequence[Interval], start: float, end: float) -> bool:
    """Whether the middle of [start, end] falls in one of the places (the nights, the
    host's announcements, the gaps between speeches)."""
    middle = (start + end) / 2
    return any(a <= middle < b for a, b in places)


def _between_speeches(windows: Sequence[Window], nights: Sequence[Interval]) -> list[Interval]:
    """The day's short gaps from one speech to the next, where the host says «Спасибо.
    Дальше.» (a seat's aside there is told from the host by its voice: _Voices.a_seats)."""
    ordered = sorted(windows, key=lambda w: w.start)
    return [
        (before.end, after.start)
        for before, after in itertools.pairwise(ordered)
        if 0 < after.start - before.end <= GAP_SECONDS
        and not _within(nights, before.end, after.start)
    ]


HOST_LABEL = 0  # the host's voice, learnt like a seat's but never a seat
OUTSIDER_LABEL = -2  # a voice not at the table, learnt from the runs turned away as strangers


def _vectors(
    sound: Sound, chunks: Sequence[_Chunk], method: str
) -> tuple[np.ndarray, np.ndarray | None]:
    """Each cell's vector, normalised over the recording (the phone and the room are the
    same for everyone): the MFCC's statistics standardised, or the speaker encoder's
    embedding less the recording's mean embedding, at unit length; "fusion" joins both."""
    parts = []
    embedded: np.ndarray | None = None
    if method in ("mfcc", "fusion"):
        cepstral = np.stack([c.vector for c in chunks]).astype(np.float64)
        cepstral = (cepstral - cepstral.mean(axis=0)) / (cepstral.std(axis=0) + 1e-6)
        parts.append(cepstral / np.sqrt(cepstral.shape[1]) if method == "fusion" else cepstral)
    if method in ("embedding", "fusion"):
        if sound.mels is None or sound.powers is None:
            raise ValueError("the embedding needs the encoder's mel frames")
        embedded = encoder.embed(sound.mels, sound.powers, [c.context for c in chunks])
        embedded = embedded.astype(np.float64) - embedded.mean(axis=0)
        embedded /= np.maximum(np.linalg.norm(embedded, axis=1, keepdims=True), 1e-9)
        parts.append(embedded)
    return np.concatenate(parts, axis=1), embedded


def attribute(
    sound: Sound | np.ndarray,
    voiced: Sequence[Sequence[float]],
    windows: Sequence[Window],
    nights: Sequence[Interval] = (),
    *,
    host: Sequence[Interval] = (),
    threshold: float = THRESHOLD,
    method: str = METHOD,
) -> Attribution:
    """Every voiced chunk to its most likely seat (or unknown), and what that makes.
    `host`: where the host is known to speak (the phases' announcements), to learn the
    host's voice, which is then nobody's seat."""
    if isinstance(sound, np.ndarray):
        sound = Sound(sound)
    chunks = _chunks(sound.features, voiced)
    if not chunks:
        return Attribution([], {}, [], [], 0.0)
    where = [_inside(windows, c.start, c.end) for c in chunks]

    # Enrolment: the chunks well inside each speaker's own window, and the host's.
    enrolled = np.array(
        [
            w is not None
            and c.start >= w.start + EDGE_SECONDS
            and c.end <= w.end - EDGE_SECONDS
            and c.context[1] - c.context[0] >= TEACHING_SECONDS
            for c, w in zip(chunks, where, strict=True)
        ]
    )
    labels = np.array([w.seat if w else -1 for w in where])
    hosting = _outside_windows(chunks, where, host)
    between = _outside_windows(chunks, where, _between_speeches(windows, nights))
    counts = {s: int(((labels == s) & enrolled).sum()) for s in set(labels[enrolled].tolist())}
    modelled = sorted(s for s, n in counts.items() if n >= MIN_ENROLMENT_CHUNKS)
    if len(modelled) < 2:
        return Attribution([], {}, [], modelled, 0.0)
    enrolled &= np.isin(labels, modelled)
    vectors, embedded = _vectors(sound, chunks, method)
    overlaid: list[Stretch] = []
    if embedded is not None:  # a seat's voice by the host's announcement is the seat's
        seated = _Voices(embedded, labels, np.flatnonzero(enrolled))
        hosting &= ~seated.a_seats(hosting)
        hosting |= _the_hosts(embedded, hosting, between & ~seated.a_seats(between))
    if hosting.sum() >= MIN_ENROLMENT_CHUNKS:
        labels[hosting] = HOST_LABEL
        enrolled |= hosting
    backend, kept = _trained(vectors, labels, enrolled, len(modelled), threshold)
    posteriors = _smoothed(backend.posteriors(vectors), chunks)
    attributed = _attributed(chunks, where, posteriors, backend, nights, threshold)
    if embedded is not None:
        voices = _Voices(embedded, labels, kept)
        attributed = _strangers_left_out(attributed, voices)
        overlaid = _merged(_overlaps(attributed, voices, _Runners(posteriors, backend.seats)))
    stretches = sorted([*_merged(attributed), *overlaid], key=lambda s: (s.start, s.over))
    return Attribution(
        stretches,
        _figures(stretches),
        _suggestions(stretches, windows, nights),
        modelled,
        round(sum(s.seconds for s in stretches if s.seat is None and not s.over), 2),
    )


def _outside_windows(
    chunks: Sequence[_Chunk], where: Sequence[Window | None], places: Sequence[Interval]
) -> np.ndarray:
    """Which chunks fall in one of the places and in no speech."""
    return np.array(
        [w is None and _within(places, c.start, c.end) for c, w in zip(chunks, where, strict=True)]
    )


def _the_hosts(embedded: np.ndarray, hosting: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """Which of the candidates (the gaps between speeches, seats' voices left out) sound like
    the host's announcements, as near their voice as those typically stand, less STRANGE:
    the host's «Дальше» teaches the host's voice too. Without announcements heard (no
    host's voice on the recording) the gaps teach nothing: a room's murmur is no host."""
    found = np.zeros(len(hosting), dtype=bool)
    if hosting.sum() < MIN_ENROLMENT_CHUNKS or not candidates.any():
        return found
    voice = _Voices.one(embedded, np.flatnonzero(hosting), HOST_LABEL)
    chosen = np.flatnonzero(candidates)
    near = embedded[chosen] @ voice.centres[0] - voice.typical[HOST_LABEL] >= -STRANGE
    found[chosen[near]] = True
    return found


def _trained(
    vectors: np.ndarray, labels: np.ndarray, enrolled: np.ndarray, seats: int, threshold: float
) -> tuple[_Backend, np.ndarray]:
    """The seats' voices from their enrolled chunks, in two passes: the second without the
    windows' chunks that confidently sound like someone else (the interruptions and
    overlaps inside a speech are not the speaker's voice). Also which chunks taught it."""
    backend = _Backend(vectors[enrolled], labels[enrolled])
    first = backend.posteriors(vectors[enrolled])
    own = np.searchsorted(backend.seats, labels[enrolled])
    kept = first[np.arange(len(own)), own] >= 1 - threshold
    taught = np.flatnonzero(enrolled)
    if kept.sum() >= 2 * seats:
        taught = taught[kept]
        backend = _Backend(vectors[taught], labels[taught])
    return backend, taught


def _attributed(
    chunks: Sequence[_Chunk],
    where: Sequence[Window | None],
    posteriors: np.ndarray,
    backend: _Backend,
    nights: Sequence[Interval],
    threshold: float,
) -> list[Stretch]:
    """Each chunk to its most likely seat, or to nobody below the threshold or when it is
    the host's voice; inside a speech, an unsure chunk is the speaker's unless the speaker
    is the unlikely one (then another seat's if it is the likelier half, else nobody's);
    an unsure chunk between two sure ones of its likeliest seat is that seat's (a word
    the room blurred in the middle of a remark)."""
    best = posteriors.argmax(axis=1)
    sure = posteriors.max(axis=1) >= threshold
    attributed: list[Stretch] = []
    for index, chunk in enumerate(chunks):
        window = where[index]
        seat: int | None = backend.seats[best[index]]
        confidence = float(posteriors[index, best[index]])
        if seat == HOST_LABEL:
            seat = None  # the host's voice: nobody's seat
        elif confidence < threshold and not _bridged(best, sure, chunks, index):
            speaker = window.seat if window is not None else None
            if speaker is None or speaker not in backend.seats:
                seat = None
            elif (mine := float(posteriors[index, backend.seats.index(speaker)])) >= 1 - threshold:
                seat, confidence = speaker, mine  # the speaker unless another is sure
            elif confidence < 0.5:
                seat = None
        attributed.append(
            Stretch(
                chunk.start,
                chunk.end,
                seat,
                confidence,
                window.seat if window else None,
                _within(nights, chunk.start, chunk.end),
            )
        )
    return attributed


def _bridged(best: np.ndarray, sure: np.ndarray, chunks: Sequence[_Chunk], index: int) -> bool:
    """Whether the chunk's likeliest seat is the sure answer of the nearest sure chunks on
    both sides, each within PAUSE_SECONDS of it (one unsure chunk or two in a row)."""
    before = next((j for j in (index - 1, index - 2) if j >= 0 and sure[j]), None)
    after = next((j for j in (index + 1, index + 2) if j < len(chunks) and sure[j]), None)
    return (
        before is not None
        and after is not None
        and best[before] == best[index] == best[after]
        and chunks[index].start - chunks[before].end <= PAUSE_SECONDS
        and chunks[after].start - chunks[index].end <= PAUSE_SECONDS
    )


class _Voices:
    """Each voice (the seats' and the host's) as the mean of the embeddings that taught it,
    and how close (cosine) its own chunks typically stand to that mean."""

    def __init__(self, embedded: np.ndarray, labels: np.ndarray, taught: np.ndarray) -> None:
        self.embedded = embedded
        self.seats = sorted(set(labels[taught].tolist()))
        centres = np.stack([embedded[taught[labels[taught] == s]].mean(axis=0) for s in self.seats])
        self.centres = centres / np.maximum(np.linalg.norm(centres, axis=1, keepdims=True), 1e-9)
        self.typical = {
            seat: float(np.median(embedded[taught[labels[taught] == seat]] @ self.centres[i]))
            for i, seat in enumerate(self.seats)
        }

    @classmethod
    def one(cls, embedded: np.ndarray, taught: np.ndarray, label: int) -> _Voices:
        """A single voice, learnt from the taught chunks."""
        return cls(embedded, np.full(len(embedded), label), taught)

    def closeness(self, chunks: Sequence[int], seat: int) -> float:
        """The chunks' mean cosine to the seat's voice, less its own chunks' typical one."""
        centre = self.centres[self.seats.index(seat)]
        return float((self.embedded[list(chunks)] @ centre).mean()) - self.typical[seat]

    def hosts(self, chunks: Sequence[int], seat: int) -> bool:
        """Whether the chunks stand less than HOST_MARGIN nearer the seat's voice than the
        host's, each against its own cells' typical closeness (False when the host's voice
        was not learnt)."""
        if HOST_LABEL not in self.seats:
            return False
        return self.closeness(chunks, seat) - self.closeness(chunks, HOST_LABEL) < HOST_MARGIN

    def a_seats(self, chunks: np.ndarray) -> np.ndarray:
        """Which of the chunks (a mask) stand as close to some seat's voice as its own
        typically do, less STRANGE: the seat's, not a stranger's nor the host's."""
        found = np.zeros(len(chunks), dtype=bool)
        chosen = np.flatnonzero(chunks)
        if chosen.size:
            typical = np.array([self.typical[seat] for seat in self.seats])
            near = self.embedded[chosen] @ self.centres.T - typical >= -STRANGE
            found[chosen] = near.any(axis=1)
        return found

    def completing(self, chunks: Sequence[int], speaker: int) -> tuple[int, float] | None:
        """The seat whose voice, added to the speaker's, fits the chunks' mean embedding
        best (least squares on the two voices, both weights positive), if it fits it better
        than the speaker's voice alone by OVERLAP_GAIN (cosine squared), with that gain;
        the host is no seat to name."""
        mean = self.embedded[list(chunks)].mean(axis=0)
        mean /= max(float(np.linalg.norm(mean)), 1e-9)
        own = self.centres[self.seats.index(speaker)]
        alone = float(mean @ own) ** 2
        gains = {}
        for index, seat in enumerate(self.seats):
            if seat in (speaker, HOST_LABEL):
                continue
            pair = np.stack([own, self.centres[index]])
            weights = np.linalg.lstsq(pair.T, mean, rcond=None)[0]
            if (weights > 0).all():  # the squared length of the projection, less the own's
                gains[seat] = float(mean @ (pair.T @ weights)) - alone
        best = max(gains.items(), key=lambda item: item[1], default=None)
        return best if best is not None and best[1] >= OVERLAP_GAIN else None


def _runs(attributed: Sequence[Stretch]) -> list[list[int]]:
    """The chunks in runs of one seat in one place (as _merged would join them)."""
    runs: list[list[int]] = []
    for index, chunk in enumerate(attributed):
        last = attributed[runs[-1][0]] if runs else None
        if last is not None and (last.seat, last.owner, last.night) == (
            chunk.seat,
            chunk.owner,
            chunk.night,
        ):
            runs[-1].append(index)
        else:
            runs.append([index])
    return runs


def _strangers_left_out(attributed: list[Stretch], voices: _Voices) -> list[Stretch]:
    """A run of chunks given to a seat in another's speech or at night whose voice stands
    further from the seat's than the seat's own chunks typically do, by more than
    STRANGE, is nobody's: the LDA names the nearest seat even for a voice of nobody at the
    table, and such a run would be a foul. So is a run as near the host's voice, or as near
    the voice of the runs so turned away (a spectator heard again) as the seat's."""
    kept: list[tuple[int, list[int]]] = []  # a seat's runs where they would be a foul
    turned: list[int] = []
    nobodys: list[int] = []
    for run in _runs(attributed):
        first = attributed[run[0]]
        # Only where talk can become a foul: in another's speech, or at night. An aside
        # costs nobody anything, and a seat's own far-off chunks would be lost with it.
        foulable = first.night or (first.owner is not None and first.owner != first.seat)
        if first.seat is None or not foulable or first.seat not in voices.seats:
            continue
        if voices.closeness(run, first.seat) < -STRANGE:
            turned.extend(run)
        elif voices.hosts(run, first.seat):
            nobodys.extend(run)
        else:
            kept.append((first.seat, run))
    if len(turned) >= MIN_ENROLMENT_CHUNKS:  # a voice not at the table, heard again
        outsider = _Voices.one(voices.embedded, np.array(turned), OUTSIDER_LABEL)
        for seat, run in kept:
            nearer = voices.closeness(run, seat) - outsider.closeness(run, OUTSIDER_LABEL)
            if nearer < OUTSIDER_MARGIN:
                nobodys.extend(run)
    result = list(attributed)
    for index in [*turned, *nobodys]:
        result[index] = replace(result[index], seat=None, confidence=0.0)
    return result


@dataclass(frozen=True)
class _Runners:
    """The Gaussian backend's answer for a run of chunks with its speaker left out: the
    seat it finds likeliest after the speaker (the host is no seat)."""

    posteriors: np.ndarray
    seats: list[int]

    def after(self, chunks: Sequence[int], speaker: int) -> int:
        mean = self.posteriors[list(chunks)].mean(axis=0)
        for seat in (speaker, HOST_LABEL):
            if seat in self.seats:
                mean[self.seats.index(seat)] = -1.0
        return self.seats[int(mean.argmax())]


def _overlaps(attributed: list[Stretch], voices: _Voices, runners: _Runners) -> list[Stretch]:
    """Talk over the speaker: in each run of a speech's chunks given to its speaker whose
    voice there stands far from the speaker's own (OVERLAP_DROP, over OVERLAP_CHUNKS at
    least, the run reaching on while OVERLAP_EXTEND holds), the seat whose voice
    completes the run's sound best (_Voices.completing) is heard over the speaker, named
    when the Gaussian backend, the speaker left out, finds the same seat likeliest (two
    descriptions agreeing), else heard as a voice nobody is sure of. The speaker keeps
    the chunks; the other voice gets stretches of its own, marked `over`."""
    drops = np.full(len(attributed), -np.inf)  # -inf: no speaker's voice to stand beside
    for index, chunk in enumerate(attributed):
        speaker = chunk.owner
        mine = chunk.seat in (speaker, None) and not chunk.night
        if speaker is not None and speaker in voices.seats and mine:
            drops[index] = -voices.closeness([index], speaker)
    smooth = drops.copy()
    for index in map(int, np.flatnonzero(np.isfinite(drops))):
        near = [
            j
            for j in (index - 1, index + 1)
            if 0 <= j < len(drops)
            and np.isfinite(drops[j])
            and attributed[j].owner == attributed[index].owner
        ]
        smooth[index] = (2 * drops[index] + drops[near].sum()) / (2 + len(near))
    heard: list[Stretch] = []
    for run in _far_runs(attributed, smooth >= OVERLAP_EXTEND):
        speaker = attributed[run[0]].owner
        if speaker is None or (smooth[run] >= OVERLAP_DROP).sum() < OVERLAP_CHUNKS:
            continue
        found = voices.completing(run, speaker)
        if found is not None:
            named, gain = found
            other = named if runners.after(run, speaker) == named else None
            heard.extend(
                replace(attributed[i], seat=other, confidence=gain, over=True) for i in run
            )
    return heard


def _far_runs(attributed: Sequence[Stretch], far: np.ndarray) -> list[list[int]]:
    """The runs of far chunks in one speech with no pause between them: two voices at once
    leave few pauses, and the speaker's own pauses must not join far chunks into one."""
    runs: list[list[int]] = []
    for index in map(int, np.flatnonzero(far)):
        last = runs[-1][-1] if runs else None
        if (
            last is not None
            and last == index - 1
            and attributed[last].owner == attributed[index].owner
            and attributed[index].start - attributed[last].end < FRAME_SECONDS * 2
        ):
            runs[-1].append(index)
        else:
            runs.append([index])
    return runs


def _merged(chunks: list[Stretch]) -> list[Stretch]:
    """Neighbouring chunks of the same seat in the same place make one stretch."""
    merged: list[Stretch] = []
    for chunk in chunks:
        last = merged[-1] if merged else None
        if (
            last is not None
            and (last.seat, last.owner, last.night) == (chunk.seat, chunk.owner, chunk.night)
            and chunk.start - last.end <= 0.6
        ):
            span = last.seconds + chunk.seconds
            weighted = (last.confidence * last.seconds + chunk.confidence * chunk.seconds) / span
            merged[-1] = replace(last, end=chunk.end, confidence=weighted)
        else:
            merged.append(chunk)
    return merged


def _figures(stretches: list[Stretch]) -> dict[int, SeatTalk]:
    seats: dict[int, SeatTalk] = {}
    for stretch in stretches:
        if stretch.seat is None:
            continue
        talk = seats.setdefault(stretch.seat, SeatTalk())
        if stretch.night:
            talk.night += stretch.seconds
        elif stretch.owner is None:
            talk.aside += stretch.seconds
        elif stretch.owner == stretch.seat:
            talk.own += stretch.seconds
        else:
            talk.others[stretch.owner] = talk.others.get(stretch.owner, 0.0) + stretch.seconds
            if stretch.over:
                talk.over[stretch.owner] = talk.over.get(stretch.owner, 0.0) + stretch.seconds
    return dict(sorted(seats.items()))


def _talk_seconds(parts: Sequence[Stretch]) -> float:
    """How long a seat talked in its stretches (in time order): a pause of up to
    PAUSE_SECONDS between two of them is part of the talk (one remark with breaths between
    its words), a longer one is not."""
    total = 0.0
    for index, part in enumerate(parts):
        total += part.seconds
        if index and 0 < part.start - parts[index - 1].end <= PAUSE_SECONDS:
            total += part.start - parts[index - 1].end
    return total


def _remarks(parts: Sequence[Stretch]) -> list[list[Stretch]]:
    """A seat's stretches in one place (in time order) as remarks, apart by more than
    PAUSE_SECONDS; a remark heard only over the speaker counts when it is OVER_FOUL_SECONDS
    long on its own: a second of two voices here and there in a long speech is no foul,
    and a voice over another is named less surely than one alone."""
    remarks: list[list[Stretch]] = []
    for part in parts:
        if remarks and part.start - remarks[-1][-1].end <= PAUSE_SECONDS:
            remarks[-1].append(part)
        else:
            remarks.append([part])
    return [
        remark
        for remark in remarks
        if not all(part.over for part in remark) or _talk_seconds(remark) >= OVER_FOUL_SECONDS
    ]


def _suggestions(
    stretches: list[Stretch], windows: Sequence[Window], nights: Sequence[Interval]
) -> list[Suggestion]:
    """A seat's talk in one speech of another's, or in one night, when it adds up to
    HEARD_FOUL_SECONDS (its pauses between words counted in): the host decides (never applied
    by itself)."""
    totals: dict[tuple[int, Any], list[Stretch]] = {}
    for stretch in stretches:
        if stretch.seat is None:
            continue
        if stretch.owner is not None and stretch.owner != stretch.seat:
            window = _inside(windows, stretch.start, stretch.end)
            totals.setdefault((stretch.seat, ("speech", window)), []).append(stretch)
        elif stretch.night:
            night = next(n for n in nights if n[0] <= (stretch.start + stretch.end) / 2 < n[1])
            totals.setdefault((stretch.seat, ("night", night)), []).append(stretch)
    found = []
    for (seat, (kind, place)), parts in totals.items():
        seconds = sum(_talk_seconds(remark) for remark in _remarks(parts))
        if seconds >= HEARD_FOUL_SECONDS:
            during = place.seat if kind == "speech" and isinstance(place, Window) else None
            found.append(Suggestion(seat, during, parts[0].start, parts[-1].end, seconds))
    return sorted(found, key=lambda s: s.start)
