import hmac
import json
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.i18n import set_language

from accounts import roles, services
from accounts.forms import (
    ApiTokenForm,
    MemberSettingsForm,
    OutboxPasswordResetForm,
    SignUpForm,
    add_refusal,
)
from accounts.languages import supported_language
from accounts.models import NotifyBy
from accounts.telegram_login import TelegramIdentity, telegram_login_verify
from club.doors import csp
from club.doors.requests import MemberRequest, SiteRequest
from club.doors.responses import action_answer, answers_refusals
from club.kernel import throttle
from club.kernel.bots import club_bot
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from history.exports.forgetting import member_forget_everywhere
from history.exports.member_data import member_data
from notifications.sender import notification_deliver

BACKEND = "accounts.backends.NicknameOrEmailBackend"


@require_http_methods(["GET", "POST"])
def sign_up(request: SiteRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:profile")
    form = SignUpForm(request.POST or None)
    address = throttle.client_address(request)
    if request.method == "POST":
        try:
            throttle.refuse_if_over(throttle.SIGN_UP_ATTEMPTS_PER_ADDRESS, address)
            if wait := throttle.waiting(throttle.SIGN_UP_PER_ADDRESS, address):
                raise throttle.refusal(wait)
        except Refused as refusal:
            form.is_valid()
            form.add_error(None, refusal.message)
            return render(request, "accounts/sign_up.html", {"form": form}, status=refusal.status)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            member = services.member_sign_up(
                nickname=data["nickname"],
                email=data["email"],
                birth_date=data["birth_date"],
                password=data["password1"],
                language=translation.get_language() or "",  # the page's, until they choose
            )
        except Refused as refusal:
            add_refusal(form, refusal)
        else:
            throttle.count(throttle.SIGN_UP_PER_ADDRESS, address)  # a member made counts
            login(request, member, backend=BACKEND)
            messages.success(request, _("Welcome to the club, %(nick)s!") % {"nick": member})
            return redirect("accounts:profile")
    return render(request, "accounts/sign_up.html", {"form": form})


def _profile_context(request: MemberRequest, **extra: object) -> dict[str, object]:
    if LINK_NONCE not in request.session:
        request.session[LINK_NONCE] = secrets.token_urlsafe(24)
    return {
        "tokens": request.user.api_tokens.all(),
        "token_form": ApiTokenForm(),
        "telegram_link_nonce": request.session[LINK_NONCE],
        # The standing in this club (the one whose site this is), not in another.
        "standing": roles.membership_in(request.user),
        **extra,
    }


@csp.telegram_login
@login_required
@require_GET
def profile(request: MemberRequest) -> HttpResponse:
    return render(request, "accounts/profile.html", _profile_context(request))


def _render_tokens(request: MemberRequest, **extra: object) -> HttpResponse:
    template = "accounts/profile.html#tokens" if request.htmx else "accounts/profile.html"
    return render(request, template, _profile_context(request, **extra))


@login_required
@require_POST
def api_token_create(request: MemberRequest) -> HttpResponse:
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        return _render_tokens(request, token_form=form)
    issued = services.api_token_create(member=request.user, name=form.cleaned_data["name"])
    # Rendered, not redirected: the key is shown this once and never stored in clear.
    return _render_tokens(request, new_key=issued.key)


@login_required
@require_POST
def api_token_revoke(request: MemberRequest, token_id: int) -> HttpResponse:
    if not services.api_token_revoke(member=request.user, token_id=token_id):
        messages.error(request, _("No such token."))
    return _render_tokens(request) if request.htmx else redirect("accounts:profile")


@login_required
@require_http_methods(["GET", "POST"])
def member_settings(request: MemberRequest) -> HttpResponse:
    member = request.user
    language, chosen = "", False
    if request.method == "POST":
        form = MemberSettingsForm(request.POST)
        if form.is_valid():
            services.member_set_publication_consent(
                member=member, consent=form.cleaned_data["publication_consent"]
            )
            services.member_set_reminders(member=member, reminders=form.cleaned_data["reminders"])
            reports = form.cleaned_data["game_reports"]
            if form.cleaned_data["game_reports_shown"] and reports != member.game_reports:
                services.member_set_game_reports(member=member, on=reports)
            notify_by = form.cleaned_data["notify_by"]
            if notify_by:
                services.member_set_notify_by(member=member, notify_by=NotifyBy(notify_by))
            language = form.cleaned_data["language"]
            # Changed, it is the member's choice; the pages follow it too (the switch's cookie).
            chosen = bool(language) and language != member.language
            if chosen:
                services.member_choose_language(member=member, language=language)
            if not request.htmx:
                messages.success(request, _("Settings saved."))
                return _page_language(redirect("accounts:settings"), language if chosen else "")
    else:
        form = MemberSettingsForm(
            initial={
                "publication_consent": roles.consents_in(member),
                "reminders": member.reminders,
                "game_reports": member.game_reports,
                "notify_by": member.notify_by,
                "language": member.language,
            }
        )
    template = "accounts/settings.html#consent" if request.htmx else "accounts/settings.html"
    context = {
        "form": form,
        "telegram_linked": member.telegram_id is not None,
        "memberships": roles.memberships_of(member),
    }
    response = render(request, template, context)
    return _page_language(response, language if chosen else "")


@login_required
@require_GET
def member_data_download(request: MemberRequest) -> HttpResponse:
    """Everything this club holds about the member, one JSON file (history/exports)."""
    document = member_data(request.user)
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=1),
        content_type="application/json; charset=utf-8",
    )
    club = Club.current().slug
    response["Content-Disposition"] = f'attachment; filename="{club}-my-data.json"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_POST
def member_forget(request: MemberRequest) -> HttpResponse:
    """Forget the account (typed nickname to confirm): refused with its reason on the
    settings page; done, the member is logged out and told so."""
    try:
        member_forget_everywhere(member=request.user, typed=request.POST.get("nickname", ""))
    except Refused as refusal:
        messages.error(request, refusal.message)
        return redirect("accounts:settings")  # the message opens the page, where it is seen
    logout(request)
    messages.success(
        request,
        _("Your account is forgotten. Your games keep your seats and scores as «Player N»."),
    )
    return redirect("home")


def _members_club(request: MemberRequest, club_id: int) -> Club:
    """A club the member belongs to (left or not): another club id is no such page."""
    membership = roles.membership_in(request.user, club_id)
    if membership is None:
        raise Http404
    return membership.club


@login_required
@require_POST
def club_consent(request: MemberRequest, club_id: int) -> HttpResponse:
    """The consent to publication in one of the member's clubs («Your clubs»)."""
    club = _members_club(request, club_id)
    consent = request.POST.get("consent") == "on"
    services.member_set_publication_consent(member=request.user, consent=consent, club=club)
    messages.success(request, _("Settings saved."))
    return redirect("accounts:settings")


@login_required
@require_POST
def club_leave(request: MemberRequest, club_id: int) -> HttpResponse:
    """Leave one of the member's clubs («Your clubs»): its sign-ups and roles are no
    longer theirs; the games they played stay in its history."""
    club = _members_club(request, club_id)
    services.member_leave_club(member=request.user, club=club)
    messages.success(request, _("You left the club «%(club)s».") % {"club": club})
    return redirect("accounts:settings")


def _page_language(response: HttpResponse, language: str) -> HttpResponse:
    """The site's pages in `language` from now on, as the language switch sets them (""
    leaves them as they are)."""
    if not language:
        return response
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response


@require_POST
def language_set(request: SiteRequest) -> HttpResponse:
    """The language switch (the site's footer, the Mini App's settings): Django's own
    set_language for the pages; a logged-in member's switch is also their choice of the
    language the club writes to them in (accounts/languages.py)."""
    response = set_language(request)
    language = supported_language(request.POST.get("language"))
    if request.user.is_authenticated and language is not None:
        services.member_choose_language(member=request.user, language=language)
    return response


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset, throttled per address and per email: the mail is not a flood gun."""

    form_class = OutboxPasswordResetForm
    template_name = "accounts/password_reset_form.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form: OutboxPasswordResetForm) -> HttpResponse:  # type: ignore[override]
        try:
            address = throttle.client_address(self.request)
            throttle.refuse_if_over(throttle.PASSWORD_RESET_PER_ADDRESS, address)
            # Per account, like the login's lock: any spelling the database matches to a
            # member's email (a dotless «ı») counts against the same member.
            email = services.login_lock_key(form.cleaned_data["email"].strip())
            throttle.refuse_if_over(throttle.PASSWORD_RESET_PER_EMAIL, email)
        except Refused as refusal:
            form.add_error(None, refusal.message)
            response = self.form_invalid(form)
            response.status_code = refusal.status
            return response
        response = super().form_valid(form)
        # Sent now, as Django's own reset does, rather than after the queue: the member is
        # waiting for it. The outbox's claim keeps the queued task from sending it again,
        # and a failure leaves the row to its retries.
        for notification_id in form.outbox_ids:
            notification_deliver(notification_id)
        return response


# The profile page's single-use nonce for linking Telegram: a signed payload is linked only
# when posted from the member's own profile page, never from a link someone else sent.
LINK_NONCE = "telegram_link_nonce"


def _telegram_identity(request: SiteRequest) -> TelegramIdentity:
    """The verified identity the widget's popup signed, taken once (a replay is refused)."""
    identity = telegram_login_verify(
        request.POST,
        bot_token=club_bot().token,  # the club's bot signs its widget's login
        now=timezone.now(),
        max_age_seconds=settings.TELEGRAM_LOGIN_MAX_AGE_SECONDS,
    )
    services.telegram_signature_use_once(
        digest=f"login:{identity.signature}",
        expires_at=identity.signed_at + timedelta(seconds=settings.TELEGRAM_LOGIN_MAX_AGE_SECONDS),
    )
    return identity


@sensitive_post_parameters("hash")
@require_POST
@answers_refusals(back=lambda: reverse("accounts:login"))
def telegram_login(request: SiteRequest) -> HttpResponse:
    """The login page's «Log in with Telegram»: logs in the member the Telegram account is
    linked to. It never links anything, whoever is logged in."""
    member = services.member_telegram_login(identity=_telegram_identity(request))
    login(request, member, backend=BACKEND)
    done = _("Logged in with Telegram.")
    return action_answer(request, refusal=None, done=done, back=reverse("accounts:profile"))


@sensitive_post_parameters("hash")
@login_required
@require_POST
@answers_refusals(back=lambda: reverse("accounts:profile"))
def telegram_link(request: MemberRequest) -> HttpResponse:
    """The profile page's «Link Telegram»: bound to this session's single-use nonce."""
    nonce = request.session.pop(LINK_NONCE, "")
    given = request.POST.get("nonce", "")
    if not nonce or not hmac.compare_digest(nonce.encode(), given.encode()):
        raise Refused(
            _("This request to link Telegram has expired. Please try again."), RefusalCode.INVALID
        )
    identity = _telegram_identity(request)
    services.member_telegram_link(
        member=request.user, telegram_id=identity.telegram_id, username=identity.username
    )
    done = _("Telegram is linked to your account.")
    return action_answer(request, refusal=None, done=done, back=reverse("accounts:profile"))


@login_required
@require_POST
def telegram_unlink(request: MemberRequest) -> HttpResponse:
    services.member_telegram_unlink(member=request.user)
    messages.success(request, _("Telegram is unlinked from your account."))
    return redirect("accounts:profile")
