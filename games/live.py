"""The live table: a club game's public snapshot, as its spectators follow it
(docs/live.md).

The snapshot is what the people at the table know, and nothing more: the seats with the
names a visitor may see on the game's pages (games/access.py: consent, a guest as
«Игрок N»), who has left (how, and in which day or night), the fouls, the day (its
opener, the speaker and the clock, the nominees, the vote being taken and its result, a
runoff), and once the game is over its winner and every card. Nothing of a night is in
it before the morning: the checks, the shots and the heal are never in it while the game
runs (the host announces who left; the rest is the host's), and a night's taps change
nothing in it until the day starts, so even its ETag does not tick at night.

It is written once after each committed event (`snapshot_on_commit`, from
games.recording's recording of an event), kept in the cache (Redis; the embedded default's
own cache) with its ETag (a hash of the body) and the game's spectators setting, and read
by the doors (games/views.py: /games/<id>/live.json and the page /games/<id>/live/)
without PostgreSQL while it is there. A miss (an expired key, a restart, the first poll
of a game started before this was) builds it once from the database.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, TypedDict

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from club.kernel.cache import cache_delete, cache_get, cache_get_many, cache_set
from club.kernel.errors import RefusalCode, Refused
from club.kernel.tenancy import club_cache_key
from games import access
from games.models import Game, Ruleset, Spectators
from games.queries import game_view
from games.recording import GameView
from games.rules.club import Phase, Step, TallyDict
from games.rules.table import HostTable, Timer, Vote, host_table

# A snapshot lives this long unless an event rewrites it first: a member's consent
# withdrawn mid-game reaches the spectators within this time, and an idle game's key leaves
# the cache by itself.
SNAPSHOT_SECONDS = 60
# How long «no such game» is kept for the pollers of an id with no live table.
MISSING_SECONDS = 5

logger = logging.getLogger(__name__)


class LiveSeat(TypedDict):
    no: int
    nick: str | None  # None: the reader may not see the name («Игрок N» on the page)
    guest: bool  # a guest whose name is shown (games.ratings.publication.named_guests)
    alive: bool
    fouls: int
    immune: bool
    nominated: bool  # by day, during the round
    candidate: bool  # in the vote (or its runoff) being taken
    speaking: bool
    role: str | None  # the card's code once the game is over; None until then


class LiveLeft(TypedDict):
    seat: int
    phase: str  # "day" or "night"
    n: int
    reason: str  # games.rules.club.Reason


class LiveClock(TypedDict):
    kind: Literal["last_word", "speech", "defence"]
    seat: int
    seconds: int
    turn: int  # the same clock while unchanged (the host's screen keys it so)


class LiveVote(TypedDict):
    type: Literal["votes", "first_day_expel", "hands", "expel_both"]
    among: list[int]
    about: list[int]
    round: int  # 2… for a runoff
    dropped: list[int]


class LiveScore(TypedDict):
    seat: int
    points: float


# The game's published points per seat, once its analysis is built: the ratings room's
# (games.ratings.publication.published_points), handed down by the doors and the analysis
# task, which stand above this room; None until there is an analysis.
type Scores = Callable[[Game], dict[int, float] | None]


class LiveSnapshot(TypedDict):
    game: int
    number: int
    ruleset: Literal["club"]  # an online game's is games.online.spectators'
    phase: str  # setup, day, night, over
    n: int
    step: str | None  # by day only
    over: bool
    winner: str | None
    opener: int | None  # who opened the day's round
    speaker: int | None
    clock: LiveClock | None
    nominees: list[int]
    vote: LiveVote | None
    tally: TallyDict | None  # the day's last vote and what it did
    left: list[LiveLeft]
    seats: list[LiveSeat]
    scores: list[LiveScore] | None  # once the game is over and analysed


class Kept(TypedDict):
    """What the cache holds per game: the body as served, its ETag, who may read it."""

    etag: str
    body: str
    spectators: str


def _key(game_id: int) -> str:
    return club_cache_key(f"live:game:{game_id}")


# --- what the screens above one game follow (games/live_evening.py) ----------------------
# The venue's screen and a tournament's live standings keep a frame of their own (which
# game is at which table, who sits next, the standings), built from the database. It
# changes only when one of its games' *facts* change (begun, over, scored, who may follow
# it) or when a game is seated: then the evening's stamp is drawn anew, and a frame built
# under another stamp is built again on its next read. A tap that changes none of these
# (a foul, a nomination) leaves the frames alone: the screens read that game's snapshot.
STAMP_SECONDS = 24 * 3600


def _stamp_key(evening_id: int) -> str:
    return club_cache_key(f"live:evening-stamp:{evening_id}")


def _facts_key(game_id: int) -> str:
    return club_cache_key(f"live:facts:{game_id}")


def evening_stamp(evening_id: int) -> str:
    """The evening's stamp: a frame built under it is still true (one cache read; the
    frames read it with their own key in one round trip: `evening_stamp_key`)."""
    stamp = cache_get(_stamp_key(evening_id))
    return stamp if isinstance(stamp, str) else ""


def evening_stamp_key(evening_id: int) -> str:
    return _stamp_key(evening_id)


def evening_touch(evening_id: int) -> None:
    """Something the evening's frames show has changed: draw a new stamp."""
    cache_set(_stamp_key(evening_id), secrets.token_hex(6), STAMP_SECONDS)


def evening_touch_on_commit(evening_id: int) -> None:
    """evening_touch once the transaction commits (a game seated, a round seated)."""
    transaction.on_commit(lambda: evening_touch(evening_id), robust=True)


def _facts(view: GameView, snapshot: LiveSnapshot) -> str:
    """What the frames above a game read of it from the database: begun (an event
    recorded), over, its points, who may follow it."""
    points = json.dumps(snapshot["scores"])
    return f"{view.game.last_seq > 0}|{snapshot['over']}|{points}|{view.game.spectators}"


def _frames_follow(view: GameView, snapshot: LiveSnapshot) -> None:
    evening_id = view.game.evening_id
    if evening_id is None:
        return
    facts = _facts(view, snapshot)
    if cache_get(_facts_key(view.game.pk)) != facts:
        cache_set(_facts_key(view.game.pk), facts, STAMP_SECONDS)
        evening_touch(evening_id)


def snapshot_of(view: GameView, scores: Scores | None = None) -> LiveSnapshot:
    """The public snapshot of a club game's table (see the module's docstring); `scores`
    reads the finished game's points."""
    state = view.club_state
    table = host_table(state, view.events)
    over = state.finished
    day = state.phase == Phase.DAY
    seats = _seats(view, table, day=day, over=over)
    timer = table["timer"]
    vote = table["vote"]
    return {
        "game": view.game.pk,
        "number": view.game.number,
        "ruleset": "club",
        "phase": state.phase.value,
        "n": state.n,
        "step": state.step.value if day else None,
        "over": over,
        "winner": state.winner,
        "opener": state.round_opener if day else None,
        "speaker": table["speaker"] if day else None,
        "clock": _clock(timer) if day else None,
        "nominees": list(state.nominees) if day and state.step == Step.ROUND else [],
        "vote": _vote(vote) if day else None,
        "tally": table["tally"] if day else None,
        # Eliminations are written by day or at the morning's start (the night resolves
        # when the day begins), so a night's victim is never here before the morning.
        "left": [
            {"seat": out.seat, "phase": out.phase, "n": out.n, "reason": out.reason.value}
            for out in state.eliminated
        ],
        "seats": seats,
        "scores": _scores(view, scores) if over else None,
    }


def _seats(view: GameView, table: HostTable, *, day: bool, over: bool) -> list[LiveSeat]:
    """Each seat as the public reads it: the nickname under the publication rules (a guest
    marked as one), its fouls and marks of the day, its card only once the game is over."""
    names = {
        seat.number: access.seat_nickname(seat) if access.seat_name_visible(seat, None) else None
        for seat in view.seats
    }
    guests = {
        seat.number
        for seat in view.seats
        if seat.guest is not None and seat.guest.member is None and names[seat.number] is not None
    }
    return [
        {
            "no": row["no"],
            "nick": names.get(row["no"]),
            "guest": row["no"] in guests,
            "alive": row["alive"],
            "fouls": row["fouls"],
            "immune": row["immune"],
            "nominated": row["nominated"],
            "candidate": day and row["candidate"],
            "speaking": day and row["speaking"],
            "role": row["role"] if over else None,
        }
        for row in table["seats"]
    ]


def _clock(timer: Timer | None) -> LiveClock | None:
    if timer is None:
        return None
    return {
        "kind": timer["kind"],
        "seat": timer["seat"],
        "seconds": timer["seconds"],
        "turn": timer["turn"],
    }


def _vote(vote: Vote | None) -> LiveVote | None:
    if vote is None:
        return None
    return {
        "type": vote["type"],
        "among": vote["among"],
        "about": vote["about"],
        "round": vote["round"],
        "dropped": vote["dropped"],
    }


def _scores(view: GameView, scores: Scores | None) -> list[LiveScore] | None:
    points = scores(view.game) if scores is not None else None
    if points is None:
        return None
    return [{"seat": seat, "points": value} for seat, value in sorted(points.items())]


def keep(game_id: int, snapshot: Mapping[str, Any], spectators: str) -> Kept:
    """Keep a game's snapshot as it is served: its body, its ETag (a hash of the body)
    and who may read it. A club game's is this module's; an online game's is
    games/online/spectators.py's, which stands above this room and keeps it here."""
    body = json.dumps(snapshot, ensure_ascii=False, separators=(",", ":"))
    etag = '"' + hashlib.blake2b(body.encode(), digest_size=12).hexdigest() + '"'
    kept: Kept = {"etag": etag, "body": body, "spectators": spectators}
    cache_set(_key(game_id), kept, SNAPSHOT_SECONDS)
    return kept


# Another ruleset's writer of its snapshot (games.online.spectators.online_snapshot_write):
# from the database, with the finished game's points; None for a game not of its ruleset.
type Writer = Callable[[int, Scores | None], Kept | None]


# The snapshots written beside a club game's public one, from the same state in the same
# callback: the producer's view (live/producer.py), in a room above this one that this one
# cannot import, gives its writer here when the site starts (live/apps.py).
type AlsoWriter = Callable[[GameView, Kept], None]
_ALSO_WRITTEN: list[AlsoWriter] = []


def also_write(writer: AlsoWriter) -> None:
    """Have `writer` called with the game and its public snapshot each time it is written
    after an event (not on a poll's miss: each reader builds its own)."""
    if writer not in _ALSO_WRITTEN:
        _ALSO_WRITTEN.append(writer)


def snapshot_write(
    game_id: int,
    scores: Scores | None = None,
    view: GameView | None = None,
    *,
    also: bool = True,
) -> Kept | None:
    """Build the game's snapshot and keep it: from `view` (the game as a tap's recording
    judged it, games.recording) or else from the database; None for a game that is not a
    club game (or is gone). An unreplayable record raises games.recording.Unreplayable.
    The analysis task writes it again with `scores` once the finished game is scored.
    With `also`, the writers given to `also_write` write theirs too; one that fails is
    logged and keeps neither the public snapshot nor the others from being written."""
    view = view if view is not None else game_view(game_id)
    if view is None or view.game.ruleset != Ruleset.CLUB:
        return None
    snapshot = snapshot_of(view, scores)
    kept = keep(game_id, snapshot, view.game.spectators)
    _frames_follow(view, snapshot)
    for writer in _ALSO_WRITTEN if also else ():
        try:
            writer(view, kept)
        except Exception:
            logger.exception("A live snapshot of game %s was not written", game_id)
    return kept


def snapshot_on_commit(game_id: int, view: GameView | None = None) -> None:
    """The one hook of the recording of an event: once it commits, the snapshot is
    written again (in the recording request, from the game as the recording judged it,
    `view`: no second read or fold of the log). Robust: a failure here is logged, never
    the host's tap's answer; the next poll's miss builds it again. Another ruleset's
    kept snapshot (the spectators setting changed) is dropped: the next poll builds it."""

    def write() -> None:
        if snapshot_write(game_id, view=view) is None:
            cache_delete(_key(game_id))

    transaction.on_commit(write, robust=True)


def snapshot_read(
    game_id: int, scores: Scores | None = None, writers: Sequence[Writer] = ()
) -> Kept:
    """The kept snapshot, built once on a miss (with `scores`: a club game's here, another
    ruleset's by its `writers`, which the doors pass down); a clear refusal for a game
    with no live table."""
    kept = cache_get(_key(game_id))
    if isinstance(kept, dict) and kept.get("missing"):
        raise _no_live_table()
    if isinstance(kept, dict):
        return Kept(etag=kept["etag"], body=kept["body"], spectators=kept["spectators"])
    built = snapshot_write(game_id, scores, also=False)
    for writer in writers:
        built = built or writer(game_id, scores)
    if built is None:
        # Kept a moment, so that polling an id with no game (a guess, a deleted game)
        # does not look it up in PostgreSQL every time; a game made meanwhile is followed
        # once its first event is written, or when the moment has passed.
        cache_set(_key(game_id), {"missing": True}, MISSING_SECONDS)
        raise _no_live_table()
    return built


def _no_live_table() -> Refused:
    return Refused(_("There is no live table of this game."), RefusalCode.NOT_FOUND)


def snapshots_read(game_ids: list[int], scores: Scores | None = None) -> dict[int, Kept]:
    """Many games' kept snapshots in one round trip to the cache (the venue's screen's
    tables), each miss built once as `snapshot_read` builds it; a game with no live table
    is left out."""
    found = cache_get_many([_key(game_id) for game_id in game_ids])
    kept: dict[int, Kept] = {}
    for game_id in game_ids:
        value = found.get(_key(game_id))
        if isinstance(value, dict) and value.get("missing"):
            continue
        if isinstance(value, dict):
            kept[game_id] = Kept(
                etag=value["etag"], body=value["body"], spectators=value["spectators"]
            )
        elif (built := snapshot_write(game_id, scores)) is not None:
            kept[game_id] = built
    return kept


def may_follow(spectators: str, *, member: bool) -> bool:
    """refuse_unless_spectator's answer for a screen that shows many games: whether a
    reader (a signed-in member or not) may follow a game with this setting."""
    return spectators == Spectators.PUBLIC or (spectators == Spectators.MEMBERS and member)


def refuse_unless_spectator(kept: Kept, viewer: access.Viewer) -> None:
    """The club's choice per game: everyone, the club's members (signed in), or nobody but
    whoever runs it (who has the host's screen)."""
    if kept["spectators"] == Spectators.PUBLIC:
        return
    if kept["spectators"] == Spectators.MEMBERS:
        if isinstance(viewer, User):
            return
        raise Refused(
            _("This game is shown live to the club's members: sign in to follow it."),
            RefusalCode.FORBIDDEN,
        )
    raise Refused(_("This game is not shown live."), RefusalCode.FORBIDDEN)


def spectators_set(*, game_id: int, author: User, spectators: str) -> Game:
    """Whoever runs the game (its host, or an admin not at the table) chooses who may
    follow it live; the snapshot is written again with the choice."""
    if spectators not in Spectators.values:
        raise Refused(_("Choose who may follow the game live."), RefusalCode.INVALID)
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise Refused(_("There is no live table of this game."), RefusalCode.NOT_FOUND)
        if not access.runs(author, game):
            raise Refused(
                _("Only the game's host or an admin chooses who follows it live."),
                RefusalCode.FORBIDDEN,
            )
        game.spectators = spectators
        game.save(update_fields=["spectators"])
        snapshot_on_commit(game.pk)
    return game
