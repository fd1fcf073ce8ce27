"""An outbox row by email: the letter as the member reads it (`letter`), and what a mail
server's refusal means for it (`failure_of`). Sending is Django's mail API, so the backend
is the settings' MAILERS: the console in `make run`, SMTP in production (docs/deploy.md),
memory in the tests.

The letter is put together when it is sent, in the club's language, with the club's name
from its settings: the row keeps the message as Telegram would show it.
"""

from __future__ import annotations

import re
import smtplib
from dataclasses import dataclass
from email.utils import parseaddr

from django.conf import settings
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import User
from club.kernel.club_settings import ClubSettings
from notifications.models import Notification

SUBJECT_LENGTH = 78  # the first sentence of the text, cut to a line a mail client shows


@dataclass(frozen=True)
class MailFailure:
    permanent: bool  # True: sending it again cannot help (an address the server refuses)
    message: str


def club_name(club: ClubSettings) -> str:
    return club.name or _("Mafia club")


def sender_address(club: ClubSettings) -> str:
    """DEFAULT_FROM_EMAIL, shown with the club's name unless it names itself already."""
    name, address = parseaddr(settings.DEFAULT_FROM_EMAIL)
    if name:
        return str(settings.DEFAULT_FROM_EMAIL)
    # Quoted as RFC 5322 wants; Django encodes a non-ASCII name when it sends the letter.
    quoted = club_name(club).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{quoted}" <{address}>'


_SENTENCE_END = re.compile(r"[.!?…](?=\s|$)")


def first_sentence(text: str) -> str:
    line = text.strip().split("\n", 1)[0]
    end = _SENTENCE_END.search(line)
    if end is not None:
        line = line[: end.end()]
    if len(line) <= SUBJECT_LENGTH:
        return line
    return line[: SUBJECT_LENGTH - 1].rsplit(" ", 1)[0] + "…"


def _links(buttons: list[list[dict[str, str]]]) -> list[str]:
    """The buttons a letter can carry: those that open a page (a Telegram callback cannot
    be pressed in a letter; the site's page the row links to does the same)."""
    return [
        f"{button['text']}: {button.get('url') or button['web_app']}"
        for row in buttons
        for button in row
        if button.get("url") or button.get("web_app")
    ]


def letter(notification: Notification, member: User) -> EmailMessage:
    """The row as a letter to the member: a greeting, the text, its links, and where the
    member chooses how the club tells them."""
    club = ClubSettings.load()
    with translation.override(notification.language or settings.LANGUAGE_CODE):
        name = club_name(club)
        subject = notification.subject or first_sentence(notification.text)
        parts = [
            _("Hello, %(nickname)s!") % {"nickname": member.nickname},
            notification.text.strip(),
            *(["\n".join(links)] if (links := _links(notification.buttons)) else []),
            "—\n"
            + _("%(club)s. How the club tells you of your evenings: %(url)s")
            % {"club": name, "url": settings.SITE_URL + reverse("accounts:settings")},
        ]
        return EmailMessage(
            subject=f"{name}: {subject}",
            body="\n\n".join(parts) + "\n",
            from_email=sender_address(club),
            to=[member.email],
        )


def failure_of(error: Exception) -> MailFailure:
    """What an error of the mail backend means: a refusal the server gives for good (5xx,
    every recipient refused) or a letter Python could not build is permanent; a network
    error, a timeout or a 4xx (the server busy, greylisting) is worth another try."""
    message = f"{type(error).__name__}: {error}"[:1000]
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return MailFailure(permanent=True, message=message)
    if isinstance(error, smtplib.SMTPResponseException):
        return MailFailure(permanent=error.smtp_code >= 500, message=message)
    if isinstance(error, smtplib.SMTPException | OSError):
        return MailFailure(permanent=False, message=message)
    return MailFailure(permanent=True, message=message)
