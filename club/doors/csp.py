"""The Content-Security-Policy's exceptions, each for the pages that need it.

The site-wide policy (settings.SECURE_CSP) allows nothing from elsewhere. Pages that open
Telegram's login popup load its script from telegram.org; the profile page also sends a
form on to t.me (the bot's deep link), which form-action must allow.
"""

from collections.abc import Callable
from typing import Any, cast

from django.conf import settings
from django.views.decorators.csp import csp_override

TELEGRAM_SCRIPT = "https://telegram.org"
TELEGRAM_LOGIN = "https://oauth.telegram.org"
TELEGRAM_LINKS = "https://t.me"


def _with(**extra: list[str]) -> dict[str, list[str]]:
    base = cast(dict[str, list[str]], settings.SECURE_CSP)  # our settings' own shape
    policy = {directive: [str(source) for source in sources] for directive, sources in base.items()}
    for directive, sources in extra.items():
        directive = directive.replace("_", "-")
        policy[directive] = [
            *[s for s in policy.get(directive, []) if s != "'none'"],
            *sources,
        ]
    return policy


def mini_app_policy(config: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """The policy of any page the club's app shows: the page's own (the site's when none),
    with Telegram's Mini App script from telegram.org allowed."""
    base = config if config is not None else _with()
    policy = {directive: list(sources) for directive, sources in base.items()}
    scripts = policy.setdefault("script-src", [])
    if TELEGRAM_SCRIPT not in scripts:
        scripts.append(TELEGRAM_SCRIPT)
    return policy


def telegram_mini_app(view: Callable[..., Any]) -> Callable[..., Any]:
    """For the app's own pages (its start, sign-in and joining), before its session is."""
    return csp_override(mini_app_policy())(view)


def telegram_login(view: Callable[..., Any]) -> Callable[..., Any]:
    """For a page with «Log in with Telegram» / «Link Telegram» (and the bot's deep link)."""
    return csp_override(
        _with(
            script_src=[TELEGRAM_SCRIPT],
            frame_src=[TELEGRAM_LOGIN],
            form_action=[TELEGRAM_LINKS],
        )
    )(view)
