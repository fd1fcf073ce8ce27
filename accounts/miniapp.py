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

import hmac
import json
from datetime import timedelta
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import roles, services
from accounts.forms import MiniAppJoinForm, MiniAppLinkForm, add_refusal
from accounts.languages import supported_language
from accounts.models import User
from accounts.telegram_webapp import (
    MiniAppLaunch,
    mini_app_demo_on,
    mini_app_read,
    mini_app_refuse_if_old,
    mini_app_sign,
    mini_app_token,
)
from club.doors import csp
from club.doors.middleware import APP_LANGUAGE
from club.doors.requests import SiteRequest
from club.kernel import throttle
from club.kernel.errors import Refused
from club.kernel.parsing import whole_number

MINI_APP = "miniapp"  # the session's flag: this browser is the club's app in Telegram
PENDING = "miniapp_pending"  # a verified Telegram user on the way to joining
LAUNCH = "miniapp_launch"  # the signature of the launch that opened this session
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
    """The page Telegram opens: its script sends the launch data to mini_app_auth. Until
    the answer it speaks the launch's language, unless the member chose one (_language)."""
    context = {
        "chosen_language": supported_language(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
        or "",
        "default_language": settings.LANGUAGE_CODE,
    }
    return render(request, "miniapp/start.html", context)


def _reopened_here(request: SiteRequest, launch: MiniAppLaunch) -> bool:
    """Telegram's «Reload» (or a second look at /tg/) posts the same launch again: it goes
    on when this session is the one that launch opened, still as its Telegram user. Anyone
    else replaying it (another browser, a session that logged out or in as someone else)
    has no such session and is refused as before."""
    opened = request.session.get(LAUNCH)
    if not isinstance(opened, str) or not hmac.compare_digest(
        opened.encode(), launch.identity.signature.encode()
    ):
        return False
    telegram_id = launch.identity.telegram_id
    if request.user.is_authenticated:
        return request.user.telegram_id == telegram_id
    pending = request.session.get(PENDING)
    return isinstance(pending, dict) and pending.get("telegram_id") == telegram_id


def _language(request: SiteRequest, launch: MiniAppLaunch) -> str:
    """The member's own choice (the language switch's cookie), else their Telegram's."""
    return (
        supported_language(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
        or supported_language(launch.language)
        or settings.LANGUAGE_CODE
    )


@csp.telegram_mini_app
@sensitive_post_parameters("init_data")
@require_POST
def mini_app_auth(request: SiteRequest) -> JsonResponse:
    """Check the launch data and open the app as its member (or lead to joining)."""
    valid_for = timedelta(seconds=settings.TELEGRAM_MINI_APP_MAX_AGE_SECONDS)
    try:
        throttle.refuse_if_over(throttle.MINI_APP_PER_ADDRESS, throttle.client_address(request))
        now = timezone.now()
        launch = mini_app_read(
            request.POST.get("init_data", ""), bot_token=mini_app_token(), now=now
        )
        # From here on a refusal speaks the launch's language, as the start page did.
        with translation.override(_language(request, launch)):
            # Telegram's «Reload» in the session this launch opened goes on however long ago
            # it was opened; any other use of the launch must be fresh (and is used once).
            reopened = _reopened_here(request, launch)
            if not reopened:
                max_age = int(valid_for.total_seconds())
                mini_app_refuse_if_old(launch, now=now, max_age_seconds=max_age)
            throttle.refuse_if_over(throttle.MINI_APP_PER_USER, str(launch.identity.telegram_id))
            member = services.member_mini_app_open(
                launch=launch, valid_for=valid_for, reopened=reopened
            )
    except Refused as refusal:
        return JsonResponse({"error": refusal.message}, status=refusal.status)
    # A t.me link's `startapp` is in the signed data; a bot button's is in the page's address
    # (it only chooses the page the app opens on).
    landing = _landing(launch.start_param or request.POST.get("start", "")[:64])
    if member is None:
        request.session.flush()
        request.session[PENDING] = {
            "telegram_id": launch.identity.telegram_id,
            "username": launch.identity.username,
            "first_name": launch.identity.first_name,
            "next": landing,
        }
        _mark_app(request, launch)
        return JsonResponse({"next": reverse("mini_app_join")})
    login(request, member, backend=BACKEND)
    _mark_app(request, launch)
    return JsonResponse({"next": landing})


def _mark_app(request: SiteRequest, launch: MiniAppLaunch) -> None:
    """This session is the club's app, opened by this launch, in its Telegram's language."""
    request.session[MINI_APP] = True
    request.session[LAUNCH] = launch.identity.signature
    request.session[APP_LANGUAGE] = supported_language(launch.language) or ""


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
                # The app's: its Telegram's language, or the one its switch chose.
                language=translation.get_language() or "",
            )
        except Refused as refusal:
            add_refusal(form, refusal)
        else:
            next_page = pending["next"]
            login(request, member, backend=BACKEND)
            request.session[MINI_APP] = True
            return redirect(next_page)
    status = 422 if request.method == "POST" else 200
    return _join_page(request, pending, form=form, status=status)


def _join_page(
    request: SiteRequest,
    pending: dict[str, object],
    *,
    form: MiniAppJoinForm | None = None,
    link_form: MiniAppLinkForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "form": form or MiniAppJoinForm(initial={"nickname": pending["first_name"]}),
        "link_form": link_form or MiniAppLinkForm(request),
        "telegram_username": pending["username"],
    }
    return render(request, "miniapp/join.html", context, status=status)


@csp.telegram_mini_app
@sensitive_post_parameters("password")
@require_POST
def mini_app_link(request: SiteRequest) -> HttpResponse:
    """A member of the site whose Telegram is not linked yet links it from the app: the
    Telegram account is the one the verified launch named (kept in this session, never
    taken from the form), the account is proven by its password, once, behind the login's
    lock on failures; a link is never moved or replaced (member_telegram_link)."""
    pending = request.session.get(PENDING)
    if not pending:
        return redirect("mini_app_start")
    form = MiniAppLinkForm(request, data=request.POST)
    if form.is_valid():
        try:
            member = services.member_telegram_link(
                member=form.get_user(),
                telegram_id=pending["telegram_id"],
                username=pending["username"],
                language=translation.get_language() or "",
            )
        except Refused as refusal:
            add_refusal(form, refusal)
        else:
            login(request, member, backend=BACKEND)
            request.session.pop(PENDING, None)
            request.session[MINI_APP] = True
            messages.success(
                request,
                _("Telegram is linked to your account: the club's app opens as you from now on."),
            )
            return redirect(pending["next"])
    return _join_page(request, pending, link_form=form, status=422)


# --- The embedded site's developer page (DEBUG, no bot; never routed in production) -------
# Telegram's own default themes (its light and dark apps), as Telegram.WebApp.themeParams.
TELEGRAM_THEMES: dict[str, dict[str, str]] = {
    "light": {
        "bg_color": "#ffffff",
        "secondary_bg_color": "#efeff3",
        "section_bg_color": "#ffffff",
        "header_bg_color": "#ffffff",
        "text_color": "#000000",
        "hint_color": "#999999",
        "link_color": "#2481cc",
        "button_color": "#2481cc",
        "button_text_color": "#ffffff",
        "accent_text_color": "#2481cc",
        "section_header_text_color": "#6d6d71",
        "subtitle_text_color": "#999999",
        "destructive_text_color": "#ff3b30",
    },
    "dark": {
        "bg_color": "#17212b",
        "secondary_bg_color": "#232e3c",
        "section_bg_color": "#17212b",
        "header_bg_color": "#17212b",
        "text_color": "#f5f5f5",
        "hint_color": "#708499",
        "link_color": "#6ab3f3",
        "button_color": "#5288c1",
        "button_text_color": "#ffffff",
        "accent_text_color": "#6ab2f2",
        "section_header_text_color": "#6ab3f3",
        "subtitle_text_color": "#708499",
        "destructive_text_color": "#ec3942",
    },
}
NEW_USER = "new"
# Demo Telegram ids: a member's own Telegram that is not linked yet, and a newcomer's.
UNLINKED_IDS = 8_000_000_000
NEWCOMER_IDS = 9_000_000_000


def _demo_telegram_id(choice: str, members: list[User]) -> tuple[int, str] | None:
    """The Telegram user the chosen demo opens the app as (their id and first name)."""
    if choice == NEW_USER:
        newcomer = NEWCOMER_IDS + int(timezone.now().timestamp() * 1000) % 1_000_000_000
        return newcomer, "Гость"
    number = whole_number(choice, low=1)
    member = next((m for m in members if m.pk == number), None)
    if member is None:
        return None
    return member.telegram_id or UNLINKED_IDS + member.pk, member.nickname


@require_GET
def mini_app_demo(request: SiteRequest) -> HttpResponse:
    """Opens the club's app as Telegram would, for a developer without a bot: launch data
    for the chosen demo member signed with the demo token, Telegram's light or dark theme,
    in the hash where Telegram's script reads them (static/club/miniapp-demo.js stands in
    for that script when telegram.org cannot be reached)."""
    if not mini_app_demo_on():
        raise Http404
    members = list(
        User.objects.filter(is_active=True)
        .exclude(pk__in=roles.barred_member_ids())
        .order_by("telegram_id", "nickname")[:60]
    )
    theme = request.GET.get("theme", "light")
    language = request.GET.get("language", "ru")
    choice = request.GET.get("member")
    problem = ""
    if choice is not None:
        who = _demo_telegram_id(choice, members)
        if who is None or theme not in TELEGRAM_THEMES or language not in ("ru", "en"):
            problem = _("Choose a member, a theme and a language from the lists.")
        else:
            init_data = mini_app_sign(
                bot_token=settings.TELEGRAM_MINI_APP_DEMO_TOKEN,
                telegram_id=who[0],
                first_name=who[1],
                language=language,
                now=timezone.now(),
            )
            launch = {
                "tgWebAppData": init_data,
                "tgWebAppThemeParams": json.dumps(TELEGRAM_THEMES[theme]),
                "tgWebAppVersion": "8.0",
                "tgWebAppPlatform": "web",
            }
            return redirect(f"{reverse('mini_app_start')}#{urlencode(launch)}")
    # A developer's tool on the embedded site's own demo data: every nickname, whatever its
    # consent (production never routes this page).
    unlinked = _("Telegram not linked yet")
    choices = [
        (m.pk, m.nickname if m.telegram_id else f"{m.nickname} — {unlinked}") for m in members
    ]
    context = {
        "choices": choices,
        "theme": theme,
        "language": language,
        "problem": problem,
        "new_user": NEW_USER,
    }
    return render(request, "miniapp/demo.html", context, status=422 if problem else 200)
