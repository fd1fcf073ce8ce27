"""What an export holds and who may take it: a season's, a tournament's or the whole
club's games (the club's organisers and admins: accounts/roles.py «organise»), or one
player's games (the player themselves, and the organisers and admins). Every scope is the
club in scope's: its games are read through the club-scoped managers, and an id of another
club's tournament or member is «not found», as any door answers it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time
from enum import StrEnum
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from accounts import roles
from accounts.models import User
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from games.access import Viewer
from games.models import Game, GameStatus
from games.ratings.seasons import season_parse
from tournaments.models import Tournament


class Kind(StrEnum):
    SEASON = "season"
    TOURNAMENT = "tournament"
    PLAYER = "player"
    CLUB = "club"


class Format(StrEnum):
    CSV = "csv"  # the spreadsheet of results (history/formats/columns.py)
    PROTOCOL = "protocol"  # this platform's protocol export (docs/history.md)
    EXCHANGE = "exchange"  # the field's game exchange JSON (mafiaratings)


@dataclass(frozen=True)
class Scope:
    kind: Kind
    key: str  # the season's key, the tournament's or the member's id; "" for the club
    name: str  # what the file and its header call it
    games: Any  # QuerySet[Game]: the finished games it holds

    @property
    def filename(self) -> str:
        club = Club.current().slug
        return f"{club}-{self.kind}{'-' + self.key if self.key else ''}"


def finished_games() -> Any:
    return Game.objects.filter(status=GameStatus.FINISHED)


def refuse_unless_organiser(viewer: Viewer) -> None:
    if not roles.can(viewer, "organise"):
        raise Refused(
            _("Only the club's organisers and admins export its games."), RefusalCode.FORBIDDEN
        )


def season_scope(key: str, viewer: Viewer) -> Scope:
    refuse_unless_organiser(viewer)
    season = season_parse(key)
    if season is None:
        raise Refused(_("There is no such season."), RefusalCode.NOT_FOUND)
    zone = Club.current().zone
    start = datetime.combine(season.first_day, time.min, zone)
    end = datetime.combine(season.next_first_day, time.min, zone)
    played = Q(evening__starts_at__gte=start, evening__starts_at__lt=end) | Q(
        evening__isnull=True, started_at__gte=start, started_at__lt=end
    )
    return Scope(Kind.SEASON, season.key, season.name, finished_games().filter(played))


def tournament_scope(tournament_id: int, viewer: Viewer) -> Scope:
    refuse_unless_organiser(viewer)
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise Refused(_("There is no such tournament."), RefusalCode.NOT_FOUND)
    games = finished_games().filter(evening_id=tournament.evening_id)
    return Scope(Kind.TOURNAMENT, str(tournament.pk), tournament.name, games)


def player_scope(member_id: int, viewer: Viewer) -> Scope:
    """A player's games: their own, or any member's for the club's organisers and admins.
    A member who never sat at the club's tables is not found here."""
    own = isinstance(viewer, User) and viewer.pk == member_id
    if not own and not roles.can(viewer, "organise"):
        raise Refused(
            _("Only the player and the club's organisers export a player's games."),
            RefusalCode.FORBIDDEN,
        )
    seated = Q(seats__member_id=member_id) | Q(seats__guest__member_id=member_id)
    games = finished_games().filter(pk__in=Game.objects.filter(seated).values("pk"))
    member = roles.club_members().filter(pk=member_id).first()
    if member is None and not games.exists():
        raise Refused(_("There is no such player."), RefusalCode.NOT_FOUND)
    name = member.nickname if member is not None else str(member_id)
    return Scope(Kind.PLAYER, str(member_id), name, games)


def club_scope(viewer: Viewer) -> Scope:
    refuse_unless_organiser(viewer)
    return Scope(Kind.CLUB, "", Club.current().name, finished_games())


def scope_of(kind: str, key: str, viewer: Viewer) -> Scope:
    """The scope a door names; a key that is not a number where one is needed is «not
    found», as any other unknown key."""
    if kind == Kind.SEASON:
        return season_scope(key, viewer)
    if kind == Kind.CLUB:
        return club_scope(viewer)
    if not key.isdigit() or len(key) > 12:
        raise Refused(_("There is nothing to export here."), RefusalCode.NOT_FOUND)
    if kind == Kind.TOURNAMENT:
        return tournament_scope(int(key), viewer)
    if kind == Kind.PLAYER:
        return player_scope(int(key), viewer)
    raise Refused(_("There is nothing to export here."), RefusalCode.NOT_FOUND)
