import hmac
import logging

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseForbidden, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from bot.linking import telegram_link_code_create
from bot.process import process_update
from club.doors.requests import MemberRequest, SiteRequest
from club.kernel import parsing
from club.kernel.bots import club_bot

logger = logging.getLogger(__name__)


@csrf_exempt  # Telegram cannot send a CSRF token; the secret header authenticates it
@require_POST
def telegram_webhook(request: SiteRequest) -> HttpResponse:
    """The club's bot's webhook: /c/<slug>/telegram/webhook/ (the first club's also without
    the prefix) is in that club's scope, and only that club's secret opens it, so one
    club's bot can never deliver an update into another club."""
    secret = club_bot().secret
    given = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
    if not secret or not hmac.compare_digest(given.encode(), secret.encode()):
        return HttpResponseForbidden()
    try:
        # Telegram's update cannot be refused: a text the database cannot store is
        # made storable (a NUL reads as a wrong value, never a database error).
        update = parsing.loads(request.body, replace_unstorable=True)
    except ValueError:
        logger.warning("Telegram webhook: a body that is not JSON (%d bytes)", len(request.body))
        return HttpResponse(status=200)
    try:
        answer = process_update(update)
    except Exception:
        # Not recorded as handled: Telegram delivers it again after an error status, once
        # what failed (the database, a bug fixed in a release) is back.
        logger.exception("Telegram webhook: an update could not be handled")
        return HttpResponse(status=503, headers={"Retry-After": "30"})
    # The answer to a button press rides in the response, so the member sees it at once.
    return JsonResponse(answer) if answer else HttpResponse(status=200)


@login_required
@require_POST
def telegram_connect(request: MemberRequest) -> HttpResponse:
    """«Подключить Telegram»: a single-use deep link into the bot."""
    username = club_bot().username
    if not username:
        messages.error(request, _("The Telegram bot is not set up on this site."))
        return redirect("accounts:profile")
    code = telegram_link_code_create(member=request.user)
    return redirect(f"https://t.me/{username}?start={code}")
