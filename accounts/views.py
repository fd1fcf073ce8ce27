from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import services
from accounts.forms import ApiTokenForm, PublicationConsentForm, SignUpForm
from accounts.telegram_login import TelegramLoginError, telegram_login_verify

BACKEND = "accounts.backends.NicknameOrEmailBackend"


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:profile")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            member = services.member_sign_up(
                nickname=data["nickname"],
                email=data["email"],
                birth_date=data["birth_date"],
                password=data["password1"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            login(request, member, backend=BACKEND)
            messages.success(request, _("Welcome to the club, %(nick)s!") % {"nick": member})
            return redirect("accounts:profile")
    return render(request, "accounts/sign_up.html", {"form": form})


def _profile_context(request: HttpRequest, **extra: object) -> dict[str, object]:
    return {
        "tokens": request.user.api_tokens.all(),
        "token_form": ApiTokenForm(),
        "telegram_bot_username": settings.TELEGRAM_BOT_USERNAME,
        **extra,
    }


@login_required
@require_GET
def profile(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/profile.html", _profile_context(request))


def _render_tokens(request: HttpRequest, **extra: object) -> HttpResponse:
    template = "accounts/profile.html#tokens" if request.htmx else "accounts/profile.html"
    return render(request, template, _profile_context(request, **extra))


@login_required
@require_POST
def api_token_create(request: HttpRequest) -> HttpResponse:
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        return _render_tokens(request, token_form=form)
    issued = services.api_token_create(member=request.user, name=form.cleaned_data["name"])
    # Rendered, not redirected: the key is shown this once and never stored in clear.
    return _render_tokens(request, new_key=issued.key)


@login_required
@require_POST
def api_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    if not services.api_token_revoke(member=request.user, token_id=token_id):
        messages.error(request, _("No such token."))
    return _render_tokens(request) if request.htmx else redirect("accounts:profile")


@login_required
@require_http_methods(["GET", "POST"])
def member_settings(request: HttpRequest) -> HttpResponse:
    member = request.user
    if request.method == "POST":
        form = PublicationConsentForm(request.POST)
        if form.is_valid():
            services.member_set_publication_consent(
                member=member, consent=form.cleaned_data["publication_consent"]
            )
            if not request.htmx:
                messages.success(request, _("Settings saved."))
                return redirect("accounts:settings")
    else:
        form = PublicationConsentForm(initial={"publication_consent": member.publication_consent})
    template = "accounts/settings.html#consent" if request.htmx else "accounts/settings.html"
    return render(request, template, {"form": form})


@require_GET
def telegram_login(request: HttpRequest) -> HttpResponse:
    """Where the Telegram Login Widget sends the member back with signed data."""
    current = request.user if request.user.is_authenticated else None
    try:
        identity = telegram_login_verify(
            request.GET,
            bot_token=settings.TELEGRAM_BOT_TOKEN,
            now=timezone.now(),
            max_age_seconds=settings.TELEGRAM_LOGIN_MAX_AGE_SECONDS,
        )
        member = services.member_telegram_login(identity=identity, current=current)
    except (TelegramLoginError, services.TelegramLinkError) as error:
        messages.error(request, str(error))
        return redirect("accounts:profile" if current else "accounts:login")
    if current is None:
        login(request, member, backend=BACKEND)
        messages.success(request, _("Logged in with Telegram."))
    else:
        messages.success(request, _("Telegram is linked to your account."))
    return redirect("accounts:profile")
