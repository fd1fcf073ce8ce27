"""A tournament followed live (docs/live.md «A tournament's live standings»): its standings as
they stand after each finished game, and the final's table as the headline while the final
is played, on /tournaments/<id>/live/ and its JSON.

It is a screen above the games like the venue's (games/live_evening.py): a *frame* (the
standings, which game is the headline, the tables being played) built from the database
once per change and kept in the cache, with the public snapshots of the games it shows
beside it (games/live.py), served with an ETag made of theirs. The frame follows the
tournament's evening's stamp: a game of the tournament begun, over, scored or with another
spectators setting, a game started at a table, the tournament finished or its preset
changed draws a new one (games.live.evening_touch), and the next read builds the frame
again; a tap inside a game rewrites that game's snapshot only.

What it tells: the standings as the tournament's page shows them to a visitor
(tournaments/standings.py with the final's games left out while the tournament hides them;
a member who refused publication is «Игрок N», a guest «Гость N», N their number in the
tournament, as tournaments/queries.py names them), and each game as its spectators'
setting lets the reader follow it (public: everyone; members: signed-in members; off:
nobody, only that a game is under way).
"""

from __future__ import annotations

from typing import Literal, TypedDict, cast

from django.utils.translation import gettext as _

from club.kernel.cache import cache_get, cache_set
from club.kernel.errors import RefusalCode, Refused
from club.kernel.tenancy import club_cache_key
from games import access, live
from games.live_evening import FRAME_SECONDS, KeptFrame, Shown, variant
from games.models import Game, GameStatus
from tournaments import queries
from tournaments.models import Stage, Table, Tournament
from tournaments.standings import tournament_standings


class LiveStanding(TypedDict):
    place: int
    nick: str | None  # None: hidden, «Игрок N» (a guest: «Гость N») with N `player`
    player: int  # the player's number in the tournament (its sign-up order)
    guest: bool
    points: float
    games: int
    wins: int
    ci: float | None


class LiveTable(TypedDict):
    round: int
    table: int
    final: bool
    game: int
    number: int
    state: Literal["running", "over"]
    shown: Shown
    live: bool  # its snapshot is served beside the frame (this reader may follow it)


class TournamentFrame(TypedDict):
    tournament: int
    finished: bool
    hidden_final: bool  # the final's games are left out until the tournament ends
    games: int  # the finished games counted
    standings: list[LiveStanding]
    headline: LiveTable | None  # the final's table while the final is played
    tables: list[LiveTable]  # the other tables being played now


class KeptTournament(KeptFrame):
    evening: int  # whose stamp the frame follows


def _key(tournament_id: int) -> str:
    return club_cache_key(f"live:tournament:{tournament_id}")


def _standings(tournament: Tournament, tables: list[Table]) -> tuple[list[LiveStanding], int, bool]:
    standings = tournament_standings(tournament, show_final=False)
    everyone = queries.everyone(tournament, tables)  # their numbers: «Игрок N»
    number = {r.pk: n for n, r in enumerate(everyone, 1)}
    by_id = {r.pk: r for r in everyone}
    rows: list[LiveStanding] = []
    for row in standings.rows:
        registration = by_id.get(row.registration_id)
        member = registration.member if registration is not None else None
        nick = member.nickname if member and access.may_see_name(member, None) else None
        rows.append(
            {
                "place": row.place,
                "nick": nick,
                "player": number.get(row.registration_id, 0),
                "guest": member is None,
                "points": row.points,
                "games": row.sums.games,
                "wins": row.sums.wins,
                "ci": row.ci,
            }
        )
    return rows, standings.games, standings.hidden_final


def _table(table: Table, game: Game, *, member: bool) -> LiveTable:
    return {
        "round": table.round.number,
        "table": table.number,
        "final": table.round.stage == Stage.FINAL,
        "game": game.pk,
        "number": game.number,
        "state": "over" if game.status == GameStatus.FINISHED else "running",
        "shown": game.spectators,  # type: ignore[typeddict-item]
        "live": live.may_follow(game.spectators, member=member),
    }


def _headline(tournament: Tournament, tables: list[Table]) -> Table | None:
    """The final's table while the final is played: its latest begun game, until the
    tournament is finished."""
    if tournament.finished_at is not None:
        return None
    final = [
        t
        for t in tables
        if t.round.stage == Stage.FINAL and t.game is not None and t.game.last_seq > 0
    ]
    return final[-1] if final else None


def tournament_frame_build(tournament_id: int, stamp: str = "") -> KeptTournament:
    """The tournament's frame for the public and for members, from the database."""
    tournament = (
        Tournament.objects.select_related("preset", "evening").filter(pk=tournament_id).first()
    )
    if tournament is None:
        raise Refused(_("There is no such tournament."), RefusalCode.NOT_FOUND)
    tables = list(
        Table.objects.filter(round__tournament=tournament)
        .select_related("round", "game")
        .order_by("round__number", "number")
    )
    standings, counted, hidden_final = _standings(tournament, tables)
    headline = _headline(tournament, tables)
    playing = [
        t
        for t in tables
        if t is not headline
        and t.game is not None
        and t.game.last_seq > 0
        and t.game.status == GameStatus.RUNNING
    ]
    variants = []
    for member in (False, True):
        top = _table(headline, headline.game, member=member) if headline and headline.game else None
        others = [_table(t, t.game, member=member) for t in playing if t.game is not None]
        frame: TournamentFrame = {
            "tournament": tournament.pk,
            "finished": tournament.finished_at is not None,
            "hidden_final": hidden_final,
            "games": counted,
            "standings": standings,
            "headline": top,
            "tables": others,
        }
        shown = [t["game"] for t in [*([top] if top else []), *others] if t["live"]]
        variants.append(variant(frame, shown))
    public, members = variants
    return {
        "stamp": stamp,
        "differs": public["etag"] != members["etag"],
        "public": public,
        "members": members,
        "evening": tournament.evening_id,
    }


def standings_read(tournament_id: int) -> KeptTournament:
    """The tournament's kept frame if it was built under its evening's stamp (two cache
    reads), else built again and kept; a clear refusal for no such tournament."""
    kept = cache_get(_key(tournament_id))
    if isinstance(kept, dict) and kept.get("stamp") == live.evening_stamp(kept["evening"]):
        return cast("KeptTournament", kept)
    evening_id = (
        Tournament.objects.filter(pk=tournament_id).values_list("evening_id", flat=True).first()
    )
    if evening_id is None:
        raise Refused(_("There is no such tournament."), RefusalCode.NOT_FOUND)
    built = tournament_frame_build(tournament_id, live.evening_stamp(evening_id))
    cache_set(_key(tournament_id), built, FRAME_SECONDS)
    return built
