"""The club's setup form (#41, item 8): the page a new club's admin fills in after a
platform admin founded the club — the settings, the bot (its token asked of Telegram's
getMe), the email sender — and then the first evening. Open to whoever may run the club
(accounts/roles.py's "administer"); the work is club/founding.py's."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import roles
from club import founding
from club.kernel.clubs import Club
from club.kernel.errors import Refused
from club.models import Evening


class ClubSetupForm(forms.ModelForm[Club]):
    """What a club needs before its first evening; the rest keeps its defaults (the club's
    admin changes them later in the admin)."""

    class Meta:
        model = Club
        fields = (
            "name",
            "city",
            "venue",
            "timezone",
            "weekday",
            "start_time",
            "seats_per_evening",
            "min_players",
            "min_age",
            "telegram_bot_token",
            "email_sender",
        )
        widgets = {"start_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M")}


@require_http_methods(["GET", "POST"])
def club_setup(request: HttpRequest) -> HttpResponse:
    club = Club.current()
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not roles.can(request.user, "administer", club):
        return render(
            request,
            "403.html",
            {"message": _("Only the club's admins set the club up.")},
            status=403,
        )
    form = ClubSetupForm(instance=Club.objects.get(pk=club.pk))
    if request.method == "POST" and request.POST.get("step") == "evening":
        try:
            evening = founding.first_evening(club, now=timezone.now())
        except Refused as refusal:
            messages.error(request, refusal.message)
        else:
            messages.success(
                request, _("The first evening is made: %(evening)s.") % {"evening": evening}
            )
            return redirect("evening", evening.pk)
    elif request.method == "POST":
        form = ClubSetupForm(request.POST, instance=Club.objects.get(pk=club.pk))
        if form.is_valid():
            try:
                founding.club_settings_save(
                    form.instance, token_changed="telegram_bot_token" in form.changed_data
                )
            except Refused as refusal:
                form.add_error("telegram_bot_token", refusal.message)
            else:
                messages.success(request, _("The club's settings are saved."))
                return redirect("club_setup")
    context: dict[str, Any] = {
        "form": form,
        "evenings_ahead": Evening.objects.filter(starts_at__gt=timezone.now()).exists(),
    }
    return render(request, "club/setup.html", context)
