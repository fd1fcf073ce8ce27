"""`{% export_links "season" board.season.key %}`: the export's links on a page, shown to
whoever may take that export (history/exports/scopes.py says who), else nothing."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import gettext_lazy

from accounts import roles
from accounts.models import User

register = template.Library()

_TITLES = {
    "season": gettext_lazy("Download this season's games"),
    "tournament": gettext_lazy("Download the tournament's games"),
    "player": gettext_lazy("Download these games"),
    "club": gettext_lazy("Download all the club's games"),
}

_ROUTES = {
    "season": "history_export_season",
    "tournament": "history_export_tournament",
    "player": "history_export_player",
    "club": "history_export_club",
}


@register.inclusion_tag("history/_export_links.html", takes_context=True)
def export_links(context: Any, kind: str, key: object = "") -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    own = kind == "player" and isinstance(user, User) and str(user.pk) == str(key)
    if not (own or roles.can(user, "organise")):
        return {"shown": False}
    address = reverse(_ROUTES[kind], args=[key] if kind != "club" else [])
    return {
        "shown": True,
        "address": address,
        "kind": kind,
        "title": _TITLES[kind],
        "staff": not own,
    }
