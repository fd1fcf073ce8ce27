"""The site's URLs plus two probes: the ceiling (the least a sign-up can cost, on the same
server) and the worker's SQL statements so far (bench/live.py's `http` mode reads it before
and after a load to count what the load cost PostgreSQL)."""

import uuid
from collections.abc import Callable
from typing import Any

from django.db import connection, transaction
from django.http import HttpRequest, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from accounts.services import api_token_authenticate
from club.urls import urlpatterns as site_urlpatterns
from notifications.models import Notification


@csrf_exempt
def ceiling(request: HttpRequest) -> JsonResponse:
    """Authenticate the bearer token as the API does, then insert one row in a transaction."""
    header = request.headers.get("Authorization", "")
    member = api_token_authenticate(header.removeprefix("Bearer ").strip())
    if member is None:
        return JsonResponse({"detail": "unauthorized"}, status=401)
    with transaction.atomic():
        Notification.objects.create(dedupe_key=f"bench:{uuid.uuid4()}", member=member, text="")
    return JsonResponse({"ok": True}, status=201)


_statements = [0]


def _count(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    _statements[0] += 1
    return execute(sql, params, many, context)


# This process's (a sync worker's one thread's) connection, from the first request that
# resolves a URL on: counted like CaptureQueriesContext counts, for every later request.
connection.execute_wrappers.append(_count)


def statements(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"statements": _statements[0]})


urlpatterns = [
    path("bench/ceiling", ceiling),
    path("bench/statements", statements),
    *site_urlpatterns,
]
