"""Links across clubs: `{% club_url club "game" game_id %}` is the address of a page of
`club` (under /c/<slug>/, or without the prefix for the first club), whichever club the
page that links to it is in; `{% platform_url "clubs" %}` a platform page's, at the root
(the first club's addresses have no prefix); `{% several_clubs as many %}` says whether the
platform has more than one club (only then the header offers the list of clubs)."""

from __future__ import annotations

from django import template
from django.urls import reverse

from club.kernel import tenancy
from club.kernel.clubs import Club

register = template.Library()


@register.simple_tag
def club_url(club: Club, name: str, *args: object) -> str:
    with tenancy.club_scope(club):
        return reverse(name, args=args)


@register.simple_tag
def platform_url(name: str, *args: object) -> str:
    with tenancy.club_scope(tenancy.first_club_id()):
        return reverse(name, args=args)


@register.simple_tag
def several_clubs() -> bool:
    """From the clubs' ids this process keeps for a few seconds: no query on a single
    club's site; several are read again (a club removed since: a test's rollback)."""
    return len(tenancy.club_ids()) > 1 and len(tenancy.club_ids(fresh=True)) > 1
