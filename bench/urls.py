"""The site's URLs plus the ceiling probe: the least a sign-up can cost, on the same server."""

import uuid

from django.db import transaction
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


urlpatterns = [path("bench/ceiling", ceiling), *site_urlpatterns]
