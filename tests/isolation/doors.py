"""Every door of the site, found mechanically, so that a door added tomorrow is probed by
the isolation matrix without editing it: the pages from the URL resolver, the API's
operations from its OpenAPI schema, the admin's views from admin.site (its URL patterns,
each model's actions), the bot's buttons from the tuples its handlers dispatch on.

A door's path parameters are filled by their names with the other club's objects of that
kind (World.ids): a parameter no club's rows can fill fails the matrix, which then names
it; add its kind to tests/isolation/world.py."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from django.contrib import admin
from django.db import models
from django.urls import URLPattern, URLResolver, get_resolver

from bot.cards import ONLINE_BUTTONS
from club import buttons
from club.doors.api import api
from club.kernel.clubs import Club

PARAMETER = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>|\{(?P<api>\w+)\}")

# Paths that take no club's object and hold nothing of a club, outside the matrix.
NOT_A_CLUB_DOOR = {
    "healthz",  # the health check: the database, the cache and the broker answer
    "jsi18n/",  # the scripts' translations
    "games/engine.zip",  # the rules engine for the host's phone
    "games/engine-worker.js",
    "sw.js",
}


@dataclass(frozen=True)
class Door:
    """A door: its route with named parameters and the methods it is probed with."""

    route: str  # "evenings/<int:evening_id>/", "/api/v1/games/{game_id}"
    methods: tuple[str, ...]
    kind: str  # page, api, admin
    name: str = ""

    @property
    def parameters(self) -> list[str]:
        return [m["name"] or m["api"] for m in PARAMETER.finditer(self.route)]

    def paths(self, ids: dict[str, list[int | str]]) -> Iterator[str]:
        """The route with each combination of the other club's objects in its parameters."""
        names = self.parameters
        missing = [name for name in names if not ids.get(name)]
        if missing:
            raise LookupError(f"{self.route}: no club object fills {missing}")
        for values in itertools.product(*(ids[name] for name in names)):
            yield "/" + _filled(self.route, [str(v) for v in values]).lstrip("/")

    def __str__(self) -> str:
        return f"{self.kind}:{self.route}"


def _filled(route: str, values: list[str]) -> str:
    """The route with its parameters replaced by the values, in the route's order."""
    parts = PARAMETER.split(route)
    # split() puts the pattern's three groups between the texts: keep only the texts.
    texts = parts[:: PARAMETER.groups + 1]
    return "".join(text + value for text, value in zip(texts, [*values, ""], strict=True))


def _walk(patterns: list[URLPattern | URLResolver], prefix: str = "") -> Iterator[tuple[str, str]]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, route)
        else:
            yield route, pattern.name or ""


def page_doors() -> list[Door]:
    """Every page and form of the site (not the API's, not the admin's)."""
    doors = []
    for route, name in _walk(get_resolver().url_patterns):
        if route.startswith(("api/", "^api/", "admin/")) or route in NOT_A_CLUB_DOOR:
            continue
        doors.append(Door(route, ("GET", "POST"), "page", name))
    return doors


def api_doors() -> list[Door]:
    """Every operation of the API, by the schema it publishes."""
    schema = api.get_openapi_schema(path_prefix="/api/v1/")
    doors = []
    for path, operations in schema["paths"].items():
        methods = tuple(sorted(method.upper() for method in operations))
        names = sorted(op.get("operationId", "") for op in operations.values())
        doors.append(Door(path, methods, "api", ",".join(names)))
    return doors


def admin_doors() -> list[Door]:
    """Every view of the admin: each model's list, form, history, deletion and own pages."""
    doors = []
    for route, name in _walk(admin.site.get_urls()):
        if not name or name in ("login", "logout", "jsi18n", "view_on_site", "autocomplete"):
            continue
        doors.append(Door("admin/" + route.lstrip("^"), ("GET", "POST"), "admin", name))
    return doors


def admin_model(door: Door) -> type[models.Model] | None:
    """The model whose admin view a door is, by the view's name (app_model_…)."""
    for model in admin.site._registry:
        if door.name.startswith(f"{model._meta.app_label}_{model._meta.model_name}_"):
            return model
    return None


def admin_actions() -> list[tuple[type[models.Model], str]]:
    """Every model's admin actions, Django's own «delete selected» included."""
    found = []
    site_wide = {name for name, _action in admin.site.actions}
    for model, model_admin in admin.site._registry.items():
        own = {a if isinstance(a, str) else a.__name__ for a in model_admin.actions or ()}
        found += [(model, name) for name in sorted(site_wide | own)]
    return found


def club_rows(model: type[models.Model], club: Club, depth: int = 3) -> list[int]:
    """A model's rows that belong to `club`: its own key, or its parent's (a seat's game,
    a table's round's tournament), found through the foreign keys."""
    if model is Club:
        return [club.pk]
    base = model._base_manager
    if any(f.name == "club" for f in model._meta.get_fields()):
        return list(base.filter(club=club).values_list("pk", flat=True)[:2])
    for path in _paths_to_club(model, depth):
        rows = list(base.filter(**{path: club}).values_list("pk", flat=True).distinct()[:2])
        if rows:
            return rows
    return []


def _paths_to_club(model: type[models.Model], depth: int, prefix: str = "") -> Iterator[str]:
    if depth == 0:
        return
    for field in model._meta.get_fields():
        if not isinstance(field, models.ForeignKey | models.OneToOneField):
            continue
        parent = field.related_model
        if parent is Club:
            continue
        assert isinstance(parent, type)
        if any(f.name == "club" for f in parent._meta.get_fields()) and parent.__module__ != (
            "accounts.models"
        ):
            yield f"{prefix}{field.name}__club"
        else:
            yield from _paths_to_club(parent, depth - 1, f"{prefix}{field.name}__")


def bot_buttons(evening_id: int, game_id: int) -> list[str]:
    """Every button's callback data that names a club's object: the evening's buttons
    (club/buttons.py) and the online game's (bot/cards.py)."""
    evening = [f"{action}:{evening_id}" for action in buttons.ACTIONS]
    online = [f"{action}:{game_id}:1" for action in ONLINE_BUTTONS]
    return evening + online
