"""Who is calling the API: a bearer token, the site's session (with CSRF), or, on what
is published, nobody in particular."""

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from ninja.security import HttpBearer, SessionAuth

from accounts.models import User
from accounts.services import api_token_authenticate
from club.doors.requests import ApiRequest


class BearerToken(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> User | None:
        return api_token_authenticate(token)


def anonymous(request: ApiRequest) -> AnonymousUser:
    """No token and no session: a reader like any other, who sees what is published."""
    return AnonymousUser()


MEMBERS = [BearerToken(), SessionAuth()]
ANYONE = [*MEMBERS, anonymous]
# The OpenAPI of an operation open to anyone: a token or a session may be sent (the reader
# then sees their own hidden rows), or nothing (the empty requirement).
OPTIONAL_SECURITY: dict[str, object] = {"security": [{"BearerToken": []}, {"SessionAuth": []}, {}]}
