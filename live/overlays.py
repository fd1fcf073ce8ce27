"""The stream overlays' feed: what OBS's browser source polls through an overlay's link
(docs/live.md «Stream overlays»; the pages are live/views.py's, drawn by
static/live/overlay.js).

An overlay shows what everyone may see, and nothing more: the game's public snapshot
(games/live.py, the spectators' page's, byte for byte), and only of a game its club shows
live to everyone. A stream is public whoever made its link, so a game followed by members
only, or not shown live, is on no overlay: the feed says so (`"state": "hidden"`) and
carries none of it.

The feed is one JSON object:

    {"scope": "game" | "table" | "tournament",
     "state": "shown" | "hidden" | "none",  # the game followed: shown to everyone,
                                            # or not, or no game to follow yet
     "game": LiveSnapshot | null,
     "table": int | null,      # an evening's table's link: its number
     "next": NextGame | null,  # who plays next at the table (or in the tournament)
     "standings": [StandingRow] | null}

Its ETag is made of the ETags of the parts it is made of, all kept in the cache: a poll
with the ETag costs a few cache reads (the link; an evening's or a tournament's frame
under the evening's stamp, games/live_evening.py; the game's snapshot) and no PostgreSQL.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from club.kernel.errors import Refused
from games import live, live_evening
from games.live_evening import Points
from games.models import Spectators
from live import tournament
from live.links import LinkTarget
from tournaments import live as tournaments_live


@dataclass(frozen=True, slots=True)
class Feed:
    etag: str
    body: str


def _etag(*parts: str) -> str:
    text = "|".join(parts)
    return '"' + hashlib.blake2b(text.encode(), digest_size=12).hexdigest() + '"'


def _feed(
    scope: str,
    kept: live.Kept | None,
    *,
    table: int | None = None,
    next_game: str = "null",
    standings: str = "null",
    frame_etag: str = "",
) -> Feed:
    """The feed's body, its parts' kept JSON written in as they are (never parsed and
    written again: the game is the spectators' snapshot exactly)."""
    shown = kept is not None and kept["spectators"] == Spectators.PUBLIC
    state = "shown" if shown else "none" if kept is None else "hidden"
    game = kept["body"] if shown and kept is not None else "null"
    body = (
        f'{{"scope":"{scope}","state":"{state}","game":{game},'
        f'"table":{table if table is not None else "null"},"next":{next_game},'
        f'"standings":{standings}}}'
    )
    game_etag = kept["etag"] if shown and kept is not None else ""
    return Feed(etag=_etag(scope, state, str(table), game_etag, frame_etag), body=body)


def overlay_feed(
    target: LinkTarget, scores: live.Scores | None = None, points: Points | None = None
) -> Feed:
    """The feed of an opened overlay link (live.links.link_open), with the finished games'
    `scores` and the evenings' `points` (the ratings room's, handed down by the door); a
    refusal (club.kernel.errors.Refused, «not found») for a game with no live table."""
    if target.game_id is not None:
        return _feed("game", live.snapshot_read(target.game_id, scores))
    points = points if points is not None else (lambda _games: {})
    if target.evening_id is not None and target.table is not None:
        return _table_feed(target.evening_id, target.table, scores, points)
    assert target.tournament_id is not None  # a link has exactly one scope
    return tournament_feed(target.tournament_id, scores)


def _snapshot(game_id: int | None, scores: live.Scores | None) -> live.Kept | None:
    if game_id is None:
        return None
    try:
        return live.snapshot_read(game_id, scores)
    except Refused:  # gone, or not a club game
        return None


def followed(table: Mapping[str, Any] | None) -> tuple[int | None, Any]:
    """The game an evening table's overlay follows, and the next one seated after it: the
    last game begun at the table, or once it is over the one the host has seated since
    (its line-up before day 1), which then has no next."""
    if table is None:
        return None, None
    seated = table["next"]
    if seated is not None and (table["game"] is None or table["state"] == "over"):
        return seated["game"], None
    return table["game"], seated


def _table_feed(evening_id: int, number: int, scores: live.Scores | None, points: Points) -> Feed:
    """An evening table's feed: its game (games/live_evening.py's public frame says which),
    who plays next there, and the evening's standings."""
    kept = live_evening.screen_read(evening_id, points)
    frame = json.loads(kept["public"]["body"])
    table = next((one for one in frame["tables"] if one["table"] == number), None)
    game_id, seated = followed(table)
    return _feed(
        "table",
        _snapshot(game_id, scores),
        table=number,
        next_game=_json(seated),
        standings=_json(frame["standings"] or None),
        frame_etag=kept["public"]["etag"],
    )


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def tournament_feed(tournament_id: int, scores: live.Scores | None) -> Feed:
    """A tournament's feed: the game it follows and its next table's line-up
    (live/tournament.py), and its standings as its live standings page shows them to a
    visitor (tournaments/live.py, the public variant)."""
    kept = tournament.tournament_frame(tournament_id)
    frame = json.loads(kept["public"]["body"])
    standing = tournaments_live.standings_read(tournament_id)["public"]
    rows = json.loads(standing["body"])["standings"]
    return _feed(
        "tournament",
        _snapshot(frame["followed"], scores),
        next_game=_json(frame["next"]),
        standings=_json(rows or None),
        frame_etag=kept["public"]["etag"] + standing["etag"],
    )
