"""The request types the doors see, for the type checker: the site's pages carry htmx's
details and the member or a visitor; behind login_required, always a member; the API's
callers are on `request.auth` (django-ninja)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.models import User


class SiteRequest(HttpRequest):
    user: User | AnonymousUser
    htmx: HtmxDetails


class MemberRequest(SiteRequest):
    user: User


class ApiRequest(HttpRequest):
    """A call to the members' API: a token or a session authenticated it."""

    auth: User


class PublicApiRequest(HttpRequest):
    """A call to what is published: a member, or nobody in particular."""

    auth: User | AnonymousUser


def member_of(request: HttpRequest) -> User:
    """The member behind a request that only members reach (admin, login_required)."""
    user = request.user
    assert isinstance(user, User)
    return user
