"""«This is me»: a member claims an unclaimed player of the club's old records; the
organiser approves or refuses. On approval the player's seats become the member's (the
guest stays, linked to the member, so a later import of the same name finds them) and
those games' analyses and the ratings are rebuilt in the worker."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import roles
from accounts.models import User
from club.kernel.errors import RefusalCode, Refused
from club.kernel.queueing import queue_on_commit
from club.models import Guest
from games.models import Seat
from history.models import ClaimStatus, HistoryClaim

GAMES_TASK = "history.tasks.claimed_games_rebuild"


def unclaimed_players() -> list[Guest]:
    """The club's players of the records nobody has been linked to, by name."""
    return list(
        Guest.objects.filter(from_history=True, member__isnull=True)
        .order_by("name", "pk")
        .distinct()
    )


def claim_request(*, guest_id: int, member: User) -> HistoryClaim:
    if not roles.club_members().filter(pk=member.pk).exists():
        raise Refused(_("Only the club's members can claim a player."), RefusalCode.FORBIDDEN)
    guest = Guest.objects.filter(pk=guest_id, from_history=True).first()
    if guest is None:
        raise Refused(_("There is no such player in the club's records."), RefusalCode.NOT_FOUND)
    if guest.member_id is not None:
        raise Refused(_("This player has been claimed already."), RefusalCode.CONFLICT)
    if HistoryClaim.objects.filter(guest=guest, member=member, status=ClaimStatus.PENDING).exists():
        raise Refused(_("Your claim is waiting for the organiser."), RefusalCode.CONFLICT)
    # Told now, not after the organiser's approval fails on it (which checks again: a
    # later import may seat them together meanwhile).
    if _sat_together(guest, member):
        raise Refused(
            _("You and this player sat at one table: this player cannot be you."),
            RefusalCode.CONFLICT,
        )
    return HistoryClaim.objects.create(guest=guest, member=member)


def _sat_together(guest: Guest, member: User) -> bool:
    games = Seat.objects.filter(guest=guest).values("game_id")
    return Seat.objects.filter(member=member, game__in=games).exists()


def claim_decide(*, claim_id: int, actor: User, approve: bool) -> HistoryClaim:
    if not roles.can(actor, "organise"):
        raise Refused(_("Only the club's organisers decide claims."), RefusalCode.FORBIDDEN)
    with transaction.atomic():
        claim = (
            HistoryClaim.objects.select_for_update()
            .select_related("guest", "member")
            .filter(pk=claim_id)
            .first()
        )
        if claim is None:
            raise Refused(_("There is no such claim."), RefusalCode.NOT_FOUND)
        if claim.status != ClaimStatus.PENDING:
            raise Refused(_("This claim has been decided already."), RefusalCode.CONFLICT)
        guest = Guest.objects.select_for_update().get(pk=claim.guest_id)
        if approve:
            _seats_move(guest, claim.member)
        claim.status = ClaimStatus.APPROVED if approve else ClaimStatus.REFUSED
        claim.decided_by, claim.decided_at = actor, timezone.now()
        claim.save(update_fields=["status", "decided_by", "decided_at"])
    return claim


def _seats_move(guest: Guest, member: User) -> None:
    if guest.member_id is not None:
        raise Refused(_("This player has been claimed already."), RefusalCode.CONFLICT)
    seats = Seat.objects.filter(guest=guest)
    if _sat_together(guest, member):
        raise Refused(
            _("%(member)s and this player sat at one table: they cannot be one person.")
            % {"member": member.nickname},
            RefusalCode.CONFLICT,
        )
    game_ids = list(seats.values_list("game_id", flat=True))
    seats.update(member=member, guest=None)
    guest.member = member
    guest.save(update_fields=["member"])
    # Every other claim on the same player is answered by this one.
    HistoryClaim.objects.filter(guest=guest, status=ClaimStatus.PENDING).exclude(
        member=member
    ).update(status=ClaimStatus.REFUSED, decided_at=timezone.now())
    queue_on_commit(GAMES_TASK, game_ids)
