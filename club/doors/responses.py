"""The one answer of a page to a refusal, and of a page's action, refused or done.

`answers_refusals` is the pages' handler, as `club.doors.api.on_error` is the API's: a `Refused`
that leaves a view becomes a page with the refusal's message and ITS status (403, 404,
409, 428, ...), or, for a plain form post that names where it came from, the message and a
redirect back. `action_answer` is an action's answer: htmx gets its part again, with the
refusal's message beside the control that caused it and the refusal's status; a plain form
post gets the message and a redirect back (post/redirect/get). A form that shows the
message in place (the sign-up, a new game) catches the refusal itself and answers with the
refusal's status too."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, cast

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render

from club.doors.requests import SiteRequest
from club.kernel.errors import Refused

# The error page of a status; any other status reads as a request the club refuses.
PAGES = {403: "403.html", 404: "404.html"}


def refusal_page(request: SiteRequest, refusal: Refused) -> HttpResponse:
    """The page that says a refusal's message, with its status."""
    template = PAGES.get(refusal.status, "400.html")
    return render(request, template, {"message": refusal.message}, status=refusal.status)


def answers_refusals[**P, R: HttpResponseBase](
    back: Callable[..., str] | None = None,
) -> Callable[[Callable[P, R]], Callable[P, R | HttpResponse]]:
    """A page view's one handler of refusals. `back(**view_kwargs)`: where a refused plain
    form post returns to, with the message (an htmx post too, as `action_answer` does);
    without it, or for a GET, the refusal is a page with its own status."""

    def decorate(view: Callable[P, R]) -> Callable[P, R | HttpResponse]:
        @wraps(view)
        def answered(*args: P.args, **kwargs: P.kwargs) -> R | HttpResponse:
            try:
                return view(*args, **kwargs)
            except Refused as refusal:
                request = args[0]  # a view's first argument: the site's request
                assert isinstance(request, HttpRequest)
                return _answer(cast(SiteRequest, request), refusal, back, kwargs)

        return answered

    return decorate


def _answer(
    request: SiteRequest, refusal: Refused, back: Callable[..., str] | None, kwargs: Any
) -> HttpResponse:
    if back is not None and request.method == "POST":
        return action_answer(request, refusal=refusal, done=None, back=back(**kwargs))
    return refusal_page(request, refusal)


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
