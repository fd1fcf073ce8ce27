"""The venue's screen: an evening's tables at once, its standings and who plays next, as a
screen across the room shows them (docs/live.md «The venue's screen»); and the frames that
screens above one game are made of (a tournament's live standings and the stream overlays
may use them too).

A screen's JSON is its *frame*, built from the database once per change and kept in the
cache, with the public snapshots of the games it shows beside it (games/live.py: the same
snapshot as each game's spectators' page, never rendered again here):

    {"frame": EveningFrame, "live": {"<game id>": LiveSnapshot, ...}}

The frame changes rarely: a game seated, begun, over, scored, or who may follow it changed
(games.live's evening stamp). A tap inside a game changes its snapshot only, so a poll
costs reading the frame and its games' snapshots from the cache (two round trips), and the
ETag is a hash of their ETags: a poller that has it gets 304 without PostgreSQL.

Who reads what: everything is what a visitor may read (names by the publication rules,
games/access.py: «Игрок N» for whoever refused publication, a guest likewise), and each
game's own spectators setting (Game.spectators) says whether its table is shown: a public
game to everyone, a members-only game to signed-in members (their variant of the frame),
a game not shown live to nobody: its table says only that a game is under way there, and
its next line-up is not named either. The standings are the games' published points (the
game's page publishes them once analysed, whoever may follow it live).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, TypedDict, cast

from django.utils.translation import gettext as _

from club.kernel.cache import cache_get_many, cache_set
from club.kernel.errors import RefusalCode, Refused
from club.kernel.tenancy import club_cache_key
from club.models import Evening, Registration
from games import access, live
from games.models import Game, GameStatus, Seat

# A frame lives this long unless a change draws a new stamp first: a member's consent
# withdrawn reaches the screens within this time.
FRAME_SECONDS = 60


class SeatPoints(NamedTuple):
    """One seat's published points in a finished game, and whether it won."""

    points: float
    won: bool


# The published points of finished games, by game and seat, once analysed (games.ratings.
# publication.published_points_of, handed down by the doors: the ratings room is above
# this one); a game not analysed yet is absent.
type Points = Callable[[Sequence[int]], Mapping[int, Mapping[int, SeatPoints]]]

Shown = Literal["public", "members", "off"]


class NamedSeat(TypedDict):
    no: int
    nick: str | None  # None: «Игрок N» (the seat) on the screen
    guest: bool


class NextGame(TypedDict):
    game: int
    number: int
    shown: Shown
    seats: list[NamedSeat] | None  # None: this game is not shown to this reader


class TableFrame(TypedDict):
    table: int
    game: int | None  # the game shown at it: the last one begun
    number: int | None
    state: Literal["running", "over"] | None
    shown: Shown | None
    live: bool  # its snapshot is served beside the frame (this reader may follow it)
    next: NextGame | None  # a game seated at it and not begun


class StandingRow(TypedDict):
    place: int
    nick: str | None  # None: hidden, «Игрок N» with N `player`
    player: int  # the player's number in the evening's sign-up order
    guest: bool
    points: float
    games: int
    wins: int


class EveningFrame(TypedDict):
    evening: int
    tables: list[TableFrame]
    standings: list[StandingRow]
    scored: int  # the finished games whose points are counted
    finished: int


class FrameVariant(TypedDict):
    body: str
    etag: str
    games: list[int]  # whose snapshots are served beside the frame


class KeptFrame(TypedDict):
    """What the cache holds per screen: its frame for the public and for members."""

    stamp: str
    differs: bool  # the members' variant shows more: its reader must be looked up
    public: FrameVariant
    members: FrameVariant


@dataclass(frozen=True)
class Served:
    etag: str
    body: str


def _etag(text: str) -> str:
    return '"' + hashlib.blake2b(text.encode(), digest_size=12).hexdigest() + '"'


def variant(frame: Mapping[str, Any], games: list[int]) -> FrameVariant:
    body = json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
    return {"body": body, "etag": _etag(body), "games": games}


def frame_read(key: str, evening_id: int, build: Callable[[str], KeptFrame]) -> KeptFrame:
    """The kept frame under `key` if it was built under the evening's stamp (one round
    trip to the cache), else built again with `build(stamp)` and kept."""
    stamp_key = live.evening_stamp_key(evening_id)
    found = cache_get_many([key, stamp_key])
    stamp = found.get(stamp_key)
    stamp = stamp if isinstance(stamp, str) else ""
    kept = found.get(key)
    if isinstance(kept, dict) and kept.get("stamp") == stamp:
        return cast("KeptFrame", kept)
    built = build(stamp)
    cache_set(key, built, FRAME_SECONDS)
    return built


def served(kept: KeptFrame, *, member: bool, scores: live.Scores | None = None) -> Served:
    """The screen's JSON for a reader (a signed-in member or not): the frame and the
    snapshots of the games it shows, with an ETag made of theirs."""
    chosen = kept["members"] if member and kept["differs"] else kept["public"]
    snapshots = live.snapshots_read(chosen["games"], scores)
    shown = [
        (game_id, one)
        for game_id, one in sorted(snapshots.items())
        if live.may_follow(one["spectators"], member=member)
    ]
    etag = _etag(chosen["etag"] + "".join(one["etag"] for _id, one in shown))
    games = ",".join(f'"{game_id}":{one["body"]}' for game_id, one in shown)
    return Served(etag=etag, body=f'{{"frame":{chosen["body"]},"live":{{{games}}}}}')


# --- the evening's frame --------------------------------------------------------------


def _key(evening_id: int) -> str:
    return club_cache_key(f"live:evening:{evening_id}")


def _person(seat: Seat) -> tuple[str, int]:
    """One key per person of the evening: a member (a guest linked to one is the member)."""
    if seat.member_id is not None:
        return ("m", seat.member_id)
    guest = seat.guest
    assert guest is not None
    return ("m", guest.member_id) if guest.member_id is not None else ("g", guest.pk)


def named_seat(seat: Seat) -> NamedSeat:
    """A seat as a visitor reads it (games/live.py's seats do the same)."""
    nick = access.seat_nickname(seat) if access.seat_name_visible(seat, None) else None
    guest = seat.guest is not None and seat.guest.member is None and nick is not None
    return {"no": seat.number, "nick": nick, "guest": guest}


def _sign_up_numbers(evening: Evening) -> dict[tuple[str, int], int]:
    """Each person's number in the evening's sign-up order: «Игрок N» of the standings."""
    rows: list[tuple[int | None, int | None, int | None]] = list(
        Registration.objects.filter(evening=evening)
        .order_by("arrival", "pk")
        .values_list("member_id", "guest_id", "guest__member_id")
    )
    numbers: dict[tuple[str, int], int] = {}
    for member_id, guest_id, guests_member in rows:
        member = member_id if member_id is not None else guests_member
        if member is not None:
            numbers.setdefault(("m", member), len(numbers) + 1)
        elif guest_id is not None:
            numbers.setdefault(("g", guest_id), len(numbers) + 1)
    return numbers


def _standings(
    evening: Evening,
    finished: list[Game],
    seats: Mapping[int, list[Seat]],
    points: Mapping[int, Mapping[int, SeatPoints]],
) -> list[StandingRow]:
    """The sum of each person's published points over the evening's scored games; equal
    points ordered by wins, then the sign-up order (a place shared all the same)."""
    numbers = _sign_up_numbers(evening)
    rows: dict[tuple[str, int], StandingRow] = {}
    for game in finished:
        scored = points.get(game.pk)
        if scored is None:
            continue
        for seat in seats.get(game.pk, []):
            one = scored.get(seat.number)
            if one is None:
                continue
            person = _person(seat)
            named = named_seat(seat)
            row = rows.setdefault(
                person,
                {
                    "place": 0,
                    "nick": named["nick"],
                    "player": numbers.setdefault(person, len(numbers) + 1),
                    "guest": named["guest"],
                    "points": 0.0,
                    "games": 0,
                    "wins": 0,
                },
            )
            row["points"] = round(row["points"] + one.points, 2)
            row["games"] += 1
            row["wins"] += one.won
    ordered = sorted(rows.values(), key=lambda r: (-r["points"], -r["wins"], r["player"]))
    previous: tuple[float, int] | None = None
    for n, row in enumerate(ordered, 1):
        if (row["points"], row["wins"]) != previous:
            place, previous = n, (row["points"], row["wins"])
        row["place"] = place
    return ordered


def _tables(
    evening: Evening, games: list[Game], seats: Mapping[int, list[Seat]]
) -> list[dict[str, Any]]:
    """Each table's game shown (the last one begun) and the one seated after it."""
    numbers = sorted(set(range(1, evening.tables + 1)) | {game.table for game in games})
    tables = []
    for number in numbers:
        at = [game for game in games if game.table == number]
        begun = [game for game in at if game.last_seq > 0]
        shown = begun[-1] if begun else None
        waiting = [
            game
            for game in at
            if game.last_seq == 0
            and game.status == GameStatus.RUNNING
            and (shown is None or game.number > shown.number)
        ]
        seated = waiting[-1] if waiting else None
        tables.append(
            {
                "table": number,
                "game": shown,
                "next": seated,
                "next_seats": [named_seat(s) for s in seats.get(seated.pk, [])] if seated else [],
            }
        )
    return tables


def _table_frame(table: Mapping[str, Any], *, member: bool) -> TableFrame:
    game: Game | None = table["game"]
    seated: Game | None = table["next"]
    following = game is not None and live.may_follow(game.spectators, member=member)
    return {
        "table": table["table"],
        "game": game.pk if game else None,
        "number": game.number if game else None,
        "state": None if game is None else ("over" if game.finished else "running"),
        "shown": game.spectators if game else None,  # type: ignore[typeddict-item]
        "live": following,
        "next": None
        if seated is None
        else {
            "game": seated.pk,
            "number": seated.number,
            "shown": seated.spectators,  # type: ignore[typeddict-item]
            "seats": table["next_seats"]
            if live.may_follow(seated.spectators, member=member)
            else None,
        },
    }


def evening_frame_build(evening_id: int, points: Points, stamp: str = "") -> KeptFrame:
    """The evening's frame for the public and for members, from the database (five
    queries whatever the evening's size)."""
    evening = Evening.objects.filter(pk=evening_id).first()
    if evening is None:
        raise Refused(_("There is no such evening."), RefusalCode.NOT_FOUND)
    games = list(Game.objects.filter(evening=evening).order_by("number"))
    finished = [game for game in games if game.finished]
    scored = points([game.pk for game in finished]) if finished else {}
    seats: dict[int, list[Seat]] = {}
    wanted = [game.pk for game in games if game.finished or game.last_seq == 0]
    for seat in (
        Seat.objects.filter(game_id__in=wanted)
        .select_related("member", "guest__member")
        .order_by("game_id", "number")
    ):
        seats.setdefault(seat.game_id, []).append(seat)
    tables = _tables(evening, games, seats)
    standings = _standings(evening, finished, seats, scored) if scored else []
    variants = []
    for member in (False, True):
        frame: EveningFrame = {
            "evening": evening.pk,
            "tables": [_table_frame(table, member=member) for table in tables],
            "standings": standings,
            "scored": len(scored),
            "finished": len(finished),
        }
        shown = [t["game"] for t in frame["tables"] if t["live"] and t["game"] is not None]
        variants.append(variant(frame, shown))
    public, members = variants
    return {
        "stamp": stamp,
        "differs": public["etag"] != members["etag"],
        "public": public,
        "members": members,
    }


def screen_read(evening_id: int, points: Points) -> KeptFrame:
    """The evening's kept frame, built again once after a change (a clear refusal for no
    such evening)."""
    return frame_read(
        _key(evening_id),
        evening_id,
        lambda stamp: evening_frame_build(evening_id, points, stamp),
    )
