"""The producer's view of a club game: everything the host's screen shows — every card, the
night's actions as they are tapped (the shots, the checks with their results, the heal,
the don's check), who is still to wake — and the public table around it (docs/live.md
«The producer's view»).

It is written with the public snapshot, in the same callback after each committed event
(games.live calls the writers it was given, `games.live.also_write`; this room stands
above games, which cannot import it), from the game as the recording judged it. It is
never kept where the public doors read: its keys are its own, and only the producer's
secret link (live.links) opens it.

The delay: a producer's link may show the table N seconds late (0–600, the producer's
choice), so a stream cannot leak the night to the players in the room. So each game keeps a
short history of its producer snapshots in the cache: an index of (when, ETag) pairs, and
each body once under its ETag. A link delayed by N gets the newest snapshot at least N
seconds old, never a newer one; until there is one it gets a «not yet» body. The history
is trimmed to the game's longest delay among its live links and a margin (read from the
database once per DELAY_KEPT_SECONDS, dropped when a producer's link is made).

Two writes of one game at the same moment (a tap and the analysis task) may each read the
index before the other adds to it: one entry is then lost, and a delayed producer skips
that state (the next one follows). Nothing newer than the delay is ever shown.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, TypedDict

from django.db.models import Max
from django.utils.translation import gettext as _

from club.kernel.cache import cache_delete, cache_get, cache_set
from club.kernel.errors import RefusalCode, Refused
from club.kernel.tenancy import club_cache_key
from games import live
from games.models import GameEvent, Ruleset
from games.queries import game_view
from games.recording import GameView
from games.rules.club import BestMoveDict, CheckDict, ClubGame, Phase
from games.rules.table import Morning, NightWaiting, host_table
from live.models import LinkKind, LiveLink

# How long an idle game's history is kept: a long pause (a break between halves) is
# answered from it; after that the first poll builds the snapshot from the database again.
HISTORY_SECONDS = 3 * 60 * 60
# Kept beyond the longest delay: a poll in flight still finds the snapshot it was due.
MARGIN_SECONDS = 30
# At most this many snapshots a game: a night of ten minutes of taps is far fewer.
MOST_KEPT = 2000
# The game's longest delay among its producer links, read again at most this often.
DELAY_KEPT_SECONDS = 300


class ProducerCard(TypedDict):
    no: int
    role: str  # the card's code
    team: str  # red, black or a loner's
    alive: bool
    out: str | None  # why the seat left (games.rules.club.Reason)
    targeted: list[str]  # tonight's slots aimed at this seat ("kill:mafia", "heal", …)


class NightAction(TypedDict):
    kind: Literal["check", "kill", "heal", "action"]
    slot: str  # "check:boss", "kill:mafia", "heal", "action:7"
    role: str  # who acted: the role's code, or "mafia" for the joint kill
    actor: int | None  # the seat, None for a joint kill
    target: int | None  # None: the role woke and did nothing
    result: str | None  # a check's: red / black, or commissar / not_commissar for the don


class ProducerNight(TypedDict):
    n: int
    now: bool  # the night under way; False: the night before this morning (or the end)
    actions: list[NightAction]  # in the order they were tapped
    waiting: list[NightWaiting]  # who may still wake tonight, the next one first


class ProducerSnapshot(TypedDict):
    game: int
    cards: list[ProducerCard]
    night: ProducerNight | None
    checks: list[CheckDict]  # every check of the game so far, in order
    morning: Morning | None  # what the host announces after the night
    best_move: BestMoveDict | None
    # The public snapshot (games.live.LiveSnapshot) as the spectators have it.
    table: dict[str, Any]


class Entry(TypedDict):
    """What a poll of a producer's link answers: the ETag, and the body (None when the
    poller holds it already)."""

    etag: str
    body: str | None


def _index_key(game_id: int) -> str:
    return club_cache_key(f"live:producer:{game_id}:index")


def _body_key(game_id: int, etag: str) -> str:
    return club_cache_key(f"live:producer:{game_id}:body:{etag.strip(chr(34))}")


def _delay_key(game_id: int) -> str:
    return club_cache_key(f"live:producer:{game_id}:delay")


def _etag(body: str) -> str:
    return '"' + hashlib.blake2b(body.encode(), digest_size=12).hexdigest() + '"'


# --- the snapshot --------------------------------------------------------------------------


def producer_snapshot(view: GameView, table: Mapping[str, Any]) -> ProducerSnapshot:
    """What the producer sees of a club game after its last event; `table` is the public
    snapshot of the same state."""
    state = view.club_state
    host = host_table(state, view.events)
    cards: list[ProducerCard] = [
        {
            "no": seat["no"],
            "role": seat["role"],
            "team": seat["team"].value,
            "alive": seat["alive"],
            "out": seat["out"].value if seat["out"] is not None else None,
            "targeted": seat["targeted"],
        }
        for seat in host["seats"]
    ]
    return {
        "game": view.game.pk,
        "cards": cards,
        "night": _night(state, view.events, host["night_waiting"]),
        "checks": host["checks"],
        "morning": host["morning"],
        "best_move": host["best_move_given"],
        "table": dict(table),
    }


def _night(
    state: ClubGame, events: Sequence[Mapping[str, Any]], waiting: list[NightWaiting] | None
) -> ProducerNight | None:
    """The night under way, or the last one (shown through the morning after it and at the
    end): its actions in the order the host tapped them."""
    started = max(
        (index for index, event in enumerate(events) if event.get("type") == "night"), default=None
    )
    if started is None:
        return None
    n = events[started].get("n")
    results = {(check.by, check.target): check.result for check in state.checks}
    actions = [
        action
        for event in events[started + 1 :]
        if (action := _action(state, event, results)) is not None
    ]
    return {
        "n": n if isinstance(n, int) else state.n,
        "now": state.phase == Phase.NIGHT,
        "actions": actions,
        "waiting": waiting or [],
    }


def _action(
    state: ClubGame, event: Mapping[str, Any], results: Mapping[tuple[int, int], str]
) -> NightAction | None:
    kind = event.get("type")
    target = event.get("target")
    target = target if isinstance(target, int) else None
    by = event.get("by")
    if kind == "check" and isinstance(by, int):
        result = results.get((by, target)) if target is not None else None
        role = state.roles[by].code
        return _made("check", f"check:{role}", role, by, target, result)
    if kind == "kill" and isinstance(by, str):
        return _made("kill", f"kill:{by}", by, None, target, None)
    if kind == "heal":
        healer = next(
            (seat for seat, role in sorted(state.roles.items()) if role.action.value == "heal"),
            None,
        )
        role = state.roles[healer].code if healer is not None else "doctor"
        return _made("heal", "heal", role, healer, target, None)
    if kind == "action" and isinstance(by, int):
        return _made("action", f"action:{by}", state.roles[by].code, by, target, None)
    return None


def _made(
    kind: Literal["check", "kill", "heal", "action"],
    slot: str,
    role: str,
    actor: int | None,
    target: int | None,
    result: str | None,
) -> NightAction:
    return {
        "kind": kind,
        "slot": slot,
        "role": role,
        "actor": actor,
        "target": target,
        "result": result,
    }


def _body(view: GameView, kept: live.Kept) -> str:
    snapshot = producer_snapshot(view, json.loads(kept["body"]))
    return json.dumps(snapshot, ensure_ascii=False, separators=(",", ":"))


# --- the history -----------------------------------------------------------------------------


def longest_delay(game_id: int) -> int:
    """The longest delay among the game's producer links not revoked (0 with none)."""
    kept = cache_get(_delay_key(game_id))
    if isinstance(kept, int):
        return kept
    longest = (
        LiveLink.objects.filter(game_id=game_id, kind=LinkKind.PRODUCER, revoked_at__isnull=True)
        .aggregate(longest=Max("delay_seconds"))
        .get("longest")
    ) or 0
    cache_set(_delay_key(game_id), longest, DELAY_KEPT_SECONDS)
    return longest


def forget_delay(game_id: int) -> None:
    """A producer's link was made: the history is trimmed to its delay from the next write."""
    cache_delete(_delay_key(game_id))


def _trimmed(index: list[list[Any]], now: float, keep: int) -> list[list[Any]]:
    """The entries a delay up to `keep` seconds may still be due: every entry newer than
    `now - keep`, and the newest one older (a delayed poll's answer while nothing newer is
    old enough)."""
    cutoff = now - keep
    old = [i for i, (at, _etag) in enumerate(index) if at <= cutoff]
    start = old[-1] if old else 0
    return index[start:][-MOST_KEPT:]


def _append(game_id: int, at: float, etag: str, body: str) -> None:
    index = cache_get(_index_key(game_id))
    index = index if isinstance(index, list) else []
    if index and index[-1][1] == etag:
        return  # the same table (the spectators setting saved): its time stays the first
    cache_set(_body_key(game_id, etag), body, HISTORY_SECONDS + MARGIN_SECONDS)
    keep = longest_delay(game_id) + MARGIN_SECONDS
    kept = _trimmed([*index, [at, etag]], at, keep)
    cache_set(_index_key(game_id), kept, HISTORY_SECONDS)
    # The bodies no delay is due any more leave at once, not hours later (an undo may bring
    # back a body still kept: its ETag is then in `kept`).
    for dropped in {old for _at, old in index} - {etag for _at, etag in kept}:
        cache_delete(_body_key(game_id, dropped))


def producer_write(view: GameView, kept: live.Kept) -> None:
    """The writer games.live calls after it kept the public snapshot `kept` of `view`."""
    body = _body(view, kept)
    _append(view.game.pk, time.time(), _etag(body), body)


def _built(game_id: int) -> list[list[Any]]:
    """A miss (an idle game's history expired, the cache restarted): the snapshot of the
    game as it stands, dated by its last event, so a delayed link gets it only once that
    event is as old as its delay."""
    view = game_view(game_id)
    if view is None or view.game.ruleset != Ruleset.CLUB:
        raise Refused(_("There is no live table of this game."), RefusalCode.NOT_FOUND)
    last = GameEvent.objects.filter(game_id=game_id).aggregate(last=Max("created_at"))["last"]
    at = (last or view.game.started_at).timestamp()
    kept = live.snapshot_write(game_id, view=view)  # writes the history too (also_write)
    index = cache_get(_index_key(game_id))
    if isinstance(index, list) and index:
        index[-1][0] = min(index[-1][0], at)
        cache_set(_index_key(game_id), index, HISTORY_SECONDS)
        return index
    assert kept is not None  # a club game's
    body = _body(view, kept)
    return [[at, _etag(body)]]


def pending_body(delay: int) -> str:
    """What a delayed link answers while no snapshot is old enough yet."""
    return json.dumps({"pending": True, "delay": delay}, separators=(",", ":"))


def producer_read(
    game_id: int, delay: int, held: Callable[[str], bool] = lambda _etag: False
) -> Entry:
    """The newest producer snapshot of the game at least `delay` seconds old, or the «not
    yet» body while there is none; a poller that `held` its ETag gets no body (a 304), and
    the cache is read once for it. A «not found» refusal for a game with no live table."""
    etag = producer_etag(game_id, delay)
    if etag is not None and held(etag):
        return {"etag": etag, "body": None}
    body = cache_get(_body_key(game_id, etag)) if etag is not None else None
    if etag is not None and not isinstance(body, str):
        # The body left the cache before its index: the history starts again from now.
        forget_history(game_id)
        etag = producer_etag(game_id, delay)
        body = cache_get(_body_key(game_id, etag)) if etag is not None else None
    if etag is None or not isinstance(body, str):
        body = pending_body(delay)
        etag = _etag(body)
        return {"etag": etag, "body": None if held(etag) else body}
    return {"etag": etag, "body": body}


def producer_etag(game_id: int, delay: int) -> str | None:
    """The ETag of the snapshot a link delayed by `delay` is due now (None: not yet one)."""
    index = cache_get(_index_key(game_id))
    if not isinstance(index, list) or not index:
        index = _built(game_id)
    due = time.time() - delay
    return next((etag for at, etag in reversed(index) if at <= due), None)


def forget_history(game_id: int) -> None:
    cache_delete(_index_key(game_id))
