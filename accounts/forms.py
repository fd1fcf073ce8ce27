"""Forms parse and shape input; the rules themselves live in accounts.services."""

import secrets
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.template import loader
from django.utils.translation import gettext_lazy as _

from accounts import roles
from accounts.languages import speaking_to
from accounts.models import NotifyBy, User
from accounts.services import BLOCKED, login_lock_key, refusal_fields
from club.kernel import throttle
from club.kernel.clubs import Club
from club.kernel.errors import Refused
from notifications.mail import club_name
from notifications.services import member_email

DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d.%m.%Y"]


def add_refusal(form: forms.Form, refusal: Refused) -> None:
    """A service's refusal on a form: each refused field's message beside its input (the
    refusal's `fields`), the rest above the form."""
    fields = refusal_fields(refusal) or {"": [refusal.message]}
    for field, problems in fields.items():
        for problem in problems:
            form.add_error(field if field in form.fields else None, problem)


class SignUpForm(forms.Form):
    nickname = forms.CharField(
        label=_("Nickname"),
        max_length=64,
        help_text=_("Your name at the table: 2–32 letters, digits, spaces, - or _."),
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "autofocus": True}),
    )
    email = forms.EmailField(
        label=_("Email"), max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    birth_date = forms.DateField(
        label=_("Birth date"),
        input_formats=DATE_INPUT_FORMATS,
        widget=forms.DateInput(attrs={"type": "date", "autocomplete": "bday"}, format="%Y-%m-%d"),
        help_text=_("The club is 21+."),
    )
    password1 = forms.CharField(
        label=_("Password"),
        max_length=128,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        max_length=128,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        password1, password2 = cleaned.get("password1"), cleaned.get("password2")
        if password1 and password2:
            if password1 != password2:
                self.add_error("password2", _("The two passwords differ."))
            else:
                candidate = User(
                    nickname=cleaned.get("nickname", ""), email=cleaned.get("email", "")
                )
                try:
                    password_validation.validate_password(password1, candidate)
                except forms.ValidationError as error:
                    self.add_error("password1", error)
        return cleaned


class LockedAuthenticationForm(AuthenticationForm):
    """Django's login form behind the club's lock on failed logins (club/kernel/throttle.py), for
    the site's login page and the admin's alike: ten failures lock the account at every one
    of its logins (accounts.services.login_lock_key), thirty lock the address."""

    def clean(self) -> dict[str, Any]:
        login = self.cleaned_data.get("username") or ""
        account = login_lock_key(login)
        address = throttle.client_address(self.request) if self.request else "unknown"
        # A locked account or address waits out its window, even with the right password.
        wait = max(
            throttle.waiting(throttle.LOGIN_PER_ACCOUNT, account),
            throttle.waiting(throttle.LOGIN_PER_ADDRESS, address),
        )
        if wait:
            raise forms.ValidationError(throttle.refusal(wait).message, code="throttled")
        try:
            return super().clean()
        except forms.ValidationError:
            throttle.count(throttle.LOGIN_PER_ACCOUNT, account)
            throttle.count(throttle.LOGIN_PER_ADDRESS, address)
            # The right password of a banned account: say so, as the bot and the API do.
            member = User.objects.by_login(login)
            password = self.cleaned_data.get("password") or ""
            if (
                member is not None
                and not roles.may_log_in(member)
                and member.check_password(password)
            ):
                raise forms.ValidationError(BLOCKED, code="inactive") from None
            raise


class LoginForm(LockedAuthenticationForm):
    username = forms.CharField(
        label=_("Nickname or email"),
        max_length=254,
        widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "username"}),
    )


class AdminLoginForm(LockedAuthenticationForm, AdminAuthenticationForm):
    """The admin's login page: staff only, as Django's, and locked as the site's."""


class MemberSettingsForm(forms.Form):
    publication_consent = forms.BooleanField(
        label=_("Publish my nickname and scores in game analyses and leaderboards"),
        required=False,
    )
    reminders = forms.BooleanField(
        label=_("Remind me of the evenings I signed up for"), required=False
    )
    game_reports = forms.BooleanField(label=_("Send me a report after each game"), required=False)
    # The page had the switch above: a form without it (an older page still open) keeps
    # the member's choice instead of reading its absence as «off».
    game_reports_shown = forms.BooleanField(required=False, widget=forms.HiddenInput)
    # Not required: a form without it (an older page still open) keeps the member's choice.
    language = forms.ChoiceField(
        label=_("Write to me in"),
        choices=settings.LANGUAGES,
        required=False,
    )
    # Not required: a form without it (an older page still open) keeps the member's choice.
    notify_by = forms.ChoiceField(
        label=_("Tell me about my seats and evenings by"),
        choices=NotifyBy.choices,
        required=False,
        widget=forms.RadioSelect,
    )


class OutboxPasswordResetForm(PasswordResetForm):
    """Django's reset form, whose letter goes through the outbox's email channel (the same
    claim, retries and record as every message) in the member's language, with the club's
    name. `outbox_ids` are the rows written, for the view to send at once."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.outbox_ids: list[int] = []

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        member = context["user"]
        with speaking_to(member):
            # The club's name too: «Mafia club» when it has none, in the member's language.
            context = {**context, "club_name": club_name(Club.current())}
            subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
            text = loader.render_to_string(email_template_name, context)
        # One letter per request, as Django sends it (the requests are throttled,
        # accounts/views.py); the key names the request, never the token.
        self.outbox_ids.append(
            member_email(
                member=member,
                dedupe_key=f"password-reset:{member.pk}:{secrets.token_hex(8)}",
                subject=subject,
                text=text,
                secret=True,
            )
        )


class ApiTokenForm(forms.Form):
    name = forms.CharField(label=_("Token name"), max_length=64, required=False)


class MiniAppLinkForm(LockedAuthenticationForm):
    """A member of the site linking the Telegram account the app was opened with: their
    password once, behind the login's lock on failures."""

    username = forms.CharField(
        label=_("Nickname or email"),
        max_length=254,
        widget=forms.TextInput(attrs={"autocomplete": "username"}),
    )


class MiniAppJoinForm(forms.Form):
    """Joining the club from inside Telegram: the Telegram account is the login."""

    nickname = SignUpForm.base_fields["nickname"]
    birth_date = SignUpForm.base_fields["birth_date"]
