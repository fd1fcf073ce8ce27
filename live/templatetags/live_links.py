"""{% overlay_links game=… %} (or evening=…, tournament=…): the stream overlays' links of
what a page shows, for whoever may make and revoke them there; nothing for anyone else.
One partial for the game's, the evening's line-up and the tournament's pages."""

from __future__ import annotations

from typing import Any

from django import template

from club.models import Evening
from games.models import Game
from live.links import MAX_TABLES, may_manage
from live.models import LinkKind, LiveLink
from live.queries import overlay_links as links_of
from tournaments.models import Tournament

register = template.Library()


@register.inclusion_tag("live/_links.html", takes_context=True)
def overlay_links(
    context: template.Context,
    *,
    game: Game | None = None,
    evening: Evening | None = None,
    tournament: Tournament | None = None,
) -> dict[str, Any]:
    request = context["request"]
    scope = LiveLink(kind=LinkKind.OVERLAY, game=game, evening=evening, tournament=tournament)
    if not may_manage(request.user, scope):
        return {"may": False}
    return {
        "may": True,
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "game": game,
        "evening": evening,
        "tournament": tournament,
        "tables": range(1, MAX_TABLES + 1) if evening is not None else [],
        "links": list(links_of(game=game, evening=evening, tournament=tournament)),
        "back": request.get_full_path(),
    }
