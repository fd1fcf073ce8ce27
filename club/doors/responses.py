"""The one answer of a page's action, refused or done: htmx gets its part again, with the
refusal's message beside the control that caused it and the refusal's status; a plain form
post gets the message and a redirect back (post/redirect/get). Every action of the site's
pages answers through here, so a refusal reads the same wherever it happens."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect

from club.doors.requests import SiteRequest
from club.kernel.errors import Refused


def action_answer(
    request: SiteRequest,
    *,
    refusal: Refused | None,
    done: str | None,
    back: str,
    part: Callable[[str | None, str | None], HttpResponse] | None = None,
) -> HttpResponse:
    """`part(error, done)` renders the htmx part with the refusal's message or what was
    done; `back` is the page (a URL) a plain post returns to."""
    if part is not None and request.htmx:
        response = part(refusal.message if refusal else None, None if refusal else done)
        if refusal is not None:
            response.status_code = refusal.status
        return response
    if refusal is not None:
        messages.error(request, refusal.message)
    elif done:
        messages.success(request, done)
    return redirect(back)
