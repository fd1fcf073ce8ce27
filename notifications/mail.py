"""An outbox row by email: the letter as the member reads it (`letter`), and what a mail
server's refusal means for it (`failure_of`). Sending is Django's mail API, so the backend
is the settings' MAILERS: the console in `make run`, SMTP in production (docs/deploy.md),
memory in the tests.

The letter is put together when it is sent, in the language the row's text was written in
(the member's, accounts/languages.py), with the club's name from its settings: the row
keeps the message as Telegram would show it.
"""

from __future__ import annotations

import re
import smtplib
from dataclasses import dataclass
from email.utils import parseaddr

from django.conf import settings
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.languages import member_language, speaking
from accounts.models import User
from club.kernel.clubs import Club
from notifications.models import Notification

SUBJECT_LENGTH = 78  # the first sentence of the text, cut to a line a mail client shows


@dataclass(frozen=True)
class MailFailure:
    permanent: bool  # True: sending it again cannot help (an address the server refuses)
    message: str
    # True: the server answered 4xx, "not now" (greylisting, a rate limit): asking again
    # within seconds gets the same answer, so the next try waits minutes, not seconds.
    not_now: bool = False


def club_name(club: Club) -> str:
    return club.name or _("Mafia club")


def sender_address(club: Club) -> str:
    """The club's own sender (Club.email_sender) or the server's DEFAULT_FROM_EMAIL, shown
    with the club's name unless it names itself already."""
    configured = club.email_sender or str(settings.DEFAULT_FROM_EMAIL)
    name, address = parseaddr(configured)
    if name:
        return configured
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
    club = Club.current()
    with speaking(notification.language or member_language(member)):
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


def _reply(code: int, text: bytes | str) -> str:
    """A server's reply as it said it («451 4.7.1 Greylisted, try again later»)."""
    said = text.decode(errors="replace") if isinstance(text, bytes) else text
    return f"{code} {' '.join(said.split())}".strip()


def failure_of(error: Exception) -> MailFailure:
    """What an error of the mail backend means, by the server's reply code (RFC 5321 §4.2.1):
    5xx is the server's refusal for good (a mailbox that does not exist); 4xx is a refusal
    for now (greylisting, a provider's rate limit, a full mailbox), as is a network error or
    a timeout: worth another try. A refused recipient is permanent only when its code is
    5xx. A letter Python could not build is permanent. The message is the server's reply as
    it said it, which the organiser reads among the evening's message results."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        # Each letter has one recipient: the reply to it is the letter's.
        replies = list(error.recipients.values())
        permanent = bool(replies) and all(code >= 500 for code, _text in replies)
        message = "; ".join(_reply(code, text) for code, text in replies) or str(error)
        return MailFailure(permanent=permanent, message=message[:1000], not_now=not permanent)
    if isinstance(error, smtplib.SMTPResponseException):
        message = _reply(error.smtp_code, error.smtp_error)
        permanent = error.smtp_code >= 500
        return MailFailure(permanent=permanent, message=message[:1000], not_now=not permanent)
    message = f"{type(error).__name__}: {error}"[:1000]
    if isinstance(error, smtplib.SMTPException | OSError):
        return MailFailure(permanent=False, message=message)
    return MailFailure(permanent=True, message=message)
