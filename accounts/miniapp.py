"""The club inside Telegram: the Mini App's door (RULES.md's members, on their phones).

Telegram opens /tg/ with its signed launch data; the page's script hands that data to
/tg/auth/, which checks it (accounts/telegram_webapp.py: the HMAC, the age, used once) and
logs the member in for the app's own browser; a Telegram user who is not a member yet is
led through /tg/join/ (the 21+ check as everywhere). From then on the app is the site's own
pages — evenings, «Мои вечера», settings, the player page — in the app's frame and
Telegram's colours (the session's "miniapp" flag; templates/base.html), with the same
services, throttles and bans as every other door.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import login
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import services
from accounts.forms import MiniAppJoinForm, add_refusal
from accounts.telegram_webapp import mini_app_verify
from club.doors import csp
from club.doors.requests import SiteRequest
from club.kernel import throttle
from club.kernel.errors import Refused
from club.kernel.parsing import whole_number

MINI_APP = "miniapp"  # the session's flag: this browser is the club's app in Telegram
PENDING = "miniapp_pending"  # a verified Telegram user on the way to joining
BACKEND = "accounts.backends.NicknameOrEmailBackend"
EVENING_START = "evening-"  # t.me/<bot>/<app>?startapp=evening-<id>


def _landing(start_param: str) -> str:
    """Where a launch goes: the evening a group's link named, else the club's evenings."""
    if start_param.startswith(EVENING_START):
        evening_id = whole_number(start_param.removeprefix(EVENING_START), low=1)
        if evening_id is not None:
            return reverse("evening", args=[evening_id])
    return reverse("home")


@csp.telegram_mini_app
@ensure_csrf_cookie
@require_GET
def mini_app_start(request: SiteRequest) -> HttpResponse:
    """The page Telegram opens: its script sends the launch data to mini_app_auth."""
    return render(request, "miniapp/start.html")


@csp.telegram_mini_app
@sensitive_post_parameters("init_data")
@require_POST
def mini_app_auth(request: SiteRequest) -> JsonResponse:
    """Check the launch data and open the app as its member (or lead to joining)."""
    valid_for = timedelta(seconds=settings.TELEGRAM_MINI_APP_MAX_AGE_SECONDS)
    try:
        throttle.refuse_if_over(throttle.MINI_APP_PER_ADDRESS, throttle.client_address(request))
        launch = mini_app_verify(
            request.POST.get("init_data", ""),
            bot_token=settings.TELEGRAM_BOT_TOKEN,
            now=timezone.now(),
            max_age_seconds=int(valid_for.total_seconds()),
        )
        throttle.refuse_if_over(throttle.MINI_APP_PER_USER, str(launch.identity.telegram_id))
        member = services.member_mini_app_open(launch=launch, valid_for=valid_for)
    except Refused as refusal:
        return JsonResponse({"error": refusal.message}, status=refusal.status)
    # A t.me link's `startapp` is in the signed data; a bot button's is in the page's address
    # (it only chooses the page the app opens on).
    landing = _landing(launch.start_param or request.POST.get("start", "")[:64])
    if member is None:
        request.session.flush()
        request.session[MINI_APP] = True
        request.session[PENDING] = {
            "telegram_id": launch.identity.telegram_id,
            "username": launch.identity.username,
            "first_name": launch.identity.first_name,
            "next": landing,
        }
        return JsonResponse({"next": reverse("mini_app_join")})
    login(request, member, backend=BACKEND)
    request.session[MINI_APP] = True
    return JsonResponse({"next": landing})


@csp.telegram_mini_app
@sensitive_post_parameters("birth_date")
@require_http_methods(["GET", "POST"])
def mini_app_join(request: SiteRequest) -> HttpResponse:
    """Joining the club from the app: a nickname and a birth date (the club is 21+);
    the Telegram account the launch proved is the member's login."""
    pending = request.session.get(PENDING)
    if not pending:
        return redirect("mini_app_start")
    form = MiniAppJoinForm(request.POST or None, initial={"nickname": pending["first_name"]})
    if request.method == "POST" and form.is_valid():
        try:
            throttle.refuse_if_over(throttle.SIGN_UP_PER_ADDRESS, throttle.client_address(request))
            member = services.member_sign_up(
                nickname=form.cleaned_data["nickname"],
                birth_date=form.cleaned_data["birth_date"],
                password=None,
                telegram_id=pending["telegram_id"],
                telegram_username=pending["username"],
            )
        except Refused as refusal:
            add_refusal(form, refusal)
        else:
            next_page = pending["next"]
            login(request, member, backend=BACKEND)
            request.session[MINI_APP] = True
            return redirect(next_page)
    status = 422 if request.method == "POST" else 200
    return render(request, "miniapp/join.html", {"form": form}, status=status)
