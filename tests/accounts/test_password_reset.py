"""Password reset as a member reads it."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import make_member

pytestmark = pytest.mark.django_db


def test_the_password_reset_mail_reads_as_plain_text_in_the_console() -> None:
    import io

    from django.core import mail

    from club.kernel.mail import ReadableConsoleBackend

    make_member(nickname="Ворон", email="raven@example.com")
    Client().post("/accounts/password/reset/", {"email": "raven@example.com"})
    (letter,) = mail.outbox
    printed = io.StringIO()
    ReadableConsoleBackend(stream=printed).send_messages([letter])
    assert "/accounts/password/reset/" in printed.getvalue() and "Ворон" in printed.getvalue()
