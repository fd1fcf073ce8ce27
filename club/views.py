from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from club import health
from club.models import ClubSettings, Evening


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    context = {
        "club_settings": ClubSettings.load(),
        "evenings": Evening.objects.upcoming()[:4],
    }
    return render(request, "club/home.html", context)


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and the broker answer; 503 naming the part that does not."""
    problems = {"database": health.database_problem(), "broker": health.broker_problem()}
    body: dict[str, str] = {part: problem or "ok" for part, problem in problems.items()}
    failing = [part for part, problem in problems.items() if problem]
    body["status"] = "ok" if not failing else "failing: " + ", ".join(failing)
    return JsonResponse(body, status=503 if failing else 200)


@csrf_exempt  # answers every method with 404; a CSRF 403 would hide that
def api_not_found(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"detail": _("No such API endpoint.")}, status=404)
