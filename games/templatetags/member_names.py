"""`{% member_name member %}`: the one way a template prints a member's name.

The tag asks games/access.may_see_name whether its reader may see the name, so a template
cannot name a member who refused publication to someone RULES.md §C hides them from
(tests/games/test_names.py fails on a template that prints `.nickname` any other way).
A hidden name prints as nothing: the template says what stands in its place, or takes the
answer with `as` and leaves the line out.

    {% member_name user %}                              the reader is the request's user
    {% member_name game.host game=game as host_name %}  on a game's own page
    {% member_name registration.member among_members=True %}   a members-only list
    {% member_name user viewer=user %}                  no request (a letter to `user`)
"""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from games import access
from games.access import Viewer
from games.models import Game

register = template.Library()


@register.simple_tag(takes_context=True)
def member_name(
    context: template.Context,
    member: object,
    *,
    viewer: Viewer = None,
    game: object = None,
    among_members: bool = False,
) -> str:
    if not isinstance(member, User):
        return ""  # nobody there (a template's missing variable is "")
    reader = viewer if viewer is not None else _reader(context)
    runs_game = isinstance(game, Game) and access.runs(reader, game)
    if access.may_see_name(member, reader, runs_game=runs_game, among_members=among_members):
        return member.nickname
    return ""


def _reader(context: template.Context) -> Viewer:
    """The request's user; without a request (a letter, an error page), nobody."""
    user: Any = getattr(context.get("request"), "user", None)
    return user if isinstance(user, User | AnonymousUser) else None
