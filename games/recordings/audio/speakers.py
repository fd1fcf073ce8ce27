"""Who spoke when: the voice in a recording attributed to the seats, anchored on the host's
protocol (docs/audio.md).

Every `speech` event is a window in which one known seat speaks: those windows teach the
analysis each seat's voice, and the phases' announcements the host's. The voiced sound is
cut into half-second cells, each described by the second of voice around it: the speaker
encoder's embedding (encoder.py) joined with its MFCC's statistics (features.py), both
normalised over the recording. Each voice is a Gaussian of its cells, all sharing one
within-voice covariance (a per-game Gaussian backend: linear discriminant scoring). Then
every cell is scored against every voice: the most likely seat, with its posterior as the
confidence, or nobody — below the threshold, for the host's voice, or for a voice far from
the seat's where it would be a foul. Inside a speaker's window a cell goes to another seat
only when that seat is the confident answer (an interruption) or stands clearly beside the
speaker's weakened voice (talk over the speaker); outside every window, by day (the
«балаган»'s asides) and at night, to whoever is.

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
MIN_CHUNK_SECONDS = 0.4  # shorter voice is left unattributed
EDGE_SECONDS = 1.0  # a window's first and last second may hold the host or the last word
THRESHOLD = 0.9  # the posterior below which a chunk's speaker is "unknown"
FOUL_SECONDS = 3.0  # talk in another's speech (or at night) that is worth a suggestion
PAUSE_SECONDS = 1.0
# Two voices at once (docs/audio.md): a speech's chunk this much further from the speaker's
# voice than the speaker's own chunks typically stand, and what is left of it beside the
# speaker's voice closer to one seat's than to the next by this much (cosine). A smaller
# margin catches more and names the wrong seat on the synthetic table: a false foul.
OVERLAP_DROP = 0.2
OVERLAP_MARGIN = 0.15
MIN_ENROLMENT_CHUNKS = 3  # a seat heard less than this in its windows is not modelled
REGULARISATION = 0.05  # added to the covariance's diagonal (in units of its mean variance)
METHOD = "fusion"  # the cells' vectors: "mfcc", "embedding" or both, "fusion" (docs/audio.md)
# A seat's voice heard outside its own speeches whose embedding stands this much further
# from the seat's voice (cosine) than the seat's own cells typically do is nobody's: the
# host, a spectator, music (docs/audio.md: strangers at -0.19…-0.22, the seats' own talk
# at -0.19 or closer, the host at -0.26 or further).
STRANGE = 0.17

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

    def as_dict(self) -> dict[str, Any]:
        return {
            "own": round(self.own, 1),
            "others": {str(k): round(v, 1) for k, v in sorted(self.others.items())},
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


def _at_night(nights: Sequence[Interval], start: float, end: float) -> bool:
    middle = (start + end) / 2
    return any(a <= middle < b for a, b in nights)


HOST_LABEL = 0  # the host's voice, learnt like a seat's but never a seat


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
            w is not None and c.start >= w.start + EDGE_SECONDS and c.end <= w.end - EDGE_SECONDS
            for c, w in zip(chunks, where, strict=True)
        ]
    )
    labels = np.array([w.seat if w else -1 for w in where])
    hosting = np.array(
        [w is None and _at_night(host, c.start, c.end) for c, w in zip(chunks, where, strict=True)]
    )
    counts = {s: int(((labels == s) & enrolled).sum()) for s in set(labels[enrolled].tolist())}
    modelled = sorted(s for s, n in counts.items() if n >= MIN_ENROLMENT_CHUNKS)
    if len(modelled) < 2:
        return Attribution([], {}, [], modelled, 0.0)
    enrolled &= np.isin(labels, modelled)
    vectors, embedded = _vectors(sound, chunks, method)
    if embedded is not None:  # a seat's voice by the host's announcement is the seat's
        hosting &= ~_Voices(embedded, labels, np.flatnonzero(enrolled)).a_seats(hosting)
    if hosting.sum() >= MIN_ENROLMENT_CHUNKS:
        labels[hosting] = HOST_LABEL
        enrolled |= hosting
    backend, kept = _trained(vectors, labels, enrolled, len(modelled), threshold)
    posteriors = _smoothed(backend.posteriors(vectors), chunks)
    attributed = _attributed(chunks, where, posteriors, backend, nights, threshold)
    if embedded is not None:
        voices = _Voices(embedded, labels, kept)
        attributed = _overlaps(_strangers_left_out(attributed, voices), voices)
    stretches = _merged(attributed)
    return Attribution(
        stretches,
        _figures(stretches),
        _suggestions(stretches, windows, nights),
        modelled,
        round(sum(s.seconds for s in stretches if s.seat is None), 2),
    )


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
    the host's voice; inside a speech, an unsure chunk is the speaker's."""
    best = posteriors.argmax(axis=1)
    attributed: list[Stretch] = []
    for index, chunk in enumerate(chunks):
        window = where[index]
        seat: int | None = backend.seats[best[index]]
        confidence = float(posteriors[index, best[index]])
        if seat == HOST_LABEL:
            seat = None  # the host's voice: nobody's seat
        elif confidence < threshold:
            seat = None
            if window is not None and window.seat in backend.seats:
                seat = window.seat  # inside a speech, the speaker unless another is sure
                confidence = float(posteriors[index, backend.seats.index(window.seat)])
        attributed.append(
            Stretch(
                chunk.start,
                chunk.end,
                seat,
                confidence,
                window.seat if window else None,
                _at_night(nights, chunk.start, chunk.end),
            )
        )
    return attributed


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

    def closeness(self, chunks: Sequence[int], seat: int) -> float:
        """The chunks' mean cosine to the seat's voice, less its own chunks' typical one."""
        centre = self.centres[self.seats.index(seat)]
        return float((self.embedded[list(chunks)] @ centre).mean()) - self.typical[seat]

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

    def beside(self, chunk: int, speaker: int) -> tuple[int, float]:
        """The other voice in a chunk where the speaker's voice is weak: the chunk's
        embedding without its part along the speaker's voice, against the other voices;
        its evidence is how far it stands ahead of the next voice (cosine)."""
        centre = self.centres[self.seats.index(speaker)]
        rest = self.embedded[chunk] - (self.embedded[chunk] @ centre) * centre
        scores = self.centres @ (rest / max(float(np.linalg.norm(rest)), 1e-9))
        scores[self.seats.index(speaker)] = -np.inf
        if HOST_LABEL in self.seats:
            scores[self.seats.index(HOST_LABEL)] = -np.inf
        second, best = (int(i) for i in np.argsort(scores)[-2:])
        return self.seats[best], float(scores[best] - scores[second])


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
    table, and such a run would be a foul."""
    result = list(attributed)
    for run in _runs(attributed):
        first = attributed[run[0]]
        # Only where talk can become a foul: in another's speech, or at night. An aside
        # costs nobody anything, and a seat's own far-off chunks would be lost with it.
        foulable = first.night or (first.owner is not None and first.owner != first.seat)
        if first.seat is None or not foulable or first.seat not in voices.seats:
            continue
        if voices.closeness(run, first.seat) < -STRANGE:
            for index in run:
                result[index] = replace(result[index], seat=None, confidence=0.0)
    return result


def _overlaps(attributed: list[Stretch], voices: _Voices) -> list[Stretch]:
    """A chunk of a speech where the speaker's voice stands far from its own (by more than
    OVERLAP_DROP) and what is left of it, the speaker's part taken out, is clearly another
    seat's (ahead of the next voice by OVERLAP_MARGIN): that seat talks over the speaker.
    Its neighbours follow on half the evidence (a voice over another lasts longer than
    half a second)."""
    result = list(attributed)
    candidates: dict[int, tuple[float, int, float]] = {}
    for index, chunk in enumerate(attributed):
        speaker = chunk.owner
        if speaker is None or chunk.seat != speaker or speaker not in voices.seats:
            continue
        drop = -voices.closeness([index], speaker)
        if drop >= OVERLAP_DROP / 2:
            candidates[index] = (drop, *voices.beside(index, speaker))
    for index, (drop, other, margin) in candidates.items():
        if drop >= OVERLAP_DROP and margin >= OVERLAP_MARGIN:
            result[index] = replace(attributed[index], seat=other, confidence=margin)
    for index, (_drop, other, margin) in candidates.items():
        near = [result[j].seat for j in (index - 1, index + 1) if 0 <= j < len(result)]
        if result[index].seat != other and other in near and margin >= OVERLAP_MARGIN / 2:
            result[index] = replace(attributed[index], seat=other, confidence=margin)
    return result


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
            merged[-1] = Stretch(last.start, chunk.end, last.seat, weighted, last.owner, last.night)
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


def _suggestions(
    stretches: list[Stretch], windows: Sequence[Window], nights: Sequence[Interval]
) -> list[Suggestion]:
    """A seat's talk in one speech of another's, or in one night, when it adds up to
    FOUL_SECONDS (its pauses between words counted in): the host decides (never applied
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
        seconds = _talk_seconds(parts)
        if seconds >= FOUL_SECONDS:
            during = place.seat if kind == "speech" and isinstance(place, Window) else None
            found.append(Suggestion(seat, during, parts[0].start, parts[-1].end, seconds))
    return sorted(found, key=lambda s: s.start)
