"""Who the platform's pages and the leagues' writes ask about: a platform admin, a club's
admin (accounts/roles.py, per club), and whose publication refusals hide a name (each
club's membership, accounts.models.Membership). The one place these questions meet the
accounts."""

from __future__ import annotations

from collections.abc import Iterable

from accounts import roles
from accounts.models import Membership, User
from club.kernel.clubs import Club
from games.access import Viewer


def is_platform_admin(who: Viewer) -> bool:
    """An active superuser: every power in every club."""
    return roles.is_platform_admin(who)


def administers(who: Viewer, club: Club) -> bool:
    """Whether `who` is `club`'s admin (a platform admin is every club's)."""
    return roles.can(who, "administer", club)


def refusals(member_ids: Iterable[int]) -> dict[int, set[int] | None]:
    """For each member who refused publication somewhere: the clubs they refused it in, or
    None when the account's own switch is off (read as a refusal everywhere: the
    conservative reading of a switch older than the clubs)."""
    ids = set(member_ids)
    found: dict[int, set[int] | None] = {}
    rows = Membership.objects.filter(user_id__in=ids, publication_consent=False)
    for user_id, club_id in rows.values_list("user_id", "club_id"):
        clubs = found.setdefault(user_id, set())
        if clubs is not None:
            clubs.add(club_id)
    everywhere = User.objects.filter(pk__in=ids, publication_consent=False)
    found.update(dict.fromkeys(everywhere.values_list("pk", flat=True)))
    return found
