"""Writes on leagues: a club joins by agreement in two steps (the league's admin invites,
the club's admin accepts or declines), a club leaves, a series takes a club's tournament.
Every change to who is in a league that accepts rated games rebuilds the platform's rating
in the worker (leagues/rating.py)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from leagues.models import JoinStatus, League, LeagueMembership, Series, SeriesTournament
from leagues.people import administers, is_platform_admin
from leagues.rating import platform_rating_queue
from tournaments.models import Tournament


def runs_league(who: User | None, league: League) -> bool:
    """The league's admins, and a platform admin."""
    if who is None or not who.is_active:
        return False
    return is_platform_admin(who) or league.admins.filter(pk=who.pk).exists()


def _refuse_unless_runs(who: User, league: League) -> None:
    if not runs_league(who, league):
        raise Refused(_("Only the league's admins may do this."), RefusalCode.FORBIDDEN)


def league_invite(*, league: League, club: Club, by: User) -> LeagueMembership:
    """The league's admin invites a club (again, after a decline or a leave); an invited or
    accepted club stays as it is."""
    _refuse_unless_runs(by, league)
    with transaction.atomic():
        row, created = LeagueMembership.objects.select_for_update().get_or_create(
            league=league, club=club, defaults={"invited_by": by}
        )
        if not created and row.status in (JoinStatus.DECLINED, JoinStatus.LEFT):
            row.status, row.invited_by, row.invited_at = JoinStatus.INVITED, by, timezone.now()
            row.answered_by, row.answered_at = None, None
            row.save()
    return row


def league_answer(*, membership_id: int, accept: bool, by: User) -> LeagueMembership:
    """The invited club's admin says yes (the club is in the league) or no."""
    with transaction.atomic():
        row = (
            LeagueMembership.objects.select_for_update()
            .select_related("league", "club")
            .filter(pk=membership_id)
            .first()
        )
        if row is None:
            raise Refused(_("There is no such invitation."), RefusalCode.NOT_FOUND)
        if not administers(by, row.club):
            raise Refused(
                _("Only the club's admin may answer the league's invitation."),
                RefusalCode.FORBIDDEN,
            )
        if row.status != JoinStatus.INVITED:
            raise Refused(_("This invitation has been answered."), RefusalCode.CONFLICT)
        row.status = JoinStatus.ACCEPTED if accept else JoinStatus.DECLINED
        row.answered_by, row.answered_at = by, timezone.now()
        row.save(update_fields=["status", "answered_by", "answered_at"])
        if accept and row.league.accepts_rated_games:
            platform_rating_queue()
    return row


def league_leave(*, membership_id: int, by: User) -> LeagueMembership:
    """The club's admin takes the club out (or the league's admin lets it go): its rated
    games leave the platform's rating, its tournaments stay in the series they were in."""
    with transaction.atomic():
        row = (
            LeagueMembership.objects.select_for_update()
            .select_related("league", "club")
            .filter(pk=membership_id, status=JoinStatus.ACCEPTED)
            .first()
        )
        if row is None:
            raise Refused(_("The club is not in this league."), RefusalCode.NOT_FOUND)
        if not (administers(by, row.club) or runs_league(by, row.league)):
            raise Refused(
                _("Only the club's or the league's admin may do this."), RefusalCode.FORBIDDEN
            )
        row.status, row.answered_by, row.answered_at = JoinStatus.LEFT, by, timezone.now()
        row.save(update_fields=["status", "answered_by", "answered_at"])
        if row.league.accepts_rated_games:
            platform_rating_queue()
    return row


def league_accepts_set(*, league: League, accepts: bool, by: User) -> League:
    """Whether the league's clubs' rated games count in the platform's rating."""
    _refuse_unless_runs(by, league)
    with transaction.atomic():
        if league.accepts_rated_games != accepts:
            league.accepts_rated_games = accepts
            league.save(update_fields=["accepts_rated_games"])
            platform_rating_queue()
    return league


def series_tournament_add(*, series: Series, tournament_id: int, by: User) -> SeriesTournament:
    """A club's tournament joins the series: the club must be in the series' league."""
    _refuse_unless_runs(by, series.league)
    tournament = Tournament.all_clubs.filter(pk=tournament_id).first()
    if tournament is None:
        raise Refused(_("There is no such tournament."), RefusalCode.NOT_FOUND)
    joined = LeagueMembership.objects.filter(
        league=series.league, club=tournament.club, status=JoinStatus.ACCEPTED
    ).exists()
    if not joined:
        raise Refused(
            _("The tournament's club is not in the series' league."), RefusalCode.CONFLICT
        )
    row, _created = SeriesTournament.objects.get_or_create(series=series, tournament=tournament)
    return row
