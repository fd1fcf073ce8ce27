"""Who the platform's pages and the leagues' writes ask about: a platform admin, a club's
admin (accounts/roles.py, per club), and whose publication refusals hide a name (each
club's membership, accounts.models.Membership). The one place these questions meet the
accounts."""

from __future__ import annotations

from collections.abc import Iterable

from accounts import roles
from accounts.models import Membership
from club.kernel.clubs import Club
from games.access import Viewer


def is_platform_admin(who: Viewer) -> bool:
    """An active superuser: every power in every club."""
    return roles.is_platform_admin(who)


def administers(who: Viewer, club: Club) -> bool:
    """Whether `who` is `club`'s admin (a platform admin is every club's)."""
    return roles.can(who, "administer", club)


def refusals(member_ids: Iterable[int]) -> dict[int, set[int]]:
    """For each member who refused publication somewhere: the clubs they refused it in."""
    found: dict[int, set[int]] = {}
    rows = Membership.objects.filter(user_id__in=set(member_ids), publication_consent=False)
    for user_id, club_id in rows.values_list("user_id", "club_id"):
        found.setdefault(user_id, set()).add(club_id)
    return found
