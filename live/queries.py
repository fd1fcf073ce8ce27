"""What the pages read of the live links: an overlay's links to one game, one evening's
tables or one tournament, with how often each was used (templates/live/_links.html)."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from club.models import Evening
from games.models import Game
from live.models import LinkKind, LiveLink
from tournaments.models import Tournament


def overlay_links(
    *,
    game: Game | None = None,
    evening: Evening | None = None,
    tournament: Tournament | None = None,
) -> QuerySet[LiveLink]:
    """The scope's overlay links not revoked, newest first, each with `use_count` (one
    query)."""
    links = LiveLink.objects.filter(kind=LinkKind.OVERLAY, revoked_at__isnull=True)
    if game is not None:
        links = links.filter(game=game)
    elif evening is not None:
        links = links.filter(evening=evening)
    else:
        links = links.filter(tournament=tournament)
    return links.annotate(use_count=Count("uses")).order_by("table", "-created_at")
